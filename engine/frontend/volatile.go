package frontend

import (
	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// Reads of volatile lvalues (C11 6.7.3p7: "any expression referring to
// such an object shall be evaluated strictly according to the rules of
// the abstract machine"; 5.1.2.3p2: accessing a volatile object is a
// side effect, and its value may change in ways unknown to the
// implementation). A variable declared volatile is marked Var.Volatile
// and every consumer reads it as a nondeterministic value. Every other
// read of an lvalue whose type is volatile-qualified (a volatile member,
// a volatile array element, *p with p a pointer to volatile, a member of
// a volatile struct object, *(volatile T *)addr) is translated by
// volatileRead into
//
//	__tN = lvalue               (the access itself: invalid pointers and
//	                             non-object addresses keep their verdicts)
//	__tN = nondet(volatile)     (cfa.Havoc, Source "volatile"; for a
//	                             struct or array, one per scalar leaf)
//
// and the read's value is __tN, so that analyses, the SMT encoding, the
// interpreter and the PDG see an ordinary nondeterministic assignment.

// volatileRead returns the value of reading e, the translation of n: e
// itself unless e is an lvalue of n's volatile-qualified type that is not
// a variable already marked Var.Volatile, in which case it emits the
// access and the havoc above and returns the temporary. Arrays and
// functions (which decay, reading nothing) are returned unchanged.
func (fc *fnctx) volatileRead(e cfa.Expr, n cc.ExpressionNode) cfa.Expr {
	if e == nil || n == nil || !cfa.IsLvalue(e) {
		return e
	}
	if k := e.Type().Kind; k == cfa.Array || k == cfa.Func || k == cfa.Void {
		return e
	}
	if r, ok := e.(*cfa.VarRef); ok && (r.Var.Temp || r.Var.Volatile && r.Var.T.IsScalar()) {
		// A temporary is no volatile object (and may already hold a
		// havocked read); every consumer reads a scalar variable marked
		// Volatile as a nondeterministic value.
		return e
	}
	if !ctypes.VolatileLvalue(n, 0) {
		return e
	}
	tmp := fc.temp(e.Type())
	fc.emit(&cfa.Assign{LHS: tmp, RHS: e}, n)
	var leaves []cfa.Expr
	if !scalarLeaves(tmp, &leaves, 64) {
		leaves = []cfa.Expr{tmp}
	}
	for _, l := range leaves {
		fc.emit(&cfa.Havoc{LHS: l, Source: "volatile"}, n)
	}
	return tmp
}

// scalarLeaves appends to out the scalar lvalues that make up e (e
// itself, the members of a struct, the elements of an array, in
// order) and reports whether there are at most max of them and e
// contains no union or floating-point part; then havocking each leaf
// havocs the whole object (padding aside, which no read observes).
func scalarLeaves(e cfa.Expr, out *[]cfa.Expr, max int) bool {
	t := e.Type()
	switch t.Kind {
	case cfa.Int, cfa.Bool, cfa.Pointer:
		if len(*out) >= max {
			return false
		}
		*out = append(*out, e)
		return true
	case cfa.Struct:
		for k, f := range t.Fields {
			if !scalarLeaves(&cfa.Member{X: e, Field: k, T: f.Type}, out, max) {
				return false
			}
		}
		return true
	case cfa.Array:
		if t.Len < 0 || t.Len > int64(max) {
			return false
		}
		for i := int64(0); i < t.Len; i++ {
			if !scalarLeaves(&cfa.Index{X: e, I: cfa.NewConst(cfa.IntT, i), T: t.Elem}, out, max) {
				return false
			}
		}
		return true
	}
	return false
}
