package symbolic

import (
	"context"
	"errors"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
)

// TestDependenciesDeadline: the liveness walk of Refine over a path of
// thousands of steps stops at the deadline. On a contract check of
// mlkem-native (a path of 9,317 steps over thousands of live variables)
// it ran three minutes past the property's time limit.
func TestDependenciesDeadline(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: `
int a[64];
int main() { int s = 0; int *p = &s; for (int i = 0; i < 64; i++) { a[i] = i; *p += a[i]; } return s; }`}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(prog, Options{Solver: z3.Factory})
	if err != nil {
		t.Fatal(err)
	}
	main := prog.Func("main")
	// Every edge of main, repeated: the walk does not need a feasible path.
	var path []cfa.Step
	for len(path) < 1024 {
		for _, l := range main.Locs {
			for _, e := range l.Out {
				if _, call := e.Op.(*cfa.Call); !call {
					path = append(path, cfa.Step{Edge: e})
				}
			}
		}
	}
	// The property: the loop's condition at the end of the path.
	var cond *cfa.Edge
	for _, st := range path {
		if _, ok := st.Edge.Op.(*cfa.Assume); ok {
			cond = st.Edge
		}
	}
	path = append(path, cfa.Step{Edge: cond})
	relevant := map[*cfa.Edge]bool{cond: true}
	entries, _, err := c.dependencies(context.Background(), path, relevant, c.loopWrites())
	if err != nil || len(entries) == 0 {
		t.Fatalf("without a deadline: %d entries, %v; want entries", len(entries), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := c.dependencies(ctx, path, relevant, c.loopWrites()); !errors.Is(err, context.Canceled) {
		t.Errorf("past the deadline: %v, want context.Canceled", err)
	}
}
