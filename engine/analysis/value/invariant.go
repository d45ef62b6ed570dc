package value

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

var _ cpa.InvariantReporter = (*State)(nil)

// Invariant implements cpa.InvariantReporter: what s knows about the
// program variables that visible accepts, as C conditions (cfa
// expressions of type int, 1 or 0; their conjunction is implied by s):
// "x == 5" for each integer variable the memory holds as a constant, and
// "p == 0" for each null pointer, and "a[3] == 0" for each element of
// an array of integers that the memory holds as a constant, when it
// holds at most maxArrayFacts of them (an array filled by a loop would
// give one condition per element; a few known elements are what a loop
// over the others needs, such as the sentinel a search stops at).
// Variables s does not know, and
// pointers to objects, are left out, which only weakens the result
// (sound: the reached set over-approximates the reachable states, seed
// 001, section 3.6). Used for the loop invariants of correctness
// witnesses (engine.LoopInvariant).
func (s *State) Invariant(visible func(*cfa.Var) bool) []cfa.Expr {
	vars, _ := s.KnownVars()
	var out []cfa.Expr
	for _, v := range vars {
		if visible(v) && v.T.Kind == cfa.Array {
			out = append(out, s.elementFacts(v)...)
			continue
		}
		if !visible(v) || !(v.T.IsInteger() || v.T.Kind == cfa.Pointer) {
			continue
		}
		x, ok := s.Int(v)
		if !ok {
			continue
		}
		if v.T.Kind == cfa.Pointer {
			if x != 0 {
				continue
			}
			out = append(out, EqExpr(v, &cfa.Const{T: v.T, V: 0}))
			continue
		}
		out = append(out, EqExpr(v, cfa.NewConst(v.T, x)))
	}
	return out
}

// maxArrayFacts bounds the known elements of one array that Invariant
// reports.
const maxArrayFacts = 8

// elementFacts returns "a[k] == c" for the elements of the array
// variable a (of integers, one dimension, of known length) that s holds
// as constants, or nothing when there are more than maxArrayFacts.
func (s *State) elementFacts(a *cfa.Var) []cfa.Expr {
	et := a.T.Elem
	if et == nil || !et.IsInteger() || et.Kind == cfa.Bool || a.T.Len <= 0 || et.Size <= 0 {
		return nil
	}
	obj := memory.GlobalObj(a.ID)
	if !a.Global {
		obj = memory.LocalObj(s.depth, a.ID)
	}
	var offs []int64
	s.mem.Each(func(n *memory.Node) bool {
		if n.Obj == obj && n.Off%et.Size == 0 && n.Off/et.Size < a.T.Len && (len(offs) == 0 || offs[len(offs)-1] != n.Off) {
			offs = append(offs, n.Off)
		}
		return len(offs) <= 4*maxArrayFacts
	})
	var out []cfa.Expr
	t := tx{c: s.c, s: *s, full: true}
	for _, off := range offs {
		val, ok := t.load(Addr{Obj: obj, Off: off, Known: true, OffKnown: true}, et)
		if !ok || val.Obj != 0 || val.Sym != nil {
			continue
		}
		if len(out) == maxArrayFacts {
			return nil
		}
		el := &cfa.Index{X: &cfa.VarRef{Var: a}, I: cfa.NewConst(cfa.IntT, off/et.Size), T: et}
		out = append(out, &cfa.Binary{Op: cfa.Eq, X: el, Y: cfa.NewConst(et, IntOf(val, et)), T: cfa.IntT})
	}
	return out
}

// EqExpr returns the C condition v == x (type int).
func EqExpr(v *cfa.Var, x cfa.Expr) cfa.Expr {
	return &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: x, T: cfa.IntT}
}
