package frontend

import (
	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
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
	if !volatileLvalue(n, 0) {
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

// volatileLvalue reports whether the lvalue n designates has a
// volatile-qualified type: its own type says so (a volatile member or
// element, a volatile typedef), or it is a member of a volatile struct or
// union object, or an element of a volatile array, or it is reached
// through a pointer to volatile. cc/v4 records qualifiers on declarators
// and type attributes, not on the types of member expressions of a
// volatile object, hence the walk.
func volatileLvalue(n cc.ExpressionNode, depth int) bool {
	if n == nil || depth > 64 {
		return false
	}
	// cc/v4 marks the pointer type of `reg_t *p` volatile when reg_t is a
	// volatile typedef: a pointer's own qualifier comes from its
	// declarator (isVolatile) instead.
	if _, ptr := n.Type().(*cc.PointerType); !ptr && volatileType(n.Type()) {
		return true
	}
	switch x := stripParens(n).(type) {
	case *cc.PrimaryExpression:
		switch d := x.ResolvedTo().(type) {
		case *cc.Declarator:
			return x.Case == cc.PrimaryExpressionIdent && isVolatile(d)
		case *cc.Parameter:
			return x.Case == cc.PrimaryExpressionIdent && d.Declarator != nil && isVolatile(d.Declarator)
		}
		if x.Case == cc.PrimaryExpressionExpr {
			return volatileLvalue(x.ExpressionList, depth+1)
		}
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return volatileLvalue(l.AssignmentExpression, depth+1)
			}
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return volatileLvalue(x.PrimaryExpression, depth+1)
		case cc.PostfixExpressionSelect:
			return volatileField(x.Field()) || volatileLvalue(x.PostfixExpression, depth+1)
		case cc.PostfixExpressionPSelect:
			return volatileField(x.Field()) || volatilePointee(x.PostfixExpression)
		case cc.PostfixExpressionIndex:
			for _, b := range []cc.ExpressionNode{x.PostfixExpression, x.ExpressionList} {
				switch t := b.Type().(type) {
				case *cc.PointerType:
					if volatilePointee(b) {
						return true
					}
				case *cc.ArrayType:
					if volatileType(t.Elem()) || volatileLvalue(b, depth+1) {
						return true
					}
				}
			}
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return volatileLvalue(x.PostfixExpression, depth+1)
		case cc.UnaryExpressionDeref:
			return volatilePointee(x.CastExpression)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return volatileLvalue(x.UnaryExpression, depth+1)
		}
	}
	return false
}

// volatileType reports whether t is volatile-qualified.
func volatileType(t cc.Type) bool {
	if t == nil {
		return false
	}
	a := t.Attributes()
	return a != nil && a.IsVolatile()
}

// volatilePointee reports whether the value of n is a pointer to a
// volatile-qualified type (or an array of them, which decays to one).
func volatilePointee(n cc.ExpressionNode) bool { return derefVolatile(n, 1, 0) }

// derefVolatile reports whether the type of *...*n (k dereferences) is
// volatile-qualified. cc/v4 drops the qualifiers of type names, so a
// cast (volatile T *)e, also under further dereferences, is read from
// its syntax (castVolatile).
func derefVolatile(n cc.ExpressionNode, k, depth int) bool {
	if n == nil || depth > 64 {
		return false
	}
	switch x := stripParens(n).(type) {
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionCast && castVolatile(x.TypeName, k) {
			return true
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref && derefVolatile(x.CastExpression, k+1, depth+1) {
			return true
		}
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionIndex {
			if _, ok := x.PostfixExpression.Type().(*cc.PointerType); ok && derefVolatile(x.PostfixExpression, k+1, depth+1) {
				return true
			}
		}
	}
	t := n.Type()
	for i := 0; i < k && t != nil; i++ {
		switch x := t.(type) {
		case *cc.PointerType:
			t = x.Elem()
		case *cc.ArrayType:
			t = x.Elem()
		default:
			return false
		}
	}
	return volatileType(t)
}

// castVolatile reports whether k dereferences of the pointer type name
// tn give a volatile-qualified type: for T *q1 ... *qn, the qualifiers
// q(n-k) of that '*', or for k = n those of T (its specifiers and
// qualifiers, or a volatile typedef). An abstract declarator other than
// a plain pointer chain (pointers to arrays or functions) is left to the
// type's attributes.
func castVolatile(tn *cc.TypeName, k int) bool {
	if tn == nil || tn.AbstractDeclarator == nil || tn.AbstractDeclarator.DirectAbstractDeclarator != nil {
		return false
	}
	var chain []*cc.Pointer
	for p := tn.AbstractDeclarator.Pointer; p != nil; p = p.Pointer {
		chain = append(chain, p)
	}
	n := len(chain)
	switch {
	case k < 1 || k > n:
		return false
	case k < n:
		return qualifiedVolatile(chain[n-k-1].TypeQualifiers)
	}
	for l := tn.SpecifierQualifierList; l != nil; l = l.SpecifierQualifierList {
		if l.TypeQualifier != nil && l.TypeQualifier.Case == cc.TypeQualifierVolatile {
			return true
		}
	}
	t := tn.Type()
	for i := 0; i < k && t != nil; i++ {
		pt, ok := t.(*cc.PointerType)
		if !ok {
			return false
		}
		t = pt.Elem()
	}
	return volatileType(t)
}

// qualifiedVolatile reports whether the list q contains volatile.
func qualifiedVolatile(q *cc.TypeQualifiers) bool {
	for ; q != nil; q = q.TypeQualifiers {
		if q.TypeQualifier != nil && q.TypeQualifier.Case == cc.TypeQualifierVolatile {
			return true
		}
	}
	return false
}

// volatileField reports whether the member f is declared volatile.
func volatileField(f *cc.Field) bool {
	if f == nil {
		return false
	}
	if _, ptr := f.Type().(*cc.PointerType); ptr && f.Declarator() != nil {
		return isVolatile(f.Declarator())
	}
	return volatileType(f.Type())
}
