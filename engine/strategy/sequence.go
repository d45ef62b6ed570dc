package strategy

import (
	"context"
	"strings"
	"time"

	"github.com/reverify/reverify/results"
)

// Step is one strategy of a sequence with its share of the time.
type Step struct {
	S Strategy
	// Share is the largest part of the sequence's limit the step may
	// use (0 < Share ≤ 1; 0 or the last step: what is left).
	Share float64
}

// Sequence runs steps one after another until one decides (sequential
// composition, CPAchecker's RestartAlgorithm; Beyer, Dangl, Wendler,
// JAR 2018, section 6): step i runs under min(Share·limit, what is
// left of limit) on clock, and what a step leaves goes to the next, so
// that no step may spend another's share and the sequence never exceeds
// limit (0: no limit, and no step has one of its own). Each step's time
// is its result's Seconds (a step may be the outcome of a run shared by
// several properties, whose time it reports). A decided step's result
// is the sequence's, with Decider the step; when none decides, the
// result is UNKNOWN with the most telling cause of the steps (as
// Portfolio's) and each step's outcome in the detail; a timeout then
// names the sequence's limit.
func Sequence(name string, clock Clock, limit time.Duration, steps ...Step) Strategy {
	return sequence{name, clock, limit, steps}
}

type sequence struct {
	name  string
	clock Clock
	limit time.Duration
	steps []Step
}

func (s sequence) Name() string { return s.name }

func (s sequence) Run(ctx context.Context) *Result {
	var used time.Duration
	var rs []*Result
	var parts []string
	for i, st := range s.steps {
		budget := time.Duration(0)
		if s.limit > 0 {
			left := s.limit - used
			if left <= 0 {
				break
			}
			budget = left
			if i < len(s.steps)-1 && st.Share > 0 {
				budget = min(left, time.Duration(st.Share*float64(s.limit)))
			}
		}
		r := Limit(st.S, s.clock, budget, nil, 0).Run(ctx)
		used += time.Duration(r.Seconds * float64(time.Second))
		if Decided(r.Verdict) {
			out := *r
			out.Seconds = used.Seconds()
			if out.Decider == "" {
				out.Decider = st.S.Name()
			} else if !strings.HasPrefix(out.Decider, st.S.Name()) {
				out.Decider = st.S.Name() + "/" + out.Decider
			}
			return &out
		}
		rs = append(rs, r)
		parts = append(parts, st.S.Name()+": "+r.Reason)
		if ctx.Err() != nil {
			break
		}
	}
	if len(rs) == 0 {
		return Unknown(nil, &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(s.limit, s.clock.IsCPU())}, "")
	}
	top := 0
	states, refinements := 0, 0
	for i, r := range rs {
		states += r.States
		refinements += r.Refinements
		if causeRank[r.Cause.Kind] >= causeRank[rs[top].Cause.Kind] {
			top = i
		}
	}
	out := *rs[len(rs)-1]
	cause := *rs[top].Cause
	if cause.Kind == results.CauseTimeout && s.limit > 0 {
		cause.Limit = results.TimeLimit(s.limit, s.clock.IsCPU())
	}
	out.SetUnknown(&cause, strings.Join(parts, "; "))
	out.States, out.Refinements, out.Seconds = states, refinements, used.Seconds()
	return &out
}
