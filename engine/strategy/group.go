package strategy

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/results"
)

// Group decides several properties in one run (a multi-property run,
// seed 004 chapter 2): Run decides the properties props (indices of the
// caller's task) and passes each result to emit at most once, as soon
// as it has it. A property Run does not emit is left open: the run
// could not say anything about it that a later step could not say
// better (a run that found it needs another analysis). Calls of emit
// are serialized (never two at once), whichever goroutines of the run
// make them. Run never panics: a Group made by GroupFunc recovers
// (Guard).
type Group interface {
	Name() string
	Run(ctx context.Context, props []int, emit func(i int, r *Result))
}

// GroupFunc is a group strategy from a function. run may call its emit
// from several goroutines at once; GroupFunc serializes the calls. A
// panic is an internal error of every property run did not emit.
func GroupFunc(name string, run func(ctx context.Context, props []int, emit func(i int, r *Result))) Group {
	return groupFunc{name, run}
}

type groupFunc struct {
	name string
	run  func(ctx context.Context, props []int, emit func(i int, r *Result))
}

func (g groupFunc) Name() string { return g.name }

func (g groupFunc) Run(ctx context.Context, props []int, emit func(i int, r *Result)) {
	var mu sync.Mutex
	sent := map[int]bool{}
	Guard(func() {
		g.run(ctx, props, func(i int, r *Result) {
			mu.Lock()
			defer mu.Unlock()
			sent[i] = true
			emit(i, r)
		})
	}, func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		for _, i := range props {
			if !sent[i] {
				emit(i, Unknown(nil, &results.Cause{Kind: results.CauseInternal}, msg))
			}
		}
	})
}

// GroupStep is one step of a GroupSequence.
type GroupStep struct {
	G Group
	// Share is the largest part of the sequence's limit the step may
	// use (0 < Share ≤ 1); 0, or the last step: what is left of the
	// limit.
	Share float64
	// IfFollowed applies Share only when a later step takes one of the
	// step's properties as they stand before it runs (its Take, given
	// what the steps before recorded); otherwise the step gets what is
	// left of the limit. Without it Share applies whatever follows (a
	// step whose own outcome decides which later steps run).
	IfFollowed bool
	// Take says whether the step runs on open property i, given the
	// UNKNOWN the steps before gave it (nil: no step has run it); nil
	// takes every open property. It is asked before the step runs and
	// whenever an earlier step gives i an UNKNOWN (is it final?); it may
	// read what the earlier steps recorded, never what later ones do.
	Take func(i int, last *Result) bool
	// Silent leaves the step's UNKNOWN reason out of the sequence's
	// (a step whose failures say nothing a later step does not).
	Silent bool
}

// GroupSequence runs group steps one after another on the properties
// still open (sequential composition over a set of properties, as
// Sequence for one; CPAchecker's RestartAlgorithm, Beyer, Dangl,
// Wendler, JAR 2018, section 6). Step k runs on the open properties its
// Take accepts, under min(Share·limit, what is left of limit) on clock
// (what is left for the last step, and with IfFollowed when no later
// step takes one of its properties); no step may spend another's share, and the sequence never exceeds limit
// (0: no limit). It runs under the memory watch mem (nil: none), whose
// end an UNKNOWN names with the memory limit memory (bytes).
//
// A TRUE, FALSE or NOT_CHECKED a step emits is final at once, with
// Decider the step (unless it has no name). An UNKNOWN is final at once
// when no later step takes it, else held for the later steps. A
// property no step emits a result for is UNKNOWN (incomplete, or ctx's
// cause when ctx ended). Every step runs, also after ctx ended: a step
// answers at once what needs no analysis (a property no call path
// reaches) and gives the rest UNKNOWN.
//
// A final UNKNOWN has the most telling cause of the property's steps
// (as Sequence's; a timeout names the sequence's limit) and their
// reasons in order as the detail (the first plain, the later ones after
// their step's name; Silent steps and bare time or memory limits left
// out); one step's UNKNOWN is kept as it is. Seconds and the rest are
// the last step's result's, States and Refinements summed over the
// steps: each step reports the property's time (the sequence cannot
// charge the time of a run shared by several properties).
func GroupSequence(name string, clock Clock, limit time.Duration, mem *MemoryWatch, memory uint64, steps ...GroupStep) Group {
	return groupSequence{name, clock, limit, mem, memory, steps}
}

type groupSequence struct {
	name   string
	clock  Clock
	limit  time.Duration
	mem    *MemoryWatch
	memory uint64
	steps  []GroupStep
}

func (s groupSequence) Name() string { return s.name }

func (s groupSequence) Run(ctx context.Context, props []int, emit func(i int, r *Result)) {
	start := s.clock.Now()
	parent := ctx
	if s.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = WithBudget(ctx, s.clock, s.limit)
		defer cancel()
	}
	ctx, untrack := s.mem.Track(ctx)
	defer untrack()
	open := append([]int(nil), props...)
	ran := map[int][]stepResult{} // the UNKNOWNs each open property's steps gave
	last := func(i int) *Result {
		if rs := ran[i]; len(rs) > 0 {
			return rs[len(rs)-1].r
		}
		return nil
	}
	takes := func(st GroupStep, i int) bool { return st.Take == nil || st.Take(i, last(i)) }
	later := func(k, i int) bool { // a step after k takes i
		for _, st := range s.steps[k+1:] {
			if takes(st, i) {
				return true
			}
		}
		return false
	}
	final := func(i int) {
		emit(i, s.combine(ran[i]))
		delete(ran, i)
	}
	for k, st := range s.steps {
		if len(open) == 0 {
			break
		}
		var mine, rest []int
		for _, i := range open {
			if takes(st, i) {
				mine = append(mine, i)
			} else {
				rest = append(rest, i)
			}
		}
		if len(mine) == 0 {
			continue
		}
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if s.limit > 0 {
			budget := s.limit - s.clock.Since(start)
			share := st.Share > 0 && k < len(s.steps)-1
			if share && st.IfFollowed {
				share = false
				for _, i := range mine {
					if later(k, i) {
						share = true
						break
					}
				}
			}
			if share {
				budget = min(budget, time.Duration(st.Share*float64(s.limit)))
			}
			sctx, cancel = WithBudget(ctx, s.clock, max(budget, 0))
		}
		got := map[int]*Result{}
		st.G.Run(sctx, mine, func(i int, r *Result) {
			if Decided(r.Verdict) || r.Verdict == results.NotChecked {
				out := *r
				if out.Decider == "" && Decided(out.Verdict) && st.G.Name() != "" {
					out.Decider = st.G.Name()
				}
				delete(ran, i)
				got[i] = nil
				emit(i, &out)
				return
			}
			s.stepCause(sctx, parent, r)
			got[i] = r
			ran[i] = append(ran[i], stepResult{r, st})
			if !later(k, i) {
				got[i] = nil
				final(i)
			}
		})
		cancel()
		open = rest
		for _, i := range mine {
			r, done := got[i]
			switch {
			case !done: // the step said nothing: it stays open for the later steps
				open = append(open, i)
			case r != nil: // held for a later step
				open = append(open, i)
			}
		}
	}
	for _, i := range open {
		if len(ran[i]) == 0 {
			c := &results.Cause{Kind: results.CauseIncomplete}
			if ctx.Err() != nil {
				c = s.ctxCause(ctx, parent)
			}
			r := Unknown(nil, c, "")
			ran[i] = []stepResult{{r, GroupStep{G: s}}}
		}
		final(i)
	}
}

// stepResult is one step's UNKNOWN for a property.
type stepResult struct {
	r  *Result
	st GroupStep
}

// stepCause gives an UNKNOWN that a step's limit ended the cause of
// that limit, as Limit does for one property: the memory limit the
// caller's watch signalled, else a timeout (the sequence's limit is
// named when the result is combined). When the caller's ctx (parent)
// ended, a cause the step gave stands (the step knows its caller's
// deadline: rounds sharing it), and one it did not give is the
// caller's budget. An error path that needs undefined behaviour keeps
// its cause; an UNKNOWN without a cause is incomplete.
func (s groupSequence) stepCause(sctx, parent context.Context, r *Result) {
	switch {
	case r.Cause != nil && r.Cause.Kind == results.CauseUndefined:
	case parent.Err() != nil:
		if r.Cause == nil || r.Cause.Kind == results.CauseIncomplete {
			r.SetUnknown(&results.Cause{Kind: results.CauseBudget}, r.Detail)
		}
	case sctx.Err() != nil:
		r.SetUnknown(s.ctxCause(sctx, parent), r.Detail)
	case r.Cause == nil:
		r.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, r.Reason)
	}
}

// ctxCause is the cause of what ctx (the sequence's, or a step's)
// ended: the caller's budget when parent ended, else the memory limit
// (named by s.memory) or a timeout.
func (s groupSequence) ctxCause(ctx, parent context.Context) *results.Cause {
	switch {
	case parent.Err() != nil:
		return &results.Cause{Kind: results.CauseBudget}
	case errors.Is(context.Cause(ctx), ErrMemoryLimit):
		return &results.Cause{Kind: results.CauseMemory, Limit: HumanBytes(s.memory)}
	}
	return &results.Cause{Kind: results.CauseTimeout}
}

// combine is a property's final UNKNOWN from its steps' UNKNOWNs (see
// GroupSequence): one step's is kept as it is, but for the limit its
// timeout names.
func (s groupSequence) combine(rs []stepResult) *Result {
	limit := func(c results.Cause) results.Cause {
		if c.Kind == results.CauseTimeout && s.limit > 0 {
			c.Limit = results.TimeLimit(s.limit, s.clock.IsCPU())
		}
		return c
	}
	if len(rs) == 1 {
		out := *rs[0].r
		if c := limit(*out.Cause); c.Limit != out.Cause.Limit {
			out.SetUnknown(&c, out.Detail)
		}
		return &out
	}
	top := 0
	states, refinements := 0, 0
	for k, sr := range rs {
		states += sr.r.States
		refinements += sr.r.Refinements
		if causeRank[sr.r.Cause.Kind] >= causeRank[rs[top].r.Cause.Kind] {
			top = k
		}
	}
	var parts []string
	for k, sr := range rs {
		text := sr.r.Reason
		if k == top {
			text = sr.r.Detail // the combined cause says the rest
		}
		if sr.st.Silent || text == "" || k != top && sr.r.Detail == "" && sr.r.Cause.Limited() && sr.r.Cause.Kind != results.CauseStates {
			continue // a bare limit: the combined cause says it
		}
		if len(parts) > 0 {
			text = sr.st.G.Name() + ": " + text
		}
		parts = append(parts, text)
	}
	out := *rs[len(rs)-1].r
	cause := limit(*rs[top].r.Cause)
	out.SetUnknown(&cause, strings.Join(parts, "; "))
	out.States, out.Refinements = states, refinements
	return &out
}

// Each decides each property alone by its own strategy (one(i): the
// property's analyses under its own limits), workers at a time (at
// least 1), passing each result to emit as it ends: the per-property
// step of a plan.
func Each(name string, workers int, one func(i int) Strategy) Group {
	return each{name, max(workers, 1), one}
}

type each struct {
	name    string
	workers int
	one     func(i int) Strategy
}

func (e each) Name() string { return e.name }

func (e each) Run(ctx context.Context, props []int, emit func(i int, r *Result)) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	work := make(chan int)
	for w := 0; w < e.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := e.one(i).Run(ctx)
				mu.Lock()
				emit(i, r)
				mu.Unlock()
			}
		}()
	}
	for _, i := range props {
		work <- i
	}
	close(work)
	wg.Wait()
}
