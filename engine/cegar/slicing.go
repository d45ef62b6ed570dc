package cegar

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/reverify/reverify/engine/analysis/slicing"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

// SlicingCriterion selects the slicing criteria that slicing refinement
// takes from an infeasible error path (seed 000, section 3.3).
type SlicingCriterion uint8

const (
	// TargetPath slices for every assumption of the path (its Assume
	// edges, __VERIFIER_assume calls and calls through function
	// pointers, which select a callee) and its last edge: the slice then
	// holds everything the path's infeasibility can rest on, so the same
	// path cannot come back and every counterexample is valid (section
	// 3.3, "Slicing Refinement with valid Counterexamples", figure 21).
	TargetPath SlicingCriterion = iota
	// TargetLocation slices for the path's last edge only (the edge into
	// the target state, with all variables): the seed's first
	// formulation, which on figure 21 finds the same infeasible path
	// again and makes no progress.
	TargetLocation
)

var criterionNames = [...]string{"path", "location"}

func (c SlicingCriterion) String() string {
	if !c.Valid() {
		return fmt.Sprintf("SlicingCriterion(%d)", c)
	}
	return criterionNames[c]
}

// Valid reports whether c is one of the criteria above.
func (c SlicingCriterion) Valid() bool { return int(c) < len(criterionNames) }

// ParseSlicingCriterion parses "path" (also "") or "location".
func ParseSlicingCriterion(s string) (SlicingCriterion, error) {
	switch s {
	case "", "path":
		return TargetPath, nil
	case "location":
		return TargetLocation, nil
	}
	return 0, fmt.Errorf("unknown slicing criterion %q (want path or location)", s)
}

// SlicingOptions configure a SlicingRefiner.
type SlicingOptions struct {
	Criterion SlicingCriterion
	// Solver creates the solvers of the full-program feasibility check
	// (required).
	Solver smt.Factory
	// Semantics is the C semantics of that check (Options.Semantics).
	Semantics smt.EncodeOptions
	// LazyCheck postpones the full-program check of an error path until
	// the slice stops growing: a path whose slice adds edges is refined
	// without a check (a feasible path comes back under the larger slice
	// and is checked then); with a delegate, the CEGAR loop checks the
	// paths the delegate cannot refute. By default every path is checked
	// first, as in the seed (section 3.3).
	LazyCheck bool
	// Delegate, when not nil, returns the wrapped analysis's own refiner
	// (value interpolation, constraint interpolation) for the given
	// composite, which is the refined composite with the slicing
	// component replaced by the analysis it wraps.
	Delegate func(unwrapped *cpa.Composite) (Refiner, error)
}

// SlicingStats count the work of a SlicingRefiner.
type SlicingStats struct {
	Checks       int // full-program feasibility checks of error paths
	Slices       int // refinements that grew the slice
	EdgesAdded   int // edges added to the slice, over all refinements
	Delegated    int // refinements delegated to the wrapped analysis's refiner
	NoProgress   int // infeasible paths whose slice was already in the precision, without a delegate
	LastCriteria int // criteria of the last slice computed
}

// SlicingRefiner is slicing refinement (seed 000, section 3.3,
// Algorithm 4) for a composite with a component named "slicing" (an
// *slicing.CPA):
//
//  1. check the error path bit-precisely on the full program (cexcheck.CheckPath):
//     unless it is infeasible, Refine fails with ErrNotRefutable and the
//     CEGAR loop reports the confirmed counterexample (or UNKNOWN when
//     the check is undecided);
//  2. compute the slicing criteria (SlicingCriterion) and their static
//     backward slice (engine/pdg) and add it to the slicing precision:
//     first the slice in the calling context of the call active at the
//     path's last edge (pdg.SDG.SliceVia: for an assertion wrapper, the
//     property's own call, not every assertion), and when that adds no
//     edge, the full slice (every calling context);
//  3. if that added no edge to the path's precision, delegate to the
//     wrapped analysis's refiner (Options.Delegate) on the path as the
//     wrapped analysis saw it (out-of-slice steps as no-ops, states and
//     precisions unwrapped), or, without one, fail with ErrNoProgress
//     (UNKNOWN with the reason).
//
// The slice accumulates over all refinements. The pivot of a slice
// refinement is the first path node from which a step changes from a
// no-op to its operation; a delegated refinement's pivot is the
// delegate's. It is not safe for concurrent use.
type SlicingRefiner struct {
	prog     *cfa.Program
	sc       *slicing.CPA
	idx      int
	opts     SlicingOptions
	delegate Refiner
	acc      *slicing.Precision // the slice learnt so far
	Stats    SlicingStats
}

// NewSlicingRefiner returns the slicing refiner for comp.
func NewSlicingRefiner(prog *cfa.Program, comp *cpa.Composite, opts SlicingOptions) (*SlicingRefiner, error) {
	if opts.Solver == nil {
		return nil, errors.New("cegar: slicing refinement needs a solver")
	}
	idx := comp.Index("slicing")
	if idx < 0 {
		return nil, fmt.Errorf("cegar: %s has no slicing component", comp.Name())
	}
	sc, ok := comp.Components()[idx].(*slicing.CPA)
	if !ok {
		return nil, fmt.Errorf("cegar: component slicing is a %T, not a *slicing.CPA", comp.Components()[idx])
	}
	_, p := sc.Initial()
	r := &SlicingRefiner{prog: prog, sc: sc, idx: idx, opts: opts, acc: p.(*slicing.Precision)}
	if opts.Delegate != nil {
		comps := slices.Clone(comp.Components())
		comps[idx] = sc.Wrapped()
		unwrapped, err := cpa.NewComposite(comps...)
		if err != nil {
			return nil, err
		}
		if r.delegate, err = opts.Delegate(unwrapped); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Delegate returns the wrapped analysis's refiner, or nil.
func (r *SlicingRefiner) Delegate() Refiner { return r.delegate }

// Slice returns the slice learnt so far.
func (r *SlicingRefiner) Slice() *slicing.Precision { return r.acc }

// Criteria returns the slicing criteria of an error path under r's
// criterion kind (see SlicingCriterion).
func (r *SlicingRefiner) Criteria(path []cfa.Step) []*cfa.Edge {
	return SlicingCriteria(r.opts.Criterion, path)
}

// SlicingCriteria returns the criteria of path for kind: its last edge,
// and for TargetPath also every assumption on it.
func SlicingCriteria(kind SlicingCriterion, path []cfa.Step) []*cfa.Edge {
	var out []*cfa.Edge
	if kind == TargetPath {
		for _, s := range path {
			if s.Edge == nil || s.Kind == cfa.Leave {
				continue
			}
			switch op := s.Edge.Op.(type) {
			case *cfa.Assume:
				out = append(out, s.Edge)
			case *cfa.Call:
				if op.FnPtr != nil || op.Fn == "__VERIFIER_assume" {
					out = append(out, s.Edge)
				}
			}
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i].Edge != nil {
			out = append(out, path[i].Edge)
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return slices.Compact(out)
}

// Refine implements Refiner (see SlicingRefiner).
func (r *SlicingRefiner) Refine(ctx context.Context, nodes []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	if len(nodes) < 2 {
		return nil, nil, ErrNotRefutable
	}
	steps := make([]cfa.Step, len(nodes)-1)
	for i := 1; i < len(nodes); i++ {
		steps[i-1] = nodes[i].Parents[0].Step
	}
	if !r.opts.LazyCheck {
		if err := r.check(ctx, steps); err != nil {
			return nil, nil, err
		}
	}
	target := nodes[len(nodes)-1]
	cur, ok := target.Prec.Comps[r.idx].(*slicing.Precision)
	if !ok {
		return nil, nil, fmt.Errorf("cegar: slicing precision is a %T", target.Prec.Comps[r.idx])
	}
	crit := r.Criteria(steps)
	r.Stats.LastCriteria = len(crit)
	// The slice in the calling context of the path's last call first
	// (SliceVia: leaving that callee ascends to this call only), the
	// full static slice when that adds nothing.
	var tries [][]*cfa.Edge
	if via := innermostCall(steps); via != nil {
		tries = append(tries, r.sc.SDG().SliceVia(via, crit).Edges())
	}
	tries = append(tries, r.sc.SDG().Slice(crit).Edges())
	for _, edges := range tries {
		if _, grew := cur.With(edges); grew == 0 {
			continue
		}
		r.acc, _ = r.acc.With(edges)
		next := r.acc.WithWrapped(cur.Wrapped)
		r.Stats.Slices++
		r.Stats.EdgesAdded += next.Len() - cur.Len()
		cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
		cp.Comps[r.idx] = next
		return cp, r.pivot(nodes, steps, cur, next), nil
	}
	if r.delegate == nil {
		if r.opts.LazyCheck {
			if err := r.check(ctx, steps); err != nil {
				return nil, nil, err
			}
		}
		r.Stats.NoProgress++
		return nil, nil, fmt.Errorf("%w: slicing refinement: the target-%s slice of the infeasible error path (%d criteria) is already in the precision, and the wrapped analysis has no refiner", ErrNoProgress, r.opts.Criterion, len(crit))
	}
	r.Stats.Delegated++
	unwrapped := r.unwrap(nodes)
	prec, pivot, err := r.delegate.Refine(ctx, unwrapped, arg)
	if err != nil {
		return nil, nil, err
	}
	cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
	cp.Comps[r.idx] = r.acc.WithWrapped(prec.Comps[r.idx])
	for i, n := range unwrapped {
		if n == pivot {
			return cp, nodes[i], nil
		}
	}
	return cp, nil, nil
}

// innermostCall returns the Call edge of the innermost call active at
// the path's last edge, before its last step (the error call, which
// may enter a function with a body); nil in the entry function.
func innermostCall(path []cfa.Step) *cfa.Edge {
	var stack []*cfa.Edge
	for _, s := range path[:max(len(path)-1, 0)] {
		switch {
		case s.Kind == cfa.Enter && s.Edge != nil:
			stack = append(stack, s.Edge)
		case s.Kind == cfa.Leave && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return stack[len(stack)-1]
}

// check checks the error path on the full program: nil when it is
// infeasible, else an error wrapping ErrNotRefutable (feasible, a real
// counterexample, or undecided: the loop's own check decides).
func (r *SlicingRefiner) check(ctx context.Context, steps []cfa.Step) error {
	r.Stats.Checks++
	chk := cexcheck.CheckPathOpts(ctx, r.prog, steps, r.opts.Solver, r.opts.Semantics)
	if chk.Status != cexcheck.Infeasible {
		return fmt.Errorf("%w: the error path is %s on the full program", ErrNotRefutable, chk.Status)
	}
	return nil
}

// pivot returns the node before the first step of the path that the new
// precision hands to the wrapped analysis as its operation where the old
// one made it a no-op (the root when there is none).
func (r *SlicingRefiner) pivot(nodes []*cpa.Node, steps []cfa.Step, old, next *slicing.Precision) *cpa.Node {
	for i, s := range steps {
		if s.Edge != nil && r.sc.Relevant(s.Edge, next) && !r.sc.Relevant(s.Edge, old) {
			return nodes[i]
		}
	}
	return nodes[0]
}

// unwrap returns the path as the wrapped analysis saw it: copies of the
// nodes whose slicing component holds the wrapped state and precision,
// linked by the steps the slicing CPA handed to the wrapped transfer.
func (r *SlicingRefiner) unwrap(nodes []*cpa.Node) []*cpa.Node {
	out := make([]*cpa.Node, len(nodes))
	for i, n := range nodes {
		sc := slices.Clone(n.State.Comps)
		ss := sc[r.idx].(*slicing.State)
		sc[r.idx] = ss.W
		pc := slices.Clone(n.Prec.Comps)
		sp := pc[r.idx].(*slicing.Precision)
		pc[r.idx] = sp.Wrapped
		out[i] = &cpa.Node{ID: n.ID, State: &cpa.CompositeState{Comps: sc}, Prec: &cpa.CompositePrecision{Comps: pc}, Depth: n.Depth}
		if i > 0 {
			parent := nodes[i-1]
			ws, _ := r.sc.WrappedStep(parent.State.Comps[r.idx].(*slicing.State), n.Parents[0].Step, parent.Prec.Comps[r.idx].(*slicing.Precision))
			out[i].Parents = []cpa.Edge{{Parent: out[i-1], Step: ws}}
		}
	}
	return out
}

// PrintPrecision implements PrecisionPrinter: the delegate's entries,
// then one entry per edge of the slice, "slice main:L3->L4" (function,
// source and target location), sorted.
func (r *SlicingRefiner) PrintPrecision(p *cpa.CompositePrecision) []string {
	sp, ok := p.Comps[r.idx].(*slicing.Precision)
	if !ok {
		return nil
	}
	var out []string
	if pp, ok := r.delegate.(PrecisionPrinter); ok {
		comps := slices.Clone(p.Comps)
		comps[r.idx] = sp.Wrapped
		out = pp.PrintPrecision(&cpa.CompositePrecision{Comps: comps})
	}
	var sl []string
	for _, e := range sp.Edges(r.prog) {
		sl = append(sl, fmt.Sprintf("%s%s:%s->%s", SliceEntryPrefix, e.From.Func.Name, e.From, e.To))
	}
	sort.Strings(sl)
	return append(out, slices.Compact(sl)...)
}

// SliceEntryPrefix starts the precision entries (PrintPrecision) that
// name slice edges.
const SliceEntryPrefix = "slice "
