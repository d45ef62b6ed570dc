package engine

import (
	"context"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
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
		res.Invariants, res.InductionDepth = kInductionInvariants(prog, out.Proved), out.K+1
	case kinduction.False:
		falseVerdict(ctx, prog, cfg, res, out.Reason, out.Path, out.Inputs)
	default:
		res.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, out.Reason)
	}
}

// kInductionInvariants turns the invariants a k-induction proof assumed
// at its cut points into LoopInvariants: one disjunct per loop head (of
// functions other than the initialiser), the conjunction of the proved
// invariants over visible variables there ("1" where none was proved).
// They hold at every visit of the loop head before an error (Houdini in
// engine/kinduction), so they are sound loop invariants; whether they
// imply the property 1-inductively (always with k = 1, not necessarily
// with k > 1) is for the witness validator (engine/witness/validate.Select),
// which writes what it confirms.
func kInductionInvariants(prog *cfa.Program, proved map[*cfa.Location][]cfa.Expr) []results.Invariant {
	var out []results.Invariant
	for _, l := range prog.Locs {
		if !l.LoopHead || l.Func == prog.Init {
			continue
		}
		var xs []cfa.Expr
		for _, x := range proved[l] {
			ok := true
			cfa.Walk(x, func(e cfa.Expr) bool {
				if r, isRef := e.(*cfa.VarRef); isRef && !visible(r.Var, l.Func) {
					ok = false
				}
				return ok
			})
			if ok {
				xs = append(xs, x)
			}
		}
		out = append(out, results.Invariant{Loc: l, States: [][]results.Fact{exprFacts(xs)}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Loc.ID < out[j].Loc.ID })
	return out
}
