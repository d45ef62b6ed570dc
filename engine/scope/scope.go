package scope

import (
	"github.com/reverify/reverify/results"
	"sort"

	"github.com/reverify/reverify/engine/analysis/predicate"
	"github.com/reverify/reverify/engine/analysis/slicing"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
)

// Of returns the scope of prop from the final ARG of the run that decided
// it; violated says the verdict is FALSE (Scope.Partial). sl, when not
// nil, is the property's static backward slice (engine/pdg): a step
// outside it cannot influence the property whatever the analysis kept, so
// only steps in it count for reason Precision (package documentation),
// and the slice's size is reported beside the scope. It returns nil when
// arg is nil or empty (configurations without an ARG, k-induction). Time
// and memory are linear in the ARG and the slice (plus, for predicate
// precisions, the predicates' size).
func Of(prog *cfa.Program, prop *spec.Property, arg *cpa.ARG, violated bool, sl *pdg.Slice) *results.Scope {
	if arg == nil || arg.Len() == 0 {
		return nil
	}
	anchors := map[*cfa.Location]bool{}
	for _, e := range prop.ErrorEdges {
		anchors[e.From] = true
		for _, in := range e.From.In {
			if _, ok := in.Op.(*cfa.Assume); ok {
				anchors[in.From] = true // the assertion's test
			}
		}
	}
	rel := &relevance{predVars: map[*predicate.Precision]map[string]bool{}, prog: prog}

	explored := map[*cfa.Location]bool{}
	inScope := map[*cfa.Location]bool{}
	kept := map[*cfa.Location]bool{} // the seed's Ω, without the slice
	funcIdx := map[*cfa.Function]int{}
	g := &results.ScopeGraph{Property: prop.ID}
	calls := map[results.ScopeCall]bool{}
	fn := func(f *cfa.Function) int {
		i, ok := funcIdx[f]
		if !ok {
			i = len(g.Funcs)
			funcIdx[f] = i
			g.Funcs = append(g.Funcs, results.ScopeFunc{Name: f.Name, Total: len(f.Locs)})
		}
		return i
	}
	bodies := map[*cfa.Function]bool{}
	var funcs []*cfa.Function // the sources' (no generated context)
	for _, f := range prog.Funcs {
		if cfa.Generated(f.Name) {
			continue
		}
		funcs = append(funcs, f)
		bodies[f] = true
		g.Program = append(g.Program, f.Name)
	}
	for _, n := range arg.Nodes {
		if n.Removed() {
			continue
		}
		l := n.Location()
		if l == nil || !bodies[l.Func] {
			continue
		}
		fi := fn(l.Func)
		g.Funcs[fi].States++
		explored[l] = true
		in := n.IsTarget() || anchors[l]
		keep := in
		for _, pe := range n.Parents {
			if pe.Step.Kind == cfa.Enter && pe.Step.Callee != nil {
				g.Funcs[fi].Calls++
				if pl := pe.Parent.Location(); pl != nil && bodies[pl.Func] {
					calls[results.ScopeCall{From: fn(pl.Func), To: fi}] = true
				}
			}
			if !in && rel.step(pe.Parent, n, pe.Step) {
				keep = true
				in = sl == nil || pe.Step.Edge != nil && sl.Contains(pe.Step.Edge)
			}
		}
		if keep {
			kept[l] = true
		}
		if in {
			g.Funcs[fi].InScope++
			inScope[l] = true
		}
	}
	for l := range explored {
		g.Funcs[funcIdx[l.Func]].Locations++
	}
	for l := range inScope {
		g.Funcs[funcIdx[l.Func]].LocationsInScope++
	}
	for c := range calls {
		g.Calls = append(g.Calls, c)
	}
	sort.Slice(g.Calls, func(i, j int) bool {
		a, b := g.Calls[i], g.Calls[j]
		return a.From < b.From || a.From == b.From && a.To < b.To
	})
	s := &results.Scope{Graph: g, Partial: violated, FunctionsTotal: len(funcs),
		FunctionsExplored: len(g.Funcs), Locations: len(inScope), LocationsExplored: len(explored)}
	for _, f := range funcs {
		s.LocationsTotal += len(f.Locs)
	}
	for _, f := range g.Funcs {
		if f.InScope > 0 {
			s.Functions = append(s.Functions, f.Name)
		}
	}
	sort.Strings(s.Functions)
	if s.LocationsTotal > 0 {
		s.Share = float64(int64(float64(s.Locations)/float64(s.LocationsTotal)*1000+0.5)) / 1000
	}
	if sl != nil {
		keptFuncs := map[*cfa.Function]bool{}
		for l := range kept {
			keptFuncs[l.Func] = true
		}
		s.KeptFunctions, s.KeptLocations = len(keptFuncs), len(kept)
		locs := map[*cfa.Location]bool{}
		funcs := map[*cfa.Function]bool{}
		add := func(l *cfa.Location) {
			if l != nil && bodies[l.Func] {
				locs[l] = true
				funcs[l.Func] = true
			}
		}
		for _, e := range sl.Edges() {
			add(e.From)
			add(e.To)
		}
		for _, e := range prop.ErrorEdges {
			add(e.From)
		}
		s.SliceFunctions, s.SliceLocations = len(funcs), len(locs)
	}
	return s
}

// relevance decides the seed's pred reason for one ARG step.
type relevance struct {
	prog     *cfa.Program
	predVars map[*predicate.Precision]map[string]bool
}

// step reports whether the step from parent to n changes or tests a
// variable that n's precision keeps (package documentation, reason
// Precision).
func (r *relevance) step(parent, n *cpa.Node, st cfa.Step) bool {
	vars, deref := touched(st)
	if len(vars) == 0 && !deref {
		return false
	}
	from, to := parent.Location(), n.Location()
	data := false
	if n.Prec != nil {
		for _, p := range n.Prec.Comps {
			keep, isData := r.keeps(p, st, from, to, vars, deref)
			if keep {
				return true
			}
			data = data || isData
		}
	}
	// No component with a data precision: nothing restricts what the
	// analysis keeps, so every touched variable counts.
	return !data
}

// keeps reports whether precision p keeps one of vars (or the heap, when
// deref) at from or to, and whether p is a data precision at all.
func (r *relevance) keeps(p cpa.Precision, st cfa.Step, from, to *cfa.Location, vars []*cfa.Var, deref bool) (keep, isData bool) {
	switch p := p.(type) {
	case *slicing.Precision:
		if st.Edge != nil && !p.Contains(st.Edge) {
			return false, true
		}
		if p.Wrapped == nil {
			return true, true
		}
		return r.keeps(p.Wrapped, st, from, to, vars, deref)
	case *symbolic.Precision:
		return tracks(p.Vars, from, to, vars, deref), true
	case value.Precision:
		return tracks(p, from, to, vars, deref), true
	case *predicate.Precision:
		pv := r.predicateVars(p)
		if len(pv) == 0 {
			// No predicates: every abstraction is true and the proof
			// rests on the exact block formulas alone.
			return true, true
		}
		for _, v := range vars {
			if pv[v.QualName()] {
				return true, true
			}
		}
		return false, true
	}
	return false, false
}

func tracks(p value.Precision, from, to *cfa.Location, vars []*cfa.Var, deref bool) bool {
	if p == nil || p.Full() {
		return true
	}
	for _, v := range vars {
		if p.Tracks(from, v) || p.Tracks(to, v) {
			return true
		}
	}
	return deref && (p.Tracks(from, nil) || p.Tracks(to, nil))
}

// predicateVars returns the qualified names of the variables of all
// predicates of p (memoised per precision).
func (r *relevance) predicateVars(p *predicate.Precision) map[string]bool {
	if m, ok := r.predVars[p]; ok {
		return m
	}
	m := map[string]bool{}
	for _, l := range r.prog.Locs {
		for _, v := range smt.Vars(p.At(l)...) {
			m[v.Name] = true
		}
	}
	r.predVars[p] = m
	return m
}

// touched returns the variables whose kept value a step can change (the
// variables of its lvalues, the declared variable, the callee's parameters
// on entry, its return variable on return) or that it tests (the
// variables of an assume's condition), and whether it writes through a
// pointer or tests memory (touches objects beyond named variables). A step
// that only reads kept variables into variables the precision drops
// changes nothing the analysis keeps.
func touched(st cfa.Step) (vars []*cfa.Var, deref bool) {
	var exprs []cfa.Expr
	switch st.Kind {
	case cfa.Enter:
		if st.Callee != nil {
			vars = append(vars, st.Callee.Params...)
		}
	case cfa.Leave:
		if st.Callee != nil && st.Callee.RetVar != nil {
			vars = append(vars, st.Callee.RetVar)
		}
		if st.Edge != nil {
			if c, ok := st.Edge.Op.(*cfa.Call); ok && c.Result != nil {
				exprs = append(exprs, c.Result)
			}
		}
	default:
		if st.Edge == nil {
			return nil, false
		}
		switch op := st.Edge.Op.(type) {
		case *cfa.Decl:
			vars = append(vars, op.Var)
		case *cfa.Assign:
			exprs = append(exprs, op.LHS)
		case *cfa.Havoc:
			exprs = append(exprs, op.LHS)
		case *cfa.Assume:
			exprs = append(exprs, op.Cond)
		case *cfa.Call:
			// A call without a body: it writes its result, and what
			// its pointer arguments reach.
			if op.Result != nil {
				exprs = append(exprs, op.Result)
			}
			for _, a := range op.Args {
				if _, ok := a.(*cfa.AddrOf); ok || a.Type() != nil && a.Type().Kind == cfa.Pointer {
					deref = true
				}
			}
		case *cfa.Return:
			if f := st.Edge.From.Func; f != nil && f.RetVar != nil {
				vars = append(vars, f.RetVar)
			}
		}
	}
	for _, e := range exprs {
		vars = append(vars, cfa.Vars(e)...)
		cfa.Walk(e, func(x cfa.Expr) bool {
			switch x.(type) {
			case *cfa.Deref, *cfa.Index:
				deref = true
			}
			return !deref
		})
	}
	return vars, deref
}
