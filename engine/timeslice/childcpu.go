package timeslice

import (
	"context"
	"time"
)

// OnCPUClock reports whether ctx's budget is CPU time (WithRemaining),
// whose rate a step that runs outside the portfolio's turns (a solver
// process) does not spend as wall time while other analyses share its
// core.
func OnCPUClock(ctx context.Context) bool {
	_, ok := ctx.Value(remainingKey{}).(func() time.Duration)
	return ok
}

type childCPUKey struct{}

type childCPU struct {
	d      time.Duration
	cancel context.CancelFunc
}

// WithChildCPU returns a context that ends when a child process started
// under it has executed d of CPU time (the starter calls ChildCPU and
// watches the process), when wall time reaches backstop (for a step that
// runs in this process), or when ctx ends: the budget of a step that
// cannot pause at a checkpoint and runs in a process of its own (Z3's
// Spacer over Horn clauses, package solverproc), which a wall-clock
// timeout of d would end after a fraction of d whenever the arms of a
// portfolio share its core.
func WithChildCPU(ctx context.Context, d, backstop time.Duration) (context.Context, context.CancelFunc) {
	wctx, wcancel := context.WithTimeout(ctx, backstop)
	cctx, cancel := context.WithCancel(wctx)
	c := &childCPU{d: d, cancel: cancel}
	return context.WithValue(cctx, childCPUKey{}, c), func() { cancel(); wcancel() }
}

// ChildCPU returns the CPU time a child process started under ctx may
// execute (WithChildCPU) and the function that ends ctx when it has;
// false without such a budget.
func ChildCPU(ctx context.Context) (time.Duration, context.CancelFunc, bool) {
	c, ok := ctx.Value(childCPUKey{}).(*childCPU)
	if !ok {
		return 0, nil, false
	}
	return c.d, c.cancel, true
}
