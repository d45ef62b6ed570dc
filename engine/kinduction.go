package engine

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/kinduction"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
)

// runKInduction decides prop with engine/kinduction.Check. FALSE carries
// the base case's counterexample, which kinduction confirmed with
// engine/cegar.CheckPathOpts as every FALSE is; TRUE is a k-induction
// proof; everything else is UNKNOWN with kinduction's reason. States
// counts the paths kinduction enumerated (it builds no ARG).
func runKInduction(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	out := kinduction.Check(ctx, prog, kinduction.Options{
		Entry: cfg.Entry, ErrorEdges: prop.ErrorEdges, Via: prop.Via, Solver: cfg.Solver,
		Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	})
	res.States = out.Paths
	res.Reason = out.Reason
	switch out.Status {
	case kinduction.True:
		res.Verdict = True
	case kinduction.False:
		res.Verdict = False
		res.Counterexample, res.Inputs = out.Path, inputs(out.Path, out.Inputs)
		res.SignedOverflow = signedOverflow(ctx, prog, out.Path, out.Inputs)
		if res.SignedOverflow != "" {
			res.Reason += "; it overflows a signed integer at " + res.SignedOverflow +
				" (undefined in C: --signed-overflow assume-none cuts such paths)"
		}
	default:
		res.Verdict = Unknown
	}
}
