package frontend

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

func defsOf(t *testing.T, src string) map[string]cfa.Definition {
	t.Helper()
	p, err := TranslateSources(Options{}, []Source{{Name: "d.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	m := map[string]cfa.Definition{}
	for _, d := range p.Defs {
		m[d.Kind.String()+" "+d.Name] = d
	}
	return m
}

// TestFingerprints checks that fingerprints ignore whitespace and
// comments, follow macro changes into the definitions that expand them,
// and leave the others alone.
func TestFingerprints(t *testing.T) {
	base := `#define N 10
#define ADD(a, b) ((a) + (b))
struct pair { int a, b; };
typedef struct pair pair_t;
enum e { A, B };
int g = N;
int f(int x) { return ADD(x, N); }
int h(int y) { return y * 2; }
`
	spaced := `#define N   10   /* ten */
#define ADD(a, b)   ((a) + (b))
struct pair {
  int a,   b;   // fields
};
typedef struct pair   pair_t;
enum e { A,
  B };
int g =   N;
int f(int x)
{
  /* comment */
  return ADD(x,N);
}
int h(int y) { return y*2; }
`
	changed := `#define N 11
#define ADD(a, b) ((a) + (b))
struct pair { int a, b; };
typedef struct pair pair_t;
enum e { A, B };
int g = N;
int f(int x) { return ADD(x, N); }
int h(int y) { return y * 2; }
`
	d0, d1, d2 := defsOf(t, base), defsOf(t, spaced), defsOf(t, changed)
	want := []string{"macro N", "macro ADD", "type struct pair", "type pair_t", "type enum e", "global g", "function f", "function h"}
	for _, k := range want {
		if _, ok := d0[k]; !ok {
			t.Errorf("missing definition %q in %v", k, d0)
		}
		if d0[k].Fingerprint != d1[k].Fingerprint {
			t.Errorf("%s: whitespace or comments changed the fingerprint", k)
		}
	}
	for k, same := range map[string]bool{"macro N": false, "global g": false, "function f": false, "function h": true, "macro ADD": true, "type struct pair": true} {
		if (d0[k].Fingerprint == d2[k].Fingerprint) != same {
			t.Errorf("%s: fingerprint equal after changing N = %v, want %v", k, !same, same)
		}
	}
	if f := d1["function f"]; f.Line != 10 || f.EndLine != 14 || f.File != "d.c" {
		t.Errorf("function f at %s:%d-%d, want d.c:10-14", f.File, f.Line, f.EndLine)
	}
}

// TestErrors checks that unparsable input and link errors are reported as
// compiler-style lists, mapped through line markers.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		srcs []Source
		want string
	}{
		{[]Source{{Name: "m.i", Content: "# 20 \"orig.c\"\nint f(void) {\n  return 1\n}\n"}},
			"orig.c:22:1: unexpected '}', expected ';'"},
		{[]Source{{Name: "a.c", Content: "int f(void) { return 1; }\n"}, {Name: "b.c", Content: "int f(void) { return 2; }\n"}},
			"b.c:1:5: multiple definition of f"},
		{[]Source{{Name: "a.c", Content: "int x = 1;\n"}, {Name: "b.c", Content: "int x = 2;\nint main(void) { return x; }\n"}},
			"b.c:1:5: multiple definition of x"},
	} {
		_, err := TranslateSources(Options{}, tc.srcs)
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestConcurrent translates in parallel (run with -race).
func TestConcurrent(t *testing.T) {
	srcs := []Source{{Name: "c.c", Content: benchProgram(5)}}
	done := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func(i int) {
			cfg := Options{}
			if i%2 == 1 {
				cfg.DataModel = cfa.ILP32
			}
			p, err := TranslateSources(cfg, srcs)
			if err == nil {
				err = p.Check()
			}
			done <- err
		}(i)
	}
	for i := 0; i < 4; i++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
