package engine

import (
	"context"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/reduce"
	"github.com/reverify/reverify/engine/spec"
)

// ParseReduce checks a Config.Reduce value: "none", "slice", "full" or
// "" (none).
func ParseReduce(s string) error {
	_, err := reduce.ParseLevel(s)
	return err
}

// runReduced decides prop on the program reduced for it by the passes of
// Config.Reduce (engine/reduce) and reports whether res holds the
// verdict. Only TRUE is taken from a reduced program: every pass keeps
// every execution that reaches an error edge (an over-approximation for
// the property), so a proof on the reduced program is a proof on the
// original; a FALSE may rest on a behaviour slicing added (a sliced loop
// that exits), and its counterexample would refer to the reduced
// program, so FALSE and UNKNOWN are decided again on the original
// program (false: the caller runs conf on it). A TRUE keeps no
// invariants and no precision (they name locations of the reduced
// program).
func runReduced(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration, res *Result) bool {
	level, _ := reduce.ParseLevel(cfg.Reduce)
	if level == reduce.None {
		return false
	}
	r, rprop := reduceFor(prog, prop, cfg.Entry, level)
	if len(rprop.ErrorEdges) == 0 {
		res.Verdict = True
		res.Reason = "no error call is reachable: constant conditions remove every path to it (--reduce " + string(level) + ": " + r.Summary() + ")"
		return true
	}
	red := &Result{Property: prop, Config: res.Config}
	conf.run(ctx, r.Prog, rprop, cfg, red)
	if red.Verdict != True {
		return false
	}
	res.Verdict, res.Reason = True, red.Reason+" on the program reduced for the property (--reduce "+string(level)+": "+r.Summary()+")"
	res.States, res.Refinements = red.States, red.Refinements
	return true
}

// reduceFor returns the program reduced for prop and the property as its
// edges.
func reduceFor(prog *cfa.Program, prop *spec.Property, entry string, level reduce.Level) (*reduce.Result, *spec.Property) {
	r := reduce.Reduce(prog, reduce.Target{ErrorEdges: prop.ErrorEdges, Via: prop.Via, Entry: entry}, reduce.Passes(level, programSDG(prog)))
	rp := *prop
	rp.ErrorEdges, rp.Via = r.Target.ErrorEdges, r.Target.Via
	return r, &rp
}
