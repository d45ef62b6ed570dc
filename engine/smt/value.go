package smt

import (
	"math/big"
	"math/bits"
)

// bv is a bit-vector value of up to 128 bits: lo holds bits 0..63, hi bits
// 64..127. Values are always kept truncated to their width.
type bv struct{ lo, hi uint64 }

func maskOf(w int) bv {
	switch {
	case w >= 128:
		return bv{^uint64(0), ^uint64(0)}
	case w > 64:
		return bv{^uint64(0), 1<<uint(w-64) - 1}
	case w == 64:
		return bv{^uint64(0), 0}
	}
	return bv{1<<uint(w) - 1, 0}
}

func (a bv) trunc(w int) bv {
	m := maskOf(w)
	return bv{a.lo & m.lo, a.hi & m.hi}
}

func (a bv) isZero() bool { return a.lo == 0 && a.hi == 0 }

func (a bv) bit(i int) bool {
	if i >= 64 {
		return a.hi>>uint(i-64)&1 == 1
	}
	return a.lo>>uint(i)&1 == 1
}

func (a bv) neg(w int) bv {
	lo, c := bits.Add64(^a.lo, 1, 0)
	return bv{lo, ^a.hi + c}.trunc(w)
}

func (a bv) add(b bv, w int) bv {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	return bv{lo, a.hi + b.hi + c}.trunc(w)
}

func (a bv) sub(b bv, w int) bv {
	lo, br := bits.Sub64(a.lo, b.lo, 0)
	return bv{lo, a.hi - b.hi - br}.trunc(w)
}

func (a bv) mul(b bv, w int) bv {
	h, l := bits.Mul64(a.lo, b.lo)
	h += a.lo*b.hi + a.hi*b.lo
	return bv{l, h}.trunc(w)
}

func (a bv) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.lo))
}

func fromBig(x *big.Int, w int) bv {
	m := new(big.Int).Lsh(big.NewInt(1), 128)
	m.Sub(m, big.NewInt(1))
	y := new(big.Int).And(x, m)
	lo := new(big.Int).And(y, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(y, 64).Uint64()
	return bv{lo, hi}.trunc(w)
}

// udiv is SMT-LIB bvudiv: division by zero gives all ones.
func (a bv) udiv(b bv, w int) bv {
	if b.isZero() {
		return maskOf(w)
	}
	if a.hi == 0 && b.hi == 0 {
		return bv{a.lo / b.lo, 0}
	}
	return fromBig(new(big.Int).Quo(a.big(), b.big()), w)
}

// urem is SMT-LIB bvurem: remainder by zero gives the dividend.
func (a bv) urem(b bv, w int) bv {
	if b.isZero() {
		return a
	}
	if a.hi == 0 && b.hi == 0 {
		return bv{a.lo % b.lo, 0}
	}
	return fromBig(new(big.Int).Rem(a.big(), b.big()), w)
}

func (a bv) sdiv(b bv, w int) bv {
	na, nb := a.bit(w-1), b.bit(w-1)
	switch {
	case !na && !nb:
		return a.udiv(b, w)
	case na && !nb:
		return a.neg(w).udiv(b, w).neg(w)
	case !na && nb:
		return a.udiv(b.neg(w), w).neg(w)
	}
	return a.neg(w).udiv(b.neg(w), w)
}

func (a bv) srem(b bv, w int) bv {
	na, nb := a.bit(w-1), b.bit(w-1)
	switch {
	case !na && !nb:
		return a.urem(b, w)
	case na && !nb:
		return a.neg(w).urem(b, w).neg(w)
	case !na && nb:
		return a.urem(b.neg(w), w)
	}
	return a.neg(w).urem(b.neg(w), w).neg(w)
}

// shift amount as an int, saturated at 255 (any amount ≥ width behaves
// the same).
func (a bv) amount() int {
	if a.hi != 0 || a.lo > 255 {
		return 255
	}
	return int(a.lo)
}

func (a bv) shl(n int, w int) bv {
	if n >= w {
		return bv{}
	}
	switch {
	case n == 0:
		return a
	case n >= 64:
		return bv{0, a.lo << uint(n-64)}.trunc(w)
	}
	return bv{a.lo << uint(n), a.hi<<uint(n) | a.lo>>uint(64-n)}.trunc(w)
}

func (a bv) lshr(n int, w int) bv {
	if n >= w {
		return bv{}
	}
	switch {
	case n == 0:
		return a
	case n >= 64:
		return bv{a.hi >> uint(n-64), 0}
	}
	return bv{a.lo>>uint(n) | a.hi<<uint(64-n), a.hi >> uint(n)}
}

func (a bv) ashr(n int, w int) bv {
	neg := a.bit(w - 1)
	if n >= w {
		if neg {
			return maskOf(w)
		}
		return bv{}
	}
	r := a.lshr(n, w)
	if neg {
		// fill the top n bits with ones
		fill := maskOf(w).sub(maskOf(w-n), w)
		r = bv{r.lo | fill.lo, r.hi | fill.hi}
	}
	return r
}

func (a bv) ult(b bv) bool {
	if a.hi != b.hi {
		return a.hi < b.hi
	}
	return a.lo < b.lo
}

func (a bv) slt(b bv, w int) bool {
	na, nb := a.bit(w-1), b.bit(w-1)
	if na != nb {
		return na
	}
	return a.ult(b)
}

func (a bv) sext(from, to int) bv {
	if !a.bit(from - 1) {
		return a
	}
	fill := maskOf(to).sub(maskOf(from), to)
	return bv{a.lo | fill.lo, a.hi | fill.hi}
}

func (a bv) extract(hi, lo int) bv {
	return a.lshr(lo, 128).trunc(hi - lo + 1)
}

func (a bv) concat(b bv, bw, w int) bv {
	s := a.shl(bw, 128)
	return bv{s.lo | b.lo, s.hi | b.hi}.trunc(w)
}
