package smt

import (
	"context"
	"errors"
	"time"
)

// Result is the outcome of a satisfiability check.
type Result uint8

// Results. Unknown is never Unsat: a solver that gives up, is cancelled or
// runs out of time answers Unknown with an error saying why.
const (
	Unknown Result = iota
	Sat
	Unsat
)

func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Solver decides conjunctions of Bool terms of one Builder. A Solver is
// not safe for concurrent use; cancellation of the context passed to Check
// is the only cross-goroutine interaction.
type Solver interface {
	// Assert adds t (Bool) to the current assertion level.
	Assert(t *Term)
	// Push opens an assertion level; Pop discards the assertions made
	// since the matching Push.
	Push()
	Pop()
	// Check decides the conjunction of the assertions. Unknown (the
	// solver gave up, or ctx was cancelled or reached its deadline) is
	// never Unsat; err explains Unknown and is nil otherwise.
	Check(ctx context.Context) (Result, error)
	// CheckAssuming checks the assertions together with the assumptions
	// (Bool terms), which are not kept. On Unsat it returns an unsat core:
	// a subset of assumptions, in their order, whose conjunction with the
	// assertions is unsatisfiable (not necessarily minimal).
	CheckAssuming(ctx context.Context, assumptions []*Term) (Result, []*Term, error)
	// Model returns a model of the last Check or CheckAssuming that
	// answered Sat, or nil.
	Model() Model
	// Close releases the solver's resources; the solver and its models
	// must not be used afterwards.
	Close()
}

// Normalizer is a Solver that can rewrite the terms asserted after
// Normalize into a normal form of bit-vector arithmetic: sums of
// monomials, so that polynomial identities (y*y + y - 2*x with y and x
// advanced by a loop step) become syntactic ones. Bit-blasting decides
// nonlinear 64-bit identities badly; normalised, the conjunction of an
// invariant and its negated successor is often false outright. The
// witness validator uses it for segments with nonlinear arithmetic.
type Normalizer interface {
	Normalize()
}

// AssertContexter is a Solver whose Assert can be interrupted: when ctx
// is done during the assertion, the assertion may be partial and the
// next Check answers Unknown with ctx's error. solveOnce uses it, so that
// asserting a huge path formula stops at the property's deadline.
type AssertContexter interface {
	AssertContext(ctx context.Context, t *Term)
}

// ErrMemory is wrapped by the error of a check that a solver gave up
// because it reached its memory limit (a solver process's: package
// solverproc), so that an analysis can report the memory limit as the
// cause of its UNKNOWN.
var ErrMemory = errors.New("the solver reached its memory limit")

// ErrWorkLimit is wrapped by the error of a check that reached its work
// bound (WorkLimiter): the solver stopped by itself, without an
// interrupt, and its assertion stack stays usable.
var ErrWorkLimit = errors.New("the solver reached its work bound")

// Model is a satisfying assignment.
type Model interface {
	// Eval returns the value of a bit-vector term (bits 0..63 in lo,
	// 64..127 in hi) or a Bool term (0 or 1) under the model, with model
	// completion: variables the model leaves free get a default value.
	Eval(t *Term) (lo, hi uint64)
}

// Factory creates a Solver for terms of b (engine/smt/z3.Factory is the
// production one).
type Factory func(b *Builder) Solver

// WorkLimiter is a Solver whose checks can be bounded by a deterministic
// measure of the solver's work (Z3's resource limit) instead of time: a
// bounded check gives the same answer on an idle and on a loaded
// machine, and stopping it needs no interrupt, so the solver stays
// usable afterwards. CheckWork is Check with at most work units; a check
// that reaches them answers Unknown with an error wrapping ErrWorkLimit.
type WorkLimiter interface {
	CheckWork(ctx context.Context, work uint64) (Result, error)
}

// CheckBounded checks s within work units of its work measure when s is
// a WorkLimiter, with wall of wall-clock time as a backstop for what the
// measure does not count (Z3's preprocessing of a large term), and
// within wall alone otherwise. Unknown when a bound is reached, as when
// ctx ends.
func CheckBounded(ctx context.Context, s Solver, work uint64, wall time.Duration) (Result, error) {
	bctx, cancel := context.WithTimeout(ctx, wall)
	defer cancel()
	if w, ok := s.(WorkLimiter); ok {
		return w.CheckWork(bctx, work)
	}
	return s.Check(bctx)
}
