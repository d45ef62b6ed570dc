package cfa

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a side-effect-free, fully typed C expression. The front end
// guarantees:
//   - no assignments, increments or calls inside an Expr (they are separate
//     CFA edges, with temporaries in evaluation order);
//   - the integer promotions and usual arithmetic conversions are explicit
//     Casts: both operands of an arithmetic or comparison Binary have the
//     same type, except shifts, whose operands are promoted independently,
//     and pointer arithmetic (pointer ± integer, pointer − pointer);
//   - && and || and ?: in value position are lowered to branches, so they
//     appear only as LAnd/LOr inside Assume conditions when at all;
//   - arrays in value position decay explicitly: AddrOf{Index{a, 0}}.
type Expr interface {
	// Type is the C type of the expression's value.
	Type() *Type
	String() string
	isExpr()
}

// Const is an integer or pointer constant. V holds the value's two's
// complement bit pattern truncated to the type's width. A Const of array,
// struct or union type with V = 0 is the all-zero object (the front end
// zero-initialises aggregates with one Assign of it).
type Const struct {
	T *Type
	V uint64
}

// FloatConst is a floating-point literal; analyses without floating-point
// support treat values derived from it as unknown.
type FloatConst struct {
	T *Type
	V float64
}

// VarRef names a variable (an lvalue).
type VarRef struct{ Var *Var }

// StringLit is a string literal: an array of char, terminated by NUL.
type StringLit struct {
	T   *Type // array of char, Len = len(Val)+1
	Val string
}

// FuncRef designates a function (for calls through pointers and &f).
type FuncRef struct {
	Name string
	T    *Type // Func
}

// UnaryOp is a unary operator.
type UnaryOp uint8

// Unary operators.
const (
	Neg  UnaryOp = iota // -x (wraps)
	BNot                // ~x
	LNot                // !x, of type int
)

var unaryNames = [...]string{"-", "~", "!"}

func (o UnaryOp) String() string { return unaryNames[o] }

// Unary is a unary operation.
type Unary struct {
	Op UnaryOp
	X  Expr
	T  *Type
}

// BinaryOp is a binary operator.
type BinaryOp uint8

// Binary operators. Div and Rem truncate toward zero as C99 defines;
// Shr is arithmetic for signed and logical for unsigned left operands.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	Rem
	Shl
	Shr
	And
	Or
	Xor
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	LAnd // only in Assume conditions
	LOr  // only in Assume conditions
)

var binaryNames = [...]string{"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}

func (o BinaryOp) String() string { return binaryNames[o] }

// IsComparison reports whether o is ==, !=, <, <=, > or >=.
func (o BinaryOp) IsComparison() bool { return o >= Eq && o <= Ge }

// Negate returns the comparison with the opposite outcome (< becomes >=).
func (o BinaryOp) Negate() BinaryOp {
	switch o {
	case Eq:
		return Ne
	case Ne:
		return Eq
	case Lt:
		return Ge
	case Le:
		return Gt
	case Gt:
		return Le
	case Ge:
		return Lt
	}
	panic("cfa: Negate of non-comparison " + o.String())
}

// Binary is a binary operation.
type Binary struct {
	Op   BinaryOp
	X, Y Expr
	T    *Type
}

// Cast converts X to T (truncation, sign or zero extension, pointer
// conversions; to _Bool: x != 0).
type Cast struct {
	X Expr
	T *Type
}

// Deref is *X (an lvalue); X has pointer type.
type Deref struct {
	X Expr
	T *Type
}

// AddrOf is &X; X is an lvalue (VarRef, Deref, Member, Index, StringLit)
// or a FuncRef.
type AddrOf struct {
	X Expr
	T *Type
}

// Member is X.f where X has struct or union type; Field indexes
// X.Type().Fields. p->f is Member{Deref{p}, f}.
type Member struct {
	X     Expr
	Field int
	T     *Type
}

// Index is X[I] where X has array type (an lvalue). Subscripts of pointers
// are Deref of pointer arithmetic.
type Index struct {
	X Expr
	I Expr
	T *Type
}

func (e *Const) Type() *Type      { return e.T }
func (e *FloatConst) Type() *Type { return e.T }
func (e *VarRef) Type() *Type     { return e.Var.T }
func (e *StringLit) Type() *Type  { return e.T }
func (e *FuncRef) Type() *Type    { return e.T }
func (e *Unary) Type() *Type      { return e.T }
func (e *Binary) Type() *Type     { return e.T }
func (e *Cast) Type() *Type       { return e.T }
func (e *Deref) Type() *Type      { return e.T }
func (e *AddrOf) Type() *Type     { return e.T }
func (e *Member) Type() *Type     { return e.T }
func (e *Index) Type() *Type      { return e.T }

func (*Const) isExpr()      {}
func (*FloatConst) isExpr() {}
func (*VarRef) isExpr()     {}
func (*StringLit) isExpr()  {}
func (*FuncRef) isExpr()    {}
func (*Unary) isExpr()      {}
func (*Binary) isExpr()     {}
func (*Cast) isExpr()       {}
func (*Deref) isExpr()      {}
func (*AddrOf) isExpr()     {}
func (*Member) isExpr()     {}
func (*Index) isExpr()      {}

// Zero is the zero value of t: 0, NULL, or for aggregates the
// all-zero object (a Const of the aggregate type with V = 0).
func Zero(t *Type) Expr {
	if t.Kind == Float {
		return &FloatConst{T: t}
	}
	return &Const{T: t}
}

// NewConst returns the constant v of integer or pointer type t, truncated
// to t's width.
func NewConst(t *Type, v int64) *Const {
	return &Const{T: t, V: Truncate(uint64(v), t.Width())}
}

// Truncate keeps the low bits bits of v (bits ≥ 64 keeps all).
func Truncate(v uint64, bits int) uint64 {
	if bits >= 64 {
		return v
	}
	return v & (1<<uint(bits) - 1)
}

// SignExtend interprets the low bits bits of v as a two's complement number.
func SignExtend(v uint64, bits int) int64 {
	if bits >= 64 {
		return int64(v)
	}
	shift := uint(64 - bits)
	return int64(v<<shift) >> shift
}

// Int64 returns the constant's value, sign-extended for signed types.
func (e *Const) Int64() int64 {
	if e.T.IsSigned() {
		return SignExtend(e.V, e.T.Width())
	}
	return int64(e.V)
}

func (e *Const) String() string {
	if e.T.IsSigned() {
		return strconv.FormatInt(e.Int64(), 10)
	}
	s := strconv.FormatUint(e.V, 10)
	if e.T.Kind == Int {
		s += "U"
	}
	if e.T.Kind == Pointer {
		if e.V == 0 {
			return "NULL"
		}
		return fmt.Sprintf("(%s)%#x", e.T, e.V)
	}
	return s
}

func (e *FloatConst) String() string { return strconv.FormatFloat(e.V, 'g', -1, 64) }
func (e *VarRef) String() string     { return e.Var.Name }
func (e *StringLit) String() string  { return strconv.Quote(e.Val) }
func (e *FuncRef) String() string    { return e.Name }
func (e *Unary) String() string      { return e.Op.String() + paren(e.X) }
func (e *Binary) String() string     { return paren(e.X) + " " + e.Op.String() + " " + paren(e.Y) }
func (e *Cast) String() string       { return "(" + e.T.String() + ")" + paren(e.X) }
func (e *Deref) String() string      { return "*" + paren(e.X) }
func (e *AddrOf) String() string     { return "&" + paren(e.X) }
func (e *Index) String() string      { return paren(e.X) + "[" + e.I.String() + "]" }
func (e *Member) String() string {
	if d, ok := e.X.(*Deref); ok {
		return paren(d.X) + "->" + e.X.Type().Fields[e.Field].Name
	}
	return paren(e.X) + "." + e.X.Type().Fields[e.Field].Name
}

// paren prints e, in parentheses unless it is atomic or postfix.
func paren(e Expr) string {
	switch e.(type) {
	case *Const, *VarRef, *FuncRef, *StringLit, *Index, *Member, *FloatConst:
		s := e.String()
		if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "(") {
			return "(" + s + ")"
		}
		return s
	}
	return "(" + e.String() + ")"
}

// IsLvalue reports whether e designates an object.
func IsLvalue(e Expr) bool {
	switch e := e.(type) {
	case *VarRef, *Deref, *StringLit:
		return true
	case *Member:
		return IsLvalue(e.X)
	case *Index:
		return IsLvalue(e.X)
	}
	return false
}

// Walk calls f on e and, if f returns true, on each sub-expression in
// evaluation order.
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Walk(e.X, f)
	case *Binary:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Cast:
		Walk(e.X, f)
	case *Deref:
		Walk(e.X, f)
	case *AddrOf:
		Walk(e.X, f)
	case *Member:
		Walk(e.X, f)
	case *Index:
		Walk(e.X, f)
		Walk(e.I, f)
	}
}

// Vars returns the variables e mentions, in order of first occurrence.
func Vars(e Expr) []*Var {
	var vs []*Var
	seen := map[*Var]bool{}
	Walk(e, func(x Expr) bool {
		if r, ok := x.(*VarRef); ok && !seen[r.Var] {
			seen[r.Var] = true
			vs = append(vs, r.Var)
		}
		return true
	})
	return vs
}

// StripCasts returns x without its outer casts.
func StripCasts(x Expr) Expr {
	for {
		c, ok := x.(*Cast)
		if !ok {
			return x
		}
		x = c.X
	}
}

// StringLiteral returns the string literal behind x, through casts,
// address-of and subscripts (a decayed string-literal argument such as
// assert's message): its bytes without the terminating NUL, and false
// when x is not one.
func StringLiteral(x Expr) (string, bool) {
	for {
		switch y := x.(type) {
		case *StringLit:
			return y.Val, true
		case *Cast:
			x = y.X
		case *AddrOf:
			x = y.X
		case *Index:
			x = y.X
		default:
			return "", false
		}
	}
}

// BaseVar returns the variable an lvalue designates (part of, through
// members and array indices), or nil when it is reached through a
// pointer (or x is nil).
func BaseVar(x Expr) *Var {
	for {
		switch y := x.(type) {
		case *VarRef:
			return y.Var
		case *Member:
			x = y.X
		case *Index:
			x = y.X
		default:
			return nil
		}
	}
}

// MaskedPointer recognises (T *)((uintptr_t)p & mask), the masking
// idiom of speculative-execution hardening (aws-c-common's nospec: the
// mask has every bit set or none), when x is that cast with an integer
// of ptrBits bits: it returns p (a pointer) and mask. The SMT encoding
// and the interpreter give it one meaning: p with every bit of mask, NULL
// with none, and nothing they model otherwise; p's address never
// becomes an integer.
func MaskedPointer(x *Cast, ptrBits int) (p, mask Expr, ok bool) {
	and, isAnd := x.X.(*Binary)
	if !isAnd || and.Op != And || x.T.Kind != Pointer || !and.T.IsInteger() || and.T.Size*8 != int64(ptrBits) {
		return nil, nil, false
	}
	addr, m := and.X, and.Y
	if c, isCast := m.(*Cast); isCast && c.X.Type().Kind == Pointer {
		addr, m = m, addr
	}
	c, isCast := addr.(*Cast)
	if !isCast || c.X.Type().Kind != Pointer || !c.T.IsInteger() || c.T.Size != and.T.Size {
		return nil, nil, false
	}
	return c.X, m, true
}
