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
