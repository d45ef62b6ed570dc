package strategy

import (
	"context"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// SetFalse makes r the FALSE of a confirmed error path (path with
// the solver's inputs): its counterexample and inputs, the first signed
// overflow on it and the failing assertion's values, and the reason
// evidence followed by the overflow note. It is the one place the FALSE
// of a reachability property is built (a memory-safety violation's is
// engine/memsafety's); the overflow and the values come from concrete
// replays of path with the inputs (engine/interp).
func (r *Result) SetFalse(ctx context.Context, prog *cfa.Program, evidence string, path []cfa.Step, in []smt.InputValue) {
	r.Verdict, r.Reason, r.Cause, r.Detail = results.False, evidence, nil, ""
	r.Counterexample, r.Inputs = path, cexcheck.Inputs(path, in)
	r.SignedOverflow = signedOverflow(ctx, prog, path, in)
	r.FailureValues = failureValues(ctx, prog, path, in)
	if r.SignedOverflow != "" {
		r.Reason += "; it overflows a signed integer at " + r.SignedOverflow +
			" (undefined in C: --signed-overflow assume-none cuts such paths)"
	}
}

// signedOverflow replays a confirmed counterexample (its path and model
// inputs) and returns the position of its first signed overflow, or ""
// when it has none (or the replay fails, which cexcheck.CheckPath has
// already ruled out).
func signedOverflow(ctx context.Context, prog *cfa.Program, path []cfa.Step, in []smt.InputValue) string {
	values := make([]uint64, len(in))
	for i, v := range in {
		values[i] = v.Value
	}
	pos, found, _ := interp.FirstSignedOverflow(ctx, prog, path, values)
	if !found {
		return ""
	}
	return pos.String()
}

// failureValues replays a confirmed counterexample and returns the values
// of the failing assertion's integer operands where it fails (see
// interp.FailureValues); nil when the replay cannot read them.
func failureValues(ctx context.Context, prog *cfa.Program, path []cfa.Step, in []smt.InputValue) []results.FailureValue {
	values := make([]uint64, len(in))
	for i, v := range in {
		values[i] = v.Value
	}
	vs, err := interp.FailureValues(ctx, prog, path, values)
	if err != nil {
		return nil
	}
	var out []results.FailureValue
	for _, v := range vs {
		x := int64(v.Bits)
		if v.Type.IsSigned() {
			x = cfa.SignExtend(v.Bits, v.Type.Width())
		}
		out = append(out, results.FailureValue{Expr: v.Expr, Type: v.Type.String(), Value: x})
	}
	return out
}
