package engine

import (
	"context"
	"fmt"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/reduce"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

// ParseReduce checks a Config.Reduce value: "none", "slice", "full",
// "thin", "value" or "" (none).
func ParseReduce(s string) error {
	_, err := reduce.ParseLevel(s)
	return err
}

// reduceShare is the part of a property's limit that the run on the
// program reduced for it may use (reducedStrategy): what it leaves
// goes to conf on the original program, so that a reduction that makes
// the program harder (an abstracted loop bound) never takes the whole
// limit.
const reduceShare = 0.5

// reducedStrategy decides prop on the program reduced for it
// (runReduced): its TRUE, or its FALSE lifted to the original program;
// anything else is UNKNOWN, for the original program to decide.
func reducedStrategy(prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration) strategy.Strategy {
	level, _ := reduce.ParseLevel(cfg.Reduce)
	return strategy.Func("reduced program ("+string(level)+")", func(ctx context.Context) *Result {
		res := &Result{Property: prop, Config: cfg.Name}
		if !runReduced(ctx, prog, prop, cfg, conf, res) {
			res.SetUnknown(&results.Cause{Kind: results.CauseIncomplete}, "no verdict on the reduced program")
		}
		return res
	})
}

// maxSliceRefinements bounds the refinements of a thin or value slice
// before the backward slice (Full) takes over.
const maxSliceRefinements = 3

// runReduced decides prop on the program reduced for it by the passes of
// Config.Reduce (engine/reduce) and reports whether res holds the
// verdict.
//
// TRUE is taken from a reduced program: every pass keeps every execution
// that reaches an error edge (an over-approximation for the property),
// so a proof on the reduced program is a proof on the original. A FALSE
// may rest on a behaviour the reduction added (a sliced loop that exits,
// an abstracted branch of a thin slice), and its path refers to the
// reduced program: it is lifted to a path of the original program
// (reduce.Lift) and checked there once (cexcheck.CheckPath, bit-precise SMT
// and concrete replay); only a Feasible original path through no
// unmodelled function is a FALSE, with the original path as its
// counterexample. Otherwise, and on UNKNOWN, false is returned
// (reducedStrategy: the sequence then runs conf on the original
// program).
//
// Thin and Value run seed 002's refinement loop: a FALSE that does not
// lift to a feasible original path adds the original branches its
// nondeterministic branches stand for (reduce.Abstracted) to the
// criterion and slices again (value slicing), at most
// maxSliceRefinements times; then the backward slice (Full) decides as
// above. A TRUE keeps no invariants and no precision (they name
// locations of the reduced program).
func runReduced(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration, res *Result) bool {
	level, _ := reduce.ParseLevel(cfg.Reduce)
	if level == reduce.None {
		return false
	}
	g := cfg.sdgs.of(prog)
	if level == reduce.Thin || level == reduce.Value {
		var keep []*cfa.Edge
		for round := 0; round <= maxSliceRefinements; round++ {
			// one round gets an eighth of the time left (a thinner
			// program can be harder: an abstracted loop bound lets a
			// counter grow without limit), so that the backward slice and
			// the original program keep most of the budget
			rctx, cancel := timeslice.Share(ctx, 8)
			done, red, r := runOnReduced(rctx, prog, prop, cfg, conf, res, reduce.RefinePasses(level, g, keep), fmt.Sprintf("%s, %d slice refinements", level, round))
			cancel()
			if done || red == nil || red.Verdict != results.False || ctx.Err() != nil {
				if done {
					return true
				}
				break
			}
			more := newEdges(keep, reduce.Abstracted(r, red.Counterexample))
			if len(more) == 0 {
				break
			}
			keep = append(keep, more...)
		}
		if ctx.Err() != nil {
			return false
		}
		level = reduce.Full
	}
	done, _, _ := runOnReduced(ctx, prog, prop, cfg, conf, res, reduce.Passes(level, g), string(level))
	return done
}

// runOnReduced runs conf on the program the passes reduce for prop and
// reports whether res holds the verdict (TRUE, or a FALSE lifted to the
// original program), with the reduced run's result and reduction.
func runOnReduced(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration, res *Result, passes []reduce.Pass, label string) (bool, *Result, *reduce.Result) {
	r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: cfg.Entry}, passes)
	rp := *prop
	rp.ErrorEdges, rp.Via = r.Target.ErrorEdges, r.Target.Via
	if len(rp.ErrorEdges) == 0 {
		res.Verdict = results.True
		res.Reason = "no error call is reachable: constant conditions remove every path to it (--reduce " + label + ": " + r.Summary() + ")"
		return true, nil, r
	}
	red := &Result{Property: prop, Config: res.Config}
	conf.run(ctx, r.Prog, &rp, cfg, red)
	switch red.Verdict {
	case results.True:
		res.Verdict, res.Reason = results.True, red.Reason+" on the program reduced for the property (--reduce "+label+": "+r.Summary()+")"
		res.States, res.Refinements = red.States, red.Refinements
		return true, red, r
	case results.False:
		if liftFalse(ctx, prog, cfg, r, red, res, label) {
			return true, red, r
		}
	}
	return false, red, r
}

// liftFalse lifts the counterexample of red (on r.Prog) to prog and, when
// the original path is feasible and calls no unmodelled function, makes
// res that FALSE.
func liftFalse(ctx context.Context, prog *cfa.Program, cfg Config, r *reduce.Result, red, res *Result, label string) bool {
	if len(red.Counterexample) == 0 {
		return false
	}
	path, err := reduce.Lift(prog, r, red.Counterexample, cfg.Entry)
	if err != nil || len(prog.PathExterns(path, cfa.ExternUnmodelled)) > 0 {
		return false
	}
	sem := smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow}
	chk := cexcheck.CheckPathOpts(ctx, prog, path, cfg.Solver, sem)
	if chk.Status != cexcheck.Feasible {
		return false
	}
	res.SetFalse(ctx, prog, red.Reason+" on the program reduced for the property (--reduce "+label+": "+r.Summary()+"); lifted to the original program: error path confirmed by SMT and concrete replay", path, chk.Inputs)
	res.States, res.Refinements = red.States, red.Refinements
	return true
}

// newEdges returns the edges of add not in have.
func newEdges(have, add []*cfa.Edge) []*cfa.Edge {
	in := map[*cfa.Edge]bool{}
	for _, e := range have {
		in[e] = true
	}
	var out []*cfa.Edge
	for _, e := range add {
		if !in[e] {
			in[e] = true
			out = append(out, e)
		}
	}
	return out
}
