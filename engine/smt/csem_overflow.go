package smt

import (
	"github.com/reverify/reverify/engine/cfa"
)

// EncodeOptions select variants of the C semantics for EncodePathOpts and
// CheckPathOpts. The zero value is the documented -fwrapv semantics.
type EncodeOptions struct {
	// AssumeNoSignedOverflow adds, for every signed +, -, * and unary -
	// the path evaluates, the assumption that its mathematical result
	// fits the result type (C11 6.5p5 makes overflow undefined; the
	// SV-COMP rules let a verifier assume programs free of it). A path
	// on which such an operation must overflow becomes infeasible
	// instead of wrapping around.
	AssumeNoSignedOverflow bool
	// WrapPointerArith makes pointer arithmetic that leaves the object
	// no undefined behaviour while the offset, then a signed
	// OffsetBits-bit number, fits: the pointer keeps its object, an
	// access through it is out of bounds unless the arithmetic comes
	// back, and comparing or subtracting a pointer before its object
	// (a negative offset, whose order would differ from a real
	// execution's flat addresses) is undefined behaviour. Memory-safety confirmation uses it
	// (engine/memsafety.go): SV-COMP's valid-deref counts the invalid
	// access, not the arithmetic before it (a container_of of a list
	// head that is no node's member, the twin of interp's
	// Semantics.WrapPointerArith).
	WrapPointerArith bool
	// ZeroPagePointers makes the conversion of a non-constant integer v
	// to a pointer the address v in no object (the null object at
	// offset v, so every access through it is invalid) when v is below
	// ZeroPage, and undefined behaviour otherwise: a page of addresses
	// that no object occupies on the systems replayed on (Linux maps
	// nothing below mmap_min_addr, 4096 bytes at least). Memory-safety
	// confirmation uses it for pointers made of nondeterministic
	// integers (SV-COMP's list-ext_2), with its twin
	// interp.Semantics.ZeroPagePointers.
	ZeroPagePointers bool
	// StringBytes, when larger than 64, is the number of bytes the
	// models of strlen, strncmp and memcmp unroll on an object of
	// non-constant size (at most 1,024): a harness's bound on its
	// strings (CBMC's UNWINDSET for these functions, engine/bmc).
	StringBytes int
}

// ZeroPage is the bound of EncodeOptions.ZeroPagePointers.
const ZeroPage = 4096

// CSignedOverflow returns the Bool term that holds when x op y (op one of
// +, - and *; x and y of the result type rt) overflows the signed type
// rt, the symbolic twin of csem.SignedOverflow: false for other
// operators, unsigned types and widths over 64 bits. Addition overflows
// when both operands have the same sign and the sum the other one;
// subtraction when the operands' signs differ and the difference's sign
// is not the minuend's; multiplication when the 2w-bit product is not the
// sign extension of its low w bits.
func CSignedOverflow(b *Builder, op cfa.BinaryOp, x, y *Term, rt *cfa.Type) *Term {
	w := x.Sort.Width
	if !rt.IsSigned() || w > 64 || y.Sort.Width != w {
		return b.False()
	}
	zero := b.BV(0, w)
	neg := func(t *Term) *Term { return b.Slt(t, zero) }
	switch op {
	case cfa.Add:
		sx, sy, sr := neg(x), neg(y), neg(b.Add(x, y))
		return b.Or(b.And(sx, sy, b.Not(sr)), b.And(b.Not(sx), b.Not(sy), sr))
	case cfa.Sub:
		sx, sy, sr := neg(x), neg(y), neg(b.Sub(x, y))
		return b.Or(b.And(sx, b.Not(sy), b.Not(sr)), b.And(b.Not(sx), sy, sr))
	case cfa.Mul:
		p := b.Mul(b.SignExt(x, 2*w), b.SignExt(y, 2*w))
		return b.Not(b.Eq(p, b.SignExt(b.Extract(p, w-1, 0), 2*w)))
	}
	return b.False()
}

// CNegOverflow returns the Bool term that holds when -x overflows the
// signed type rt (x is its minimum), the twin of csem.NegOverflow.
func CNegOverflow(b *Builder, x *Term, rt *cfa.Type) *Term {
	w := x.Sort.Width
	if !rt.IsSigned() || w > 64 {
		return b.False()
	}
	return b.Eq(x, b.BV(1<<uint(w-1), w))
}

// assumeNoOverflow records, in AssumeNoSignedOverflow mode, that the
// operation at the current step does not overflow where it is evaluated
// (under the encoder's guard for short-circuit operands).
func (e *encoder) assumeNoOverflow(ovf *Term) {
	if !e.opts.AssumeNoSignedOverflow || ovf.Op == False {
		return
	}
	e.conj(e.b.Not(e.b.And(e.guard, ovf)))
}
