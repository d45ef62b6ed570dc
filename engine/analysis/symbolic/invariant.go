package symbolic

import (
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

var _ cpa.InvariantReporter = (*State)(nil)

// Invariant implements cpa.InvariantReporter: what s knows about the
// program variables that visible accepts, as C conditions (cfa
// expressions of type int, 1 or 0; their conjunction is implied by s):
// "x == 5" for an integer variable holding a constant; "x == y" for two
// variables of one type holding the same symbol; "f == (x < y)" for a
// variable holding the truth value ite(c, 1, 0) of a translatable
// comparison c; and the path constraints whose symbols are held by
// visible variables, as comparisons. Constraints over other symbols or
// of other shapes are left out (a conjunction keeps its translatable
// conjuncts), which only weakens the result (sound: the reached set
// over-approximates the reachable states, seed 001, section 3.6). Used
// for the loop invariants of correctness witnesses
// (engine.LoopInvariant).
func (s *State) Invariant(visible func(*cfa.Var) bool) []cfa.Expr {
	mem := s.Memory()
	vars, _ := mem.KnownVars()
	holder := map[*smt.Term]*cfa.Var{}
	var out []cfa.Expr
	var derived []*cfa.Var // variables holding ite(c, 1, 0) terms
	for _, v := range vars {
		if !visible(v) || v.T.Kind != cfa.Int {
			continue
		}
		if x, ok := mem.Int(v); ok {
			out = append(out, value.EqExpr(v, cfa.NewConst(v.T, x)))
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
				out = append(out, value.EqExpr(v, &cfa.VarRef{Var: h}))
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
		cs := constraintExprs(t.Args[0], holder, a.Val == 0)
		if len(cs) != 1 {
			continue
		}
		out = append(out, value.EqExpr(v, cs[0]))
	}
	for _, c := range s.Constraints() {
		out = append(out, constraintExprs(c.Term, holder, false)...)
	}
	return out
}

// constraintExprs translates a path constraint into comparisons over the
// variables holding its symbols (negated when neg); untranslatable parts
// are dropped (a conjunction keeps its translatable conjuncts, anything
// else translates whole or not at all).
func constraintExprs(t *smt.Term, holder map[*smt.Term]*cfa.Var, neg bool) []cfa.Expr {
	switch t.Op {
	case smt.Not:
		return constraintExprs(t.Args[0], holder, !neg)
	case smt.And:
		if neg {
			return nil
		}
		var out []cfa.Expr
		for _, a := range t.Args {
			out = append(out, constraintExprs(a, holder, false)...)
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
	var first *cfa.Var // the first operand's variable
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
		if first == nil {
			first = v
		}
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
		signed = first.T.Signed
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
	return []cfa.Expr{&cfa.Binary{Op: op, X: conv(x, t.Args[0]), Y: conv(y, t.Args[1]), T: cfa.IntT}}
}
