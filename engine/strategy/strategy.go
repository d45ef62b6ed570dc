package strategy

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/reverify/reverify/results"
)

// Strategy decides one property. Run never panics (Guard) and returns a
// result whose Verdict is set; an UNKNOWN has a Cause. Seconds is the
// time the strategy used on its clock.
type Strategy interface {
	Name() string
	Run(ctx context.Context) *Result
}

// Func is a strategy from a function: an analysis run on the property.
// Its result's cause is completed from ctx when the function stopped
// because ctx ended (CauseOf), and a panic is an internal error.
func Func(name string, run func(ctx context.Context) *Result) Strategy {
	return funcStrategy{name, run}
}

type funcStrategy struct {
	name string
	run  func(ctx context.Context) *Result
}

func (f funcStrategy) Name() string { return f.name }

func (f funcStrategy) Run(ctx context.Context) (r *Result) {
	Guard(func() { r = f.run(ctx) }, func(msg string) { r = Unknown(nil, &results.Cause{Kind: results.CauseInternal}, msg) })
	switch {
	case r.Verdict != results.Unknown:
	case ctx.Err() != nil && (r.Cause == nil || r.Cause.Kind == results.CauseIncomplete):
		// The analysis stopped because ctx ended: that is the cause,
		// whatever the analysis said ("cancelled: …"); the detail is
		// how far it got. (A composite strategy inside has given its
		// own cause and details already.)
		r.SetUnknown(CauseOf(ctx), progress(r))
	case r.Cause == nil:
		r.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, r.Reason)
	case r.Detail == "" && r.Reason != Render(r.Cause, ""):
		r.Detail = r.Reason
	}
	return r
}

// CauseOf is the cause of an analysis that ctx stopped: the memory
// watchdog's (CauseMemory), a deadline (CauseTimeout; its Limit is the
// caller's to fill, see Limit), else a cancellation from outside
// (CauseBudget: another arm decided, or the caller's budget ended).
func CauseOf(ctx context.Context) *results.Cause {
	switch {
	case errors.Is(context.Cause(ctx), ErrMemoryLimit):
		return &results.Cause{Kind: results.CauseMemory}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &results.Cause{Kind: results.CauseTimeout}
	}
	return &results.Cause{Kind: results.CauseBudget}
}

// Guard runs f and turns a panic into onPanic's call with the panic's
// value and stack: a panic is a bug in reverify, never a verdict. It is
// the one recovery of the engine's strategies.
func Guard(f func(), onPanic func(msg string)) {
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 4096)
			buf = buf[:runtime.Stack(buf, false)]
			onPanic(fmt.Sprintf("internal error: %v\n%s", p, buf))
		}
	}()
	f()
}

// Limit runs s under a time limit d on clock (0: none) and a memory
// watch (nil: none), with the property's memory limit named by memory
// (bytes). An UNKNOWN that the limit ended has the limit's cause
// (timeout after d, memory limit); a cancellation of the caller's ctx
// stays the caller's (CauseBudget). Seconds is the time on clock.
func Limit(s Strategy, clock Clock, d time.Duration, mem *MemoryWatch, memory uint64) Strategy {
	return limit{s, clock, d, mem, memory}
}

type limit struct {
	s      Strategy
	clock  Clock
	d      time.Duration
	mem    *MemoryWatch
	memory uint64
}

func (l limit) Name() string { return l.s.Name() }

func (l limit) Run(ctx context.Context) *Result {
	start := l.clock.Now()
	parent := ctx
	if l.d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = WithBudget(ctx, l.clock, l.d)
		defer cancel()
	}
	ctx, untrack := l.mem.Track(ctx)
	defer untrack()
	r := l.s.Run(ctx)
	// a step that reports work done before it ran (a shared run's
	// outcome) keeps its time
	r.Seconds = max(r.Seconds, l.clock.Since(start).Seconds())
	if r.Verdict != results.Unknown {
		return r
	}
	switch {
	case parent.Err() != nil:
		// The caller's context ended (its budget, or a winner of a
		// portfolio around this one): the caller's to explain.
		if r.Cause == nil || r.Cause.Limited() || r.Cause.Kind == results.CauseIncomplete {
			r.SetUnknown(&results.Cause{Kind: results.CauseBudget}, r.Detail)
		}
		return r
	case r.Cause != nil && r.Cause.Kind == results.CauseUndefined:
		// an arm found the only error path, and it needs undefined
		// behaviour: what the limit stopped would not change that
		return r
	case errors.Is(context.Cause(ctx), ErrMemoryLimit):
		r.Cause = &results.Cause{Kind: results.CauseMemory, Limit: HumanBytes(l.memory)}
	case l.d > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.Cause = &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(l.d, l.clock.IsCPU())}
	default:
		return r
	}
	r.Reason = Render(r.Cause, r.Detail)
	return r
}

// progress describes how far a stopped analysis got: "79,805 states, 12
// refinements" ("" when it explored nothing).
func progress(r *Result) string {
	var parts []string
	if r.States > 0 {
		s := thousands(r.States) + " states"
		if r.Refinements > 0 {
			s += fmt.Sprintf(", %d refinements", r.Refinements)
		}
		parts = append(parts, s)
	}
	if r.Progress != "" {
		parts = append(parts, r.Progress)
	}
	return strings.Join(parts, "; ")
}

// thousands formats n with thousands separators: 79,805.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
