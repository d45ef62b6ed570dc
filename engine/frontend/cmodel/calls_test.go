package cmodel

import (
	"strings"
	"testing"
)

// TestCalls: a declaration of atexit is no call; a call in any
// expression context is.
func TestCalls(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"extern int atexit (void (*__func) (void)) __attribute__ ((__nothrow__));", false},
		{"int atexit(void (*)(void));\nint main(void) { return 0; }", false},
		{"void h(void); int main(void) { atexit(h); return 0; }", true},
		{"int main(void) { (void)atexit(h); }", true},
		{"int main(void) { if (atexit(h)) return 1; }", true},
		{"int f(void) { return atexit(h); }", true},
		{"int main(void) { int r = atexit(h); }", true},
		{"int main(int c) { if (c) return 0; else atexit(h); }", true},
		{"int main(void) { do atexit(h); while (0); }", true},
		{"/* atexit(h) */ int x;", false},
	} {
		if got := Calls(tc.src, map[string]bool{"atexit": true}); got != tc.want {
			t.Errorf("Calls(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestNeeded: a call needs its model's unit, a definition of one of the
// unit's functions keeps it out, and a call in a condition followed by
// a block is no definition.
func TestNeeded(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"int main(void) { return atoi(\"4\"); }", []string{"<strto>"}},
		{"int f(const char *s) { if (atoi(s)) { return 1; } return 0; }", []string{"<strto>"}},
		{"int f(const char *s) { while (s && strtol(s, 0, 10)) { s++; } return 0; }", []string{"<strto>"}},
		{"int atoi(const char *s) { return *s - '0'; }\nint main(void) { return atoi(\"4\"); }", nil},
		{"static long\nstrtol (const char *p, char **e, int b)\n{ return 0; }\nint main(void) { return atoi(\"4\"); }", nil},
		{"int main(void) { char b[4]; int x; return sscanf(b, \"%d\", &x); }", []string{"<strto>"}},
		{"#include <locale.h>\nint main(void) { setlocale(LC_ALL, \"\"); return atoi(\"4\"); }", nil},
		{"void h(void); int main(void) { if (atexit(h)) { return 1; } return 0; }", []string{"<atexit>"}},
		{"int atexit(void (*f)(void)) { return 0; }\nvoid h(void); int main(void) { return atexit(h); }", nil},
		{"extern int atoi(const char *);\nint main(void) { return 0; }", nil},
	} {
		var got []string
		for _, u := range Needed([]string{tc.src}) {
			got = append(got, u.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("Needed(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// TestIsUnit: the models' unit names are units; cc's own "<builtin>"
// and "<predefined>", and a program's file, are not.
func TestIsUnit(t *testing.T) {
	for name, want := range map[string]bool{AtexitName: true, Strto.Name: true, "<builtin>": false, "<predefined>": false, "main.c": false} {
		if got := IsUnit(name); got != want {
			t.Errorf("IsUnit(%q) = %v, want %v", name, got, want)
		}
	}
}
