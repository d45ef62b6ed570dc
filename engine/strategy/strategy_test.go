package strategy

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

func fixed(name string, r Result) Strategy {
	return Func(name, func(context.Context) *Result { c := r; return &c })
}

func unknown(cause results.CauseKind, detail string, prec ...string) Result {
	r := Result{States: 10, Precision: prec}
	r.SetUnknown(&results.Cause{Kind: cause}, detail)
	return r
}

// TestPortfolioMerge: the winner's verdict with its prefixed precision
// and the states of all arms; when none decides, the most telling cause
// (a limit before an analysis's own end) with each arm's outcome and
// every precision; when two arms disagree, UNKNOWN naming both.
func TestPortfolioMerge(t *testing.T) {
	p := Portfolio("default", 3,
		Arm{S: fixed("value", unknown(results.CauseStates, "state limit 5"))},
		Arm{S: fixed("value-cegar", Result{Verdict: results.True, Reason: "fixed point", States: 3, Precision: []string{"main::x@main"}})},
		Arm{S: Func("symex-cegar", func(ctx context.Context) *Result { <-ctx.Done(); return &Result{Verdict: results.Unknown} })})
	r := p.Run(context.Background())
	if r.Verdict != results.True || r.Reason != "value-cegar: fixed point" || r.Decider != "value-cegar" ||
		!reflect.DeepEqual(r.Precision, []string{"value-cegar/main::x@main"}) || r.States < 13 {
		t.Errorf("winner: got %+v", r)
	}

	p = Portfolio("default", 3,
		Arm{S: fixed("value", unknown(results.CauseStates, "state limit 5"))},
		Arm{S: fixed("value-cegar", unknown(results.CauseTimeout, "", "main::y@main"))},
		Arm{S: fixed("symex-cegar", unknown(results.CauseIncomplete, "counterexample check undecided", "main::x@main"))})
	r = p.Run(context.Background())
	want := "timeout (value: state limit 5; value-cegar: no result; symex-cegar: counterexample check undecided)"
	if r.Verdict != results.Unknown || r.Cause.Kind != results.CauseTimeout || r.Reason != want ||
		!reflect.DeepEqual(r.Precision, []string{"symex-cegar/main::x@main", "value-cegar/main::y@main"}) {
		t.Errorf("no winner: got %s %v %q %q", r.Verdict, r.Cause, r.Reason, r.Precision)
	}

	// arms with the same outcome share one part of the reason
	p = Portfolio("default", 3,
		Arm{S: fixed("value", unknown(results.CauseUnmodelled, "callback: unmodelled g may call back f"))},
		Arm{S: fixed("bmc", unknown(results.CauseUnmodelled, "12 states"))},
		Arm{S: fixed("value-cegar", unknown(results.CauseUnmodelled, "callback: unmodelled g may call back f"))})
	r = p.Run(context.Background())
	want = "unmodelled call (value, value-cegar: callback: unmodelled g may call back f; bmc: 12 states)"
	if !strings.HasSuffix(r.Reason, want[strings.Index(want, "("):]) {
		t.Errorf("shared parts: got %q, want the parts of %q", r.Reason, want)
	}

	p = Portfolio("default", 3,
		Arm{S: fixed("value", Result{Verdict: results.False, Reason: "error path"})},
		Arm{S: Func("value-cegar", func(context.Context) *Result {
			time.Sleep(time.Millisecond)
			return &Result{Verdict: results.True, Reason: "fixed point"}
		})})
	// the second arm answers within the grace period only sometimes:
	// run until it does, at most 50 times
	for i := 0; i < 50; i++ {
		r = p.Run(context.Background())
		if r.Verdict == results.Unknown {
			break
		}
	}
	if r.Verdict != results.Unknown || r.Cause.Kind != results.CauseDisagreement || !reflect.DeepEqual(r.Cause.Names, []string{"value", "value-cegar"}) {
		t.Errorf("disagreement: got %s %v %q", r.Verdict, r.Cause, r.Reason)
	}
}

// spin is an analysis that works in checkpoints until ctx ends or it
// has passed n of them, counting them in *steps; it then decides v.
func spin(name string, n int64, steps *atomic.Int64, v results.Verdict) Strategy {
	return Func(name, func(ctx context.Context) *Result {
		for i := int64(0); i < n; i++ {
			timeslice.Yield(ctx)
			if ctx.Err() != nil {
				return &Result{Verdict: results.Unknown}
			}
			steps.Add(1)
			time.Sleep(100 * time.Microsecond)
		}
		return &Result{Verdict: v, Reason: "done"}
	})
}

// TestPortfolioTimeSlices: with one slot, arms take turns: the first
// decides an easy property before the second ever starts, and an arm
// that needs longer than a slice still decides, the other paused in the
// meantime, so both progress and neither restarts.
func TestPortfolioTimeSlices(t *testing.T) {
	var a, b atomic.Int64
	var started atomic.Bool
	// the easy arm passes one checkpoint, well within the first quantum
	// however loaded the machine (sleeping steps could outlast it)
	p := Portfolio("p", 1, Arm{S: Func("fast", func(ctx context.Context) *Result {
		timeslice.Yield(ctx)
		return &Result{Verdict: results.True, Reason: "done"}
	})},
		Arm{S: Func("late", func(ctx context.Context) *Result { started.Store(true); return &Result{Verdict: results.Unknown} })})
	if r := p.Run(context.Background()); r.Verdict != results.True || started.Load() {
		t.Errorf("easy: %s, late arm started: %v", r.Verdict, started.Load())
	}

	a.Store(0)
	p = Portfolio("p", 1, Arm{S: spin("long", 1<<40, &a, results.True)}, Arm{S: spin("slow", 400, &b, results.False)})
	start := time.Now()
	r := p.Run(context.Background())
	if r.Verdict != results.False || r.Decider != "slow" || b.Load() != 400 {
		t.Fatalf("got %s by %q after %d steps of slow", r.Verdict, r.Decider, b.Load())
	}
	// slow's 400 steps take at least 40 ms alone; with one slot, long
	// ran its turns in between (its steps are counted), about as many
	if a.Load() < 20 {
		t.Errorf("long made %d steps in %v: it did not get its turns", a.Load(), time.Since(start))
	}
}

// TestSequenceShares: each step gets its share of the limit and no more;
// the next step gets what is left; the UNKNOWN of the whole names the
// sequence's limit.
func TestSequenceShares(t *testing.T) {
	var budgets []time.Duration
	step := func(name string) Strategy {
		return Func(name, func(ctx context.Context) *Result {
			d, _ := ctx.Deadline()
			budgets = append(budgets, time.Until(d).Round(100*time.Millisecond))
			<-ctx.Done()
			return &Result{Verdict: results.Unknown}
		})
	}
	seq := Sequence("seq", nil, 2*time.Second, Step{S: step("first"), Share: 0.25}, Step{S: step("second")})
	r := seq.Run(context.Background())
	if len(budgets) != 2 || budgets[0] != 500*time.Millisecond || budgets[1] != 1500*time.Millisecond {
		t.Errorf("budgets %v, want [500ms 1.5s]", budgets)
	}
	if r.Verdict != results.Unknown || r.Cause.Kind != results.CauseTimeout || r.Cause.Limit != "2s" ||
		!strings.HasPrefix(r.Reason, "timeout after 2s (first: timeout after 500ms; second: timeout after 1.") {
		t.Errorf("got %s %v %q", r.Verdict, r.Cause, r.Reason)
	}
	// a step that reports earlier work (a shared run) leaves the rest
	budgets = nil
	done := Func("shared", func(context.Context) *Result { return &Result{Verdict: results.Unknown, Seconds: 1.5} })
	Sequence("seq", nil, 2*time.Second, Step{S: done, Share: 0.25}, Step{S: step("rest")}).Run(context.Background())
	if len(budgets) != 1 || budgets[0] != 500*time.Millisecond {
		t.Errorf("after a shared run of 1.5s: budgets %v, want [500ms]", budgets)
	}
}

// TestLimitCause: a strategy stopped by its limit is UNKNOWN with the
// limit's cause and how far it got, never "cancelled: …"; a panic is an
// internal error.
func TestLimitCause(t *testing.T) {
	s := Func("value", func(ctx context.Context) *Result {
		<-ctx.Done()
		return &Result{Verdict: results.Unknown, Reason: "cancelled: context deadline exceeded", States: 79805}
	})
	r := Limit(s, nil, 20*time.Millisecond, nil, 0).Run(context.Background())
	if r.Cause == nil || r.Cause.Kind != results.CauseTimeout || r.Reason != "timeout after 20ms (79,805 states)" {
		t.Errorf("got %v %q", r.Cause, r.Reason)
	}
	r = Limit(Func("bug", func(context.Context) *Result { panic("boom") }), nil, 0, nil, 0).Run(context.Background())
	if r.Cause == nil || r.Cause.Kind != results.CauseInternal || !strings.HasPrefix(r.Reason, "internal error: boom") {
		t.Errorf("panic: got %v %q", r.Cause, r.Reason)
	}
}

// TestUndefinedCauseStays: an arm whose only error path needs undefined
// behaviour ends UNKNOWN with that cause, and neither the other arms'
// cancellation nor the property's deadline replaces it (library mode
// sends such a property to the callers' contexts).
func TestUndefinedCauseStays(t *testing.T) {
	ub := Func("value", func(context.Context) *Result {
		r := &Result{Verdict: results.Unknown}
		r.SetUnknown(&results.Cause{Kind: results.CauseUndefined, At: "f.c:3:5", Names: []string{"invalid memory access"}}, "counterexample check")
		return r
	})
	slow := Func("slow", func(ctx context.Context) *Result {
		<-ctx.Done()
		return &Result{Verdict: results.Unknown, Cause: CauseOf(ctx)}
	})
	r := Limit(Portfolio("p", 2, Arm{S: ub}, Arm{S: slow}), nil, 30*time.Millisecond, nil, 0).Run(context.Background())
	if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseUndefined || r.Cause.At != "f.c:3:5" {
		t.Errorf("got %s %+v %q", r.Verdict, r.Cause, r.Reason)
	}
}

// TestPortfolioAfter: an arm with After waits for the arms before it to
// have executed that long, even with a free slot; when they all end
// first, it starts at once.
func TestPortfolioAfter(t *testing.T) {
	var a, b atomic.Int64
	var started atomic.Bool
	late := Func("late", func(ctx context.Context) *Result { started.Store(true); return &Result{Verdict: results.Unknown} })
	p := Portfolio("p", 2, Arm{S: spin("first", 200, &a, results.True)}, Arm{S: late, After: time.Hour}, Arm{S: late, After: time.Hour})
	if r := p.Run(context.Background()); r.Verdict != results.True || started.Load() {
		t.Errorf("got %s, late arm started: %v", r.Verdict, started.Load())
	}
	p = Portfolio("p", 1, Arm{S: fixed("gives up", unknown(results.CauseStates, "state limit 5"))},
		Arm{S: spin("next", 10, &b, results.False), After: time.Hour}, Arm{S: late, After: 2 * time.Hour})
	start := time.Now()
	if r := p.Run(context.Background()); r.Verdict != results.False || r.Decider != "next" || time.Since(start) > time.Minute {
		t.Errorf("got %s by %q after %v", r.Verdict, r.Decider, time.Since(start))
	}
}

// TestPortfolioOnCPU: measured on a CPU clock, an arm's executed time is
// the clock's advance while it holds a slot, not wall time: an arm that
// waits without spending CPU time (the spin arm sleeps, the clock stands
// still) keeps the slot past a later arm's After, which the same wall
// time lets in at once (the loaded machine, where wall time passes
// without CPU time).
func TestPortfolioOnCPU(t *testing.T) {
	var n atomic.Int64
	var cpu atomic.Int64
	clock := Clock(func() time.Duration { return time.Duration(cpu.Load()) })
	var started atomic.Bool
	late := Func("late", func(ctx context.Context) *Result {
		started.Store(true)
		return &Result{Verdict: results.False, Reason: "late"}
	})
	arms := []Arm{{S: spin("first", 300, &n, results.True)}, {S: late, After: 5 * time.Millisecond}}
	if r := PortfolioOn("p", 1, clock, arms...).Run(context.Background()); r.Verdict != results.True || started.Load() {
		t.Errorf("CPU clock at rest: got %s by %q, late arm started: %v", r.Verdict, r.Decider, started.Load())
	}
	n.Store(0)
	if r := Portfolio("p", 1, arms...).Run(context.Background()); r.Verdict != results.False || n.Load() >= 300 {
		t.Errorf("wall time: got %s by %q after %d steps, want the late arm to start and decide", r.Verdict, r.Decider, n.Load())
	}
	// The clock advancing while the first arm runs brings the late arm in.
	n.Store(0)
	started.Store(false)
	burn := Func("burn", func(ctx context.Context) *Result {
		for i := 0; i < 100000; i++ {
			timeslice.Yield(ctx)
			if ctx.Err() != nil {
				return &Result{Verdict: results.Unknown}
			}
			cpu.Add(int64(time.Millisecond))
			time.Sleep(50 * time.Microsecond)
		}
		return &Result{Verdict: results.True}
	})
	if r := PortfolioOn("p", 1, clock, Arm{S: burn}, Arm{S: late, After: 5 * time.Millisecond}).Run(context.Background()); r.Verdict != results.False || !started.Load() {
		t.Errorf("CPU clock advancing: got %s by %q, late arm started: %v", r.Verdict, r.Decider, started.Load())
	}
}

// TestPortfolioProbe: an arm with a probe runs first, before the arms
// take turns and before its After: with one slot, a probe arm that
// decides within its probe wins before the first arm (which would
// decide too, later) executes at all; a probe arm that does not decide
// within its probe gives the slot back, and the first arm decides.
func TestPortfolioProbe(t *testing.T) {
	var a, b atomic.Int64
	p := Portfolio("p", 1, Arm{S: spin("first", 2000, &a, results.True)},
		Arm{S: spin("quick", 5, &b, results.False), After: time.Hour, Probe: time.Second})
	if r := p.Run(context.Background()); r.Verdict != results.False || r.Decider != "quick" || a.Load() != 0 {
		t.Errorf("deciding probe: got %s by %q, the first arm ran %d steps", r.Verdict, r.Decider, a.Load())
	}
	a.Store(0)
	b.Store(0)
	p = Portfolio("p", 1, Arm{S: spin("first", 5, &a, results.True)},
		Arm{S: spin("slow", 1_000_000, &b, results.False), After: time.Hour, Probe: 20 * time.Millisecond})
	if r := p.Run(context.Background()); r.Verdict != results.True || r.Decider != "first" || b.Load() == 0 {
		t.Errorf("undecided probe: got %s by %q, the probe arm ran %d steps", r.Verdict, r.Decider, b.Load())
	}
}

// milestoneSpin is spin that reports its milestone after first steps
// and counts its steps after it in late.
func milestoneSpin(name string, first int64, late *atomic.Int64) Strategy {
	return Func(name, func(ctx context.Context) *Result {
		for i := int64(0); ; i++ {
			timeslice.Yield(ctx)
			if ctx.Err() != nil {
				return &Result{Verdict: results.Unknown}
			}
			if i == first {
				timeslice.Milestone(ctx)
			}
			if i > first {
				late.Add(1)
			}
			time.Sleep(100 * time.Microsecond)
		}
	})
}

// TestPortfolioMilestone: an arm's milestone ends its probe, however
// long (an hour here: without it, the other arm would never run), and
// lowers its weight to Demoted without a jump in its virtual time: from
// then on the two arms take about equal turns, not eight to one.
func TestPortfolioMilestone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var late, b atomic.Int64
	p := Portfolio("p", 1, Arm{S: spin("other", 2000, &b, results.True)},
		Arm{S: milestoneSpin("kind", 5, &late), Weight: 8, Probe: time.Hour, Demoted: 1})
	r := p.Run(ctx)
	if r.Verdict != results.True || r.Decider != "other" {
		t.Fatalf("got %s by %q: the probe did not end at the milestone", r.Verdict, r.Decider)
	}
	if late.Load() > 4*2000 {
		t.Errorf("after its milestone the demoted arm made %d steps while the other made 2000", late.Load())
	}
	if late.Load() < 2000/4 {
		t.Errorf("after its milestone the demoted arm made only %d steps while the other made 2000", late.Load())
	}
}

// TestProgressDetail: an analysis its deadline stops has how far it got
// as its detail, the states it counts and its own progress (bmc's
// bounds) together.
func TestProgressDetail(t *testing.T) {
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{States: 79805}, "timeout (79,805 states)"},
		{Result{States: 658, Progress: "bounds up to 64 hold no error"}, "timeout (658 states; bounds up to 64 hold no error)"},
		{Result{Progress: "bound 1 not finished"}, "timeout (bound 1 not finished)"},
		{Result{}, "timeout"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		<-ctx.Done()
		r := Func("bmc", func(context.Context) *Result { c := tc.r; c.Verdict = results.Unknown; return &c }).Run(ctx)
		cancel()
		if r.Verdict != results.Unknown || r.Cause.Kind != results.CauseTimeout || r.Reason != tc.want {
			t.Errorf("%+v: %s %v %q, want %q", tc.r, r.Verdict, r.Cause, r.Reason, tc.want)
		}
	}
}

// TestPortfolioOnOneSlot: on a clock the arms hold one slot however many
// cores there are, so the weights divide the CPU time (two arms side by
// side would get equal parts), and an arm inside a call that passes no
// checkpoint does not hold back the next one: the slot passes at the
// quantum's end.
func TestPortfolioOnOneSlot(t *testing.T) {
	var cpu atomic.Int64
	clock := Clock(func() time.Duration { return time.Duration(cpu.Load()) })
	// burn passes a checkpoint per step and spends 1 ms of the clock's
	// CPU time
	burn := func(name string, steps *atomic.Int64) Strategy {
		return Func(name, func(ctx context.Context) *Result {
			for {
				timeslice.Yield(ctx)
				if ctx.Err() != nil {
					return &Result{Verdict: results.Unknown}
				}
				steps.Add(1)
				cpu.Add(int64(time.Millisecond))
				time.Sleep(100 * time.Microsecond)
			}
		})
	}
	var a, b atomic.Int64
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	PortfolioOn("p", 2, clock, Arm{S: burn("heavy", &a), Weight: 3}, Arm{S: burn("light", &b)}).Run(ctx)
	cancel()
	if r := float64(a.Load()) / float64(max(b.Load(), 1)); r < 2 || r > 4.5 {
		t.Errorf("weights 3:1 gave steps %d:%d", a.Load(), b.Load())
	}

	// An arm inside a long call (no checkpoint for seconds) does not
	// hold back the other: it decides long before the call ends.
	release := make(chan struct{})
	stuck := Func("stuck", func(ctx context.Context) *Result {
		timeslice.Yield(ctx)
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
		return &Result{Verdict: results.Unknown}
	})
	var c atomic.Int64
	start := time.Now()
	r := PortfolioOn("p", 2, clock, Arm{S: stuck}, Arm{S: spin("next", 20, &c, results.True)}).Run(context.Background())
	close(release)
	if r.Verdict != results.True || r.Decider != "next" || time.Since(start) > 3*time.Second {
		t.Errorf("beside a stalled arm: got %s by %q after %v", r.Verdict, r.Decider, time.Since(start))
	}
}

// TestPortfolioCap: an arm with a cap ends once it has executed it, with
// or without turns, long before the arm that decides; without the cap it
// runs until the winner ends it.
func TestPortfolioCap(t *testing.T) {
	for _, slots := range []int{1, 2} {
		for _, cap := range []time.Duration{30 * time.Millisecond, 0} {
			var burnerEnd, winnerEnd atomic.Int64
			burner := Func("burner", func(ctx context.Context) *Result {
				defer func() { burnerEnd.Store(time.Now().UnixNano()) }()
				for ctx.Err() == nil {
					timeslice.Yield(ctx)
					time.Sleep(100 * time.Microsecond)
				}
				return Unknown(nil, CauseOf(ctx), "")
			})
			var steps atomic.Int64
			winner := spin("winner", 400, &steps, results.True)
			r := Portfolio("p", slots, Arm{S: burner, Cap: cap}, Arm{S: Func("winner", func(ctx context.Context) *Result {
				defer func() { winnerEnd.Store(time.Now().UnixNano()) }()
				return winner.Run(ctx)
			})}).Run(context.Background())
			if r.Verdict != results.True {
				t.Fatalf("slots %d, cap %v: %s, want TRUE", slots, cap, r.Verdict)
			}
			if ended := burnerEnd.Load() < winnerEnd.Load(); ended != (cap > 0) {
				t.Errorf("slots %d, cap %v: burner ended before the winner: %v", slots, cap, ended)
			}
		}
	}
}
