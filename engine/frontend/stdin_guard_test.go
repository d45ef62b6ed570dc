package frontend

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// TestStdinGuards: a byte read after scanf is an unsupported construct
// only in a program whose scanf calls are modelled; in one without, the
// guard is an infeasible branch (constant 0) and no Unsupported edge is
// left, so that analyses that do not track the state of standard input
// still decide getchar's programs.
func TestStdinGuards(t *testing.T) {
	for _, tc := range []struct {
		name, src   string
		unsupported int // Unsupported edges of the guard
		reads       int // byte reads
	}{
		{"getchar", "extern int getchar(void);\nint main(void) { int c = getchar(); int d = getchar(); return c + d; }\n", 0, 2},
		{"scanf then getchar", "extern int getchar(void);\nextern int scanf(const char *, ...);\nint main(void) { int x; scanf(\"%d\", &x); return getchar() + x; }\n", 1, 1},
		// a format the model does not take: scanf stays an unmodelled
		// call, and the guard goes
		{"unmodelled scanf", "extern int getchar(void);\nextern int scanf(const char *, ...);\nint main(void) { char s[8]; scanf(\"%7s\", s); return getchar(); }\n", 0, 1},
	} {
		p, err := TranslateSources(Options{}, []Source{{Name: tc.name + ".c", Content: tc.src}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := p.Check(); err != nil {
			t.Fatalf("%s: CFA sanity: %v", tc.name, err)
		}
		n, zero := 0, 0
		for _, e := range p.Edges {
			if u, ok := e.Op.(*cfa.Unsupported); ok && strings.HasPrefix(u.Construct, "a read of standard input after scanf") {
				n++
			}
			if a, ok := e.Op.(*cfa.Assume); ok {
				if c, ok := a.Cond.(*cfa.Const); ok && c.V == 0 {
					zero++
				}
			}
		}
		if n != tc.unsupported {
			t.Errorf("%s: %d guards left, want %d\n%s", tc.name, n, tc.unsupported, p.Text())
		}
		if want := 2 * tc.reads; tc.unsupported == 0 && zero != want {
			t.Errorf("%s: %d constant branch edges, want %d (two per read)", tc.name, zero, want)
		}
	}
}
