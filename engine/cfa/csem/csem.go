package csem

import (
	"fmt"
	"math/big"

	"github.com/reverify/reverify/engine/cfa"
)

// UB is a kind of undefined behaviour an operation can exhibit.
type UB uint8

// Kinds of undefined behaviour of integer operations.
const (
	NoUB        UB = iota
	DivByZero      // x / 0 or x % 0
	DivOverflow    // MIN / -1 or MIN % -1 (signed)
	ShiftCount     // shift count negative or ≥ width of the left operand
)

func (u UB) String() string {
	switch u {
	case DivByZero:
		return "division by zero"
	case DivOverflow:
		return "signed division overflow (MIN / -1)"
	case ShiftCount:
		return "shift count out of range"
	}
	return "no undefined behaviour"
}

// Supported reports whether values of t are handled by this package:
// _Bool, integers and pointers of at most 64 bits.
func Supported(t *cfa.Type) bool {
	return t != nil && t.IsScalar() && t.Width() > 0 && t.Width() <= 64
}

// Signed returns v (of type t) as a signed 64-bit integer when t is
// signed, else v itself reinterpreted.
func Signed(v uint64, t *cfa.Type) int64 {
	if t.IsSigned() {
		return cfa.SignExtend(v, t.Width())
	}
	return int64(v)
}

func widen(v uint64, t *cfa.Type) uint64 {
	if t.IsSigned() {
		return uint64(cfa.SignExtend(v, t.Width()))
	}
	return cfa.Truncate(v, t.Width())
}

func b2u(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}

// Truth reports whether a scalar value counts as true (non-zero).
func Truth(v uint64) bool { return v != 0 }

// Convert converts v from type from to type to (scalars): to _Bool it is
// v != 0; otherwise v is sign- or zero-extended by from's signedness and
// truncated to to's width.
func Convert(v uint64, from, to *cfa.Type) uint64 {
	if to.Kind == cfa.Bool {
		return b2u(cfa.Truncate(v, from.Width()) != 0)
	}
	return cfa.Truncate(widen(v, from), to.Width())
}

// Unary applies -, ~ or ! to x of type xt; the result has type rt (xt for
// - and ~ after promotion, int for !).
func Unary(op cfa.UnaryOp, x uint64, xt, rt *cfa.Type) uint64 {
	w := rt.Width()
	switch op {
	case cfa.Neg:
		return cfa.Truncate(-x, w)
	case cfa.BNot:
		return cfa.Truncate(^x, w)
	case cfa.LNot:
		return b2u(cfa.Truncate(x, xt.Width()) == 0)
	}
	panic(fmt.Sprintf("csem.Unary: operator %d", op))
}

// Binary applies an integer binary operator: x has type xt, y type yt and
// the result type rt. Arithmetic and comparison operands share one type
// (the usual arithmetic conversions are explicit in the CFA); shift
// operands are promoted independently and rt = xt. Comparisons compare
// pointers (as addresses) and integers by xt's signedness and yield 0 or 1.
// LAnd and LOr are not short-circuit here (callers evaluate lazily). The
// second result is the undefined behaviour, in which case the value is 0
// and meaningless.
func Binary(op cfa.BinaryOp, x, y uint64, xt, yt, rt *cfa.Type) (uint64, UB) {
	w := rt.Width()
	x, y = cfa.Truncate(x, xt.Width()), cfa.Truncate(y, yt.Width())
	signed := xt.IsSigned()
	sx, sy := Signed(x, xt), Signed(y, yt)
	switch op {
	case cfa.Add:
		return cfa.Truncate(x+y, w), NoUB
	case cfa.Sub:
		return cfa.Truncate(x-y, w), NoUB
	case cfa.Mul:
		return cfa.Truncate(x*y, w), NoUB
	case cfa.Div, cfa.Rem:
		if y == 0 {
			return 0, DivByZero
		}
		if signed {
			if sy == -1 && x == cfa.Truncate(1<<uint(xt.Width()-1), xt.Width()) {
				return 0, DivOverflow
			}
			if op == cfa.Div {
				return cfa.Truncate(uint64(sx/sy), w), NoUB
			}
			return cfa.Truncate(uint64(sx%sy), w), NoUB
		}
		if op == cfa.Div {
			return x / y, NoUB
		}
		return x % y, NoUB
	case cfa.Shl, cfa.Shr:
		xw := xt.Width()
		if sy < 0 && yt.IsSigned() || y >= uint64(xw) {
			return 0, ShiftCount
		}
		if op == cfa.Shl {
			return cfa.Truncate(x<<y, w), NoUB
		}
		if signed {
			return cfa.Truncate(uint64(sx>>y), w), NoUB
		}
		return x >> y, NoUB
	case cfa.And:
		return x & y, NoUB
	case cfa.Or:
		return x | y, NoUB
	case cfa.Xor:
		return x ^ y, NoUB
	case cfa.Eq:
		return b2u(x == y), NoUB
	case cfa.Ne:
		return b2u(x != y), NoUB
	case cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge:
		var lt, eq bool
		if signed {
			lt, eq = sx < sy, sx == sy
		} else {
			lt, eq = x < y, x == y
		}
		switch op {
		case cfa.Lt:
			return b2u(lt), NoUB
		case cfa.Le:
			return b2u(lt || eq), NoUB
		case cfa.Gt:
			return b2u(!lt && !eq), NoUB
		}
		return b2u(!lt), NoUB
	case cfa.LAnd:
		return b2u(x != 0 && y != 0), NoUB
	case cfa.LOr:
		return b2u(x != 0 || y != 0), NoUB
	}
	panic(fmt.Sprintf("csem.Binary: operator %v", op))
}

// OffsetBits is the number of low bits of a pointer that hold the offset
// within its object in reverify's memory model (engine/smt): 32 under
// LP64 and 20 under ILP32. Objects are at most 2^OffsetBits−1 bytes.
func OffsetBits(m cfa.DataModel) int {
	if m == cfa.ILP32 {
		return 20
	}
	return 32
}

// SignedOverflow reports whether x op y, for op one of +, - and * on
// operands of the signed integer result type rt (the usual arithmetic
// conversions are explicit in the CFA), has a mathematical result outside
// rt's range: undefined behaviour in C (C11 6.5p5), which Binary wraps as
// gcc -fwrapv does. It is false for every other operator, for unsigned,
// _Bool and pointer result types, and for types wider than 64 bits.
func SignedOverflow(op cfa.BinaryOp, x, y uint64, xt, yt, rt *cfa.Type) bool {
	w := rt.Width()
	if !rt.IsSigned() || w > 64 || w <= 0 || (op != cfa.Add && op != cfa.Sub && op != cfa.Mul) {
		return false
	}
	a := big.NewInt(Signed(cfa.Truncate(x, xt.Width()), xt))
	b := big.NewInt(Signed(cfa.Truncate(y, yt.Width()), yt))
	switch op {
	case cfa.Add:
		a.Add(a, b)
	case cfa.Sub:
		a.Sub(a, b)
	default:
		a.Mul(a, b)
	}
	return !fitsSigned(a, w)
}

// NegOverflow reports whether -x overflows the signed result type rt
// (x is rt's minimum); false for unsigned types and types over 64 bits.
func NegOverflow(x uint64, xt, rt *cfa.Type) bool {
	w := rt.Width()
	if !rt.IsSigned() || w > 64 || w <= 0 {
		return false
	}
	a := big.NewInt(Signed(cfa.Truncate(x, xt.Width()), xt))
	return !fitsSigned(a.Neg(a), w)
}

func fitsSigned(v *big.Int, w int) bool {
	lim := new(big.Int).Lsh(big.NewInt(1), uint(w-1)) // 2^(w-1)
	return v.Cmp(new(big.Int).Neg(lim)) >= 0 && v.Cmp(lim) < 0
}
