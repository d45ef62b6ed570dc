package cegar

import (
	"context"
	"slices"

	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// refineShape is shape refinement (seed 001_7a124141fc78263e.txt,
// sections 3.11 and 4.2.10; value/smg_refine.go) for an error path that
// the value analysis with full precision and the ARG's list abstraction
// cannot refute. If the same path with full precision and no list
// abstraction is infeasible, the abstraction lost what refutes it (the
// length of a chain merged into a segment, or its links): every loop
// head on the path whose state holds a list segment moves one rung up
// the ladder of smg.NextListThreshold (chains of ≥ 6, then ≥ 12
// blocks, then no abstraction there), location-scoped. The ladder is
// finite, so repeated refinements end: a path whose loop heads are all
// at "off" is not refutable (ErrNotRefutable: the loop checks it
// bit-precisely), and the loop's own check (the same path under the same
// precision) ends in UNKNOWN. The pivot is the parent of the first node
// at such a loop head.
//
// Any threshold is sound (a segment of ≥ n blocks stands for every chain
// of n or more), so shape refinement only changes how much the analysis
// unrolls; a counterexample is still reported only after the SMT check
// and the concrete replay.
func (r *ValueRefiner) refineShape(ctx context.Context, nodes []*cpa.Node, steps []cfa.Step) (*cpa.CompositePrecision, *cpa.Node, error) {
	if !r.infeasibleWithoutLists(ctx, nodes, steps) {
		return nil, nil, ErrNotRefutable
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var entries []value.Entry
	pivot := -1
	seen := map[*cfa.Location]bool{}
	cur := r.initial()
	for i, st := range steps {
		next := r.post(cur, st, nodes[i+1])
		if next == nil {
			break // cannot happen: the path is feasible with lists
		}
		cur = next
		l := st.Next()
		if l == nil || !l.LoopHead || seen[l] || !cur.HasListSegment() {
			continue
		}
		seen[l] = true
		th := 0
		if sp := r.shapeOf(nodes[i+1]); sp != nil {
			th = sp.ListThreshold(l)
		}
		name, ok := smg.NextListThreshold(th)
		if !ok {
			continue
		}
		e := value.Entry{Name: name, Func: l.Func.Name, Loc: l.Index}
		if r.prec.Contains(e) {
			continue
		}
		entries = append(entries, e)
		if pivot < 0 {
			pivot = i
		}
	}
	if len(entries) == 0 {
		return nil, nil, ErrNotRefutable
	}
	r.prec = r.prec.With(entries...)
	r.Stats.Refinements++
	r.Stats.ShapeRefinements++
	target := nodes[len(nodes)-1]
	cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
	cp.Comps[r.idx] = r.prec
	return cp, nodes[pivot], nil
}

// infeasibleWithoutLists reports whether the path is infeasible for the
// value analysis with full precision and no list abstraction (of two
// successors, the one the ARG took where it is comparable, else the
// first: a wrong choice can only cost a refinement, never soundness).
func (r *ValueRefiner) infeasibleWithoutLists(ctx context.Context, nodes []*cpa.Node, steps []cfa.Step) bool {
	cur := r.initial()
	for i, st := range steps {
		if i&1023 == 1023 && ctx.Err() != nil {
			return false
		}
		if cur = r.postWith(cur, st, nodes[i+1], value.FullValues{NoLists: true}); cur == nil {
			return true
		}
	}
	return false
}
