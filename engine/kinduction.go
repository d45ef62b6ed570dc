package engine

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/invariants"
	"github.com/reverify/reverify/engine/kinduction"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// runKInduction decides prop with engine/kinduction.Check. FALSE carries
// the base case's counterexample, which kinduction confirmed with
// engine/cexcheck.CheckPathOpts as every FALSE is; TRUE is a k-induction
// proof; everything else is UNKNOWN with kinduction's reason. States
// counts the paths kinduction enumerated (it builds no ARG).
func runKInduction(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	out := kinduction.Check(ctx, prog, kinduction.Options{
		Entry: cfg.Entry, ErrorEdges: prop.ErrorEdges, Via: prop.Via, Solver: cfg.Solver,
		// the invariants of a proof that needed none cost another search:
		// only when evidence is kept (check --output)
		ProofInvariants: cfg.KeepARG,
		Semantics:       smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	})
	res.States = out.Paths
	res.Reason = out.Reason
	switch out.Status {
	case kinduction.True:
		res.Verdict = results.True
		// The step case with k = out.K is the validator's (K+1)-induction
		// (engine/witness/validate, validateCorrectness).
		res.Invariants, res.InductionDepth = invariants.Proved(prog, out.Proved), out.K+1
	case kinduction.False:
		res.SetFalse(ctx, prog, out.Reason, out.Path, out.Inputs)
	default:
		res.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, out.Reason)
	}
}
