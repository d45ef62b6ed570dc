package ctxsolver_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/ctxsolver"
	"github.com/reverify/reverify/engine/smt/z3"
)

// countingSolver counts Close calls.
type countingSolver struct {
	smt.Solver
	closed *int
}

func (s countingSolver) Close() { *s.closed++; s.Solver.Close() }

// TestSolver: one solver per run, checks in levels of their own,
// closed when the run's context ends and opened anew by the next use.
func TestSolver(t *testing.T) {
	b := smt.NewBuilder()
	var mu sync.Mutex
	opened, closed := 0, 0
	cs := &ctxsolver.Solver{Mu: &mu, B: b, Factory: func(b *smt.Builder) smt.Solver {
		opened++
		return countingSolver{z3.Factory(b), &closed}
	}}
	x := b.Var("x", smt.BVSort(8))
	check := func(ts []*smt.Term, extra *smt.Term) smt.Result {
		mu.Lock()
		defer mu.Unlock()
		r, err := cs.Check(ts, extra)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	ctx, cancel := context.WithCancel(context.Background())
	cs.UseContext(ctx)
	if r := check([]*smt.Term{b.Eq(x, b.BV(1, 8))}, b.Eq(x, b.BV(2, 8))); r != smt.Unsat {
		t.Errorf("x = 1 ∧ x = 2: %v, want unsat", r)
	}
	if r := check([]*smt.Term{b.Eq(x, b.BV(2, 8))}, nil); r != smt.Sat { // the level of x = 1 was popped
		t.Errorf("x = 2 after a popped x = 1: %v, want sat", r)
	}
	cancel()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		mu.Lock()
		c := closed
		mu.Unlock()
		if c > 0 {
			break
		}
	}
	cs.UseContext(context.Background())
	if r := check([]*smt.Term{b.Eq(x, b.BV(3, 8))}, nil); r != smt.Sat {
		t.Errorf("after the run: %v, want sat", r)
	}
	if opened != 2 || closed != 1 {
		t.Errorf("opened %d, closed %d solvers; want 2 and 1 (one per run, closed at its context's end)", opened, closed)
	}
}
