package value

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
)

// assume restricts the state to executions where cond evaluates to truth
// (non-zero when truth is true). It returns false when the condition is
// known to evaluate otherwise. An unknown condition keeps the state, and
// equalities refine it: on the branch where x == c holds, an unknown x
// becomes c (also for !(x != c), !x, and _Bool x != 0). In symbolic mode
// the condition is also recorded as a path condition (Symbolic.Assume), and a
// symbolic x is refined like an unknown one: exact together with the
// recorded condition.
func (t *tx) assume(cond cfa.Expr, truth bool) bool {
	if t.c.sym != nil && !t.c.sym.Assume(Tx{t}, cond, truth) {
		return false
	}
	return t.refineAssume(cond, truth)
}

// refineAssume is assume without recording path conditions.
func (t *tx) refineAssume(cond cfa.Expr, truth bool) bool {
	if v, ok := t.eval(cond); conc(v, ok) {
		return IsTrue(v) == truth
	}
	switch c := cond.(type) {
	case *cfa.Unary:
		if c.Op == cfa.LNot {
			return t.refineAssume(c.X, !truth)
		}
	case *cfa.Binary:
		switch c.Op {
		case cfa.LAnd:
			if truth {
				return t.refineAssume(c.X, true) && t.refineAssume(c.Y, true)
			}
			if x, ok := t.eval(c.X); conc(x, ok) && IsTrue(x) {
				return t.refineAssume(c.Y, false)
			}
			return true
		case cfa.LOr:
			if !truth {
				return t.refineAssume(c.X, false) && t.refineAssume(c.Y, false)
			}
			if x, ok := t.eval(c.X); conc(x, ok) && !IsTrue(x) {
				return t.refineAssume(c.Y, true)
			}
			return true
		case cfa.Eq, cfa.Ne:
			x, xok := t.eval(c.X)
			y, yok := t.eval(c.Y)
			// Only concrete values refine; symbolic ones count as
			// unknown here.
			xok, yok = conc(x, xok), conc(y, yok)
			if (c.Op == cfa.Eq) == truth {
				if xok && !yok {
					return t.refine(c.Y, x)
				}
				if yok && !xok {
					return t.refine(c.X, y)
				}
				return true
			}
			// x != c: refine a _Bool-valued side to the other value.
			if xok && !yok && x.Obj == 0 && x.Bits <= 1 && c.Y.Type().Kind == cfa.Bool {
				return t.refine(c.Y, memory.Value{Bits: 1 - x.Bits})
			}
			if yok && !xok && y.Obj == 0 && y.Bits <= 1 && c.X.Type().Kind == cfa.Bool {
				return t.refine(c.X, memory.Value{Bits: 1 - y.Bits})
			}
			return true
		}
		if c.Op.IsComparison() {
			return true
		}
	}
	if !Scalar(cond.Type()) {
		return true
	}
	if !truth {
		return t.refine(cond, memory.Value{})
	}
	if cond.Type().Kind == cfa.Bool {
		return t.refine(cond, memory.Value{Bits: 1})
	}
	return true
}

// refine records that the scalar expression e has value v, where e's
// value is unknown: lvalues are assigned, value-preserving casts are
// inverted (infeasible when v is outside the source type's range).
func (t *tx) refine(e cfa.Expr, v memory.Value) bool {
	switch x := e.(type) {
	case *cfa.VarRef, *cfa.Deref, *cfa.Member, *cfa.Index:
		if vr, ok := x.(*cfa.VarRef); ok && vr.Var.Volatile {
			return true
		}
		a := t.addrOf(e)
		if !a.Known || !a.OffKnown || a.Field != nil {
			return true
		}
		t.store(a, e.Type(), v, true)
		return true
	case *cfa.Cast:
		from, to := x.X.Type(), x.T
		if !Scalar(from) || !Scalar(to) {
			return true
		}
		if to.Kind == cfa.Bool {
			if v.Obj == 0 && v.Bits == 0 {
				return t.refine(x.X, memory.Value{})
			}
			return true
		}
		if v.Obj != 0 {
			if from.Width() >= t.c.ptr {
				return t.refine(x.X, v)
			}
			return true
		}
		fw := from.Width()
		if from.Kind == cfa.Bool {
			fw = 8
		}
		if to.Width() < fw {
			return true // narrowing: not injective
		}
		inv := v.Bits & memory.Mask(fw)
		back, _ := t.convertValue(memory.Value{Bits: inv}, true, from, to)
		if back.Bits != v.Bits&memory.Mask(to.Width()) {
			return false // v is not a value of the source type
		}
		if from.Kind == cfa.Bool && inv > 1 {
			return false
		}
		return t.refine(x.X, memory.Value{Bits: inv})
	}
	return true
}
