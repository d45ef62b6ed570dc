package engine

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
)

type cexStatus uint8

const (
	feasible cexStatus = iota
	infeasible
	undecided
)

type cexResult struct {
	status cexStatus
	inputs []Input
	reason string
}

// checkCounterexample decides whether path is a real execution: the
// bit-precise SMT encoding of the path (engine/smt.CheckPath) must have a
// model without undefined behaviour, and the concrete interpreter run
// with the model's inputs must follow the path step by step
// (engine/interp.Replay). Infeasible means the SMT check proved the path
// impossible; every other disagreement is undecided, never FALSE.
func checkCounterexample(ctx context.Context, prog *cfa.Program, path []cfa.Step, cfg Config) cexResult {
	b := smt.NewBuilder()
	pr, err := smt.CheckPath(ctx, b, cfg.Solver, prog, path)
	if err != nil {
		return cexResult{status: undecided, reason: err.Error()}
	}
	switch pr.Status {
	case smt.Unsat:
		return cexResult{status: infeasible}
	case smt.Unknown:
		return cexResult{status: undecided, reason: pr.Reason}
	}
	if ok, err := interp.Replay(ctx, prog, path, pr.Values()); !ok {
		return cexResult{status: undecided, reason: "concrete replay disagrees with the SMT model: " + err.Error()}
	}
	inputs := make([]Input, len(pr.Inputs))
	for i, in := range pr.Inputs {
		v := int64(in.Value)
		if in.Type != nil && in.Type.IsSigned() {
			v = cfa.SignExtend(in.Value, in.Type.Width())
		}
		var pos cfa.Pos
		if in.Step >= 0 && in.Step < len(path) && path[in.Step].Edge != nil {
			pos = path[in.Step].Edge.Pos.Start
		}
		inputs[i] = Input{Source: in.Source, Type: in.Type, Value: v, Bits: in.Value, Step: in.Step, Pos: pos}
	}
	return cexResult{status: feasible, inputs: inputs}
}
