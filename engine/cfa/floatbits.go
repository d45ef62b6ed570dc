package cfa

import "math"

// FloatEqConst lowers x == c and x != c, for a floating-point lvalue x
// reached through a pointer (p->f, *p, p[i]) and a constant c of x's
// type, to a comparison of x's bit pattern, read as an unsigned integer
// of its width: IEEE 754 (C11 F.3) gives every finite value other than
// zero one encoding, so x == c exactly when x's bits are c's, and x == 0
// exactly when its bits other than the sign are 0; nothing equals a NaN.
// aws-c-common's hash tables test their load factor so
// (max_load_factor == 0.95); ptrBits is the data model's pointer width.
// ok is false for any other comparison, which stays unsupported, as does
// all other floating-point arithmetic (both front ends use it).
func FloatEqConst(op BinaryOp, x, y Expr, ptrBits int) (Expr, bool) {
	if op != Eq && op != Ne {
		return nil, false
	}
	c, ok := y.(*FloatConst)
	if !ok {
		if c, ok = x.(*FloatConst); !ok {
			return nil, false
		}
		x = y
	}
	t := x.Type()
	if t.Kind != Float || c.T.Bits != t.Bits || (t.Bits != 32 && t.Bits != 64) || !throughPointer(x) {
		return nil, false
	}
	bits := IntType(t.Bits, false)
	pun := &Deref{X: &Cast{X: &AddrOf{X: x, T: PointerTo(t, ptrBits)}, T: PointerTo(bits, ptrBits)}, T: bits}
	var pattern, mask uint64
	switch {
	case math.IsNaN(c.V):
		ne := uint64(0)
		if op == Ne {
			ne = 1
		}
		return NewConst(IntT, int64(ne)), true
	case c.V == 0:
		mask = uint64(1)<<(t.Bits-1) - 1 // +0 and -0
	case t.Bits == 32:
		pattern, mask = uint64(math.Float32bits(float32(c.V))), 1<<32-1
	default:
		pattern, mask = math.Float64bits(c.V), ^uint64(0)
	}
	var lhs Expr = pun
	if mask != Truncate(^uint64(0), t.Bits) {
		lhs = &Binary{Op: And, X: pun, Y: NewConst(bits, int64(mask)), T: bits}
	}
	return &Binary{Op: op, X: lhs, Y: NewConst(bits, int64(pattern)), T: IntT}, true
}

// throughPointer reports whether the lvalue x lies in memory reached
// through a pointer (*p, p->f, (*p).a[i]), whose address may be taken
// without changing how a front end stores a variable.
func throughPointer(x Expr) bool {
	switch x := x.(type) {
	case *Deref:
		return true
	case *Member:
		return throughPointer(x.X)
	case *Index:
		return throughPointer(x.X)
	}
	return false
}
