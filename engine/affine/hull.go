package affine

import (
	"math/big"

	"github.com/reverify/reverify/engine/cfa"
)

// hull is an affine subspace of Q^n: the point p plus the span of dirs,
// which are kept in echelon form (dirs[k] has its first non-zero entry,
// 1, at column pivot[k], and every other direction is zero there).
type hull struct {
	p     []*big.Rat
	dirs  [][]*big.Rat
	pivot []int
}

func zeros(n int) []*big.Rat {
	v := make([]*big.Rat, n)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

func unit(n, i int) []*big.Rat {
	v := zeros(n)
	v[i].SetInt64(1)
	return v
}

func isZero(v []*big.Rat) bool {
	for _, x := range v {
		if x.Sign() != 0 {
			return false
		}
	}
	return true
}

// addv is x + s·y.
func addv(x, y []*big.Rat, s int64) []*big.Rat {
	out := make([]*big.Rat, len(x))
	k := big.NewRat(s, 1)
	for i := range x {
		t := new(big.Rat).Mul(y[i], k)
		out[i] = t.Add(t, x[i])
	}
	return out
}

func scale(x []*big.Rat, k *big.Rat) []*big.Rat {
	out := make([]*big.Rat, len(x))
	for i := range x {
		out[i] = new(big.Rat).Mul(x[i], k)
	}
	return out
}

func dot(x, y []*big.Rat) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for i := range x {
		s.Add(s, t.Mul(x[i], y[i]))
	}
	return s
}

// reduce is d less its components along h's directions: zero when d is
// in their span.
func (h *hull) reduce(d []*big.Rat) []*big.Rat {
	d = addv(d, d, 0)
	t := new(big.Rat)
	for k, b := range h.dirs {
		c := d[h.pivot[k]]
		if c.Sign() == 0 {
			continue
		}
		c = new(big.Rat).Set(c)
		for i := range d {
			d[i].Sub(d[i], t.Mul(c, b[i]))
		}
	}
	return d
}

// add adds direction d to the span; it reports whether the span grew.
func (h *hull) add(d []*big.Rat) bool {
	d = h.reduce(d)
	piv := -1
	for i, x := range d {
		if x.Sign() != 0 {
			piv = i
			break
		}
	}
	if piv < 0 {
		return false
	}
	d = scale(d, new(big.Rat).Inv(d[piv]))
	// keep the echelon form: clear the new pivot column elsewhere
	t := new(big.Rat)
	for _, b := range h.dirs {
		c := new(big.Rat).Set(b[piv])
		if c.Sign() == 0 {
			continue
		}
		for i := range b {
			b[i].Sub(b[i], t.Mul(c, d[i]))
		}
	}
	h.dirs = append(h.dirs, d)
	h.pivot = append(h.pivot, piv)
	return true
}

// join makes h the affine hull of h and o; it reports whether h grew.
func (h *hull) join(o *hull) bool {
	grew := h.add(addv(o.p, h.p, -1))
	for _, d := range o.dirs {
		if h.add(d) {
			grew = true
		}
	}
	return grew
}

// havoc is h with dimension i arbitrary.
func (h *hull) havoc(i int) *hull {
	out := h.copy()
	out.add(unit(len(h.p), i))
	return out
}

// assign is h after x_i := coef·x + c.
func (h *hull) assign(i int, coef []*big.Rat, c *big.Rat) *hull {
	p := addv(h.p, h.p, 0)
	p[i] = new(big.Rat).Add(dot(coef, h.p), c)
	out := &hull{p: p}
	for _, d := range h.dirs {
		nd := addv(d, d, 0)
		nd[i] = dot(coef, d)
		out.add(nd)
	}
	return out
}

func (h *hull) copy() *hull {
	out := &hull{p: addv(h.p, h.p, 0), pivot: append([]int(nil), h.pivot...)}
	for _, d := range h.dirs {
		out.dirs = append(out.dirs, addv(d, d, 0))
	}
	return out
}

// equalities are the affine equalities a·x == a·p that every point of h
// satisfies, with a zero on the temporaries: a basis of the vectors
// orthogonal to h's directions and the temporaries' unit vectors, each
// as an Eq over one width's variables with integer coefficients.
func (a *analysis) equalities(h *hull) []cfa.Expr {
	n := len(a.vars)
	g := h.copy()
	for _, t := range a.temps {
		g.add(unit(n, t))
	}
	isPivot := make([]int, n)
	for i := range isPivot {
		isPivot[i] = -1
	}
	for k, c := range g.pivot {
		isPivot[c] = k
	}
	var out []cfa.Expr
	// the echelon directions are reduced: each free column f gives the
	// orthogonal vector with a[f] = 1 and a[pivot k] = -dirs[k][f]
	for f := 0; f < n && len(out) < MaxEqualities; f++ {
		if isPivot[f] >= 0 {
			continue
		}
		vec := zeros(n)
		vec[f].SetInt64(1)
		for k, d := range g.dirs {
			vec[g.pivot[k]].Neg(d[f])
		}
		if x := a.expr(vec, dot(vec, h.p)); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// expr is Σ vec[i]·vars[i] == b as a comparison with integer
// coefficients, the positive terms on the left and the negative ones
// on the right (a side without terms is 0, as in x == 0); nil when the
// variables differ in width or a coefficient does not fit in 32 bits.
func (a *analysis) expr(vec []*big.Rat, b *big.Rat) cfa.Expr {
	// clear the denominators
	l := big.NewInt(1)
	den := append([]*big.Rat{b}, vec...)
	for _, x := range den {
		d := x.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, d).Div(l, g)
	}
	m := new(big.Rat).SetInt(l)
	var t *cfa.Type
	var lhs, rhs cfa.Expr
	term := func(side *cfa.Expr, k *big.Int, x cfa.Expr) {
		if k.Cmp(big.NewInt(1)) != 0 {
			x = &cfa.Binary{Op: cfa.Mul, X: constant(t, k.Int64()), Y: x, T: t}
		}
		if *side == nil {
			*side = x
		} else {
			*side = &cfa.Binary{Op: cfa.Add, X: *side, Y: x, T: t}
		}
	}
	limit := big.NewInt(1 << 31)
	for i, x := range vec {
		if x.Sign() == 0 {
			continue
		}
		v := a.vars[i]
		if t == nil {
			t = v.T
		} else if t.Bits != v.T.Bits {
			return nil
		}
		k := new(big.Rat).Mul(x, m).Num()
		if new(big.Int).Abs(k).Cmp(limit) >= 0 {
			return nil
		}
		if k.Sign() > 0 {
			term(&lhs, k, &cfa.VarRef{Var: v})
		} else {
			term(&rhs, new(big.Int).Neg(k), &cfa.VarRef{Var: v})
		}
	}
	if t == nil {
		return nil
	}
	c := new(big.Rat).Mul(b, m).Num()
	if new(big.Int).Abs(c).Cmp(limit) >= 0 {
		return nil
	}
	switch {
	case c.Sign() > 0:
		if rhs == nil {
			rhs = constant(t, c.Int64())
		} else {
			rhs = &cfa.Binary{Op: cfa.Add, X: rhs, Y: constant(t, c.Int64()), T: t}
		}
	case c.Sign() < 0:
		k := new(big.Int).Neg(c)
		if lhs == nil {
			lhs = constant(t, k.Int64())
		} else {
			lhs = &cfa.Binary{Op: cfa.Add, X: lhs, Y: constant(t, k.Int64()), T: t}
		}
	}
	if lhs == nil {
		lhs = &cfa.Const{T: t}
	}
	if rhs == nil {
		rhs = &cfa.Const{T: t}
	}
	return &cfa.Binary{Op: cfa.Eq, X: lhs, Y: rhs, T: cfa.IntT}
}

// constant is k as a constant of t (its bit pattern truncated to t's
// width).
func constant(t *cfa.Type, k int64) *cfa.Const {
	v := uint64(k)
	if t.Bits < 64 {
		v &= 1<<t.Bits - 1
	}
	return &cfa.Const{T: t, V: v}
}
