package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/bmc"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// bmcOptions are the engine/bmc options of cfg (error edges aside).
func bmcOptions(cfg Config) bmc.Options {
	return bmc.Options{
		Entry: cfg.Entry, Solver: cfg.Solver, OneShot: cfg.OneShot, Unwind: cfg.Unwind, Unwindset: cfg.Unwindset,
		Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	}
}

// bmcVerdict turns bmc's outcome into res's verdict and reason: FALSE
// carries the counterexample bmc confirmed with
// engine/cexcheck.CheckPathOpts (Result.SetFalse), unless it passes an
// unmodelled function (UNKNOWN, res.Unmodelled set); TRUE is an
// unrolling that holds every execution or a k-induction proof;
// everything else is UNKNOWN with bmc's reason. States counts the
// unrolling's nodes (bmc builds no ARG).
func bmcVerdict(ctx context.Context, prog *cfa.Program, cfg Config, res *Result, out bmc.Result) (results.Verdict, string) {
	res.States = out.Nodes
	res.Progress = fmt.Sprintf("bound %d not finished", max(out.Bound, 1))
	if out.Checked > 0 {
		res.Progress = fmt.Sprintf("bounds up to %d hold no error", out.Checked)
	}
	switch out.Status {
	case bmc.True:
		res.Invariants, res.InductionDepth = bmcWitness(prog, out)
		return results.True, out.Reason
	case bmc.False:
		if names := prog.PathExterns(out.Path, cfa.ExternUnmodelled); len(names) > 0 {
			res.Unmodelled = names
			return results.Unknown, "error path depends on unmodelled " + strings.Join(names, ", unmodelled ")
		}
		res.SetFalse(ctx, prog, out.Reason, out.Path, out.Inputs)
		return results.False, res.Reason
	}
	return results.Unknown, out.Reason
}

// runBMC decides prop with engine/bmc.Check: bounded model checking over
// merged paths with unwinding assertions, and k-induction on the same
// encoding unless cfg fixes the bound (bmcVerdict).
func runBMC(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	opts := bmcOptions(cfg)
	opts.ErrorEdges, opts.Via, opts.KInduction = prop.ErrorEdges, prop.Via, cfg.Unwind <= 0
	if opts.KInduction {
		opts.Horn = cfg.Horn
	}
	out := bmc.Check(ctx, prog, opts)
	v, why := bmcVerdict(ctx, prog, cfg, res, out)
	switch {
	case v != results.Unknown:
		res.Verdict, res.Reason = v, why
	case res.Unmodelled != nil:
		res.SetUnknown(&results.Cause{Kind: results.CauseUnmodelled, Names: res.Unmodelled}, why)
	case out.Memory:
		res.SetUnknown(&results.Cause{Kind: results.CauseMemory}, why)
	default:
		res.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, why)
	}
}

// runBMCAll decides the properties props of one entry with
// engine/bmc.CheckAll: one unrolling per bound for all of them
// (engine/multiprop.Run calls it for the bmc configuration). A property left
// UNKNOWN by the unwinding assertions gets runBMC alone, for
// k-induction (its step case ends executions at their first error, one
// property at a time).
func runBMCAll(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, rs []*Result, decide func(int, results.Verdict, string)) {
	specs := make([]bmc.Spec, len(props))
	for i, p := range props {
		specs[i] = bmc.Spec{ErrorEdges: p.ErrorEdges, Via: p.Via}
	}
	take := func(i int, out bmc.Result) {
		v, why := bmcVerdict(ctx, prog, cfg, rs[i], out)
		decide(i, v, why)
	}
	left := bmc.CheckAll(ctx, prog, specs, bmcOptions(cfg), take)
	for i, out := range left {
		if out.CutOff && ctx.Err() == nil {
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

// bmcWitness returns what a correctness witness of bmc's TRUE out
// carries: the invariant "1" at every loop head (functions other than
// the initialiser), and the induction depth with which the validator
// checks them (engine/witness/validate, validateCorrectness: k-induction over the
// loop heads as cut points, whose base case needs no step case when no
// execution reaches the k-th cut point visit).
//
// A k-induction proof with k = out.Bound (its step case: from any state
// at a loop head, k error-free iterations are followed by an error-free
// one) is the validator's (k+1)-induction. A proof by unwinding
// assertions (no loop takes its back edge more than out.Bound times in a
// row) bounds the loop head visits of every execution: at most
// (Bound+1)^L for L loop heads, times the call edges that may repeat a
// loop (1 + their number), plus one so that the base case sees that no
// execution reaches the bound; capped at maxWitnessDepth. An estimate
// that is too small makes the validator reject the witness, never
// confirm a wrong one.
func bmcWitness(prog *cfa.Program, out bmc.Result) ([]results.Invariant, int) {
	var invs []results.Invariant
	for _, l := range prog.Locs {
		if l.LoopHead && l.Func != prog.Init {
			invs = append(invs, results.Invariant{Loc: l, States: [][]results.Fact{nil}})
		}
	}
	if out.KInduction {
		return invs, out.Bound + 1
	}
	if out.Horn {
		// the solution's conditions at the entry function's loop heads,
		// as candidates for the validator's selection
		for i, inv := range invs {
			var facts []results.Fact
			for _, x := range out.Invariants[inv.Loc] {
				facts = append(facts, results.Fact{Vars: cfa.Vars(x), Expr: x})
			}
			if facts != nil {
				invs[i].States = [][]results.Fact{facts}
			}
		}
		return invs, 1
	}
	calls := 1
	for _, e := range prog.Edges {
		if _, ok := e.Op.(*cfa.Call); ok {
			calls++
		}
	}
	k := calls
	for range invs {
		k *= out.Bound + 1
		if k > maxWitnessDepth {
			return invs, maxWitnessDepth
		}
	}
	return invs, min(k+1, maxWitnessDepth)
}

// maxWitnessDepth caps the induction depth written into a witness: the
// validator's bound (engine/witness) on it.
const maxWitnessDepth = 1 << 20
