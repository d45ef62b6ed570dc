package cexcheck

import (
	"context"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
)

// Feasibility is the outcome of the bit-precise counterexample check.
type Feasibility uint8

// Outcomes of CheckPath.
const (
	// Feasible: the SMT encoding of the path has a model without
	// undefined behaviour and the concrete interpreter, fed with the
	// model's inputs, follows the path to its end.
	Feasible Feasibility = iota
	// Infeasible: the SMT check proved the path impossible, whatever
	// values undefined operations produce.
	Infeasible
	// Undecided: anything else (solver unknown or cancelled, a path the
	// encoder cannot express, a replay that disagrees with the model).
	Undecided
)

var feasibilityNames = [...]string{"feasible", "infeasible", "undecided"}

func (f Feasibility) String() string { return feasibilityNames[f] }

// Check is the result of CheckPath.
type Check struct {
	Status Feasibility
	// Inputs are the model's values of the nondeterministic inputs, in
	// the order the path reads them (Feasible only).
	Inputs []smt.InputValue
	// HeapInit are the model's initial bytes of the blocks allocated
	// along the path (smt.PathResult.HeapInit; Feasible only).
	HeapInit map[int][]byte
	// Reason explains Undecided.
	Reason string
	// UB is the undefined operation of an Undecided path that is
	// feasible only with undefined behaviour (smt.PathResult.UB).
	UB *smt.UBCond
}

// Why says why a check is no counterexample: Reason for Undecided, and
// for Infeasible that the path's bit-precise encoding has no model (a
// formula that found the path was coarser than C's semantics there).
// It is empty for Feasible.
func (c Check) Why() string {
	switch c.Status {
	case Infeasible:
		return "the path it takes is infeasible under bit-precise C semantics (its step-by-step encoding is unsatisfiable)"
	case Undecided:
		return c.Reason
	}
	return ""
}

// CheckPath decides whether path is a real execution of prog: the
// bit-precise SMT encoding (smt.CheckPath) must have a model without
// undefined behaviour, and the concrete interpreter run with the model's
// inputs must follow the path step by step (interp.Replay). Only then is
// it Feasible; an SMT proof of unsatisfiability is Infeasible; every
// other outcome, including a replay that disagrees with the model, is
// Undecided and never a counterexample.
func CheckPath(ctx context.Context, prog *cfa.Program, path []cfa.Step, solver smt.Factory) Check {
	return CheckPathOpts(ctx, prog, path, solver, smt.EncodeOptions{})
}

// CheckPathOpts is CheckPath under a variant of the C semantics (sem).
// With sem.AssumeNoSignedOverflow the model has no signed overflow, so
// the replay, which wraps, follows the same execution; with
// sem.WrapPointerArith the replay wraps pointer offsets as the encoding
// does.
func CheckPathOpts(ctx context.Context, prog *cfa.Program, path []cfa.Step, solver smt.Factory, sem smt.EncodeOptions) Check {
	b := smt.NewBuilder()
	pr, err := smt.CheckPathOpts(ctx, b, solver, prog, path, sem)
	if err != nil {
		return Check{Status: Undecided, Reason: err.Error()}
	}
	switch pr.Status {
	case smt.Unsat:
		return Check{Status: Infeasible}
	case smt.Unknown:
		return Check{Status: Undecided, Reason: pr.Reason, UB: pr.UB}
	}
	if ok, err := interp.ReplayHeapSem(ctx, prog, path, pr.Values(), pr.HeapInit, interp.Semantics{WrapPointerArith: sem.WrapPointerArith, ZeroPagePointers: sem.ZeroPagePointers}); !ok {
		reason := "concrete replay disagrees with the SMT model"
		if ext := prog.PathExterns(path, cfa.ExternUnmodelled); len(ext) > 0 {
			// The SMT encoding havocs what they may write; the replay
			// cannot know what they write and stops there.
			return Check{Status: Undecided, Reason: "error path depends on unmodelled " + strings.Join(ext, ", ")}
		}
		if err != nil {
			reason += ": " + err.Error()
		}
		return Check{Status: Undecided, Reason: reason}
	}
	return Check{Status: Feasible, Inputs: pr.Inputs, HeapInit: pr.HeapInit}
}
