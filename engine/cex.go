package engine

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// inputs converts the model values of a feasible error path (checked by
// engine/cegar.CheckPath: SMT and concrete replay) into Inputs, with
// signed values sign-extended and each input's source position.
func inputs(path []cfa.Step, in []smt.InputValue) []Input {
	out := make([]Input, len(in))
	for i, in := range in {
		v := int64(in.Value)
		if in.Type != nil && in.Type.IsSigned() {
			v = cfa.SignExtend(in.Value, in.Type.Width())
		}
		var pos cfa.Pos
		if in.Step >= 0 && in.Step < len(path) && path[in.Step].Edge != nil {
			pos = path[in.Step].Edge.Pos.Start
		} else if in.Step >= 0 && in.Step < len(path) && path[in.Step].Callee != nil {
			pos = path[in.Step].Callee.Pos.Start // an entry parameter
		}
		out[i] = Input{Source: in.Source, Type: in.Type, Value: v, Bits: in.Value, Step: in.Step, Pos: pos}
	}
	return out
}
