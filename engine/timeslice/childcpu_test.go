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
	// a starter that watches its child takes over from the backstop
	ctx, cancel = timeslice.WithChildCPU(context.Background(), time.Hour, 20*time.Millisecond)
	defer cancel()
	if _, _, ok := timeslice.ChildCPU(ctx); !ok {
		t.Fatal("no budget")
	}
	select {
	case <-ctx.Done():
		t.Fatal("the backstop ended a context whose child is watched")
	case <-time.After(100 * time.Millisecond):
	}
}

type turn struct{ holds bool }

func (turn) Wait(context.Context) {}
func (t turn) Holds() bool        { return t.holds }

type gateOnly struct{}

func (gateOnly) Wait(context.Context) {}

// TestHolds: only a Turn that has lost its slot says no, and only a
// Turn makes work sliced.
func TestHolds(t *testing.T) {
	bg := context.Background()
	for _, c := range []struct {
		name         string
		ctx          context.Context
		want, sliced bool
	}{
		{"no scheduler", bg, true, false},
		{"a gate that cannot tell", timeslice.With(bg, gateOnly{}), true, false},
		{"holding", timeslice.With(bg, turn{true}), true, true},
		{"paused", timeslice.With(bg, turn{false}), false, true},
	} {
		if got := timeslice.Holds(c.ctx); got != c.want {
			t.Errorf("%s: Holds = %v, want %v", c.name, got, c.want)
		}
		if got := timeslice.Sliced(c.ctx); got != c.sliced {
			t.Errorf("%s: Sliced = %v, want %v", c.name, got, c.sliced)
		}
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
