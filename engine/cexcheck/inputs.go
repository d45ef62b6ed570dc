package cexcheck

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// Inputs returns the model values in of a feasible error path (a
// Result's Inputs, checked by CheckPath: SMT and concrete replay) as
// results.Inputs, one per value in order (results.NewInput: signed
// values sign-extended, each input's source position on path).
func Inputs(path []cfa.Step, in []smt.InputValue) []results.Input {
	out := make([]results.Input, len(in))
	for i, in := range in {
		out[i] = results.NewInput(in.Source, in.Type, in.Value, in.Step, path)
	}
	return out
}
