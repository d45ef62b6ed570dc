package ccparse

import (
	"reflect"
	"sort"
	"sync"

	"modernc.org/cc/v4"
)

// Span is the source extent of a node: its first and last tokens (OK:
// both found).
type Span struct {
	First, Last cc.Token
	OK          bool
}

// NodeSpan finds the first and last tokens of n: directly for
// expressions and the statements the front end cites, by walking the
// node otherwise.
func NodeSpan(n cc.Node) Span {
	f, okf := firstTok(n)
	l, okl := lastTok(n)
	if okf && okl {
		return Span{First: f, Last: l, OK: true}
	}
	return SlowSpan(n)
}

func tok(t cc.Token) (cc.Token, bool) { return t, t.Seq() != 0 }

func firstTok(n cc.Node) (cc.Token, bool) {
	switch x := n.(type) {
	case nil:
		return cc.Token{}, false
	case *cc.PrimaryExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.PrimaryExpressionGeneric {
			break
		}
		return tok(x.Token)
	case *cc.PostfixExpression:
		if x == nil {
			return cc.Token{}, false
		}
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return firstTok(x.PrimaryExpression)
		case cc.PostfixExpressionComplit:
			return tok(x.Token)
		}
		return firstTok(x.PostfixExpression)
	case *cc.UnaryExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.UnaryExpressionPostfix {
			return firstTok(x.PostfixExpression)
		}
		return tok(x.Token)
	case *cc.CastExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.CastExpressionUnary {
			return firstTok(x.UnaryExpression)
		}
		return tok(x.Token)
	case *cc.MultiplicativeExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.MultiplicativeExpressionCast {
			return firstTok(x.CastExpression)
		}
		return firstTok(x.MultiplicativeExpression)
	case *cc.AdditiveExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.AdditiveExpressionMul {
			return firstTok(x.MultiplicativeExpression)
		}
		return firstTok(x.AdditiveExpression)
	case *cc.ShiftExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.ShiftExpressionAdd {
			return firstTok(x.AdditiveExpression)
		}
		return firstTok(x.ShiftExpression)
	case *cc.RelationalExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.RelationalExpressionShift {
			return firstTok(x.ShiftExpression)
		}
		return firstTok(x.RelationalExpression)
	case *cc.EqualityExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.EqualityExpressionRel {
			return firstTok(x.RelationalExpression)
		}
		return firstTok(x.EqualityExpression)
	case *cc.AndExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.AndExpressionEq {
			return firstTok(x.EqualityExpression)
		}
		return firstTok(x.AndExpression)
	case *cc.ExclusiveOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.ExclusiveOrExpressionAnd {
			return firstTok(x.AndExpression)
		}
		return firstTok(x.ExclusiveOrExpression)
	case *cc.InclusiveOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.InclusiveOrExpressionXor {
			return firstTok(x.ExclusiveOrExpression)
		}
		return firstTok(x.InclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.LogicalAndExpressionOr {
			return firstTok(x.InclusiveOrExpression)
		}
		return firstTok(x.LogicalAndExpression)
	case *cc.LogicalOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.LogicalOrExpressionLAnd {
			return firstTok(x.LogicalAndExpression)
		}
		return firstTok(x.LogicalOrExpression)
	case *cc.ConditionalExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return firstTok(x.LogicalOrExpression)
	case *cc.AssignmentExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.AssignmentExpressionCond {
			return firstTok(x.ConditionalExpression)
		}
		return firstTok(x.UnaryExpression)
	case *cc.ExpressionList:
		if x == nil {
			return cc.Token{}, false
		}
		return firstTok(x.AssignmentExpression)
	case *cc.ConstantExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return firstTok(x.ConditionalExpression)
	case *cc.ExpressionStatement:
		if x == nil {
			return cc.Token{}, false
		}
		if x.ExpressionList != nil {
			return firstTok(x.ExpressionList)
		}
		return tok(x.Token)
	case *cc.JumpStatement:
		if x == nil {
			return cc.Token{}, false
		}
		return tok(x.Token)
	case *cc.Initializer:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.InitializerExpr {
			return firstTok(x.AssignmentExpression)
		}
		return tok(x.Token)
	case cc.Token:
		return tok(x)
	}
	s := SlowSpan(n)
	return s.First, s.OK
}

func lastTok(n cc.Node) (cc.Token, bool) {
	switch x := n.(type) {
	case nil:
		return cc.Token{}, false
	case *cc.PrimaryExpression:
		if x == nil {
			return cc.Token{}, false
		}
		switch x.Case {
		case cc.PrimaryExpressionExpr, cc.PrimaryExpressionStmt:
			return tok(x.Token2)
		case cc.PrimaryExpressionGeneric:
		default:
			return tok(x.Token)
		}
	case *cc.PostfixExpression:
		if x == nil {
			return cc.Token{}, false
		}
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return lastTok(x.PrimaryExpression)
		case cc.PostfixExpressionIndex, cc.PostfixExpressionCall, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return tok(x.Token2)
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			return tok(x.Token)
		}
	case *cc.UnaryExpression:
		if x == nil {
			return cc.Token{}, false
		}
		switch x.Case {
		case cc.UnaryExpressionPostfix:
			return lastTok(x.PostfixExpression)
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec, cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionAlignofExpr,
			cc.UnaryExpressionImag, cc.UnaryExpressionReal:
			return lastTok(x.UnaryExpression)
		case cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofType:
			return tok(x.Token3)
		case cc.UnaryExpressionLabelAddr:
			return tok(x.Token2)
		default:
			return lastTok(x.CastExpression)
		}
	case *cc.CastExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.CastExpressionUnary {
			return lastTok(x.UnaryExpression)
		}
		return lastTok(x.CastExpression)
	case *cc.MultiplicativeExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.CastExpression)
	case *cc.AdditiveExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.MultiplicativeExpression)
	case *cc.ShiftExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.AdditiveExpression)
	case *cc.RelationalExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.ShiftExpression)
	case *cc.EqualityExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.RelationalExpression)
	case *cc.AndExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.LogicalAndExpression)
	case *cc.ConditionalExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.ConditionalExpressionLOr {
			return lastTok(x.LogicalOrExpression)
		}
		return lastTok(x.ConditionalExpression)
	case *cc.AssignmentExpression:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.AssignmentExpressionCond {
			return lastTok(x.ConditionalExpression)
		}
		return lastTok(x.AssignmentExpression)
	case *cc.ExpressionList:
		if x == nil {
			return cc.Token{}, false
		}
		for x.ExpressionList != nil {
			x = x.ExpressionList
		}
		return lastTok(x.AssignmentExpression)
	case *cc.ConstantExpression:
		if x == nil {
			return cc.Token{}, false
		}
		return lastTok(x.ConditionalExpression)
	case *cc.ExpressionStatement:
		if x == nil {
			return cc.Token{}, false
		}
		return tok(x.Token)
	case *cc.JumpStatement:
		if x == nil {
			return cc.Token{}, false
		}
		switch x.Case {
		case cc.JumpStatementGoto, cc.JumpStatementGotoExpr:
			return tok(x.Token3)
		default:
			return tok(x.Token2)
		}
	case *cc.Initializer:
		if x == nil {
			return cc.Token{}, false
		}
		if x.Case == cc.InitializerExpr {
			return lastTok(x.AssignmentExpression)
		}
		return tok(x.Token3)
	case cc.Token:
		return tok(x)
	}
	s := SlowSpan(n)
	return s.Last, s.OK
}

// SlowSpan walks n for the tokens with the lowest and highest sequence
// numbers.
func SlowSpan(n cc.Node) Span {
	var s Span
	if n == nil {
		return s
	}
	WalkTokens(reflect.ValueOf(n), func(t *cc.Token) bool {
		if !s.OK || t.Seq() < s.First.Seq() {
			s.First = *t
		}
		if !s.OK || t.Seq() > s.Last.Seq() {
			s.Last = *t
		}
		s.OK = true
		return true
	})
	return s
}

var tokenType = reflect.TypeOf(cc.Token{})

// WalkTokens calls f for every token (with a sequence number) below v, in
// no particular order, until f returns false; it reports whether the walk
// completed.
func WalkTokens(v reflect.Value, f func(*cc.Token) bool) bool {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return true
		}
		return WalkTokens(v.Elem(), f)
	case reflect.Struct:
		if v.Type() == tokenType {
			var t *cc.Token
			if v.CanAddr() {
				t = v.Addr().Interface().(*cc.Token)
			} else {
				x := v.Interface().(cc.Token)
				t = &x
			}
			if t.Seq() == 0 {
				return true
			}
			return f(t)
		}
		for _, i := range nodeFields(v.Type()) {
			if !WalkTokens(v.Field(i), f) {
				return false
			}
		}
	}
	return true
}

var fieldCache sync.Map // reflect.Type → []int

// nodeFields lists the fields of an AST node type that can hold tokens or
// nodes: exported, not embedded, of pointer, interface or struct type.
func nodeFields(t reflect.Type) []int {
	if r, ok := fieldCache.Load(t); ok {
		return r.([]int)
	}
	var r []int
	for i := 0; i < t.NumField(); i++ {
		fd := t.Field(i)
		if !fd.IsExported() || fd.Anonymous {
			continue
		}
		switch fd.Type.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Struct:
			r = append(r, i)
		}
	}
	fieldCache.Store(t, r)
	return r
}

// NodeTokens returns the tokens of n in source order.
func NodeTokens(n cc.Node) []cc.Token {
	var r []cc.Token
	if n == nil {
		return nil
	}
	WalkTokens(reflect.ValueOf(n), func(t *cc.Token) bool {
		r = append(r, *t)
		return true
	})
	sort.Slice(r, func(i, j int) bool { return r[i].Seq() < r[j].Seq() })
	return r
}
