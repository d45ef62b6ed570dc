package invariants

import (
	"slices"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/results"
)

// maxInvariantStates bounds the disjuncts of one results.Invariant.
const maxInvariantStates = 2048

// Loops returns the loop invariants (results.Invariant) of the
// reached set: each
// reached state at a loop head contributes the facts its data component
// reports (cpa.InvariantReporter: the value analysis's known values,
// symbolic execution's equalities and path constraints, the predicate
// analysis's abstraction; each documents its own); a state without such
// a component contributes an empty conjunction.
// Variables of other frames (callers' locals) are dropped; globals and
// the locals of the loop's own function stay.
//
// A loop head without reached states is unreachable: its invariant has
// no disjunct (false). Under the slicing CPA the reached set describes
// the sliced program, whose states say nothing about the program's, so
// there are no invariants at all.
func Loops(prog *cfa.Program, alg *cpa.Algorithm) []results.Invariant {
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

// stateFacts returns what the data component of s knows at a location of
// fn: the facts of its first component that reports them
// (cpa.InvariantReporter, over the globals and fn's locals); ok is false
// when no component does.
func stateFacts(s *cpa.CompositeState, fn *cfa.Function) ([]results.Fact, bool) {
	for _, c := range s.Comps {
		if r, ok := c.(cpa.InvariantReporter); ok {
			return Facts(r.Invariant(func(v *cfa.Var) bool { return visible(v, fn) })), true
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

// Facts wraps conditions xs (C conditions of type int) as
// results.Facts, one each in order, with the variables it reads.
func Facts(xs []cfa.Expr) []results.Fact {
	out := make([]results.Fact, 0, len(xs))
	for _, x := range xs {
		var vars []*cfa.Var // few per condition: a linear search is cheapest
		cfa.Walk(x, func(e cfa.Expr) bool {
			if r, ok := e.(*cfa.VarRef); ok && !slices.Contains(vars, r.Var) {
				vars = append(vars, r.Var)
			}
			return true
		})
		out = append(out, results.Fact{Vars: vars, Expr: x})
	}
	return out
}

// Proved turns the invariants a k-induction proof assumed
// at its cut points into results.Invariants: one disjunct per loop head (of
// functions other than the initialiser), the conjunction of the proved
// invariants over visible variables there ("1" where none was proved).
// They hold at every visit of the loop head before an error (Houdini in
// engine/kinduction), so they are sound loop invariants; whether they
// imply the property 1-inductively (always with k = 1, not necessarily
// with k > 1) is for the witness validator (engine/witness/validate.Select),
// which writes what it confirms.
func Proved(prog *cfa.Program, proved map[*cfa.Location][]cfa.Expr) []results.Invariant {
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
		out = append(out, results.Invariant{Loc: l, States: [][]results.Fact{Facts(xs)}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Loc.ID < out[j].Loc.ID })
	return out
}
