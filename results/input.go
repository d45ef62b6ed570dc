package results

import "github.com/reverify/reverify/engine/cfa"

// Input is one nondeterministic value read on a counterexample: what the
// engine reports with a FALSE verdict (engine.Result.Inputs), what a
// confirmed violation witness yields (engine/witness/validate.Validation), and
// what violation witnesses and reproducers are written from
// (engine/witness.Violation).
type Input struct {
	// Source names the origin: the __VERIFIER_nondet_* function called,
	// "extern f", "uninitialised x", "decl x" (an uninitialised local's
	// indeterminate value), "volatile x", an entry parameter; empty
	// means: whatever the step at Step reads.
	Source string
	// Type is the type of the value read (nil: the type of the lvalue the
	// step stores into).
	Type *cfa.Type `json:"-"`
	// Value is the value as a number: Bits sign-extended from the type's
	// width for signed types, else Bits.
	Value int64
	// Bits is the value's bit pattern (truncated to the type's width).
	Bits uint64
	// Step indexes the counterexample step that reads it: a Havoc, a
	// Decl (an uninitialised local), an Intra Call of an external
	// function, or the entry of the entry function (a parameter).
	Step int
	// Pos is the source position of that step (zero when unknown).
	Pos cfa.Pos
}

// NewInput returns the Input with bit pattern bits of type t read at
// path[step]: Value is bits sign-extended when t is signed, Pos the
// position of the step's edge, or of the callee for an entry step (an
// entry parameter); a step outside path leaves Pos zero.
func NewInput(source string, t *cfa.Type, bits uint64, step int, path []cfa.Step) Input {
	v := int64(bits)
	if t != nil && t.IsSigned() {
		v = cfa.SignExtend(bits, t.Width())
	}
	var pos cfa.Pos
	if step >= 0 && step < len(path) {
		if s := path[step]; s.Edge != nil {
			pos = s.Edge.Pos.Start
		} else if s.Callee != nil {
			pos = s.Callee.Pos.Start
		}
	}
	return Input{Source: source, Type: t, Value: v, Bits: bits, Step: step, Pos: pos}
}
