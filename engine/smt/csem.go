package smt

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// This file is the symbolic twin of engine/cfa/csem, the concrete C
// semantics shared with engine/interp (see the csem package comment for
// the rules; TestCrossCheck checks that both agree on random programs).
// Wherever csem reports undefined behaviour, the functions here return a
// UBCheck whose condition holds exactly then, and the value is a fresh
// unconstrained variable ("undef!n") in that case, so no value is invented.

// UBCheck is a condition (Bool term) under which an operation has
// undefined behaviour of the given kind.
type UBCheck struct {
	Kind csem.UB
	Cond *Term
}

// TypeWidth is the bit-vector width of values of the scalar type t
// (_Bool: 8, pointers: their width), or 0 for other types.
func TypeWidth(t *cfa.Type) int {
	if t == nil || !t.IsScalar() {
		return 0
	}
	return t.Width()
}

// CTruth returns x != 0 as a Bool term.
func CTruth(b *Builder, x *Term) *Term {
	return b.Not(b.Eq(x, b.BV(0, x.Sort.Width)))
}

// CBool returns 1 if c else 0 in the width of type rt.
func CBool(b *Builder, c *Term, rt *cfa.Type) *Term {
	w := TypeWidth(rt)
	return b.Ite(c, b.BV(1, w), b.BV(0, w))
}

// CCast converts x from type from to type to (scalars), as csem.Convert.
func CCast(b *Builder, x *Term, from, to *cfa.Type) *Term {
	if to.Kind == cfa.Bool {
		return CBool(b, CTruth(b, x), to)
	}
	fw, tw := x.Sort.Width, TypeWidth(to)
	switch {
	case tw == fw:
		return x
	case tw < fw:
		return b.Extract(x, tw-1, 0)
	case from.IsSigned():
		return b.SignExt(x, tw)
	}
	return b.ZeroExt(x, tw)
}

// CUnary applies -, ~ or ! as csem.Unary.
func CUnary(b *Builder, op cfa.UnaryOp, x *Term, xt, rt *cfa.Type) *Term {
	switch op {
	case cfa.Neg:
		return b.Neg(x)
	case cfa.BNot:
		return b.BNot(x)
	case cfa.LNot:
		return CBool(b, b.Eq(x, b.BV(0, x.Sort.Width)), rt)
	}
	panic(fmt.Sprintf("smt.CUnary: operator %d", op))
}

// CCompare returns the Bool term for the comparison x op y of operands of
// type xt (signed comparison for signed integer types, unsigned for
// unsigned integers and pointers).
func CCompare(b *Builder, op cfa.BinaryOp, x, y *Term, xt *cfa.Type) *Term {
	s := xt.IsSigned()
	switch op {
	case cfa.Eq:
		return b.Eq(x, y)
	case cfa.Ne:
		return b.Not(b.Eq(x, y))
	case cfa.Lt:
		if s {
			return b.Slt(x, y)
		}
		return b.Ult(x, y)
	case cfa.Le:
		if s {
			return b.Sle(x, y)
		}
		return b.Ule(x, y)
	case cfa.Gt:
		if s {
			return b.Sgt(x, y)
		}
		return b.Ugt(x, y)
	case cfa.Ge:
		if s {
			return b.Sge(x, y)
		}
		return b.Uge(x, y)
	}
	panic("smt.CCompare: not a comparison: " + op.String())
}

// CBinary applies an integer binary operator as csem.Binary: x of type
// xt, y of type yt, result of type rt. Pointer arithmetic is not handled
// here. LAnd and LOr evaluate both sides (callers wanting short-circuit
// guards for the right side's UB checks handle them before). The UB
// checks are nil when the operation is always defined.
func CBinary(b *Builder, op cfa.BinaryOp, x, y *Term, xt, yt, rt *cfa.Type) (*Term, []UBCheck) {
	w := x.Sort.Width
	switch op {
	case cfa.Add:
		return b.Add(x, y), nil
	case cfa.Sub:
		return b.Sub(x, y), nil
	case cfa.Mul:
		return b.Mul(x, y), nil
	case cfa.And:
		return b.BAnd(x, y), nil
	case cfa.Or:
		return b.BOr(x, y), nil
	case cfa.Xor:
		return b.BXor(x, y), nil
	case cfa.Eq, cfa.Ne, cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge:
		return CBool(b, CCompare(b, op, x, y, xt), rt), nil
	case cfa.LAnd:
		return CBool(b, b.And(CTruth(b, x), CTruth(b, y)), rt), nil
	case cfa.LOr:
		return CBool(b, b.Or(CTruth(b, x), CTruth(b, y)), rt), nil
	case cfa.Div, cfa.Rem:
		var ubs []UBCheck
		zero := b.Eq(y, b.BV(0, w))
		if zero.Op != False {
			ubs = append(ubs, UBCheck{csem.DivByZero, zero})
		}
		var v *Term
		if xt.IsSigned() {
			ovf := b.And(b.Eq(x, b.BV(1<<uint(w-1), w)), b.Eq(y, b.BVInt(-1, w)))
			if w > 64 {
				ovf = b.And(b.Eq(x, b.BV128(0, 1<<uint(w-65), w)), b.Eq(y, b.BVInt(-1, w)))
			}
			if ovf.Op != False {
				ubs = append(ubs, UBCheck{csem.DivOverflow, ovf})
			}
			if op == cfa.Div {
				v = b.SDiv(x, y)
			} else {
				v = b.SRem(x, y)
			}
		} else if op == cfa.Div {
			v = b.UDiv(x, y)
		} else {
			v = b.URem(x, y)
		}
		return undef(b, v, ubs), ubs
	case cfa.Shl, cfa.Shr:
		// count out of range: negative (signed yt) or ≥ width of x
		yw := y.Sort.Width
		var bad *Term
		if yw > 8 || 1<<uint(yw) > w {
			lim := b.BV(uint64(w), yw)
			if yt.IsSigned() {
				bad = b.Or(b.Slt(y, b.BV(0, yw)), b.Sge(y, lim))
			} else {
				bad = b.Uge(y, lim)
			}
		} else if yt.IsSigned() {
			bad = b.Slt(y, b.BV(0, yw))
		} else {
			bad = b.False()
		}
		// the count as a w-bit amount (in range when not bad)
		var cnt *Term
		switch {
		case yw == w:
			cnt = y
		case yw > w:
			cnt = b.Extract(y, w-1, 0)
		default:
			cnt = b.ZeroExt(y, w)
		}
		var v *Term
		switch {
		case op == cfa.Shl:
			v = b.Shl(x, cnt)
		case xt.IsSigned():
			v = b.AShr(x, cnt)
		default:
			v = b.LShr(x, cnt)
		}
		var ubs []UBCheck
		if bad.Op != False {
			ubs = []UBCheck{{csem.ShiftCount, bad}}
		}
		return undef(b, v, ubs), ubs
	}
	panic("smt.CBinary: operator " + op.String())
}

// undef returns v, or a fresh "undef" value where any check holds.
func undef(b *Builder, v *Term, ubs []UBCheck) *Term {
	if len(ubs) == 0 {
		return v
	}
	var any *Term = b.False()
	for _, u := range ubs {
		any = b.Or(any, u.Cond)
	}
	if any.Op == False {
		return v
	}
	return b.Ite(any, b.FreshVar("undef", v.Sort), v)
}
