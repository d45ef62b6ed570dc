package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// These tests run C programs through engine/frontend; they are skipped
// when the front end cannot translate them (it is developed separately).
func translate(t *testing.T, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Skipf("front end: %v", err)
	}
	return p
}

const cHeader = `extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error() { abort(); }
`

func repeat(v uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// errorTrace runs p with every input equal to v for v in candidates and
// returns the first trace reaching an error.
func errorTrace(t *testing.T, p *cfa.Program, candidates []uint64) *interp.Trace {
	t.Helper()
	for _, v := range candidates {
		tr, err := interp.Run(context.Background(), p, "main", repeat(v, 64), interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Stop == interp.ReachedError {
			return tr
		}
		if tr.Stop != interp.ReachedExit && tr.Stop != interp.ReachedTerminal {
			t.Fatalf("input %d: %v (%s) at %s", v, tr.Stop, tr.Reason, tr.Pos)
		}
	}
	t.Fatalf("no input among %v reaches the error", candidates)
	return nil
}

// flipLast returns the path up to the last Assume step, with that step
// replaced by its complementary edge.
func flipLast(path []cfa.Step) []cfa.Step {
	for i := len(path) - 1; i >= 0; i-- {
		s := path[i]
		if s.Kind != cfa.Intra {
			continue
		}
		if _, ok := s.Edge.Op.(*cfa.Assume); ok {
			for _, o := range s.Edge.From.Out {
				if o != s.Edge {
					out := append([]cfa.Step(nil), path[:i]...)
					return append(out, cfa.Step{Edge: o, Kind: cfa.Intra})
				}
			}
		}
	}
	return nil
}

func TestFrontendPrograms(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		candidates []uint64
		flip       smt.Result // status of the error path with its last assume flipped
	}{
		{"globals recursion pointer struct", cHeader + `
int g = 3;
int a[5];
struct s { int x; char c; };
int f(int n) { if (n <= 0) return g; return f(n-1) + 1; }
int main() {
  int x = __VERIFIER_nondet_int();
  unsigned char u = x;
  int *p = &a[2];
  struct s st = {1, 2};
  *p = f(u % 4);
  if (a[2] == 5 && st.c == 2) { reach_error(); }
  return 0;
}`, []uint64{0, 1, 2, 3, 4}, smt.Unsat},
		{"array loops", cHeader + `
int main() {
  int a[10]; int i, s = 0;
  int k = __VERIFIER_nondet_int();
  for (i = 0; i < 10; i++) a[i] = i * k;
  for (i = 0; i < 10; i++) s += a[i];
  if (s == 135) reach_error();
  return 0;
}`, []uint64{0, 1, 2, 3, 4}, smt.Sat},
		{"linked list", cHeader + `
struct node { int v; struct node *next; };
int main() {
  struct node *h = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 6) return 0;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    p->v = i; p->next = h; h = p;
  }
  int s = 0;
  while (h) { s += h->v; struct node *t = h->next; free(h); h = t; }
  if (s == 6) reach_error();
  return 0;
}`, []uint64{0, 1, 2, 3, 4, 5, 6}, smt.Unsat},
		{"unsigned char wrap", cHeader + `
int main() {
  unsigned char x = __VERIFIER_nondet_int();
  unsigned char y = x + 1;
  if (y == 0) reach_error();
  return 0;
}`, []uint64{0, 1, 255}, smt.Sat},
		{"signed division", cHeader + `
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 0 && x / 2 == -3 && x % 2 == -1) reach_error();
  return 0;
}`, []uint64{5, uint64(0xfffffffa), uint64(0xfffffff9)}, smt.Sat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := translate(t, tc.src)
			tr := errorTrace(t, p, tc.candidates)
			b := smt.NewBuilder()
			r, err := smt.CheckPath(context.Background(), b, z3.Factory, p, tr.Steps)
			if err != nil || r.Status != smt.Sat {
				t.Fatalf("CheckPath(error path) = %v %v (%s)", r.Status, err, r.Reason)
			}
			ok, err := interp.Replay(context.Background(), p, tr.Steps, r.Values())
			if !ok || err != nil {
				t.Fatalf("Replay = %v, %v", ok, err)
			}
			if len(r.Inputs) != tr.InputsUsed {
				t.Errorf("encoder %d inputs, interpreter used %d", len(r.Inputs), tr.InputsUsed)
			}
			tr2, err := interp.Run(context.Background(), p, "main", r.Values(), interp.Options{})
			if err != nil || tr2.Stop != interp.ReachedError {
				t.Errorf("Run with the model's inputs: %v (%s), %v", tr2.Stop, tr2.Reason, err)
			}
			flipped := flipLast(tr.Steps)
			r, err = smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, p, flipped)
			if err != nil || r.Status != tc.flip {
				t.Fatalf("CheckPath(flipped) = %v %v (%s), want %v", r.Status, err, r.Reason, tc.flip)
			}
			if r.Status == smt.Sat {
				if ok, err := interp.Replay(context.Background(), p, flipped, r.Values()); !ok || err != nil {
					t.Errorf("Replay(flipped) = %v, %v", ok, err)
				}
			}
		})
	}
}

// TestUnobservedInputs: the indeterminate value of an address-taken local
// (a Decl input) is unobserved when it is overwritten, directly or
// through a pointer, before any read; a read through a pointer, a
// partial overwrite or a block copy observes it.
func TestUnobservedInputs(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string // sources of the unobserved inputs
	}{
		{"initialised", `int x = 1; int *q = &x; *q = 5; if (x != 1) reach_error();`, []string{"decl x"}},
		{"through pointer", `int x; int *q = &x; *q = 5; if (x == 5) reach_error();`, []string{"decl x"}},
		{"read through pointer", `int x; int *q = &x; if (*q == 0) reach_error();`, nil},
		{"read then written", `int x; int *q = &x; int y = x; *q = y; if (x == 0) reach_error();`, nil},
		{"partial overwrite", `int x; unsigned char *q = (unsigned char *)&x; *q = 1; if (x == 1) reach_error();`, nil},
		{"block copy", `struct s { int a; } u, w; int x; int *q = &x; u.a = 0; w = u; if (w.a == 0 && q) reach_error();`, []string{"decl x"}},
		{"register", `int x = 1; if (x == 1) reach_error();`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := translate(t, cHeader+"int main() { "+tc.body+" return 0; }")
			tr := errorTrace(t, p, []uint64{0})
			path := tr.Steps
			b := smt.NewBuilder()
			r, err := smt.CheckPath(context.Background(), b, z3.Factory, p, path)
			if err != nil || r.Status != smt.Sat {
				t.Fatalf("CheckPath = %v %v (%s)", r.Status, err, r.Reason)
			}
			un, err := interp.UnobservedInputs(context.Background(), p, path, r.Values())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, in := range r.Inputs {
				if un[i] {
					got = append(got, in.Source)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("unobserved %q, want %q (inputs %v)", got, tc.want, r.Inputs)
			}
			if _, err := interp.UnobservedInputs(context.Background(), p, path, append(r.Values(), 1)); err == nil {
				t.Error("no error with one input too many")
			}
		})
	}
}
