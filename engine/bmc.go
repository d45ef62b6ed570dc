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

// runBMCAll decides the properties props of one entry with
// engine/bmc.CheckAll: one unrolling per bound for all of them
// (verifyMulti calls it for the bmc configuration). Results are as
// runBMC's.
func runBMCAll(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, rs []*Result, decide func(int, results.Verdict, string)) {
	specs := make([]bmc.Spec, len(props))
	for i, p := range props {
		specs[i] = bmc.Spec{ErrorEdges: p.ErrorEdges, Via: p.Via}
	}
	take := func(i int, out bmc.Result) {
		r := rs[i]
		r.States = out.Nodes
		switch out.Status {
		case bmc.True:
			decide(i, results.True, out.Reason)
		case bmc.False:
			if names := prog.PathExterns(out.Path, cfa.ExternUnmodelled); len(names) > 0 {
				r.Unmodelled = names
				decide(i, results.Unknown, "error path depends on unmodelled "+strings.Join(names, ", unmodelled "))
				return
			}
			falseVerdict(ctx, prog, cfg, r, out.Reason, out.Path, out.Inputs)
			decide(i, results.False, r.Reason)
		default:
			decide(i, results.Unknown, out.Reason)
		}
	}
	left := bmc.CheckAll(ctx, prog, specs, bmc.Options{
		Entry: cfg.Entry, Solver: cfg.Solver, OneShot: cfg.OneShot, Unwind: cfg.Unwind,
		Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	}, take)
	for i, out := range left {
		if out.CutOff && ctx.Err() == nil {
			// k-induction needs one property at a time (its step case
			// ends executions at their first error)
			one := *rs[i]
			runBMC(ctx, prog, props[i], cfg, &one)
			if one.Verdict == results.True || one.Verdict == results.False {
				*rs[i] = one
				decide(i, one.Verdict, one.Reason)
				continue
			}
		}
		take(i, out)
	}
}
