package timeslice

import (
	"context"
	"runtime"
	"time"
)

// OnCPUClock reports whether ctx's budget is CPU time (WithRemaining),
// whose rate a call that cannot pause does not spend as wall time while
// other analyses share its core.
func OnCPUClock(ctx context.Context) bool {
	_, ok := ctx.Value(remainingKey{}).(func() time.Duration)
	return ok
}

// ThreadCPU returns a context that ends when the calling goroutine has
// executed d of CPU time from now, or when ctx ends: the budget of one
// long single-threaded call that cannot pause at a checkpoint (Z3's
// Spacer over Horn clauses), which a wall-clock timeout would end early
// whenever the arms of a portfolio share its core. The goroutine stays
// on its OS thread until cancel, which it must call itself; where the
// thread's CPU clock cannot be read the budget is wall time.
func ThreadCPU(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	runtime.LockOSThread()
	clock, ok := threadClock()
	if !ok {
		runtime.UnlockOSThread()
		return context.WithTimeout(ctx, d)
	}
	tctx, cancel := context.WithCancel(ctx)
	start := clock()
	poll := min(max(d/20, time.Millisecond), 10*time.Millisecond)
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(poll)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tctx.Done():
				return
			case <-t.C:
				if clock()-start >= d {
					cancel()
					return
				}
			}
		}
	}()
	return tctx, func() {
		close(stop)
		cancel()
		runtime.UnlockOSThread()
	}
}
