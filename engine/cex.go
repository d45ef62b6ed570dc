package engine

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// inputs returns the model values of a feasible error path (checked by
// engine/cexcheck.CheckPath: SMT and concrete replay) as results.Inputs
// (results.NewInput: signed values sign-extended, each input's source
// position).
func inputs(path []cfa.Step, in []smt.InputValue) []results.Input {
	out := make([]results.Input, len(in))
	for i, in := range in {
		out[i] = results.NewInput(in.Source, in.Type, in.Value, in.Step, path)
	}
	return out
}
