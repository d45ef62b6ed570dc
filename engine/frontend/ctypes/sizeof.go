package ctypes

import (
	"modernc.org/cc/v4"
)

// BadSizeof reports whether x is sizeof (or _Alignof) of a type whose
// size is not a constant (a struct with a variable-length member) or
// whose layout cc/v4 does not compute as gcc (layout.go).
func (tm *Map) BadSizeof(x *cc.UnaryExpression) bool {
	var t cc.Type
	switch x.Case {
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionAlignofExpr:
		if x.UnaryExpression != nil {
			t = x.UnaryExpression.Type()
		}
	case cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofType:
		if x.TypeName != nil {
			t = x.TypeName.Type()
		}
	default:
		return false
	}
	return t == nil || t.Size() < 0 || IsVariable(t, 0) || tm.OwnLayout(t)
}

// IsVariable reports whether t is a variably modified type.
func IsVariable(t cc.Type, depth int) bool {
	if t == nil || depth > 16 {
		return false
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		return x.IsVLA() || IsVariable(x.Elem(), depth+1)
	case *cc.StructType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && IsVariable(f.Type(), depth+1) {
				return true
			}
		}
	case *cc.UnionType:
		for i := 0; i < x.NumFields(); i++ {
			if f := x.FieldByIndex(i); f != nil && IsVariable(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// HasBadSizeof reports whether the constant expression n (at nesting
// depth, 0 at the top) contains a BadSizeof.
func (tm *Map) HasBadSizeof(n cc.ExpressionNode, depth int) bool {
	if n == nil || depth > 64 {
		return false
	}
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			return tm.HasBadSizeof(x.ExpressionList, depth+1)
		}
		return false
	case *cc.PostfixExpression:
		// offsetof's member access through a null pointer, folded by
		// cc/v4 with its own layout
		if (x.Case == cc.PostfixExpressionSelect || x.Case == cc.PostfixExpressionPSelect) && x.PostfixExpression != nil {
			t := x.PostfixExpression.Type()
			if p, ok := t.(*cc.PointerType); ok && x.Case == cc.PostfixExpressionPSelect {
				t = p.Elem()
			}
			if tm.OwnLayout(t) {
				return true
			}
		}
		return tm.HasBadSizeof(x.PostfixExpression, depth+1)
	case *cc.UnaryExpression:
		if tm.BadSizeof(x) {
			return true
		}
		return tm.HasBadSizeof(x.CastExpression, depth+1) || tm.HasBadSizeof(x.PostfixExpression, depth+1) ||
			x.Case != cc.UnaryExpressionSizeofExpr && tm.HasBadSizeof(x.UnaryExpression, depth+1)
	case *cc.CastExpression:
		return tm.HasBadSizeof(x.CastExpression, depth+1) || tm.HasBadSizeof(x.UnaryExpression, depth+1)
	case *cc.MultiplicativeExpression:
		return tm.HasBadSizeof(x.MultiplicativeExpression, depth+1) || tm.HasBadSizeof(x.CastExpression, depth+1)
	case *cc.AdditiveExpression:
		return tm.HasBadSizeof(x.AdditiveExpression, depth+1) || tm.HasBadSizeof(x.MultiplicativeExpression, depth+1)
	case *cc.ShiftExpression:
		return tm.HasBadSizeof(x.ShiftExpression, depth+1) || tm.HasBadSizeof(x.AdditiveExpression, depth+1)
	case *cc.RelationalExpression:
		return tm.HasBadSizeof(x.RelationalExpression, depth+1) || tm.HasBadSizeof(x.ShiftExpression, depth+1)
	case *cc.EqualityExpression:
		return tm.HasBadSizeof(x.EqualityExpression, depth+1) || tm.HasBadSizeof(x.RelationalExpression, depth+1)
	case *cc.AndExpression:
		return tm.HasBadSizeof(x.AndExpression, depth+1) || tm.HasBadSizeof(x.EqualityExpression, depth+1)
	case *cc.ExclusiveOrExpression:
		return tm.HasBadSizeof(x.ExclusiveOrExpression, depth+1) || tm.HasBadSizeof(x.AndExpression, depth+1)
	case *cc.InclusiveOrExpression:
		return tm.HasBadSizeof(x.InclusiveOrExpression, depth+1) || tm.HasBadSizeof(x.ExclusiveOrExpression, depth+1)
	case *cc.LogicalAndExpression:
		return tm.HasBadSizeof(x.LogicalAndExpression, depth+1) || tm.HasBadSizeof(x.InclusiveOrExpression, depth+1)
	case *cc.LogicalOrExpression:
		return tm.HasBadSizeof(x.LogicalOrExpression, depth+1) || tm.HasBadSizeof(x.LogicalAndExpression, depth+1)
	case *cc.ConditionalExpression:
		return tm.HasBadSizeof(x.LogicalOrExpression, depth+1) || tm.HasBadSizeof(x.ExpressionList, depth+1) || tm.HasBadSizeof(x.ConditionalExpression, depth+1)
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			if tm.HasBadSizeof(l.AssignmentExpression, depth+1) {
				return true
			}
		}
	case *cc.ConstantExpression:
		return tm.HasBadSizeof(x.ConditionalExpression, depth+1)
	case *cc.AssignmentExpression:
		return tm.HasBadSizeof(x.ConditionalExpression, depth+1)
	}
	return false
}
