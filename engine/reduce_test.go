package engine_test

import (
	"context"
	"github.com/reverify/reverify/results"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// liftSrc has a FALSE behind a loop outside the slice (lifted with the
// loop taken zero times, which the input allows), a FALSE behind a loop
// of fixed count outside the slice (zero iterations are infeasible), and
// a FALSE that needs n > 5 and so six iterations of a loop outside the
// slice.
const liftSrc = `
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  if (x == 42) reach_error();
  int k = 0;
  while (k < 3) k++;
  if (x == 43) reach_error();
  int y = 0;
  if (n > 5) y = x;
  if (y == 7) reach_error();
  return s;
}
`

// TestReduceLiftFalse checks that a FALSE found on the reduced program
// is lifted to a path of the original program (every step's edge is an
// edge of the original program) when the lifted path is feasible, and
// decided on the original program otherwise, under every level.
func TestReduceLiftFalse(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "lift.c", Content: liftSrc}})
	if err != nil {
		t.Fatal(err)
	}
	orig := map[*cfa.Edge]bool{}
	for _, e := range prog.Edges {
		orig[e] = true
	}
	for _, level := range []string{"slice", "full", "thin", "value"} {
		t.Run(level, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			props := spec.Properties(prog, "main")
			spec.SortByPos(props)
			res, err := engine.Verify(ctx, prog, props, engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Entry: "main", Timeout: time.Minute, Solver: z3.Factory, Reduce: level, MultiProperty: "off"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 3 {
				t.Fatalf("%d results", len(res))
			}
			for i, r := range res {
				if r.Verdict != results.False || len(r.Counterexample) == 0 {
					t.Fatalf("%s: %s (%s), want FALSE with a counterexample", r.Property.ID, r.Verdict, r.Reason)
				}
				for _, s := range r.Counterexample {
					if s.Edge != nil && !orig[s.Edge] {
						t.Fatalf("%s: counterexample step %s is not an edge of the original program", r.Property.ID, s.Edge)
					}
				}
				lifted := strings.Contains(r.Reason, "lifted to the original program")
				// The backward slice removes the loops that zero iterations
				// cannot replace (k < 3; i < n with n > 5): those run again.
				// The refinement of thin and value slices puts them back.
				wantLifted := i == 0 || level == "thin" || level == "value"
				if lifted != wantLifted {
					t.Errorf("%s: lifted %v, want %v (%s)", r.Property.ID, lifted, wantLifted, r.Reason)
				}
			}
		})
	}
}
