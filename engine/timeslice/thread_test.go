package timeslice_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
)

// TestThreadCPU: the budget is the calling goroutine's CPU time, not
// wall time: sleeping three times the budget leaves the context open,
// and spinning ends it; the parent's end ends it too.
func TestThreadCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("per-thread CPU clock read on Linux only")
	}
	const d = 40 * time.Millisecond
	ctx, cancel := timeslice.ThreadCPU(context.Background(), d)
	time.Sleep(3 * d)
	if ctx.Err() != nil {
		t.Fatalf("ended after %v asleep: the budget ran on wall time", 3*d)
	}
	start := time.Now()
	x := 0
	for ctx.Err() == nil && time.Since(start) < 10*time.Second {
		for i := 0; i < 1e5; i++ {
			x += i
		}
	}
	cancel()
	if ctx.Err() == nil {
		t.Fatalf("still open after 10 s of spinning (%d)", x)
	}

	parent, stop := context.WithCancel(context.Background())
	ctx, cancel = timeslice.ThreadCPU(parent, time.Hour)
	defer cancel()
	stop()
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
		t.Fatal("the parent's cancellation did not end it")
	}
}

// TestOnCPUClock: only a CPU budget (WithRemaining) is a CPU clock.
func TestOnCPUClock(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if timeslice.OnCPUClock(ctx) {
		t.Error("a deadline is wall time")
	}
	if !timeslice.OnCPUClock(timeslice.WithRemaining(ctx, func() time.Duration { return time.Second })) {
		t.Error("a WithRemaining budget is CPU time")
	}
}
