package smt_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
)

// boundSolver records how CheckBounded bounded its check.
type boundSolver struct {
	smt.Solver
	work     uint64
	deadline time.Duration
}

func (s *boundSolver) Check(ctx context.Context) (smt.Result, error) {
	d, _ := ctx.Deadline()
	s.deadline = time.Until(d)
	return smt.Sat, nil
}

type workSolver struct{ boundSolver }

func (s *workSolver) CheckWork(ctx context.Context, work uint64) (smt.Result, error) {
	s.work = work
	return s.Check(ctx)
}

// TestCheckBounded: a WorkLimiter gets the work bound and the wall time
// as a backstop deadline; another solver gets the wall time alone.
func TestCheckBounded(t *testing.T) {
	w := &workSolver{}
	if r, _ := smt.CheckBounded(context.Background(), w, 1234, time.Hour); r != smt.Sat || w.work != 1234 || w.deadline <= 59*time.Minute {
		t.Errorf("work limiter: result %v, work %d, deadline in %v; want sat, 1234, about an hour", r, w.work, w.deadline)
	}
	p := &boundSolver{}
	if r, _ := smt.CheckBounded(context.Background(), p, 1234, time.Second); r != smt.Sat || p.deadline <= 0 || p.deadline > time.Second {
		t.Errorf("plain solver: result %v, deadline in %v; want sat within a second", r, p.deadline)
	}
}
