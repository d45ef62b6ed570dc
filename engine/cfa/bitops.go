package cfa

// The bit operations both front ends lower to expressions: gcc's
// __builtin_popcount, __builtin_parity, __builtin_clz, __builtin_ctz and
// the byte swaps (engine/frontend), and LLVM's llvm.ctpop, llvm.ctlz,
// llvm.cttz and llvm.bswap (engine/llvmir). let binds an expression
// that is used more than once to a temporary and returns the temporary
// (so that the expression is evaluated once and the tree stays small).

// PopCount is the number of 1 bits of v, an unsigned integer of w bits
// (8 ≤ w ≤ 64, a multiple of 8), of v's type: the parallel sum of
// Hacker's Delight (Warren, 2nd ed., figure 5-2): x - ((x >> 1) & 0x55…),
// (x & 0x33…) + ((x >> 2) & 0x33…), (x + (x >> 4)) & 0x0f…, then
// (x * 0x01…) >> (w - 8).
func PopCount(v Expr, w int, let func(Expr) Expr) Expr {
	u := v.Type()
	bin := func(op BinaryOp, x, y Expr) Expr { return &Binary{Op: op, X: x, Y: y, T: u} }
	k := func(c uint64) Expr { return &Const{T: u, V: Truncate(c, w)} }
	sh := func(n int) Expr { return NewConst(IntT, int64(n)) }
	x := let(bin(Sub, v, bin(And, bin(Shr, v, sh(1)), k(^uint64(0)/3))))
	x = let(bin(Add, bin(And, x, k(^uint64(0)/5)), bin(And, bin(Shr, x, sh(2)), k(^uint64(0)/5))))
	x = let(bin(And, bin(Add, x, bin(Shr, x, sh(4))), k(^uint64(0)/17)))
	if w == 8 {
		return x
	}
	return bin(Shr, bin(Mul, x, k(^uint64(0)/255)), sh(w-8))
}

// LeadingZeros is the number of leading 0 bits of v (unsigned, w bits,
// not 0): popcount(~s), where s is v with every bit below its highest 1
// bit set (s |= s >> k for k = 1, 2, 4, …, w/2).
func LeadingZeros(v Expr, w int, let func(Expr) Expr) Expr {
	u := v.Type()
	s := v
	for n := 1; n < w; n *= 2 {
		s = let(&Binary{Op: Or, X: s, Y: &Binary{Op: Shr, X: s, Y: NewConst(IntT, int64(n)), T: u}, T: u})
	}
	return PopCount(let(&Unary{Op: BNot, X: s, T: u}), w, let)
}

// TrailingZeros is the number of trailing 0 bits of v (unsigned, w
// bits, not 0): popcount(~v & (v - 1)).
func TrailingZeros(v Expr, w int, let func(Expr) Expr) Expr {
	u := v.Type()
	m := &Binary{Op: And, X: &Unary{Op: BNot, X: v, T: u}, Y: &Binary{Op: Sub, X: v, Y: &Const{T: u, V: 1}, T: u}, T: u}
	return PopCount(let(m), w, let)
}

// ByteSwap reverses the bytes of x, an unsigned integer of w bits (a
// multiple of 8), by shifts and masks computed in ct (x's type, or
// unsigned int when x is narrower); the result has type ct.
func ByteSwap(x Expr, w int) Expr {
	ct := x.Type()
	var r Expr
	for i := 0; i < w/8; i++ {
		b := Expr(&Binary{Op: And, X: &Binary{Op: Shr, X: x, Y: NewConst(IntT, int64(8*i)), T: ct}, Y: &Const{T: ct, V: 0xff}, T: ct})
		b = &Binary{Op: Shl, X: b, Y: NewConst(IntT, int64(8*(w/8-1-i))), T: ct}
		if r == nil {
			r = b
		} else {
			r = &Binary{Op: Or, X: r, Y: b, T: ct}
		}
	}
	return r
}

// Overflow is whether a op b (op Add, Sub or Mul), for a and b of the
// integer type t of w ≤ 64 bits, leaves t's range: whether the exact
// result of the operation on their values does not fit t. It is the
// condition of gcc's __builtin_*_overflow on operands of the result's
// type, of CBMC's __CPROVER_overflow_* after the usual arithmetic
// conversions (engine/frontend) and of LLVM's *.with.overflow
// intrinsics (engine/llvmir). The result is an int 0 or 1 built from
// operations that never overflow themselves (unsigned arithmetic, a
// product in 64 bits for w ≤ 32), with no short-circuit operator:
//
//   - unsigned: a + b < a; a < b; a*b > MAX in 64 bits, else
//     a > MAX / (b | (b == 0));
//   - signed, on the unsigned images ua, ub and r = ua op ub (mod 2^w):
//     plus when (ua^r)&(ub^r) has its sign bit set, minus when
//     (ua^ub)&(ua^r) has; mult of at most 32 bits when the exact 64-bit
//     product plus 2^(w-1) exceeds 2^w - 1 as an unsigned 64-bit number,
//     of more bits when |a| > (MAX + neg) / (|b| | (|b| == 0)) with |x|
//     computed as (ux ^ m) - m, m = x >> (w-1), and neg = 1 when the
//     signs differ (Hacker's Delight, 2nd ed., section 2-13).
//
// conv converts an expression to an integer type (the caller's
// conversion, which may fold constants). a and b are read more than
// once: they must be free of side effects.
func Overflow(op BinaryOp, a, b Expr, t *Type, conv func(Expr, *Type) Expr) Expr {
	w := t.Width()
	u := IntType(w, false)
	bin := func(op BinaryOp, x, y Expr, t *Type) Expr { return &Binary{Op: op, X: x, Y: y, T: t} }
	cmp := func(op BinaryOp, x, y Expr) Expr { return bin(op, x, y, IntT) }
	umax := NewConst(u, -1)
	smax := NewConst(u, int64(umax.V>>1))
	if !t.IsSigned() {
		switch op {
		case Add:
			return cmp(Lt, bin(Add, a, b, u), a)
		case Sub:
			return cmp(Lt, a, b)
		}
		if w <= 32 {
			u64 := IntType(64, false)
			return cmp(Gt, bin(Mul, conv(a, u64), conv(b, u64), u64), conv(umax, u64))
		}
		den := bin(Or, b, conv(cmp(Eq, b, NewConst(u, 0)), u), u)
		return cmp(Gt, a, bin(Div, umax, den, u))
	}
	ua, ub := conv(a, u), conv(b, u)
	switch op {
	case Add:
		r := bin(Add, ua, ub, u)
		return cmp(Gt, bin(And, bin(Xor, ua, r, u), bin(Xor, ub, r, u), u), smax)
	case Sub:
		r := bin(Sub, ua, ub, u)
		return cmp(Gt, bin(And, bin(Xor, ua, ub, u), bin(Xor, ua, r, u), u), smax)
	}
	if w <= 32 {
		s64, u64 := IntType(64, true), IntType(64, false)
		r := bin(Mul, conv(a, s64), conv(b, s64), s64)
		shifted := bin(Add, r, NewConst(s64, int64(1)<<(w-1)), s64)
		return cmp(Gt, conv(shifted, u64), conv(umax, u64))
	}
	sign := NewConst(IntT, int64(w-1))
	mag := func(x, ux Expr) (m, abs Expr) {
		m = conv(bin(Shr, x, sign, t), u)
		return m, bin(Sub, bin(Xor, ux, m, u), m, u)
	}
	ma, absA := mag(a, ua)
	mb, absB := mag(b, ub)
	neg := bin(And, bin(Xor, ma, mb, u), NewConst(u, 1), u)
	lim := bin(Add, smax, neg, u)
	den := bin(Or, absB, conv(cmp(Eq, absB, NewConst(u, 0)), u), u)
	return cmp(Gt, absA, bin(Div, lim, den, u))
}
