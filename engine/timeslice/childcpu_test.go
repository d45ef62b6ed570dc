package timeslice_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
)

// TestChildCPU: the budget travels with the context to whoever starts
// the child process, its cancel ends the context, and the wall-time
// backstop ends it too.
func TestChildCPU(t *testing.T) {
	ctx, cancel := timeslice.WithChildCPU(context.Background(), 2*time.Second, time.Hour)
	defer cancel()
	d, end, ok := timeslice.ChildCPU(ctx)
	if !ok || d != 2*time.Second {
		t.Fatalf("ChildCPU = %v, %v, want 2s, true", d, ok)
	}
	if ctx.Err() != nil {
		t.Fatal("ended before its child ran")
	}
	end()
	if ctx.Err() == nil {
		t.Fatal("the starter's cancel did not end it")
	}
	if _, _, ok := timeslice.ChildCPU(context.Background()); ok {
		t.Error("a budget without WithChildCPU")
	}
	ctx, cancel = timeslice.WithChildCPU(context.Background(), time.Hour, 20*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the backstop did not end it")
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
