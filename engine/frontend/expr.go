package frontend

import (
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
	"github.com/reverify/reverify/engine/frontend/ctypes"
)

// intValue returns an integer constant value.
func intValue(v cc.Value) (int64, bool) {
	switch v := v.(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		return int64(v), true
	case *cc.ZeroValue:
		return 0, true
	}
	return 0, false
}

// constant folds n when cc/v4 knows its integer value and it has no side
// effects (and no sizeof of a type without a constant size, which cc/v4
// folds to -1).
func (fc *fnctx) constant(n cc.ExpressionNode) cfa.Expr {
	v := n.Value()
	if v == nil || v == cc.Unknown {
		return nil
	}
	if !n.Pure() || fc.t.tm.HasBadSizeof(n, 0) {
		return nil
	}
	switch v := v.(type) {
	case cc.Int64Value, cc.UInt64Value:
		val, _ := intValue(v)
		t := fc.t.tm.Typ(n.Type())
		if !t.IsScalar() {
			return nil
		}
		if t.Kind == cfa.Bool && val != 0 {
			val = 1
		}
		return cfa.NewConst(t, val)
	case cc.Float64Value:
		t := fc.t.tm.Typ(n.Type())
		if t.Kind != cfa.Float {
			return nil
		}
		return &cfa.FloatConst{T: t, V: float64(v)}
	}
	return nil
}

// nullMemberOffset reports the offset of the member e designates when e
// is the address of a member (of an element, …) of the object a null
// pointer points to, as offsetof's expansion takes it.
func nullMemberOffset(e cfa.Expr) (int64, bool) {
	a, ok := e.(*cfa.AddrOf)
	if !ok {
		return 0, false
	}
	return nullObjectOffset(a.X, 0)
}

func nullObjectOffset(e cfa.Expr, depth int) (int64, bool) {
	if depth > 64 {
		return 0, false
	}
	switch x := e.(type) {
	case *cfa.Member:
		off, ok := nullObjectOffset(x.X, depth+1)
		t := x.X.Type()
		if !ok || x.Field < 0 || x.Field >= len(t.Fields) || t.Fields[x.Field].BitWidth > 0 {
			return 0, false
		}
		return off + t.Fields[x.Field].Offset, true
	case *cfa.Index:
		off, ok := nullObjectOffset(x.X, depth+1)
		c, isConst := x.I.(*cfa.Const)
		if !ok || !isConst || x.T.Size <= 0 {
			return 0, false
		}
		return off + c.Int64()*x.T.Size, true
	case *cfa.Deref:
		for p := x.X; ; {
			switch y := p.(type) {
			case *cfa.Cast:
				p = y.X
				continue
			case *cfa.Const:
				return 0, y.V == 0
			}
			return 0, false
		}
	}
	return 0, false
}

// rv evaluates n for its value: arrays and functions decay to pointers.
func (fc *fnctx) rv(n cc.ExpressionNode) cfa.Expr {
	e := fc.expr(n, true)
	if e == nil {
		fc.unsupported("void value", n)
	}
	return fc.decay(fc.volatileRead(e, n))
}

// lv evaluates n as an lvalue.
func (fc *fnctx) lv(n cc.ExpressionNode) cfa.Expr {
	e := fc.expr(n, true)
	if e == nil || !cfa.IsLvalue(e) {
		fc.unsupported("assignment to a non-lvalue", n)
	}
	return e
}

// effect evaluates n for its side effects only.
func (fc *fnctx) effect(n cc.ExpressionNode) { fc.expr(n, false) }

// decay converts arrays to pointers to their first element and function
// designators to function pointers.
func (fc *fnctx) decay(e cfa.Expr) cfa.Expr {
	t := e.Type()
	switch t.Kind {
	case cfa.Array:
		fc.markAddr(e)
		return &cfa.AddrOf{X: &cfa.Index{X: e, I: cfa.NewConst(cfa.IntT, 0), T: t.Elem}, T: fc.t.tm.Ptr(t.Elem)}
	case cfa.Func:
		if d, ok := e.(*cfa.Deref); ok {
			return d.X
		}
		return &cfa.AddrOf{X: e, T: fc.t.tm.Ptr(t)}
	}
	return e
}

// markAddr records that the object e designates has its address taken.
func (fc *fnctx) markAddr(e cfa.Expr) {
	for {
		switch x := e.(type) {
		case *cfa.VarRef:
			x.Var.AddrTaken = true
			return
		case *cfa.Member:
			e = x.X
		case *cfa.Index:
			e = x.X
		default:
			return
		}
	}
}

func promote(e cfa.Expr) cfa.Expr {
	t := ctypes.Promoted(e.Type())
	if cfa.Same(t, e.Type()) {
		return e
	}
	if c, ok := e.(*cfa.Const); ok {
		return cfa.NewConst(t, constInt(c))
	}
	return &cfa.Cast{X: e, T: t}
}

func constInt(c *cfa.Const) int64 {
	if c.T.IsSigned() {
		return cfa.SignExtend(c.V, c.T.Width())
	}
	return int64(c.V)
}

// conv converts e to t (explicit Cast; constants are folded).
func (fc *fnctx) conv(e cfa.Expr, t *cfa.Type, n cc.Node) cfa.Expr {
	from := e.Type()
	if cfa.Same(from, t) {
		return e
	}
	switch t.Kind {
	case cfa.Void:
		return e
	case cfa.Struct, cfa.Union, cfa.Array, cfa.Func:
		return e
	}
	if from.Kind == cfa.Float && t.Kind != cfa.Float {
		if c, ok := e.(*cfa.FloatConst); ok && t.IsInteger() && !math.IsNaN(c.V) {
			if t.Kind == cfa.Bool {
				v := int64(0)
				if c.V != 0 {
					v = 1
				}
				return cfa.NewConst(t, v)
			}
			// Fold only conversions whose (truncated) value fits: others are
			// undefined behaviour.
			tr := math.Trunc(c.V)
			lo, hi := 0.0, math.Ldexp(1, t.Bits)
			if t.Signed {
				lo, hi = -math.Ldexp(1, t.Bits-1), math.Ldexp(1, t.Bits-1)
			}
			if tr >= lo && tr < hi && t.Bits <= 64 {
				if tr < 0 {
					return cfa.NewConst(t, int64(tr))
				}
				return &cfa.Const{T: t, V: cfa.Truncate(uint64(tr), t.Bits)}
			}
		}
		fc.unsupported("floating-point conversion", n)
	}
	if !from.IsScalar() && from.Kind != cfa.Float {
		fc.unsupported("conversion of a non-scalar value", n)
	}
	if c, ok := e.(*cfa.Const); ok {
		v := constInt(c)
		switch {
		case t.Kind == cfa.Bool:
			if c.V != 0 {
				v = 1
			}
			return cfa.NewConst(t, v)
		case t.IsScalar():
			return cfa.NewConst(t, v)
		case t.Kind == cfa.Float:
			if c.T.IsSigned() {
				return &cfa.FloatConst{T: t, V: float64(v)}
			}
			return &cfa.FloatConst{T: t, V: float64(c.V)}
		}
	}
	if c, ok := e.(*cfa.FloatConst); ok && t.Kind == cfa.Float {
		return &cfa.FloatConst{T: t, V: c.V}
	}
	return &cfa.Cast{X: e, T: t}
}

// expr translates n. With want, it returns the expression's value (an
// lvalue where n designates an object, not yet decayed); without, it
// only emits n's side effects and may return nil.
func (fc *fnctx) expr(n cc.ExpressionNode, want bool) cfa.Expr {
	if n == nil {
		return nil
	}
	if c := fc.constant(n); c != nil {
		return c
	}
	if t := n.Type(); t != nil && t.VectorSize() > 0 {
		fc.unsupported("vector types", n)
	}
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		return fc.primary(x, want)
	case *cc.PostfixExpression:
		return fc.postfix(x, want)
	case *cc.UnaryExpression:
		return fc.unary(x, want)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return fc.expr(x.UnaryExpression, want)
		}
		t := fc.t.tm.Typ(x.TypeName.Type())
		if t.Kind == cfa.Void {
			fc.effect(x.CastExpression)
			return nil
		}
		if t.Kind == cfa.Struct || t.Kind == cfa.Union {
			return fc.expr(x.CastExpression, want)
		}
		e := fc.rv(x.CastExpression)
		if off, ok := nullMemberOffset(e); ok && t.IsInteger() {
			// offsetof(T, m), (size_t)&((T *)0)->m, into a type whose
			// layout cc/v4 does not fold (engine/frontend/ctypes): the type map's
			return cfa.NewConst(t, off)
		}
		return fc.conv(e, t, x)
	case *cc.MultiplicativeExpression:
		switch x.Case {
		case cc.MultiplicativeExpressionMul:
			return fc.binary(cfa.Mul, x.MultiplicativeExpression, x.CastExpression, x)
		case cc.MultiplicativeExpressionDiv:
			return fc.binary(cfa.Div, x.MultiplicativeExpression, x.CastExpression, x)
		case cc.MultiplicativeExpressionMod:
			return fc.binary(cfa.Rem, x.MultiplicativeExpression, x.CastExpression, x)
		}
		return fc.expr(x.CastExpression, want)
	case *cc.AdditiveExpression:
		switch x.Case {
		case cc.AdditiveExpressionAdd:
			return fc.binary(cfa.Add, x.AdditiveExpression, x.MultiplicativeExpression, x)
		case cc.AdditiveExpressionSub:
			return fc.binary(cfa.Sub, x.AdditiveExpression, x.MultiplicativeExpression, x)
		}
		return fc.expr(x.MultiplicativeExpression, want)
	case *cc.ShiftExpression:
		switch x.Case {
		case cc.ShiftExpressionLsh:
			return fc.binary(cfa.Shl, x.ShiftExpression, x.AdditiveExpression, x)
		case cc.ShiftExpressionRsh:
			return fc.binary(cfa.Shr, x.ShiftExpression, x.AdditiveExpression, x)
		}
		return fc.expr(x.AdditiveExpression, want)
	case *cc.RelationalExpression:
		switch x.Case {
		case cc.RelationalExpressionLt:
			return fc.binary(cfa.Lt, x.RelationalExpression, x.ShiftExpression, x)
		case cc.RelationalExpressionGt:
			return fc.binary(cfa.Gt, x.RelationalExpression, x.ShiftExpression, x)
		case cc.RelationalExpressionLeq:
			return fc.binary(cfa.Le, x.RelationalExpression, x.ShiftExpression, x)
		case cc.RelationalExpressionGeq:
			return fc.binary(cfa.Ge, x.RelationalExpression, x.ShiftExpression, x)
		}
		return fc.expr(x.ShiftExpression, want)
	case *cc.EqualityExpression:
		switch x.Case {
		case cc.EqualityExpressionEq:
			return fc.binary(cfa.Eq, x.EqualityExpression, x.RelationalExpression, x)
		case cc.EqualityExpressionNeq:
			return fc.binary(cfa.Ne, x.EqualityExpression, x.RelationalExpression, x)
		}
		return fc.expr(x.RelationalExpression, want)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionAnd {
			return fc.binary(cfa.And, x.AndExpression, x.EqualityExpression, x)
		}
		return fc.expr(x.EqualityExpression, want)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionXor {
			return fc.binary(cfa.Xor, x.ExclusiveOrExpression, x.AndExpression, x)
		}
		return fc.expr(x.AndExpression, want)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionOr {
			return fc.binary(cfa.Or, x.InclusiveOrExpression, x.ExclusiveOrExpression, x)
		}
		return fc.expr(x.ExclusiveOrExpression, want)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			return fc.logical(x, x.LogicalAndExpression, x.InclusiveOrExpression, true, want)
		}
		return fc.expr(x.InclusiveOrExpression, want)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			return fc.logical(x, x.LogicalOrExpression, x.LogicalAndExpression, false, want)
		}
		return fc.expr(x.LogicalAndExpression, want)
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond {
			return fc.conditional(x, want)
		}
		return fc.expr(x.LogicalOrExpression, want)
	case *cc.AssignmentExpression:
		return fc.assignment(x, want)
	case *cc.ExpressionList:
		var r cfa.Expr
		for l := x; l != nil; l = l.ExpressionList {
			last := l.ExpressionList == nil
			r = fc.expr(l.AssignmentExpression, want && last)
		}
		return r
	case *cc.ConstantExpression:
		return fc.expr(x.ConditionalExpression, want)
	}
	fc.unsupported("expression", n)
	return nil
}

func (fc *fnctx) primary(x *cc.PrimaryExpression, want bool) cfa.Expr {
	switch x.Case {
	case cc.PrimaryExpressionIdent:
		return fc.ident(x)
	case cc.PrimaryExpressionInt, cc.PrimaryExpressionChar, cc.PrimaryExpressionLChar:
		if v, ok := intValue(x.Value()); ok {
			return cfa.NewConst(fc.t.tm.Typ(x.Type()), v)
		}
		fc.unsupported("integer constant", x)
	case cc.PrimaryExpressionFloat:
		if cc.IsComplexType(x.Type()) {
			fc.unsupported("complex numbers", x)
		}
		t := fc.t.tm.Typ(x.Type())
		switch v := x.Value().(type) {
		case cc.Float64Value:
			return &cfa.FloatConst{T: t, V: float64(v)}
		case *cc.LongDoubleValue:
			f, _ := (*big.Float)(v).Float64()
			return &cfa.FloatConst{T: t, V: f}
		}
		fc.unsupported("floating-point constant", x)
	case cc.PrimaryExpressionString:
		s, ok := x.Value().(cc.StringValue)
		if !ok {
			fc.unsupported("string literal", x)
		}
		val := strings.TrimSuffix(string(s), "\x00")
		return &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(val))+1), Val: val}
	case cc.PrimaryExpressionLString:
		fc.unsupported("wide string literal", x)
	case cc.PrimaryExpressionExpr:
		return fc.expr(x.ExpressionList, want)
	case cc.PrimaryExpressionStmt:
		return fc.stmtExpr(x.CompoundStatement, want)
	case cc.PrimaryExpressionGeneric:
		if a := x.GenericSelection.Associated(); a != nil {
			return fc.expr(a.AssignmentExpression, want)
		}
		fc.unsupported("_Generic", x)
	}
	fc.unsupported("expression", x)
	return nil
}

// stmtExpr translates a GNU statement expression ({ ... }); its value is
// that of its last expression statement.
func (fc *fnctx) stmtExpr(cs *cc.CompoundStatement, want bool) cfa.Expr {
	var items []*cc.BlockItem
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		items = append(items, l.BlockItem)
	}
	var r cfa.Expr
	for i, bi := range items {
		if i == len(items)-1 && want && bi.Case == cc.BlockItemStmt && bi.Statement.Case == cc.StatementExpr &&
			bi.Statement.ExpressionStatement.ExpressionList != nil {
			r = fc.expr(bi.Statement.ExpressionStatement.ExpressionList, true)
			r = fc.volatileRead(r, bi.Statement.ExpressionStatement.ExpressionList)
			if r != nil && r.Type().Kind != cfa.Array && r.Type().Kind != cfa.Func && !fc.stable(r) && r.Type().Kind != cfa.Void {
				tmp := fc.temp(r.Type())
				fc.emit(&cfa.Assign{LHS: tmp, RHS: r}, bi.Statement)
				r = tmp
			}
			break
		}
		fc.blockItem(bi)
	}
	return r
}

func (fc *fnctx) ident(x *cc.PrimaryExpression) cfa.Expr {
	switch d := x.ResolvedTo().(type) {
	case *cc.Declarator:
		if d.Name() == "__func__" && d.Linkage() == cc.None {
			name := ""
			if fc.sym != nil {
				name = fc.sym.key.name
			}
			return &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(name))+1), Val: name}
		}
		if d.Type().Kind() == cc.Function {
			return fc.funcRef(d, x)
		}
		return &cfa.VarRef{Var: fc.varOf(d, x)}
	case *cc.Parameter:
		if v := fc.params[d]; v != nil {
			return &cfa.VarRef{Var: v}
		}
		if d.Declarator != nil {
			if v := fc.locals[d.Declarator]; v != nil {
				return &cfa.VarRef{Var: v}
			}
		}
	case *cc.Enumerator:
		if v, ok := intValue(d.Value()); ok {
			return cfa.NewConst(fc.t.tm.Typ(x.Type()), v)
		}
	}
	fc.unsupported("undeclared identifier "+x.Token.SrcStr(), x)
	return nil
}

func (fc *fnctx) varOf(d *cc.Declarator, n cc.Node) *cfa.Var {
	if v := fc.locals[d]; v != nil {
		return v
	}
	if d.Linkage() == cc.None {
		// A block-scope object not (yet) declared on this path, e.g. from
		// a declaration jumped over; declare it now.
		if d.IsStatic() {
			fc.unsupported("static local used before its declaration", n)
		}
		v := fc.newLocal(d.Name(), fc.t.tm.Typ(d.Type()))
		v.Pos = fc.u.Files.Pos(d.Position())
		fc.locals[d] = v
		return v
	}
	return fc.t.globalOf(fc.u, d)
}

func (fc *fnctx) funcRef(d *cc.Declarator, n cc.Node) cfa.Expr {
	s := fc.t.removedTarget(fc.t.funcOf(fc.u, d))
	fc.dupUse(s, n)
	if s == nil {
		s = fc.t.funcSymbol(fc.u, d)
		if s.name == "" {
			s.name = d.Name()
			if fc.t.byName[s.name] == nil {
				fc.t.byName[s.name] = s
			}
		}
	}
	if s.def == nil {
		fc.t.p.Externals[s.name] = s.typ
	}
	return &cfa.FuncRef{Name: s.name, T: s.typ}
}

func (fc *fnctx) postfix(x *cc.PostfixExpression, want bool) cfa.Expr {
	switch x.Case {
	case cc.PostfixExpressionPrimary:
		return fc.expr(x.PrimaryExpression, want)
	case cc.PostfixExpressionIndex:
		return fc.index(x)
	case cc.PostfixExpressionCall:
		return fc.call(x, want, nil, x)
	case cc.PostfixExpressionSelect:
		base := fc.expr(x.PostfixExpression, true)
		if base == nil {
			fc.unsupported("member of a void value", x)
		}
		return fc.member(base, x.Field(), x)
	case cc.PostfixExpressionPSelect:
		p := fc.rv(x.PostfixExpression)
		if p.Type().Kind != cfa.Pointer {
			fc.unsupported("-> on a non-pointer", x)
		}
		return fc.member(&cfa.Deref{X: p, T: p.Type().Elem}, x.Field(), x)
	case cc.PostfixExpressionInc:
		return fc.incdec(x.PostfixExpression, true, true, want, x)
	case cc.PostfixExpressionDec:
		return fc.incdec(x.PostfixExpression, false, true, want, x)
	case cc.PostfixExpressionComplit:
		return fc.compoundLiteral(x)
	}
	fc.unsupported("expression", x)
	return nil
}

func (fc *fnctx) index(x *cc.PostfixExpression) cfa.Expr {
	a := fc.volatileRead(fc.expr(x.PostfixExpression, true), x.PostfixExpression)
	i := fc.volatileRead(fc.expr(x.ExpressionList, true), x.ExpressionList)
	if a == nil || i == nil {
		fc.unsupported("subscript of a void value", x)
	}
	if a.Type().Kind != cfa.Array && a.Type().Kind != cfa.Pointer {
		a, i = i, a // i[a]
	}
	var dims []cfa.Expr
	if r, ok := a.(*cfa.VarRef); ok && fc.vlaDims[r.Var] != nil {
		dims = fc.vlaDims[r.Var]
	} else if d, ok := fc.vlaRows[a]; ok {
		dims = d
	}
	if len(dims) > 1 {
		// A row of a variable-length array: a + i * (product of the
		// remaining dimensions), still a pointer to the element type.
		st := fc.t.tm.SizeT()
		idx := fc.decay(i)
		if !idx.Type().IsInteger() {
			fc.unsupported("non-integer subscript", x)
		}
		var stride cfa.Expr
		for _, n := range dims[1:] {
			if stride == nil {
				stride = n
			} else {
				stride = &cfa.Binary{Op: cfa.Mul, X: stride, Y: n, T: st}
			}
		}
		row := &cfa.Binary{Op: cfa.Add, X: a, Y: &cfa.Binary{Op: cfa.Mul, X: fc.conv(idx, st, x), Y: stride, T: st}, T: a.Type()}
		fc.vlaRows[row] = dims[1:]
		return row
	}
	switch a.Type().Kind {
	case cfa.Array:
		idx := fc.decay(i)
		if !idx.Type().IsInteger() {
			fc.unsupported("non-integer subscript", x)
		}
		return &cfa.Index{X: a, I: promote(idx), T: a.Type().Elem}
	case cfa.Pointer:
		p := fc.arith(cfa.Add, a, fc.decay(i), x)
		return &cfa.Deref{X: p, T: a.Type().Elem}
	}
	fc.unsupported("subscript of a non-array", x)
	return nil
}

// member selects field f (a cc/v4 field, possibly inside anonymous
// members) of the struct or union x.
func (fc *fnctx) member(x cfa.Expr, f *cc.Field, n cc.Node) cfa.Expr {
	if f == nil {
		fc.unsupported("unknown member", n)
	}
	t := x.Type()
	if t.Kind != cfa.Struct && t.Kind != cfa.Union {
		fc.unsupported("member of a non-struct", n)
	}
	if k := f.Index(); f.Parent() == nil && k >= 0 && k < len(t.Fields) && t.Fields[k].Name == f.Name() {
		return &cfa.Member{X: x, Field: k, T: t.Fields[k].Type}
	}
	path := fieldPath(t, f.Name(), 0)
	if path == nil {
		fc.unsupported("unknown member "+f.Name(), n)
	}
	for _, k := range path {
		t := x.Type()
		x = &cfa.Member{X: x, Field: k, T: t.Fields[k].Type}
	}
	return x
}

// fieldPath finds the member name in t, looking into anonymous struct and
// union members: the field indices leading to it.
func fieldPath(t *cfa.Type, name string, depth int) []int {
	if name == "" || depth > 32 {
		return nil
	}
	for k, f := range t.Fields {
		if f.Name == name {
			return []int{k}
		}
	}
	for k, f := range t.Fields {
		if f.Name == "" && (f.Type.Kind == cfa.Struct || f.Type.Kind == cfa.Union) {
			if p := fieldPath(f.Type, name, depth+1); p != nil {
				return append([]int{k}, p...)
			}
		}
	}
	return nil
}

func (fc *fnctx) unary(x *cc.UnaryExpression, want bool) cfa.Expr {
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return fc.expr(x.PostfixExpression, want)
	case cc.UnaryExpressionInc:
		return fc.incdec(x.UnaryExpression, true, false, want, x)
	case cc.UnaryExpressionDec:
		return fc.incdec(x.UnaryExpression, false, false, want, x)
	case cc.UnaryExpressionAddrof:
		return fc.addrOf(x.CastExpression, x)
	case cc.UnaryExpressionDeref:
		p := fc.rv(x.CastExpression)
		if p.Type().Kind != cfa.Pointer {
			fc.unsupported("dereference of a non-pointer", x)
		}
		if a, ok := p.(*cfa.AddrOf); ok {
			if _, ok := a.X.(*cfa.FuncRef); ok {
				return a.X
			}
		}
		return &cfa.Deref{X: p, T: p.Type().Elem}
	case cc.UnaryExpressionPlus:
		e := fc.rv(x.CastExpression)
		if e.Type().Kind == cfa.Float {
			return e
		}
		return promote(e)
	case cc.UnaryExpressionMinus, cc.UnaryExpressionCpl:
		e := fc.rv(x.CastExpression)
		if e.Type().Kind == cfa.Float {
			fc.unsupported("floating-point arithmetic", x)
		}
		if !e.Type().IsInteger() {
			fc.unsupported("arithmetic on a non-integer", x)
		}
		e = promote(e)
		op := cfa.Neg
		if x.Case == cc.UnaryExpressionCpl {
			op = cfa.BNot
		}
		return &cfa.Unary{Op: op, X: e, T: e.Type()}
	case cc.UnaryExpressionNot:
		e := fc.rv(x.CastExpression)
		if e.Type().Kind == cfa.Float {
			fc.unsupported("floating-point comparison", x)
		}
		if !e.Type().IsScalar() {
			fc.unsupported("! of a non-scalar", x)
		}
		return &cfa.Unary{Op: cfa.LNot, X: e, T: cfa.IntT}
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		if v, ok := intValue(x.Value()); ok && !fc.t.tm.BadSizeof(x) {
			return cfa.NewConst(fc.t.tm.Typ(x.Type()), v)
		}
		var of cc.Type
		switch {
		case x.Case == cc.UnaryExpressionSizeofExpr || x.Case == cc.UnaryExpressionAlignofExpr:
			if x.UnaryExpression != nil {
				of = x.UnaryExpression.Type()
			}
		case x.TypeName != nil:
			of = x.TypeName.Type()
		}
		if of != nil && fc.t.tm.OwnLayout(of) && !ctypes.IsVariable(of, 0) {
			lt := fc.t.tm.Typ(of) // the layout gcc gives it (engine/frontend/ctypes)
			n := lt.Size
			if x.Case == cc.UnaryExpressionAlignofExpr || x.Case == cc.UnaryExpressionAlignofType {
				n = lt.Align
			}
			return cfa.NewConst(fc.t.tm.Typ(x.Type()), n)
		}
		if !want {
			return nil
		}
		if x.Case == cc.UnaryExpressionSizeofExpr {
			if p, ok := ctypes.StripParens(x.UnaryExpression).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
				if d, ok := p.ResolvedTo().(*cc.Declarator); ok {
					if v := fc.locals[d]; v != nil && fc.vlaDims[v] != nil {
						st := fc.t.tm.SizeT()
						var r cfa.Expr = cfa.NewConst(st, v.T.Elem.Size)
						for _, n := range fc.vlaDims[v] {
							r = &cfa.Binary{Op: cfa.Mul, X: n, Y: r, T: st}
						}
						return r
					}
				}
			}
		}
		fc.unsupported("sizeof of a variable-length array", x)
	case cc.UnaryExpressionLabelAddr:
		fc.unsupported("computed goto", x)
	case cc.UnaryExpressionImag, cc.UnaryExpressionReal:
		fc.unsupported("complex numbers", x)
	}
	fc.unsupported("expression", x)
	return nil
}

func (fc *fnctx) addrOf(n cc.ExpressionNode, x cc.Node) cfa.Expr {
	// &*p is p.
	if u, ok := ctypes.StripParens(n).(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionDeref {
		p := fc.rv(u.CastExpression)
		if p.Type().Kind == cfa.Pointer {
			return p
		}
	}
	e := fc.expr(n, true)
	if e == nil {
		fc.unsupported("address of a void value", x)
	}
	if r, ok := e.(*cfa.VarRef); ok && fc.vlaDims[r.Var] != nil {
		return r // &vla: the array's address, the pointer's value
	}
	switch e := e.(type) {
	case *cfa.FuncRef:
		return &cfa.AddrOf{X: e, T: fc.t.tm.Ptr(e.T)}
	case *cfa.Deref:
		return e.X
	}
	if !cfa.IsLvalue(e) {
		fc.unsupported("address of a non-lvalue", x)
	}
	if m, ok := e.(*cfa.Member); ok {
		if f := m.X.Type().Fields[m.Field]; f.BitWidth > 0 {
			fc.unsupported("address of a bit-field", x)
		}
	}
	fc.markAddr(e)
	return &cfa.AddrOf{X: e, T: fc.t.tm.Ptr(e.Type())}
}

func (fc *fnctx) binary(op cfa.BinaryOp, xn, yn cc.ExpressionNode, n cc.Node) cfa.Expr {
	x := fc.rv(xn)
	y := fc.rv(yn)
	return fc.arith(op, x, y, n)
}

// arith builds x op y with C's conversions made explicit.
func (fc *fnctx) arith(op cfa.BinaryOp, x, y cfa.Expr, n cc.Node) cfa.Expr {
	xt, yt := x.Type(), y.Type()
	if xt.Kind == cfa.Float || yt.Kind == cfa.Float {
		if e, ok := cfa.FloatEqConst(op, x, y, fc.t.tm.PtrBits()); ok {
			return e
		}
		if op.IsComparison() {
			fc.unsupported("floating-point comparison", n)
		}
		fc.unsupported("floating-point arithmetic", n)
	}
	if !xt.IsScalar() || !yt.IsScalar() {
		fc.unsupported("arithmetic on non-scalar values", n)
	}
	xp, yp := xt.Kind == cfa.Pointer, yt.Kind == cfa.Pointer
	switch op {
	case cfa.Shl, cfa.Shr:
		if xp || yp {
			fc.unsupported("shift of a pointer", n)
		}
		x, y = promote(x), promote(y)
		return &cfa.Binary{Op: op, X: x, Y: y, T: x.Type()}
	case cfa.Add, cfa.Sub:
		switch {
		case xp && yp:
			if op == cfa.Sub {
				return &cfa.Binary{Op: cfa.Sub, X: x, Y: y, T: fc.t.tm.PtrdiffT()}
			}
			fc.unsupported("addition of pointers", n)
		case xp:
			if e := xt.Elem; e.Kind == cfa.Array && e.Len < 0 {
				fc.unsupported("pointer to a variable-length array", n)
			}
			return &cfa.Binary{Op: op, X: x, Y: promote(y), T: xt}
		case yp:
			if e := yt.Elem; e.Kind == cfa.Array && e.Len < 0 {
				fc.unsupported("pointer to a variable-length array", n)
			}
			if op == cfa.Add {
				return &cfa.Binary{Op: op, X: y, Y: promote(x), T: yt}
			}
			fc.unsupported("integer minus pointer", n)
		}
	case cfa.Eq, cfa.Ne, cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge:
		switch {
		case xp && yp:
			return &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT}
		case xp:
			return &cfa.Binary{Op: op, X: x, Y: fc.conv(y, xt, n), T: cfa.IntT}
		case yp:
			return &cfa.Binary{Op: op, X: fc.conv(x, yt, n), Y: y, T: cfa.IntT}
		}
		c := cfa.UsualArithmetic(ctypes.Promoted(xt), ctypes.Promoted(yt))
		return &cfa.Binary{Op: op, X: fc.conv(x, c, n), Y: fc.conv(y, c, n), T: cfa.IntT}
	}
	if xp || yp {
		// Bitwise operations on pointers: compute on the pointer width.
		it := cfa.IntType(fc.t.tm.PtrBits(), false)
		if xp {
			x = &cfa.Cast{X: x, T: it}
		}
		if yp {
			y = &cfa.Cast{X: y, T: it}
		}
		xt, yt = x.Type(), y.Type()
	}
	c := cfa.UsualArithmetic(ctypes.Promoted(xt), ctypes.Promoted(yt))
	return &cfa.Binary{Op: op, X: fc.conv(x, c, n), Y: fc.conv(y, c, n), T: c}
}

// logical translates && (and) or || in value position: a branch into a
// temporary assigned 1 or 0.
func (fc *fnctx) logical(n, l, r cc.ExpressionNode, and bool, want bool) cfa.Expr {
	if !want {
		j, m := fc.b.node(), fc.b.node()
		if and {
			fc.cond(l, m, j)
		} else {
			fc.cond(l, j, m)
		}
		fc.cur = m
		fc.effect(r)
		fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
		fc.cur = j
		return nil
	}
	tmp := fc.temp(cfa.IntT)
	t, f, j := fc.b.node(), fc.b.node(), fc.b.node()
	fc.cond(n, t, f)
	rng, text := fc.rt(n)
	fc.cur = t
	fc.emitAt(&cfa.Assign{LHS: tmp, RHS: cfa.NewConst(cfa.IntT, 1)}, rng, text)
	fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
	fc.cur = f
	fc.emitAt(&cfa.Assign{LHS: tmp, RHS: cfa.NewConst(cfa.IntT, 0)}, rng, text)
	fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
	fc.cur = j
	return tmp
}

// conditional translates c ? a : b (and GNU c ?: b).
// failsAssertion reports whether n calls a function that fails an
// assertion (assert.h's __assert_fail and its relatives, SV-COMP's
// reach_error and __VERIFIER_error): the else branch of assert's macro.
func failsAssertion(n cc.Node) bool {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return false
	}
	found := false
	ccparse.WalkTokens(reflect.ValueOf(n), func(t *cc.Token) bool {
		switch string(t.Src()) {
		case "__assert_fail", "__assert_rtn", "__assert", "_assert", "reach_error", "__VERIFIER_error":
			found = true
		}
		return !found
	})
	return found
}

// assertionCond translates the condition n of a branch whose false
// side, the statement or expression els, may fail an assertion
// (failsAssertion) with translate (cond or guardCond) so that, when it
// does, its constant parts branch both ways (an assume of a false
// constant) instead of jumping: assert(c), c || 1 and p ? 1 : 1 keep
// the failing call, so the assertion is a property with a verdict, not
// folded away. els is searched only when a constant part is met (once:
// an else-if chain is not searched again at every level).
func (fc *fnctx) assertionCond(n cc.ExpressionNode, t, f int, els cc.Node, translate func(cc.ExpressionNode, int, int)) {
	keep := fc.keepConst
	fc.keepConst = sync.OnceValue(func() bool { return failsAssertion(els) })
	translate(n, t, f)
	fc.keepConst = keep
}

func (fc *fnctx) conditional(x *cc.ConditionalExpression, want bool) cfa.Expr {
	typ := fc.t.tm.Typ(x.Type())
	if typ.Kind == cfa.Void {
		want = false
	}
	t, f, j := fc.b.node(), fc.b.node(), fc.b.node()
	var tmp *cfa.VarRef
	rng, text := fc.rt(x)
	if x.ExpressionList == nil {
		// GNU c ?: b: the value of c when non-zero.
		c := fc.rv(x.LogicalOrExpression)
		if want {
			tmp = fc.temp(typ)
			fc.emitAt(&cfa.Assign{LHS: tmp, RHS: fc.conv(c, typ, x)}, rng, text)
		}
		fc.branchAt(fc.truth(c, x), j, f, rng, text)
	} else {
		fc.assertionCond(x.LogicalOrExpression, t, f, x.ConditionalExpression, fc.cond)
		if want {
			tmp = fc.temp(typ)
		}
		fc.cur = t
		if want {
			v := fc.rv(x.ExpressionList)
			fc.emit(&cfa.Assign{LHS: tmp, RHS: fc.conv(v, typ, x.ExpressionList)}, x.ExpressionList)
		} else {
			fc.effect(x.ExpressionList)
		}
		fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
	}
	fc.cur = f
	if want {
		v := fc.rv(x.ConditionalExpression)
		fc.emit(&cfa.Assign{LHS: tmp, RHS: fc.conv(v, typ, x.ConditionalExpression)}, x.ConditionalExpression)
	} else {
		fc.effect(x.ConditionalExpression)
	}
	fc.b.join(fc.cur, j, "skip", cfa.Range{}, "")
	fc.cur = j
	if tmp == nil {
		return nil
	}
	return tmp
}

// truth is the condition "e is non-zero" (comparisons stay as they are).
func (fc *fnctx) truth(e cfa.Expr, n cc.Node) cfa.Expr {
	t := e.Type()
	if t.Kind == cfa.Float {
		fc.unsupported("floating-point comparison", n)
	}
	if !t.IsScalar() {
		fc.unsupported("condition of a non-scalar type", n)
	}
	if b, ok := e.(*cfa.Binary); ok && b.Op.IsComparison() {
		return e
	}
	if u, ok := e.(*cfa.Unary); ok && u.Op == cfa.LNot {
		return &cfa.Binary{Op: cfa.Eq, X: u.X, Y: cfa.NewConst(u.X.Type(), 0), T: cfa.IntT}
	}
	return &cfa.Binary{Op: cfa.Ne, X: e, Y: cfa.NewConst(t, 0), T: cfa.IntT}
}

// cond branches on n: to t when it is non-zero, else to f. && and ||, !
// and ?: become branches; constant conditions jump directly, except in
// an assertion's condition (assertionCond).
func (fc *fnctx) cond(n cc.ExpressionNode, t, f int) {
	if v, ok := intValue(n.Value()); ok && n.Pure() && !fc.t.tm.HasBadSizeof(n, 0) {
		target := f
		if v != 0 {
			target = t
		}
		rng, text := fc.rt(n)
		if fc.keepConst != nil && fc.keepConst() {
			fc.branchAt(fc.truth(fc.rv(n), n), t, f, rng, text)
			return
		}
		fc.b.join(fc.cur, target, "skip", rng, text)
		fc.cur = -1
		return
	}
	switch x := ctypes.StripParens(n).(type) {
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			m := fc.b.node()
			fc.cond(x.LogicalAndExpression, m, f)
			fc.cur = m
			fc.cond(x.InclusiveOrExpression, t, f)
			return
		}
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			m := fc.b.node()
			fc.cond(x.LogicalOrExpression, t, m)
			fc.cur = m
			fc.cond(x.LogicalAndExpression, t, f)
			return
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionNot {
			fc.cond(x.CastExpression, f, t)
			return
		}
	case *cc.ConditionalExpression:
		if x.Case == cc.ConditionalExpressionCond && x.ExpressionList != nil {
			a, b := fc.b.node(), fc.b.node()
			fc.cond(x.LogicalOrExpression, a, b)
			fc.cur = a
			fc.cond(x.ExpressionList, t, f)
			fc.cur = b
			fc.cond(x.ConditionalExpression, t, f)
			return
		}
	case *cc.ExpressionList:
		if x.ExpressionList != nil {
			l := x
			for ; l.ExpressionList != nil; l = l.ExpressionList {
				fc.effect(l.AssignmentExpression)
			}
			fc.cond(l.AssignmentExpression, t, f)
			return
		}
	}
	e := fc.rv(n)
	c := fc.truth(e, n)
	rng, text := fc.rt(n)
	fc.branchAt(c, t, f, rng, text)
}

// assignment translates =, and the compound assignments.
func (fc *fnctx) assignment(x *cc.AssignmentExpression, want bool) cfa.Expr {
	if x.Case == cc.AssignmentExpressionCond {
		return fc.expr(x.ConditionalExpression, want)
	}
	l := fc.lv(x.UnaryExpression)
	lt := l.Type()
	if x.Case == cc.AssignmentExpressionAssign {
		if call, ok := ctypes.StripParens(x.AssignmentExpression).(*cc.PostfixExpression); ok && call.Case == cc.PostfixExpressionCall {
			if r := fc.call(call, true, l, x); r == l {
				return l
			} else if r != nil {
				fc.emit(&cfa.Assign{LHS: l, RHS: fc.conv(fc.decay(r), lt, x)}, x)
				return l
			}
			fc.unsupported("assignment of a void value", x)
		}
		r := fc.rv(x.AssignmentExpression)
		fc.emit(&cfa.Assign{LHS: l, RHS: fc.conv(r, lt, x)}, x)
		return l
	}
	var op cfa.BinaryOp
	switch x.Case {
	case cc.AssignmentExpressionMul:
		op = cfa.Mul
	case cc.AssignmentExpressionDiv:
		op = cfa.Div
	case cc.AssignmentExpressionMod:
		op = cfa.Rem
	case cc.AssignmentExpressionAdd:
		op = cfa.Add
	case cc.AssignmentExpressionSub:
		op = cfa.Sub
	case cc.AssignmentExpressionLsh:
		op = cfa.Shl
	case cc.AssignmentExpressionRsh:
		op = cfa.Shr
	case cc.AssignmentExpressionAnd:
		op = cfa.And
	case cc.AssignmentExpressionXor:
		op = cfa.Xor
	case cc.AssignmentExpressionOr:
		op = cfa.Or
	default:
		fc.unsupported("assignment operator", x)
	}
	lr := fc.volatileRead(l, x.UnaryExpression)
	r := fc.rv(x.AssignmentExpression)
	v := fc.arith(op, lr, r, x)
	fc.emit(&cfa.Assign{LHS: l, RHS: fc.conv(v, lt, x)}, x)
	return l
}

// incdec translates ++ and -- (prefix and postfix).
func (fc *fnctx) incdec(n cc.ExpressionNode, inc, post, want bool, x cc.Node) cfa.Expr {
	l := fc.lv(n)
	t := l.Type()
	if t.Kind == cfa.Float {
		fc.unsupported("floating-point arithmetic", x)
	}
	op := cfa.Add
	if !inc {
		op = cfa.Sub
	}
	lr := fc.volatileRead(l, n)
	v := fc.arith(op, lr, cfa.NewConst(cfa.IntT, 1), x)
	v = fc.conv(v, t, x)
	if post && want && lr != l {
		fc.emit(&cfa.Assign{LHS: l, RHS: v}, x)
		return lr
	}
	if post && want {
		tmp := fc.temp(t)
		fc.emit(&cfa.Assign{LHS: tmp, RHS: l}, x)
		fc.emit(&cfa.Assign{LHS: l, RHS: v}, x)
		return tmp
	}
	fc.emit(&cfa.Assign{LHS: l, RHS: v}, x)
	return l
}

// compoundLiteral creates the object of (T){...}: a temporary (a global in
// Init) initialised like a local.
func (fc *fnctx) compoundLiteral(x *cc.PostfixExpression) cfa.Expr {
	// The type name's type (completed by the initialiser for arrays of
	// unknown size); the expression's own type is the decayed pointer.
	ct := x.TypeName.Type()
	if ct == nil || ct.IsIncomplete() {
		if il := x.InitializerList; il != nil && il.Type() != nil && il.Type().Kind() != cc.InvalidKind {
			ct = il.Type()
		}
	}
	typ := fc.t.tm.Typ(ct)
	var obj *cfa.VarRef
	if fc.isInit {
		fc.t.ncompl++
		name := "__compound_literal" + strconv.Itoa(fc.t.ncompl)
		for fc.t.names[name] {
			fc.t.ncompl++
			name = "__compound_literal" + strconv.Itoa(fc.t.ncompl)
		}
		fc.t.names[name] = true
		obj = &cfa.VarRef{Var: fc.t.newGlobal(name, "", typ, fc.u.Files.Pos(x.Position()))}
	} else {
		obj = fc.temp(typ)
	}
	if fc.isInit {
		rng, text := fc.rt(x)
		fc.emitAt(&cfa.Decl{Var: obj.Var}, rng, text)
	}
	// A compound literal in a function is one object for its block (C11
	// 6.5.2.5p5: evaluating it again, as in a loop, reinitialises the same
	// object), so its temporary has no Decl.
	fc.initList(obj, ct, x.InitializerList, x)
	return obj
}
