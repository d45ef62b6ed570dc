package cegar

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// SymbolicRefiner adapts symbolic.CPA.Refine (constraint interpolation,
// seed 000, sections 2.5 and 2.6.6) to the CEGAR loop: the refined
// precision replaces the symbolic component's, and exploration restarts
// from the root (RestartRoot).
type SymbolicRefiner struct {
	sym *symbolic.CPA
	idx int
	// widener scopes the entries each refinement adds
	// (symbolic.CPA.Refine finds them at location scope); at adaptive
	// scope it widens the variables no loop assigns at once.
	widener *ScopeWidener
}

// NewSymbolicRefiner returns the refiner of comp's "symbolic" component
// whose added entries take the given scope (ScopeWidener; at
// AdaptiveScope the variables that no loop assigns are widened to their
// function at once, ScopeWidener.WidenLoopFree). It fails when comp has
// no symbolic component.
func NewSymbolicRefiner(comp *cpa.Composite, scope Scope) (*SymbolicRefiner, error) {
	idx := comp.Index("symbolic")
	if idx < 0 {
		return nil, fmt.Errorf("cegar: %s has no symbolic component", comp.Name())
	}
	sym := comp.Components()[idx].(*symbolic.CPA)
	w := NewScopeWidener(scope)
	w.WidenLoopFree(sym.Value().Program())
	return &SymbolicRefiner{sym: sym, idx: idx, widener: w}, nil
}

// Refine implements Refiner.
func (r *SymbolicRefiner) Refine(ctx context.Context, nodes []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	if len(nodes) < 2 {
		return nil, nil, ErrNotRefutable
	}
	steps := make([]cfa.Step, len(nodes)-1)
	for i := 1; i < len(nodes); i++ {
		steps[i-1] = nodes[i].Parents[0].Step
	}
	target := nodes[len(nodes)-1]
	cur, _ := target.Prec.Comps[r.idx].(*symbolic.Precision)
	next, err := r.sym.Refine(ctx, steps, cur)
	switch {
	case errors.Is(err, symbolic.ErrFeasible):
		return nil, nil, fmt.Errorf("%w: %v", ErrNotRefutable, err)
	case errors.Is(err, symbolic.ErrNoProgress):
		return nil, nil, fmt.Errorf("%w: %v", ErrNoProgress, err)
	case err != nil:
		return nil, nil, err
	}
	next = r.widen(cur, next)
	cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
	cp.Comps[r.idx] = next
	return cp, nodes[0], nil
}

// PrintPrecision implements PrecisionPrinter: the tracked variables per
// location in their stable text form (value.ScopedPrecision.Format:
// "main::y@main:+8:[y < 0]"); the tracked constraints are those on them.
func (r *SymbolicRefiner) PrintPrecision(p *cpa.CompositePrecision) []string {
	sp, ok := p.Comps[r.idx].(*symbolic.Precision)
	if !ok {
		return nil
	}
	if vars, ok := sp.Vars.(*value.ScopedPrecision); ok {
		return vars.Format(r.sym.Value().Program())
	}
	return []string{sp.String()}
}

// widen applies r.widener to the entries that next adds to cur.
func (r *SymbolicRefiner) widen(cur, next *symbolic.Precision) *symbolic.Precision {
	var old *value.ScopedPrecision
	if cur != nil {
		old, _ = cur.Vars.(*value.ScopedPrecision)
	}
	sp, ok := next.Vars.(*value.ScopedPrecision)
	if !ok {
		return next
	}
	has := func(e value.Entry) bool { return old != nil && old.Contains(e) }
	var added []value.Entry
	for _, e := range sp.Entries() {
		if !has(e) {
			added = append(added, e)
		}
	}
	return symbolic.Tracking(old.With(r.widener.Widen(added, has)...))
}
