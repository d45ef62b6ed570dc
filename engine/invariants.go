package engine

import (
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// maxInvariantStates bounds the disjuncts of one results.Invariant.
const maxInvariantStates = 2048

// loopInvariants extracts the loop invariants (results.Invariant) of
// the reached set, what the final reached set of a TRUE verdict knows at
// each loop head (seed 001, section 3.6: the reached set as a proof): for the
// value analysis the known values of integer variables ("x == 5", null
// pointers "p == 0"); for symbolic execution also equalities between
// variables holding the same symbol and the path constraints whose
// symbols are held by variables, as comparisons (constraints over other
// symbols or of other shapes are dropped, which weakens the invariant);
// for a state that reports its own (invariantReporter: the predicate
// analysis's abstraction, a Boolean combination of predicates), what it
// reports; a state with none of these contributes an empty conjunction.
// Variables of other frames (callers' locals) are dropped; globals and
// the locals of the loop's own function stay.
//
// A loop head without reached states is unreachable: its invariant has
// no disjunct (false). Under the slicing CPA the reached set describes
// the sliced program, whose states say nothing about the program's, so
// there are no invariants at all.
func loopInvariants(prog *cfa.Program, alg *cpa.Algorithm) []results.Invariant {
	for _, c := range alg.Composite().Components() {
		if c.Name() == "slicing" {
			return nil
		}
	}
	byLoc := map[*cfa.Location]*results.Invariant{}
	seen := map[*cfa.Location]map[string]bool{}
	var order []*cfa.Location
	for _, l := range prog.Locs {
		if l.LoopHead && l.Func != prog.Init {
			byLoc[l] = &results.Invariant{Loc: l}
			seen[l] = map[string]bool{}
			order = append(order, l)
		}
	}
	for _, n := range alg.Reached() {
		loc := n.Location()
		if loc == nil || !loc.LoopHead || n.IsTarget() {
			continue
		}
		// A state without a component that reports facts knows nothing
		// (true), never nothing reached (false).
		facts, _ := stateFacts(n.State, loc.Func)
		inv := byLoc[loc]
		key := factsKey(facts)
		if seen[loc][key] {
			continue
		}
		seen[loc][key] = true
		inv.States = append(inv.States, facts)
	}
	sort.Slice(order, func(i, j int) bool { return order[i].ID < order[j].ID })
	out := make([]results.Invariant, 0, len(order))
	for _, loc := range order {
		inv := byLoc[loc]
		if len(inv.States) > maxInvariantStates {
			inv.States = [][]results.Fact{joinFacts(inv.States)}
		}
		out = append(out, *inv)
	}
	return out
}

func factsKey(fs []results.Fact) string {
	ks := make([]string, len(fs))
	for i, f := range fs {
		ks[i] = f.Expr.String()
	}
	sort.Strings(ks)
	return strings.Join(ks, " && ")
}

// joinFacts returns the facts every conjunction has, and for each
// integer variable that every conjunction fixes to a constant, the
// interval hull of those constants (lo <= x && x <= hi): the join of the
// states in the domain of intervals, weaker than their disjunction.
func joinFacts(states [][]results.Fact) []results.Fact {
	count := map[string]int{}
	type hull struct {
		v      *cfa.Var
		lo, hi int64
		n      int
	}
	hulls := map[*cfa.Var]*hull{}
	var order []*cfa.Var
	for _, st := range states {
		done := map[string]bool{}
		seen := map[*cfa.Var]bool{}
		for _, f := range st {
			k := f.Expr.String()
			if !done[k] {
				done[k] = true
				count[k]++
			}
			v, c, ok := eqConst(f)
			if !ok || seen[v] {
				continue
			}
			seen[v] = true
			h := hulls[v]
			if h == nil {
				h = &hull{v: v, lo: c, hi: c}
				hulls[v] = h
				order = append(order, v)
			}
			h.lo, h.hi, h.n = min(h.lo, c), max(h.hi, c), h.n+1
		}
	}
	var out []results.Fact
	for _, f := range states[0] {
		if count[f.Expr.String()] == len(states) {
			out = append(out, f)
		}
	}
	for _, v := range order {
		h := hulls[v]
		if h.n != len(states) || h.lo == h.hi {
			continue // not fixed in every state, or already common
		}
		x := &cfa.VarRef{Var: v}
		out = append(out,
			results.Fact{Vars: []*cfa.Var{v}, Expr: &cfa.Binary{Op: cfa.Le, X: cfa.NewConst(v.T, h.lo), Y: x, T: cfa.IntT}},
			results.Fact{Vars: []*cfa.Var{v}, Expr: &cfa.Binary{Op: cfa.Le, X: x, Y: cfa.NewConst(v.T, h.hi), T: cfa.IntT}})
	}
	return out
}

// eqConst recognises the fact "x == c" of an integer variable x (not
// _Bool, at most 63 bits unsigned) and returns c as x's value.
func eqConst(f results.Fact) (*cfa.Var, int64, bool) {
	b, ok := f.Expr.(*cfa.Binary)
	if !ok || b.Op != cfa.Eq {
		return nil, 0, false
	}
	r, ok1 := b.X.(*cfa.VarRef)
	c, ok2 := b.Y.(*cfa.Const)
	if !ok1 || !ok2 || r.Var.T.Kind != cfa.Int {
		return nil, 0, false
	}
	w := r.Var.T.Width()
	if r.Var.T.IsSigned() {
		return r.Var, cfa.SignExtend(c.V, w), true
	}
	if w >= 64 && c.V>>63 != 0 {
		return nil, 0, false
	}
	return r.Var, int64(c.V), true
}

// invariantReporter is a component state that reports what it knows as
// C conditions over the variables visible accepts (their conjunction is
// implied by the state), such as *predicate.State.
type invariantReporter interface {
	Invariant(visible func(*cfa.Var) bool) []cfa.Expr
}

// stateFacts returns what the data component of s knows at a location of
// fn; ok is false when s has no value, symbolic or invariantReporter
// component.
func stateFacts(s *cpa.CompositeState, fn *cfa.Function) ([]results.Fact, bool) {
	for _, c := range s.Comps {
		if r, ok := c.(invariantReporter); ok {
			return exprFacts(r.Invariant(func(v *cfa.Var) bool { return visible(v, fn) })), true
		}
		switch st := c.(type) {
		case *value.State:
			return valueFacts(st, fn), true
		case *symbolic.State:
			return symbolicFacts(st, fn), true
		}
	}
	return nil, false
}

// visible reports whether v is a global or a local of fn (the current
// frame at fn's locations).
func visible(v *cfa.Var, fn *cfa.Function) bool {
	if v.Temp || v.Orig == "" {
		return false
	}
	if v.Global {
		return !strings.Contains(v.Name, "::")
	}
	return v.Func == fn.Name
}

func valueFacts(st *value.State, fn *cfa.Function) []results.Fact {
	vars, _ := st.KnownVars()
	var out []results.Fact
	for _, v := range vars {
		if !visible(v, fn) || !(v.T.IsInteger() || v.T.Kind == cfa.Pointer) {
			continue
		}
		x, ok := st.Int(v)
		if !ok {
			continue
		}
		if v.T.Kind == cfa.Pointer {
			if x != 0 {
				continue
			}
			out = append(out, eqFact(v, &cfa.Const{T: v.T, V: 0}))
			continue
		}
		out = append(out, eqFact(v, cfa.NewConst(v.T, x)))
	}
	return out
}

func eqFact(v *cfa.Var, c cfa.Expr) results.Fact {
	return results.Fact{Vars: []*cfa.Var{v}, Expr: &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: c, T: cfa.IntT}}
}

func symbolicFacts(st *symbolic.State, fn *cfa.Function) []results.Fact {
	mem := st.Memory()
	vars, _ := mem.KnownVars()
	holder := map[*smt.Term]*cfa.Var{}
	var out []results.Fact
	var derived []*cfa.Var // variables holding ite(c, 1, 0) terms
	for _, v := range vars {
		if !visible(v, fn) || v.T.Kind != cfa.Int {
			continue
		}
		if x, ok := mem.Int(v); ok {
			out = append(out, eqFact(v, cfa.NewConst(v.T, x)))
			continue
		}
		t, ok := mem.Term(v)
		if ok && t.Op == smt.Ite {
			derived = append(derived, v)
		}
		if !ok || t.Op != smt.Var || t.Sort.Width != v.T.Bits {
			continue
		}
		if h := holder[t]; h != nil {
			if cfa.Same(h.T, v.T) {
				out = append(out, results.Fact{Vars: []*cfa.Var{v, h}, Expr: &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: &cfa.VarRef{Var: h}, T: cfa.IntT}})
			}
			continue
		}
		holder[t] = v
	}
	for _, v := range derived {
		// v == (c) for a truth value v = c ? 1 : 0 (a comparison stored
		// as a value, flag = n > 3).
		t, _ := mem.Term(v)
		a, b := t.Args[1], t.Args[2]
		if a.Op != smt.BVConst || b.Op != smt.BVConst || a.Hi != 0 || b.Hi != 0 || a.Val+b.Val != 1 {
			continue
		}
		fs := constraintFacts(t.Args[0], holder, a.Val == 0)
		if len(fs) != 1 {
			continue
		}
		out = append(out, results.Fact{Vars: append([]*cfa.Var{v}, fs[0].Vars...),
			Expr: &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: fs[0].Expr, T: cfa.IntT}})
	}
	for _, c := range st.Constraints() {
		out = append(out, constraintFacts(c.Term, holder, false)...)
	}
	return out
}

// constraintFacts translates a path constraint into comparisons over the
// variables holding its symbols (negated when neg); untranslatable parts
// are dropped (a conjunction keeps its translatable conjuncts, anything
// else translates whole or not at all).
func constraintFacts(t *smt.Term, holder map[*smt.Term]*cfa.Var, neg bool) []results.Fact {
	switch t.Op {
	case smt.Not:
		return constraintFacts(t.Args[0], holder, !neg)
	case smt.And:
		if neg {
			return nil
		}
		var out []results.Fact
		for _, a := range t.Args {
			out = append(out, constraintFacts(a, holder, false)...)
		}
		return out
	}
	var op cfa.BinaryOp
	signed, anySign := false, false
	switch t.Op {
	case smt.Eq:
		op, anySign = cfa.Eq, true
	case smt.Ult:
		op = cfa.Lt
	case smt.Ule:
		op = cfa.Le
	case smt.Slt:
		op, signed = cfa.Lt, true
	case smt.Sle:
		op, signed = cfa.Le, true
	default:
		return nil
	}
	if len(t.Args) != 2 || !t.Args[0].Sort.IsBV() {
		return nil
	}
	w := t.Args[0].Sort.Width
	if w != 8 && w != 16 && w != 32 && w != 64 {
		return nil
	}
	if neg {
		op = op.Negate()
	}
	var vars []*cfa.Var
	operand := func(a *smt.Term) cfa.Expr {
		if a.Op == smt.BVConst {
			return nil // typed below
		}
		inner, ext := a, smt.Op(0)
		if a.Op == smt.SignExt || a.Op == smt.ZeroExt {
			inner, ext = a.Args[0], a.Op
		}
		v := holder[inner]
		if v == nil {
			return nil
		}
		switch {
		case ext == smt.SignExt && !v.T.Signed, ext == smt.ZeroExt && v.T.Signed:
			return nil
		}
		vars = append(vars, v)
		return &cfa.VarRef{Var: v}
	}
	x, y := operand(t.Args[0]), operand(t.Args[1])
	if x == nil && y == nil {
		return nil
	}
	if (x == nil && t.Args[0].Op != smt.BVConst) || (y == nil && t.Args[1].Op != smt.BVConst) {
		return nil
	}
	if anySign {
		signed = vars[0].T.Signed
	}
	ct := cfa.IntType(w, signed)
	conv := func(e cfa.Expr, a *smt.Term) cfa.Expr {
		if e == nil {
			return &cfa.Const{T: ct, V: cfa.Truncate(a.Val, w)}
		}
		if cfa.Same(e.Type(), ct) {
			return e
		}
		return &cfa.Cast{X: e, T: ct}
	}
	return []results.Fact{{Vars: vars, Expr: &cfa.Binary{Op: op, X: conv(x, t.Args[0]), Y: conv(y, t.Args[1]), T: cfa.IntT}}}
}

// exprFacts wraps conditions as Facts, each with the variables it reads.
func exprFacts(xs []cfa.Expr) []results.Fact {
	out := make([]results.Fact, 0, len(xs))
	for _, x := range xs {
		var vars []*cfa.Var
		seen := map[*cfa.Var]bool{}
		cfa.Walk(x, func(e cfa.Expr) bool {
			if r, ok := e.(*cfa.VarRef); ok && !seen[r.Var] {
				seen[r.Var] = true
				vars = append(vars, r.Var)
			}
			return true
		})
		out = append(out, results.Fact{Vars: vars, Expr: x})
	}
	return out
}
