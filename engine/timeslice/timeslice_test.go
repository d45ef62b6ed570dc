package timeslice

import (
	"context"
	"testing"
	"time"
)

// countGate counts the waits at it.
type countGate struct{ waits int }

func (g *countGate) Wait(context.Context) { g.waits++ }

// TestYield: Yield waits at the gate of its context and of contexts
// derived from it, and at none without one; a Checkpoint waits every
// 64th call, and never without a gate.
func TestYield(t *testing.T) {
	g := &countGate{}
	ctx := With(context.Background(), g)
	sub, cancel := context.WithCancel(ctx)
	defer cancel()
	Yield(ctx)
	Yield(sub)
	Yield(context.Background())
	if g.waits != 2 {
		t.Errorf("Yield: %d waits, want 2", g.waits)
	}
	g.waits = 0
	c := NewCheckpoint(sub)
	for i := 0; i < 640; i++ {
		c.Yield(sub)
	}
	if g.waits != 10 {
		t.Errorf("Checkpoint: %d waits in 640 calls, want 10", g.waits)
	}
	NewCheckpoint(context.Background()).Yield(context.Background()) // no gate: no panic
}

// TestExpired: a context whose deadline has passed is expired even
// before its timer fires; a cancelled one reports its error; a live one
// none.
func TestExpired(t *testing.T) {
	if err := Expired(context.Background()); err != nil {
		t.Errorf("background: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Expired(ctx); err != context.Canceled {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	if err := Expired(past); err != context.DeadlineExceeded {
		t.Errorf("past deadline: %v, want DeadlineExceeded", err)
	}
	live, cancel3 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel3()
	if err := Expired(live); err != nil {
		t.Errorf("live: %v", err)
	}
}

// TestRemaining: the least of the budget's time left and the time to the
// deadline, never negative; false with neither.
func TestRemaining(t *testing.T) {
	if _, ok := Remaining(context.Background()); ok {
		t.Error("background: has a remaining time")
	}
	budget := WithRemaining(context.Background(), func() time.Duration { return 3 * time.Second })
	if d, ok := Remaining(budget); !ok || d != 3*time.Second {
		t.Errorf("budget: %v %v, want 3s", d, ok)
	}
	near, cancel := context.WithTimeout(budget, time.Second)
	defer cancel()
	if d, ok := Remaining(near); !ok || d > time.Second || d < 500*time.Millisecond {
		t.Errorf("deadline before the budget: %v %v, want about 1s", d, ok)
	}
	far, cancel2 := context.WithTimeout(budget, time.Hour)
	defer cancel2()
	if d, ok := Remaining(far); !ok || d != 3*time.Second {
		t.Errorf("budget before the deadline: %v %v, want 3s", d, ok)
	}
	spent := WithRemaining(context.Background(), func() time.Duration { return -time.Second })
	if d, ok := Remaining(spent); !ok || d != 0 {
		t.Errorf("spent budget: %v %v, want 0", d, ok)
	}
}

// TestShare: the context of a share ends at 1/n of the time left before
// the deadline; without a deadline it has none, and cancel ends it.
func TestShare(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	sctx, scancel := Share(ctx, 4)
	defer scancel()
	d, ok := sctx.Deadline()
	if left := time.Until(d); !ok || left > 2*time.Second || left < 1900*time.Millisecond {
		t.Errorf("a quarter of 8 s: %v left (deadline %v)", left, ok)
	}
	nctx, ncancel := Share(context.Background(), 4)
	if _, ok := nctx.Deadline(); ok {
		t.Error("a share of a context without a deadline has one")
	}
	ncancel()
	if nctx.Err() == nil {
		t.Error("cancel does not end the share")
	}
}
