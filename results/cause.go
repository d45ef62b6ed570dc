package results

import (
	"strings"
	"time"
)

// CauseKind names why a property is UNKNOWN (or NOT_CHECKED): the data
// that caches, gates and reports decide on. The sentence shown to people
// is Reason, rendered once from the cause by the engine.
type CauseKind string

// The causes. The first group are limits: more time or memory may decide
// the property (Cause.Limited).
const (
	// CauseTimeout: the property's time limit ended its analyses
	// (Limit: the limit, "60s" or "60s CPU").
	CauseTimeout CauseKind = "timeout"
	// CauseMemory: the memory watchdog stopped it (Limit: "1.5GiB").
	CauseMemory CauseKind = "memory-limit"
	// CauseStates: an analysis reached its state limit (Limit: states).
	CauseStates CauseKind = "state-limit"
	// CauseRefinements: CEGAR reached its refinement limit.
	CauseRefinements CauseKind = "refinement-limit"
	// CauseBudget: the caller's total time budget (or its cancellation)
	// stopped the run: nothing is known about the program under the
	// property's own limits, and nothing of it is cached.
	CauseBudget CauseKind = "time-budget"

	// CauseUnsupported: a construct whose effect is not over-approximated
	// was reached (At: where), so TRUE is refused.
	CauseUnsupported CauseKind = "unsupported"
	// CauseUnmodelled: the only error paths found pass functions without
	// a body whose effect was havocked (Names), so FALSE is refused.
	CauseUnmodelled CauseKind = "unmodelled"
	// CauseIncomplete: an analysis gave up for a reason of its own (a
	// counterexample check it could not decide, no progress of a
	// refinement, a recursion bound, an analysis outside its scope).
	CauseIncomplete CauseKind = "incomplete"
	// CauseDisagreement: two analyses decided differently (a bug in one
	// of them): neither verdict is given (Names: the two).
	CauseDisagreement CauseKind = "disagreement"
	// CauseInternal: reverify failed (a recovered panic, an error of
	// the solver); never a statement about the program.
	CauseInternal CauseKind = "internal-error"
	// CauseNotReachable: NOT_CHECKED, no call path from the entry.
	CauseNotReachable CauseKind = "not-reachable"
	// CauseUndefined: the only error path found is feasible only with
	// undefined behaviour (At: where; Names: the operation, "invalid
	// memory access"): neither a violation nor a proof.
	CauseUndefined CauseKind = "undefined-behaviour"
	// CausePrecondition: violated in a function's most general context
	// (library mode, package library), but not in a way any API call was
	// shown to reach (Names: the function): the function needs a
	// precondition, or its callers' contexts are too general.
	CausePrecondition CauseKind = "needs-precondition"
)

// Cause is why a property is UNKNOWN or NOT_CHECKED, as data: its kind
// and what the kind needs (Limit, At, Names). Nil for TRUE and FALSE.
type Cause struct {
	Kind CauseKind `json:"kind"`
	// Limit is the limit a limit cause hit, as written by the user
	// ("60s", "60s CPU", "1.5GiB", "500000 states").
	Limit string `json:"limit,omitempty"`
	// At is the source position (file:line:col) of an unsupported
	// construct.
	At string `json:"at,omitempty"`
	// Names are the unmodelled functions (CauseUnmodelled) or the
	// disagreeing analyses (CauseDisagreement).
	Names []string `json:"names,omitempty"`
}

// Limited reports whether the cause is a limit: the same analyses with
// more time, memory or states may decide the property.
func (c *Cause) Limited() bool {
	if c == nil {
		return false
	}
	switch c.Kind {
	case CauseTimeout, CauseMemory, CauseStates, CauseRefinements, CauseBudget:
		return true
	}
	return false
}

// TimedOut reports whether the cause is the property's own time limit.
func (c *Cause) TimedOut() bool { return c != nil && c.Kind == CauseTimeout }

// Cacheable reports whether an UNKNOWN with this cause says something
// about the program under the limits it ran with, so that a verdict
// cache may keep it: not an internal error, not a run the caller's
// budget stopped, not a memory limit (the properties running in
// parallel share it, so whether it is hit depends on the others), not a
// disagreement (a bug to fix). Nil (a verdict) is cacheable.
func (c *Cause) Cacheable() bool {
	if c == nil {
		return true
	}
	switch c.Kind {
	case CauseInternal, CauseBudget, CauseMemory, CauseDisagreement:
		return false
	}
	return true
}

// TimeLimit formats a time limit for Cause.Limit: "60s", or "60s CPU"
// when cpu says the limit is on CPU time.
func TimeLimit(d time.Duration, cpu bool) string {
	s := d.Round(time.Millisecond).String()
	if cpu {
		s += " CPU"
	}
	return s
}

// Sentence renders the cause as the sentence a C programmer reads, in
// front of the details the analyses add ("gave up after 60s", "stopped
// at the memory limit 1.5GiB"). Empty for a nil cause.
func (c *Cause) Sentence() string {
	if c == nil {
		return ""
	}
	switch c.Kind {
	case CauseTimeout:
		return "timeout" + prefixed(" after ", c.Limit)
	case CauseMemory:
		return "memory limit" + prefixed(" ", c.Limit) + " exceeded"
	case CauseStates:
		return "state limit " + c.Limit
	case CauseRefinements:
		return "refinement limit " + c.Limit + " reached"
	case CauseBudget:
		return "stopped by the total time budget" + prefixed(" ", c.Limit)
	case CauseUnsupported:
		return "unsupported construct" + prefixed(" at ", c.At)
	case CauseUnmodelled:
		return "error path depends on unmodelled " + strings.Join(c.Names, ", ")
	case CauseDisagreement:
		return "analyses disagree: " + strings.Join(c.Names, " and ")
	case CauseInternal:
		return "internal error"
	case CauseNotReachable:
		return "no call path reaches the assertion"
	case CauseUndefined:
		return "the error path needs undefined behaviour (" + strings.Join(c.Names, ", ") + prefixed(" at ", c.At) + ")"
	case CausePrecondition:
		return "needs a precondition of " + strings.Join(c.Names, ", ")
	}
	return string(c.Kind)
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}
