package cmodel

import "testing"

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
