package ctypes

import "modernc.org/cc/v4"

// Volatile qualification as the syntax and cc/v4's types show it (C11
// 6.7.3): which lvalues have a volatile-qualified type, for the front
// end's reads of volatile objects (engine/frontend, volatile.go), and
// StripParens, which these walks share with the translation.

// StripParens returns n without its enclosing parentheses (a
// parenthesised expression of one element, an expression list of one,
// a constant expression's conditional expression).
func StripParens(n cc.ExpressionNode) cc.ExpressionNode {
	for {
		switch x := n.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				if l, ok := x.ExpressionList.(*cc.ExpressionList); ok && l.ExpressionList != nil {
					return n
				}
				n = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				n = x.AssignmentExpression
				continue
			}
		case *cc.ConstantExpression:
			n = x.ConditionalExpression
			continue
		}
		return n
	}
}

// VolatileLvalue reports whether the lvalue n designates has a
// volatile-qualified type: its own type says so (a volatile member or
// element, a volatile typedef), or it is a member of a volatile struct or
// union object, or an element of a volatile array, or it is reached
// through a pointer to volatile. cc/v4 records qualifiers on declarators
// and type attributes, not on the types of member expressions of a
// volatile object, hence the walk.
func VolatileLvalue(n cc.ExpressionNode, depth int) bool {
	if n == nil || depth > 64 {
		return false
	}
	// cc/v4 marks the pointer type of `reg_t *p` volatile when reg_t is a
	// volatile typedef: a pointer's own qualifier comes from its
	// declarator (IsVolatile) instead.
	if _, ptr := n.Type().(*cc.PointerType); !ptr && VolatileType(n.Type()) {
		return true
	}
	switch x := StripParens(n).(type) {
	case *cc.PrimaryExpression:
		switch d := x.ResolvedTo().(type) {
		case *cc.Declarator:
			return x.Case == cc.PrimaryExpressionIdent && IsVolatile(d)
		case *cc.Parameter:
			return x.Case == cc.PrimaryExpressionIdent && d.Declarator != nil && IsVolatile(d.Declarator)
		}
		if x.Case == cc.PrimaryExpressionExpr {
			return VolatileLvalue(x.ExpressionList, depth+1)
		}
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return VolatileLvalue(l.AssignmentExpression, depth+1)
			}
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return VolatileLvalue(x.PrimaryExpression, depth+1)
		case cc.PostfixExpressionSelect:
			return volatileField(x.Field()) || VolatileLvalue(x.PostfixExpression, depth+1)
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
					if VolatileType(t.Elem()) || VolatileLvalue(b, depth+1) {
						return true
					}
				}
			}
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return VolatileLvalue(x.PostfixExpression, depth+1)
		case cc.UnaryExpressionDeref:
			return volatilePointee(x.CastExpression)
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return VolatileLvalue(x.UnaryExpression, depth+1)
		}
	}
	return false
}

// VolatileType reports whether t is volatile-qualified.
func VolatileType(t cc.Type) bool {
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
	switch x := StripParens(n).(type) {
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
	return VolatileType(t)
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
		return QualifiedVolatile(chain[n-k-1].TypeQualifiers)
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
	return VolatileType(t)
}

// QualifiedVolatile reports whether the list q contains volatile.
func QualifiedVolatile(q *cc.TypeQualifiers) bool {
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
		return IsVolatile(f.Declarator())
	}
	return VolatileType(f.Type())
}

// IsVolatile reports whether the object d declares is volatile-qualified.
// For a pointer declarator (T *q p) that is the qualifiers of the '*'
// nearest the name: cc/v4 also reports `reg_t *p`, with reg_t a volatile
// typedef, as volatile, although only *p is.
func IsVolatile(d *cc.Declarator) bool {
	if d.Pointer != nil {
		p := d.Pointer
		for p.Pointer != nil {
			p = p.Pointer
		}
		return QualifiedVolatile(p.TypeQualifiers)
	}
	if d.IsVolatile() {
		return true
	}
	if a := d.Type().Attributes(); a != nil && a.IsVolatile() {
		return true
	}
	return false
}
