package strategy

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Result is the outcome of verifying one property.
type Result struct {
	Property *spec.Property
	Verdict  results.Verdict
	// Reason is the sentence people read: for UNKNOWN and NOT_CHECKED
	// rendered from Cause and the analyses' details (WithCause), for
	// TRUE and FALSE the evidence. Code decides on Cause, never on
	// Reason.
	Reason string
	// Cause is why the verdict is UNKNOWN or NOT_CHECKED, as data (nil
	// for TRUE and FALSE).
	Cause *results.Cause
	// Detail is what the analyses add to an UNKNOWN's cause (an arm's
	// own reason, the states it explored); Reason is Render(Cause,
	// Detail).
	Detail string
	Config string
	// Decider is the arm or step of the configuration's strategy that
	// decided the property ("" when the strategy is one analysis, or
	// for UNKNOWN).
	Decider string
	// Selection is why a portfolio's arms ran in the order they did: the
	// program's features and class (engine/features), "" when the
	// strategy chose none.
	Selection   string
	Seconds     float64 // seconds of this property's runs on the clock its limit is measured on (Clock: CPU under --clock cpu, else wall)
	States      int     // abstract states reached (summed over refinements)
	Refinements int
	// Progress is how far an analysis got in its own terms beside the
	// states it counts (bmc: "bounds up to 8 hold no error"), part of
	// the detail of an UNKNOWN that its deadline stopped.
	Progress string
	// Precision is the final precision of a CEGAR configuration in its
	// stable text form (value.ScopedPrecision.Format), one entry per
	// element, sorted: "main::x@main:+8:[x < 0]" (tracked at the location
	// of main whose statement is the test x < 0, 8 lines into main;
	// value.LocationKeys), "main::x@main" (in all of main), "g"
	// (everywhere). It survives edits elsewhere in the program and can
	// seed a later run (Config.InitialPrecision).
	Precision []string
	// Counterexample is the error path of a FALSE verdict, confirmed
	// feasible by the SMT check and concrete replay, with the values of
	// the nondeterministic inputs in the order they are read.
	Counterexample []cfa.Step
	Inputs         []results.Input
	// Unmodelled names external functions the analysis havocked.
	Unmodelled []string
	// Assumptions are what the verdict assumes beyond the program:
	// "pure f" for each function without a body that the program calls
	// and the user declared side-effect-free (Config.AssumePure).
	Assumptions []string
	// Entry is the entry function the verdict was decided from when it
	// is not the configuration's (library mode: the most general context
	// of a function, engine/harness); "" otherwise.
	Entry string
	// SignedOverflow is, for FALSE under wrap-around semantics, the
	// position (file:line:col) of the first signed +, -, * or unary -
	// on the counterexample whose result wraps: undefined behaviour in
	// C, so a checker assuming its absence (SV-COMP) disagrees. Empty
	// otherwise.
	SignedOverflow string
	// FailureValues are the values of the failing assertion's operands
	// (h->len, x) where the counterexample fails it, from a concrete
	// replay (interp.FailureValues); empty when not FALSE or when the
	// replay cannot read them.
	FailureValues []results.FailureValue
	// Violated is, for FALSE of a memory-safety property, the violated
	// subproperty ("valid-deref", "valid-free", "valid-memtrack",
	// "valid-memcleanup"; engine/memsafety), and ViolationPos where.
	Violated     string
	ViolationPos cfa.Pos
	// Memory is the violation's typed fact, when the analysis recorded
	// one (results.MemoryViolation).
	Memory *results.MemoryViolation
	// ARG is the final abstract reachability graph of the last run, kept
	// only when Config.KeepARG is set (for pixel trees and witnesses);
	// with Config.KeepShape its Shape instead, once the result is final.
	ARG *cpa.ARG
	// Shape is the shape of ARG (Config.KeepShape; shared by the
	// properties of one run) and ShapePath the IDs of its nodes on the
	// counterexample's path, root first (FALSE only): what the picture
	// of the exploration draws, without the states.
	Shape     *cpa.Shape
	ShapePath []int
	// Invariants of a TRUE verdict reached by a fixed point: per loop
	// head, what the final reached set knows there (for correctness
	// witnesses, engine/witness).
	Invariants []results.Invariant
	// InductionDepth is the k with which Invariants prove a TRUE verdict
	// by k-induction over the loop heads as cut points (0 and 1: they
	// are inductive): a k-induction proof's k + 1, or, for bounded model
	// checking whose unwinding assertions hold, a bound on the loop head
	// visits of every execution (engine/witness, Correctness.K).
	InductionDepth int
	// Scope is the property scope of a TRUE or FALSE verdict
	// (Config.Scope; engine/scope), nil otherwise.
	Scope *results.Scope
}

// Decided reports whether v is a verdict (TRUE or FALSE).
func Decided(v results.Verdict) bool { return v == results.True || v == results.False }

// Unknown returns an UNKNOWN result of prop with cause and reason (the
// details after the cause's sentence; "" for the sentence alone).
func Unknown(prop *spec.Property, cause *results.Cause, detail string) *Result {
	r := &Result{Property: prop}
	r.SetUnknown(cause, detail)
	return r
}

// SetUnknown makes r UNKNOWN with cause; its reason is the cause's
// sentence followed by detail when the detail does not already say it.
func (r *Result) SetUnknown(cause *results.Cause, detail string) {
	r.Verdict, r.Cause, r.Detail, r.Reason = results.Unknown, cause, detail, Render(cause, detail)
}

// Render is the one rendering of a cause with an analysis's details:
// "timeout after 60s", "timeout after 60s (value-cegar: 12 refinements)".
func Render(cause *results.Cause, detail string) string {
	s := cause.Sentence()
	switch {
	case detail == "" || detail == s:
		return s
	case s == "" || cause.Kind == results.CauseIncomplete || cause.Kind == results.CauseUnsupported ||
		cause.Kind == results.CauseInternal || cause.Kind == results.CauseStates && len(detail) >= len(s) && detail[:len(s)] == s:
		return detail
	}
	return s + " (" + detail + ")"
}
