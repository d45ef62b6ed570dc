package ctext

import (
	"strings"
	"testing"
)

// TestMask: masking blanks comments, literals and preprocessor lines
// (with continuations) and keeps every offset.
func TestMask(t *testing.T) {
	src := "#define F(x) (x\\\n  + 1)\nint a = '(' ; /* ( */ char *s = \"a;b\\\"(\"; // if (\nint b;\n"
	got := string(Mask([]byte(src)))
	if len(got) != len(src) || strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatalf("masking changed the layout: %q", got)
	}
	for _, bad := range []string{"(", "\"", "'", "/*", "//", "#", "if"} {
		if strings.Contains(got, bad) {
			t.Errorf("masked code still contains %q: %q", bad, got)
		}
	}
	if !strings.Contains(got, "int a =") || !strings.Contains(got, "char *s =") || !strings.Contains(got, "int b;") {
		t.Errorf("masked too much: %q", got)
	}
}

// TestNormalize: comments go, white space stays only between two words
// (numbers count as words), literals are kept whole, and a renamed
// identifier becomes NUL.
func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, rename, want string }{
		{"int  x = a /* c */ +\n b; // end", "", "int x=a+b;"},
		{"return 1 u;", "", "return 1 u;"},
		{"s = \"a  b\";", "", "s=\"a  b\";"},
		{"f(x) + fx", "x", "f(\x00)+fx"},
	} {
		if got := Normalize(c.in, c.rename); got != c.want {
			t.Errorf("Normalize(%q, %q) = %q, want %q", c.in, c.rename, got, c.want)
		}
	}
}
