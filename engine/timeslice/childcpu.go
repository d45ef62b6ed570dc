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
	d        time.Duration
	cancel   context.CancelFunc
	backstop *time.Timer
}

// WithChildCPU returns a context that ends when a child process started
// under it has executed d of CPU time (the starter calls ChildCPU and
// watches the process), when wall time reaches backstop before a
// starter has taken over (for a step that runs in this process), or
// when ctx ends: the budget of a step that cannot pause at a checkpoint
// and runs in a process of its own (Z3's Spacer over Horn clauses,
// package solverproc), which a wall-clock timeout of d would end after a
// fraction of d whenever the arms of a portfolio share its core.
func WithChildCPU(ctx context.Context, d, backstop time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancel(ctx)
	c := &childCPU{d: d, cancel: cancel, backstop: time.AfterFunc(backstop, cancel)}
	return context.WithValue(cctx, childCPUKey{}, c), func() { c.backstop.Stop(); cancel() }
}

// ChildCPU returns the CPU time a child process started under ctx may
// execute (WithChildCPU) and the function that ends ctx when it has;
// false without such a budget. The caller watches the child's CPU time
// from then on, and the wall-clock backstop no longer applies: a child
// that the scheduler stops while its analysis is paused (Holds) spends
// no CPU time and may wait longer than the backstop for its turns.
func ChildCPU(ctx context.Context) (time.Duration, context.CancelFunc, bool) {
	c, ok := ctx.Value(childCPUKey{}).(*childCPU)
	if !ok {
		return 0, nil, false
	}
	c.backstop.Stop()
	return c.d, c.cancel, true
}
