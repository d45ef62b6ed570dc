package predicate

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

var _ cpa.InvariantReporter = (*State)(nil)

// Invariant returns what s knows about the program variables that
// visible accepts, as C conditions (cfa expressions of type int, 1 or 0;
// their conjunction is implied by s): the integers the memory holds as
// constants ("x == 5"), and each conjunct of the block formula — at an
// abstraction state, the abstraction: a Boolean combination of the
// predicates — with every symbol replaced by a visible integer variable
// that holds it. A conjunct over a symbol no such variable holds, or
// with an operator that has no exact C spelling here (Ite, signed
// division, shifts by a non-constant, division by a non-constant), is
// left out whole, which only weakens the result (sound).
//
// The translation is bit-precise: a term of width w becomes an
// expression of a w-bit C integer type with the same bits; arithmetic
// is done in the unsigned type of its width (in unsigned int for widths
// under 32, cast back), where C wraps around as the bit-vector operators
// do; bvslt/bvsle compare in the signed type, bvult/bvule in the
// unsigned one; zero- and sign-extension and low extracts are casts.
// Widths other than 8, 16, 32 and 64 are not translated. Used for the
// loop invariants of correctness witnesses (results.Invariant).
func (s *State) Invariant(visible func(*cfa.Var) bool) []cfa.Expr {
	vars, _ := s.v.KnownVars()
	holder := map[*smt.Term]*cfa.Var{}
	var out []cfa.Expr
	for _, v := range vars {
		if !visible(v) || v.T.Kind != cfa.Int || v.Volatile {
			continue
		}
		if x, ok := s.v.Int(v); ok {
			out = append(out, &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: cfa.NewConst(v.T, x), T: cfa.IntT})
			continue
		}
		t, ok := s.v.Term(v)
		if !ok || t.Op != smt.Var || t.Sort.Width != v.T.Bits || holder[t] != nil {
			continue
		}
		holder[t] = v
	}
	tr := translator{holder: holder}
	var conj func(t *smt.Term)
	conj = func(t *smt.Term) {
		if t.Op == smt.And {
			for _, a := range t.Args {
				conj(a)
			}
			return
		}
		if x, ok := tr.boolean(t); ok {
			out = append(out, x)
		}
	}
	for _, t := range s.pc {
		conj(t)
	}
	return out
}

// translator turns terms over held symbols into cfa expressions.
type translator struct {
	holder map[*smt.Term]*cfa.Var
}

func okWidth(w int) bool { return w == 8 || w == 16 || w == 32 || w == 64 }

// as converts x to the integer type t (a constant is retyped; x already
// of type t is returned as is).
func as(x cfa.Expr, t *cfa.Type) cfa.Expr {
	if cfa.Same(x.Type(), t) {
		return x
	}
	if c, ok := x.(*cfa.Const); ok {
		return &cfa.Const{T: t, V: cfa.Truncate(c.V, t.Bits)}
	}
	return &cfa.Cast{X: x, T: t}
}

// boolean translates a Bool term into a condition of type int.
func (tr translator) boolean(t *smt.Term) (cfa.Expr, bool) {
	switch t.Op {
	case smt.True:
		return cfa.NewConst(cfa.IntT, 1), true
	case smt.False:
		return cfa.NewConst(cfa.IntT, 0), true
	case smt.Not:
		x, ok := tr.boolean(t.Args[0])
		if !ok {
			return nil, false
		}
		if b, isB := x.(*cfa.Binary); isB && b.Op.IsComparison() {
			return &cfa.Binary{Op: b.Op.Negate(), X: b.X, Y: b.Y, T: cfa.IntT}, true
		}
		return &cfa.Unary{Op: cfa.LNot, X: x, T: cfa.IntT}, true
	case smt.And, smt.Or:
		op := cfa.LAnd
		if t.Op == smt.Or {
			op = cfa.LOr
		}
		var acc cfa.Expr
		for _, a := range t.Args {
			x, ok := tr.boolean(a)
			if !ok {
				return nil, false
			}
			if acc == nil {
				acc = x
			} else {
				acc = &cfa.Binary{Op: op, X: acc, Y: x, T: cfa.IntT}
			}
		}
		if acc == nil {
			return cfa.NewConst(cfa.IntT, map[bool]int64{true: 1, false: 0}[t.Op == smt.And]), true
		}
		return acc, true
	case smt.Implies:
		a, ok1 := tr.boolean(t.Args[0])
		b, ok2 := tr.boolean(t.Args[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		return &cfa.Binary{Op: cfa.LOr, X: &cfa.Unary{Op: cfa.LNot, X: a, T: cfa.IntT}, Y: b, T: cfa.IntT}, true
	case smt.Eq, smt.Ult, smt.Ule, smt.Slt, smt.Sle:
		if len(t.Args) != 2 || !t.Args[0].Sort.IsBV() || !okWidth(t.Args[0].Sort.Width) {
			return nil, false
		}
		w := t.Args[0].Sort.Width
		x, ok1 := tr.bv(t.Args[0])
		y, ok2 := tr.bv(t.Args[1])
		if !ok1 || !ok2 {
			return nil, false
		}
		var op cfa.BinaryOp
		var ct *cfa.Type
		switch t.Op {
		case smt.Eq:
			// equal bits: equal in either type of the width; keep the
			// operands' own type when they agree (x == y, x == 5).
			op, ct = cfa.Eq, cfa.IntType(w, false)
			_, xc := x.(*cfa.Const)
			_, yc := y.(*cfa.Const)
			switch {
			case cfa.Same(x.Type(), y.Type()) || xc:
				ct = y.Type()
			case yc:
				ct = x.Type()
			}
		case smt.Ult:
			op, ct = cfa.Lt, cfa.IntType(w, false)
		case smt.Ule:
			op, ct = cfa.Le, cfa.IntType(w, false)
		case smt.Slt:
			op, ct = cfa.Lt, cfa.IntType(w, true)
		case smt.Sle:
			op, ct = cfa.Le, cfa.IntType(w, true)
		}
		return &cfa.Binary{Op: op, X: as(x, ct), Y: as(y, ct), T: cfa.IntT}, true
	}
	return nil, false
}

// bv translates a bit-vector term of width 8, 16, 32 or 64 into an
// expression of an integer type of that width with the same bits.
func (tr translator) bv(t *smt.Term) (cfa.Expr, bool) {
	if !t.Sort.IsBV() || !okWidth(t.Sort.Width) {
		return nil, false
	}
	w := t.Sort.Width
	u := cfa.IntType(w, false)
	// wide is the type arithmetic of width w is done in: u, or
	// unsigned int below 32 bits (C would promote to int).
	wide := u
	if w < 32 {
		wide = cfa.IntType(32, false)
	}
	narrow := func(x cfa.Expr) cfa.Expr { return as(x, u) }
	switch t.Op {
	case smt.Var:
		v := tr.holder[t]
		if v == nil {
			return nil, false
		}
		return &cfa.VarRef{Var: v}, true
	case smt.BVConst:
		if t.Hi != 0 {
			return nil, false
		}
		return &cfa.Const{T: u, V: t.Val}, true
	case smt.Add, smt.Sub, smt.Mul, smt.BAnd, smt.BOr, smt.BXor, smt.UDiv, smt.URem, smt.Shl, smt.LShr:
		ops := map[smt.Op]cfa.BinaryOp{smt.Add: cfa.Add, smt.Sub: cfa.Sub, smt.Mul: cfa.Mul, smt.BAnd: cfa.And,
			smt.BOr: cfa.Or, smt.BXor: cfa.Xor, smt.UDiv: cfa.Div, smt.URem: cfa.Rem, smt.Shl: cfa.Shl, smt.LShr: cfa.Shr}
		switch t.Op {
		case smt.UDiv, smt.URem:
			// bvudiv x 0 differs from C's undefined x / 0
			if c := t.Args[len(t.Args)-1]; c.Op != smt.BVConst || (c.Val == 0 && c.Hi == 0) || len(t.Args) != 2 {
				return nil, false
			}
		case smt.Shl, smt.LShr:
			if c := t.Args[1]; c.Op != smt.BVConst || c.Hi != 0 || c.Val >= uint64(w) || len(t.Args) != 2 {
				return nil, false
			}
		}
		var acc cfa.Expr
		for _, a := range t.Args {
			x, ok := tr.bv(a)
			if !ok {
				return nil, false
			}
			x = as(as(x, u), wide) // the bits of a, zero-extended
			if acc == nil {
				acc = x
			} else {
				acc = &cfa.Binary{Op: ops[t.Op], X: acc, Y: x, T: wide}
			}
		}
		return narrow(acc), true
	case smt.BNot, smt.Neg:
		x, ok := tr.bv(t.Args[0])
		if !ok {
			return nil, false
		}
		op := cfa.BNot
		if t.Op == smt.Neg {
			op = cfa.Neg
		}
		return narrow(&cfa.Unary{Op: op, X: as(as(x, u), wide), T: wide}), true
	case smt.ZeroExt, smt.SignExt:
		x, ok := tr.bv(t.Args[0])
		if !ok {
			return nil, false
		}
		from := cfa.IntType(t.Args[0].Sort.Width, t.Op == smt.SignExt)
		return as(as(x, from), u), true
	case smt.Extract:
		if t.Lo != 0 {
			return nil, false
		}
		x, ok := tr.bv(t.Args[0])
		if !ok {
			return nil, false
		}
		return as(x, u), true
	}
	return nil, false
}
