package cegar

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reverify/reverify/engine/analysis/predicate"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// PredicateRefiner is the refiner of predicate-cegar: lazy abstraction
// with predicates per location (engine/analysis/predicate). For an error
// path it asks predicate.CPA.Interpolate for the predicates at the
// path's block boundaries (weakest preconditions of an unsat core of the
// path formula split at the boundaries), adds them at the boundaries'
// locations to the precision learnt so far, and restarts at the pivot:
// the node before the first boundary that gained a predicate (use
// RestartPivotFrontier). A path whose boundaries gain no predicate is a
// refinement without progress (ErrNoProgress: the run ends UNKNOWN,
// never TRUE); a path the block formulas do not refute is
// ErrNotRefutable (the loop then checks it bit-precisely).
type PredicateRefiner struct {
	c    *predicate.CPA
	idx  int
	prec *predicate.Precision
}

// NewPredicateRefiner returns the predicate refiner for comp, which must
// have a predicate component.
func NewPredicateRefiner(comp *cpa.Composite) (*PredicateRefiner, error) {
	idx := comp.Index("predicate")
	if idx < 0 {
		return nil, fmt.Errorf("cegar: %s has no predicate component", comp.Name())
	}
	c, ok := comp.Components()[idx].(*predicate.CPA)
	if !ok {
		return nil, fmt.Errorf("cegar: component predicate is a %T, not a *predicate.CPA", comp.Components()[idx])
	}
	_, p := c.Initial()
	prec, _ := p.(*predicate.Precision)
	return &PredicateRefiner{c: c, idx: idx, prec: prec}, nil
}

// Precision returns the predicates learnt so far.
func (r *PredicateRefiner) Precision() *predicate.Precision { return r.prec }

// Refine implements Refiner.
func (r *PredicateRefiner) Refine(ctx context.Context, nodes []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	if len(nodes) < 2 {
		return nil, nil, ErrNotRefutable
	}
	steps := make([]cfa.Step, len(nodes)-1)
	for i := 1; i < len(nodes); i++ {
		steps[i-1] = nodes[i].Parents[0].Step
	}
	bounds, err := r.c.Interpolate(ctx, steps)
	switch {
	case errors.Is(err, predicate.ErrFeasible):
		return nil, nil, fmt.Errorf("%w: %v", ErrNotRefutable, err)
	case err != nil:
		return nil, nil, err
	}
	// Progress is judged against the precision each boundary's state was
	// abstracted with, its parent's (the transfer runs under the parent's
	// precision): parts of the ARG explored before an earlier refinement,
	// waitlist states that RestartPivotFrontier gave a newer precision
	// after their abstraction among them, need the predicates learnt
	// since (the pivot re-expands them).
	prec, pivot := r.prec, -1
	for _, b := range bounds {
		prec, _ = prec.With(b.Loc, b.Preds...)
		had, _ := nodes[b.Index].Prec.Comps[r.idx].(*predicate.Precision)
		if _, n := had.With(b.Loc, b.Preds...); n > 0 && pivot < 0 {
			pivot = b.Index
		}
	}
	if pivot < 0 {
		return nil, nil, fmt.Errorf("%w: the infeasible error path gives no new predicate at its %d block boundaries", ErrNoProgress, len(bounds))
	}
	r.prec = prec
	target := nodes[len(nodes)-1]
	cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
	cp.Comps[r.idx] = prec
	return cp, nodes[pivot], nil
}

// PrintPrecision implements PrecisionPrinter: the learnt predicates per
// location (predicate.Precision.Format: "main@L3: (bvslt main::y
// #x00000000)").
func (r *PredicateRefiner) PrintPrecision(p *cpa.CompositePrecision) []string {
	pp, ok := p.Comps[r.idx].(*predicate.Precision)
	if !ok {
		return nil
	}
	return pp.Format(r.c.Program())
}
