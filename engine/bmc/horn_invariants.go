package bmc

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// hornInvariants translates a Horn solution into C conditions per loop
// head of the entry function: each conjunct of a relation's
// interpretation whose terms the translation covers (termToC) becomes one
// condition over the registers of the entry function's frame and the
// global registers; a conjunct over objects' contents or liveness, over
// frozen values or with an operator C cannot say without side effects
// (if-then-else, signed comparison of a width no C type has) is left out. The conditions
// are candidates: a correctness witness keeps those its validator
// proves (engine/witness/validate.Select).
func hornInvariants(b *smt.Builder, rels []*hornRel, sol smt.HornSolution, entry *cfa.Function) map[*cfa.Location][]cfa.Expr {
	out := map[*cfa.Location][]cfa.Expr{}
	for _, r := range rels {
		inv := sol[r.rel]
		if inv == nil {
			continue
		}
		vars := map[*smt.Term]*cfa.Var{}
		for i, a := range smt.HornArgs(b, r.rel) {
			v, frame := r.shape.Var(i)
			if v == nil || v.Temp || !v.T.IsInteger() || v.T.Kind == cfa.Bool || (frame >= 0 && v.Func != entry.Name) {
				continue
			}
			if v.T.Bits != a.Sort.Width {
				continue
			}
			vars[a] = v
		}
		var conds []cfa.Expr
		for _, c := range conjuncts(inv) {
			if x, ok := termToC(c, vars); ok {
				conds = append(conds, x)
			}
		}
		if len(conds) > 0 {
			out[r.head] = conds
		}
	}
	return out
}

// conjuncts flattens t's top-level conjunctions.
func conjuncts(t *smt.Term) []*smt.Term {
	if t.Op == smt.And {
		var out []*smt.Term
		for _, a := range t.Args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	if t.Op == smt.True {
		return nil
	}
	return []*smt.Term{t}
}

// termToC translates a term over the registers vars into a C expression
// with its value: a Bool term becomes an int condition (1 or 0), a
// bit-vector term of width w ≤ 64 an expression of the smallest unsigned
// type of 8, 16, 32 or 64 bits that holds w bits, whose value is the
// term's bits. Arithmetic is computed in unsigned int or unsigned long
// long and converted back, so it wraps exactly as the term does; a
// width that is not a type's (the low bit of Spacer's parity
// invariants, (_ extract 0 0) x) is masked to its bits after every
// operation that could carry out of them. Signed comparisons and sign
// extensions of such widths are left out.
func termToC(t *smt.Term, vars map[*smt.Term]*cfa.Var) (cfa.Expr, bool) {
	w := t.Sort.Width
	if t.Sort.IsArray() || (t.Sort.IsBV() && (w < 1 || w > 64)) {
		return nil, false
	}
	std := func(w int) int {
		for _, s := range []int{8, 16, 32, 64} {
			if w <= s {
				return s
			}
		}
		return 64
	}
	uw := func(w int) *cfa.Type { return cfa.IntType(std(w), false) }
	wide := func(w int) *cfa.Type { return uw(max(std(w), 32)) }
	cast := func(x cfa.Expr, to *cfa.Type) cfa.Expr { return &cfa.Cast{X: x, T: to} }
	// fit keeps the low w bits of x, computed in ty, as the value of
	// width w.
	fit := func(x cfa.Expr, ty *cfa.Type, w int) cfa.Expr {
		if w != std(w) {
			x = &cfa.Binary{Op: cfa.And, X: x, Y: &cfa.Const{T: ty, V: 1<<uint(w) - 1}, T: ty}
		}
		return cast(x, uw(w))
	}
	args := make([]cfa.Expr, len(t.Args))
	for i, a := range t.Args {
		x, ok := termToC(a, vars)
		if !ok {
			return nil, false
		}
		args[i] = x
	}
	cond := func(op cfa.BinaryOp, x, y cfa.Expr) cfa.Expr { return &cfa.Binary{Op: op, X: x, Y: y, T: cfa.IntT} }
	arith := func(op cfa.BinaryOp) cfa.Expr {
		ty := wide(w)
		return fit(&cfa.Binary{Op: op, X: cast(args[0], ty), Y: cast(args[1], ty), T: ty}, ty, w)
	}
	odd := func(w int) bool { return w != std(w) }
	signed := func(x cfa.Expr, w int) cfa.Expr { return cast(x, cfa.IntType(w, true)) }
	switch t.Op {
	case smt.True:
		return cfa.NewConst(cfa.IntT, 1), true
	case smt.False:
		return cfa.NewConst(cfa.IntT, 0), true
	case smt.Var:
		v := vars[t]
		if v == nil || odd(w) {
			return nil, false
		}
		return cast(&cfa.VarRef{Var: v}, uw(w)), true
	case smt.BVConst:
		return &cfa.Const{T: uw(w), V: t.Val}, true
	case smt.Not:
		return cond(cfa.Eq, args[0], cfa.NewConst(cfa.IntT, 0)), true
	case smt.And:
		return cond(cfa.And, args[0], args[1]), true
	case smt.Or:
		return cond(cfa.Or, args[0], args[1]), true
	case smt.Implies:
		return cond(cfa.Or, cond(cfa.Eq, args[0], cfa.NewConst(cfa.IntT, 0)), args[1]), true
	case smt.Eq:
		return cond(cfa.Eq, args[0], args[1]), true
	case smt.Ult:
		return cond(cfa.Lt, args[0], args[1]), true
	case smt.Ule:
		return cond(cfa.Le, args[0], args[1]), true
	case smt.Slt, smt.Sle:
		aw := t.Args[0].Sort.Width
		if odd(aw) {
			return nil, false
		}
		op := cfa.Lt
		if t.Op == smt.Sle {
			op = cfa.Le
		}
		return cond(op, signed(args[0], aw), signed(args[1], aw)), true
	case smt.Add:
		return arith(cfa.Add), true
	case smt.Sub:
		return arith(cfa.Sub), true
	case smt.Mul:
		return arith(cfa.Mul), true
	case smt.BAnd:
		return arith(cfa.And), true
	case smt.BOr:
		return arith(cfa.Or), true
	case smt.BXor:
		return arith(cfa.Xor), true
	case smt.Neg:
		ty := wide(w)
		return fit(&cfa.Binary{Op: cfa.Sub, X: cfa.NewConst(ty, 0), Y: cast(args[0], ty), T: ty}, ty, w), true
	case smt.ZeroExt:
		return cast(args[0], uw(w)), true
	case smt.SignExt:
		aw := t.Args[0].Sort.Width
		if odd(aw) || odd(w) {
			return nil, false
		}
		return cast(signed(signed(args[0], aw), w), uw(w)), true
	case smt.Extract:
		// Bits HiBit..Lo of the argument: shifted down in the
		// argument's type (unsigned, so the shift is logical) and
		// masked to w bits.
		ty := wide(t.Args[0].Sort.Width)
		x := cast(args[0], ty)
		if t.Lo > 0 {
			x = &cfa.Binary{Op: cfa.Shr, X: x, Y: cfa.NewConst(cfa.IntT, int64(t.Lo)), T: ty}
		}
		if w == std(w) {
			return cast(x, uw(w)), true
		}
		return fit(x, ty, w), true
	}
	return nil, false
}
