package engine

import (
	"context"
	"strings"

	"github.com/reverify/reverify/engine/bmc"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// runBMC decides prop with engine/bmc.Check: bounded model checking over
// merged paths with unwinding assertions. FALSE carries the
// counterexample bmc confirmed with engine/cegar.CheckPathOpts, as every
// FALSE is; TRUE is an unrolling that holds every execution; everything
// else is UNKNOWN with bmc's reason. States counts the unrolling's nodes
// (bmc builds no ARG).
func runBMC(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	out := bmc.Check(ctx, prog, bmc.Options{
		Entry: cfg.Entry, ErrorEdges: prop.ErrorEdges, Via: prop.Via, Solver: cfg.Solver, OneShot: cfg.OneShot,
		Unwind: cfg.Unwind, KInduction: cfg.Unwind <= 0,
		Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	})
	res.States = out.Nodes
	res.Reason = out.Reason
	switch out.Status {
	case bmc.True:
		res.Verdict = results.True
	case bmc.False:
		if names := prog.PathExterns(out.Path, cfa.ExternUnmodelled); len(names) > 0 {
			res.Unmodelled = names
			res.SetUnknown(&results.Cause{Kind: results.CauseUnmodelled, Names: names}, "error path depends on unmodelled "+strings.Join(names, ", unmodelled "))
			return
		}
		falseVerdict(ctx, prog, cfg, res, out.Reason, out.Path, out.Inputs)
	default:
		res.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, out.Reason)
	}
}
