package strategy

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

// TestMemoryWatchCancelsOldest: over the working bound (the budget, limit
// × properties running, less a sixteenth) after a collection, the watchdog cancels the longest-running
// property with the cause ErrMemoryLimit, one at a time; under it,
// nothing.
func TestMemoryWatchCancelsOldest(t *testing.T) {
	var heap atomic.Uint64
	w := &MemoryWatch{limit: 160, run: map[int]*tracked{}, sample: func(bool) uint64 { return heap.Load() }}
	old, endOld := w.Track(context.Background())
	time.Sleep(time.Millisecond)
	young, endYoung := w.Track(context.Background())
	defer endYoung()
	heap.Store(300) // budget 2 × 160, bound 300
	w.check()
	if old.Err() != nil || young.Err() != nil {
		t.Fatal("cancelled within the budget")
	}
	heap.Store(301)
	w.check()
	if context.Cause(old) != ErrMemoryLimit || young.Err() != nil {
		t.Fatalf("old: %v, young: %v; want old cancelled for the memory limit", context.Cause(old), young.Err())
	}
	w.check() // old has not ended yet: wait for it
	if young.Err() != nil {
		t.Fatal("cancelled a second property before the first ended")
	}
	endOld()
	w.check() // budget 1 × 160
	if context.Cause(young) != ErrMemoryLimit {
		t.Fatalf("young: %v, want cancelled", context.Cause(young))
	}
}

// TestMemoryWatchGrowthDuringCollection: above the working bound (the
// budget less a sixteenth) the watch collects; while the collection
// runs, a resident set past the budget cancels the property at once;
// otherwise the collection's answer decides.
func TestMemoryWatchGrowthDuringCollection(t *testing.T) {
	var rss atomic.Uint64
	release := make(chan struct{})
	w := &MemoryWatch{limit: 160, run: map[int]*tracked{}, resident: func() uint64 { return rss.Load() },
		sample: func(afterGC bool) uint64 {
			if afterGC {
				<-release
				return 100
			}
			return 151
		}}
	prop, end := w.Track(context.Background())
	defer end()
	rss.Store(160) // at the budget: the collection decides (100: under)
	go func() { time.Sleep(30 * time.Millisecond); close(release) }()
	w.check()
	if prop.Err() != nil {
		t.Fatal("cancelled at the budget although the collection freed enough")
	}
	release = make(chan struct{})
	defer close(release)
	rss.Store(161) // past the budget while the collection has not ended
	w.check()
	if context.Cause(prop) != ErrMemoryLimit {
		t.Fatalf("cause %v, want ErrMemoryLimit", context.Cause(prop))
	}
}

// TestMemoryWatchNested: a step tracked inside a tracked property (an
// arm of its portfolio) counts once in the budget, and the property's
// cancellation reaches it with the cause ErrMemoryLimit.
func TestMemoryWatchNested(t *testing.T) {
	var heap atomic.Uint64
	w := &MemoryWatch{limit: 100, run: map[int]*tracked{}, sample: func(bool) uint64 { return heap.Load() }}
	prop, endProp := w.Track(context.Background())
	defer endProp()
	arm1, endArm1 := w.Track(prop)
	defer endArm1()
	arm2, endArm2 := w.Track(prop)
	defer endArm2()
	heap.Store(101) // over one property's limit, within three
	w.check()
	for i, c := range []context.Context{prop, arm1, arm2} {
		if context.Cause(c) != ErrMemoryLimit {
			t.Errorf("context %d: cause %v, want ErrMemoryLimit", i, context.Cause(c))
		}
	}
}

// TestWithBudgetClock: under an injected clock the context expires with
// DeadlineExceeded once the clock has advanced by the budget, not before
// and not by wall time.
func TestWithBudgetClock(t *testing.T) {
	var now atomic.Int64
	clock := Clock(func() time.Duration { return time.Duration(now.Load()) })
	ctx, cancel := WithBudget(context.Background(), clock, time.Second)
	defer cancel()
	time.Sleep(50 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Fatalf("expired before the clock moved: %v", err)
	}
	// the time left is read on the clock, also through a derived
	// context, whose nearer wall deadline counts
	if left, ok := timeslice.Remaining(ctx); !ok || left != time.Second {
		t.Errorf("Remaining = %v, %v at 0 of a 1s budget, want 1s", left, ok)
	}
	now.Store(int64(400 * time.Millisecond))
	sub, subCancel := context.WithCancel(ctx)
	if left, ok := timeslice.Remaining(sub); !ok || left != 600*time.Millisecond {
		t.Errorf("Remaining = %v, %v at 400ms of a 1s budget, want 600ms", left, ok)
	}
	subCancel()
	near, nearCancel := context.WithTimeout(ctx, 10*time.Millisecond)
	if left, ok := timeslice.Remaining(near); !ok || left > 10*time.Millisecond {
		t.Errorf("Remaining = %v, %v under a 10ms wall deadline", left, ok)
	}
	nearCancel()
	now.Store(int64(999 * time.Millisecond))
	time.Sleep(50 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Fatalf("expired at 999ms of a 1s budget: %v", err)
	}
	now.Store(int64(time.Second))
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not expired 5s after the clock passed the budget")
	}
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Err = %v, want DeadlineExceeded", err)
	}

	// Cancelling the parent cancels the budget context.
	parent, pcancel := context.WithCancel(context.Background())
	ctx, cancel = WithBudget(parent, clock, time.Hour)
	defer cancel()
	pcancel()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("parent cancellation not propagated")
	}
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err = %v, want Canceled", err)
	}
}

// TestPortfolioShedsHeaviestArm: a property decided by a portfolio that
// passes its memory limit first loses the arm whose turns raised the
// memory (the others go on and decide with the property's memory), and
// only when one arm is left is the property cancelled.
func TestPortfolioShedsHeaviestArm(t *testing.T) {
	var mem atomic.Uint64
	defer func(f func() uint64) { residentSet = f }(residentSet)
	residentSet = mem.Load
	run := func(frees bool) *Result {
		mem.Store(0)
		w := &MemoryWatch{limit: 1000, run: map[int]*tracked{}, sample: func(bool) uint64 { return mem.Load() }}
		prop, end := w.Track(context.Background())
		defer end()
		done := make(chan struct{})
		defer close(done)
		go func() {
			for {
				select {
				case <-done:
					return
				case <-time.After(2 * time.Millisecond):
					w.check()
				}
			}
		}()
		// hog grows the memory at each step and frees what it holds
		// when it ends (when frees)
		hog := Func("hog", func(ctx context.Context) *Result {
			var held uint64
			defer func() {
				if frees {
					mem.Add(-held)
				}
			}()
			for {
				timeslice.Yield(ctx)
				if ctx.Err() != nil {
					return Unknown(nil, CauseOf(ctx), "")
				}
				mem.Add(10)
				held += 10
				time.Sleep(100 * time.Microsecond)
			}
		})
		var steps atomic.Int64
		ctx, cancel := context.WithTimeout(prop, 10*time.Second)
		defer cancel()
		return Portfolio("p", 1, Arm{S: hog}, Arm{S: spin("lean", 400, &steps, results.True)}).Run(ctx)
	}
	if r := run(true); r.Verdict != results.True || r.Decider != "lean" {
		t.Fatalf("with the hog stopped: %s by %q (%s), want TRUE by lean", r.Verdict, r.Decider, r.Detail)
	}
	r := run(false)
	if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseMemory {
		t.Fatalf("memory still over the limit with one arm left: %s %+v, want UNKNOWN memory limit", r.Verdict, r.Cause)
	}
}
