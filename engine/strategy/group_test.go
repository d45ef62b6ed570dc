package strategy

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reverify/reverify/results"
)

// TestGroupSequence: each step runs on the open properties its Take
// accepts, under its share (with IfFollowed only when a later step may
// take one of them; what is left otherwise); decided properties are final at once
// with the step as decider; an UNKNOWN no later step takes is final at
// once; a final UNKNOWN has the most telling cause and the steps'
// reasons in order; a panic is an internal error of what the step had
// not emitted; a property no step says anything about is incomplete.
func TestGroupSequence(t *testing.T) {
	var budgets []time.Duration
	var log []string
	deadline := func(ctx context.Context) {
		d, _ := ctx.Deadline()
		budgets = append(budgets, time.Until(d).Round(100*time.Millisecond))
	}
	a := GroupFunc("a", func(ctx context.Context, props []int, emit func(int, *Result)) {
		deadline(ctx)
		emit(0, &Result{Verdict: results.True, Reason: "proved"})
		emit(1, &Result{Verdict: results.Unknown, Reason: "nothing for 1"})
		emit(3, &Result{Verdict: results.Unknown, Reason: "nothing for 3"})
		<-ctx.Done()
		emit(2, &Result{Verdict: results.Unknown, Reason: "cancelled: context deadline exceeded"})
	})
	b := GroupFunc("b", func(ctx context.Context, props []int, emit func(int, *Result)) {
		deadline(ctx)
		log = append(log, "b runs")
		emit(2, &Result{Verdict: results.False, Reason: "violated"})
	})
	c := GroupFunc("c", func(ctx context.Context, props []int, emit func(int, *Result)) {
		log = append(log, "c runs")
		panic("boom")
	})
	got := map[int]*Result{}
	seq := GroupSequence("seq", nil, 2*time.Second, nil, 0,
		GroupStep{G: a, Share: 0.25},
		GroupStep{G: b, Share: 0.25, IfFollowed: true, Take: func(i int, _ *Result) bool { return i == 2 }},
		GroupStep{G: c, Take: func(i int, last *Result) bool { return i == 1 || i == 4 }},
	)
	seq.Run(context.Background(), []int{0, 1, 2, 3, 4}, func(i int, r *Result) {
		if got[i] != nil {
			t.Errorf("property %d emitted twice", i)
		}
		got[i] = r
		log = append(log, "final "+string(rune('0'+i)))
	})
	if len(budgets) != 2 || budgets[0] != 500*time.Millisecond || budgets[1] < 1300*time.Millisecond || budgets[1] > 1500*time.Millisecond {
		t.Errorf("budgets %v, want [500ms 1.5s] (b is the last step for its property: what is left)", budgets)
	}
	want := "final 0,final 3,b runs,final 2,c runs,final 1,final 4"
	if strings.Join(log, ",") != want {
		t.Errorf("order %q, want %q (an UNKNOWN no later step takes is final at once)", strings.Join(log, ","), want)
	}
	if r := got[0]; r.Verdict != results.True || r.Decider != "a" {
		t.Errorf("0: %s by %q", r.Verdict, r.Decider)
	}
	if r := got[2]; r.Verdict != results.False || r.Decider != "b" {
		t.Errorf("2: %s by %q", r.Verdict, r.Decider)
	}
	if r := got[3]; r.Cause == nil || r.Cause.Kind != results.CauseIncomplete || r.Reason != "nothing for 3" {
		t.Errorf("3: %v %q", r.Cause, r.Reason)
	}
	if r := got[1]; r.Cause == nil || r.Cause.Kind != results.CauseIncomplete ||
		!strings.HasPrefix(r.Reason, "nothing for 1; c: internal error: boom") {
		t.Errorf("1: %v %q", r.Cause, r.Reason)
	}
	if r := got[4]; r.Cause == nil || r.Cause.Kind != results.CauseInternal {
		t.Errorf("4: %v %q", r.Cause, r.Reason)
	}
}

// TestGroupSequenceTimeout: a step cut by its share is a timeout, and
// the final UNKNOWN names the sequence's limit; a caller's cancellation
// is the caller's budget.
func TestGroupSequenceTimeout(t *testing.T) {
	wait := GroupFunc("wait", func(ctx context.Context, props []int, emit func(int, *Result)) {
		<-ctx.Done()
		for _, i := range props {
			emit(i, &Result{Verdict: results.Unknown, Reason: "cancelled", States: 7})
		}
	})
	var r *Result
	GroupSequence("seq", nil, 400*time.Millisecond, nil, 0, GroupStep{G: wait, Share: 0.25}, GroupStep{G: wait}).
		Run(context.Background(), []int{0}, func(_ int, x *Result) { r = x })
	if r.Cause == nil || r.Cause.Kind != results.CauseTimeout || r.Reason != "timeout after 400ms" || r.States != 14 {
		t.Errorf("got %v %q, %d states", r.Cause, r.Reason, r.States)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	GroupSequence("seq", nil, time.Minute, nil, 0, GroupStep{G: wait}).Run(ctx, []int{0}, func(_ int, x *Result) { r = x })
	if r.Cause == nil || r.Cause.Kind != results.CauseBudget {
		t.Errorf("cancelled: got %v %q", r.Cause, r.Reason)
	}
}

// TestEachInSequence: Each runs every property it is given, workers at
// a time, and its UNKNOWNs go on to a later step (run with -race).
func TestEachInSequence(t *testing.T) {
	var running, most atomic.Int64
	one := func(i int) Strategy {
		return Func("one", func(context.Context) *Result {
			n := running.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			if i%2 == 0 {
				return &Result{Verdict: results.True, Reason: "even"}
			}
			return &Result{Verdict: results.Unknown, Reason: "odd"}
		})
	}
	odd := GroupFunc("odd", func(ctx context.Context, props []int, emit func(int, *Result)) {
		for _, i := range props {
			emit(i, &Result{Verdict: results.False, Reason: "odd"})
		}
	})
	got := map[int]results.Verdict{}
	GroupSequence("seq", nil, 0, nil, 0, GroupStep{G: Each("", 3, one)}, GroupStep{G: odd}).
		Run(context.Background(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, func(i int, r *Result) { got[i] = r.Verdict })
	for i := 0; i < 10; i++ {
		want := results.True
		if i%2 == 1 {
			want = results.False
		}
		if got[i] != want {
			t.Errorf("property %d: %s, want %s", i, got[i], want)
		}
	}
	if m := most.Load(); m > 3 || m < 2 {
		t.Errorf("%d ran at once, want at most 3 (and more than 1)", m)
	}
}

// TestGroupShareWhateverFollows: without IfFollowed a step keeps to its
// share although no later step takes its properties before it runs (its
// outcome decides that: the memory-safety sequence's capped value
// analysis), and the last step gets what is left.
func TestGroupShareWhateverFollows(t *testing.T) {
	var budgets []time.Duration
	retry := false
	first := GroupFunc("first", func(ctx context.Context, props []int, emit func(int, *Result)) {
		d, _ := ctx.Deadline()
		budgets = append(budgets, time.Until(d).Round(100*time.Millisecond))
		retry = true
		emit(0, &Result{Verdict: results.Unknown, Reason: "undecided checks"})
	})
	second := GroupFunc("second", func(ctx context.Context, props []int, emit func(int, *Result)) {
		d, _ := ctx.Deadline()
		budgets = append(budgets, time.Until(d).Round(100*time.Millisecond))
		emit(0, &Result{Verdict: results.True})
	})
	var r *Result
	GroupSequence("seq", nil, 2*time.Second, nil, 0,
		GroupStep{G: first, Share: 0.25},
		GroupStep{G: second, Share: 0.25, Take: func(int, *Result) bool { return retry }}).
		Run(context.Background(), []int{0}, func(_ int, x *Result) { r = x })
	if len(budgets) != 2 || budgets[0] != 500*time.Millisecond || budgets[1] < 1800*time.Millisecond {
		t.Errorf("budgets %v, want [500ms 2s]", budgets)
	}
	if r == nil || r.Verdict != results.True || r.Decider != "second" {
		t.Errorf("got %+v", r)
	}
}

// TestGroupFuncSerializesEmit: a run that emits from several goroutines
// at once (the rounds' workers) reaches the sequence's emit one call at
// a time, and every result arrives.
func TestGroupFuncSerializesEmit(t *testing.T) {
	const n = 64
	par := GroupFunc("par", func(ctx context.Context, props []int, emit func(int, *Result)) {
		var wg sync.WaitGroup
		for _, i := range props {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v := results.True
				if i%2 == 1 {
					v = results.Unknown
				}
				emit(i, &Result{Verdict: v, Reason: "par"})
			}()
		}
		wg.Wait()
	})
	later := GroupFunc("later", func(ctx context.Context, props []int, emit func(int, *Result)) {
		for _, i := range props {
			emit(i, &Result{Verdict: results.False, Reason: "later"})
		}
	})
	var inside, overlap atomic.Int64
	got := map[int]results.Verdict{}
	props := make([]int, n)
	for i := range props {
		props[i] = i
	}
	GroupSequence("seq", nil, 0, nil, 0, GroupStep{G: par}, GroupStep{G: later}).
		Run(context.Background(), props, func(i int, r *Result) {
			if inside.Add(1) > 1 {
				overlap.Add(1)
			}
			time.Sleep(100 * time.Microsecond)
			got[i] = r.Verdict
			inside.Add(-1)
		})
	if overlap.Load() > 0 {
		t.Errorf("emit ran %d times beside another call", overlap.Load())
	}
	for i := 0; i < n; i++ {
		want := results.True
		if i%2 == 1 {
			want = results.False
		}
		if got[i] != want {
			t.Errorf("property %d: %s, want %s", i, got[i], want)
		}
	}
}
