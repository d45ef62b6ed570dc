package frontend

import (
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"modernc.org/cc/v4"
)

// bitBuiltin parses gcc's bit-counting builtins __builtin_popcount,
// __builtin_parity, __builtin_clz and __builtin_ctz with their l and ll
// forms: the operation and the width of the argument's unsigned type
// (unsigned int: 32; unsigned long: the pointer width of the data model,
// 64 under LP64 and 32 under ILP32; unsigned long long: 64).
func (fc *fnctx) bitBuiltin(name string) (op string, w int, ok bool) {
	rest, ok := strings.CutPrefix(name, "__builtin_")
	if !ok {
		return "", 0, false
	}
	for _, op := range []string{"popcount", "parity", "clz", "ctz"} {
		switch rest {
		case op:
			return op, 32, true
		case op + "l":
			return op, fc.t.tm.PtrBits(), true
		case op + "ll":
			return op, 64, true
		}
	}
	return "", 0, false
}

// let assigns x to a fresh temporary and returns the temporary (so an
// expression used several times is evaluated once).
func (fc *fnctx) let(x cfa.Expr, rng cfa.Range, text string) cfa.Expr {
	t := fc.temp(x.Type())
	fc.emitAt(&cfa.Assign{LHS: t, RHS: x}, rng, text)
	return t
}

// bitCount translates a call of a bit-counting builtin (bitBuiltin) on
// the argument converted to the unsigned type u of w bits; the result is
// an int (gcc's documentation, "Other Builtins"):
//   - popcount(x): the number of 1 bits, by the parallel sum of Hacker's
//     Delight (Warren, 2nd ed., figure 5-2): x - ((x >> 1) & 0x55…),
//     (x & 0x33…) + ((x >> 2) & 0x33…), (x + (x >> 4)) & 0x0f…, then
//     (x * 0x01…) >> (w - 8);
//   - parity(x): popcount(x) & 1;
//   - clz(x): the leading zeros, popcount(~s) where s is x with every bit
//     below its highest 1 bit set (s |= s >> k for k = 1, 2, 4, …, w/2);
//   - ctz(x): the trailing zeros, popcount(~x & (x - 1)).
//
// clz and ctz of 0 are undefined in gcc: on that branch an Unsupported
// edge names the call (a property whose path takes it is UNKNOWN, never
// TRUE), after which the result is w.
func (fc *fnctx) bitCount(name, op string, w int, x *cc.PostfixExpression, an cc.ExpressionNode) cfa.Expr {
	a := fc.rv(an)
	if !a.Type().IsInteger() {
		fc.unsupported(name+" of a non-integer", an)
	}
	rng, text := fc.rt(x)
	u := cfa.IntType(w, false)
	bin := func(op cfa.BinaryOp, x, y cfa.Expr) cfa.Expr { return &cfa.Binary{Op: op, X: x, Y: y, T: u} }
	k := func(v uint64) cfa.Expr { return cfa.NewConst(u, int64(v)) }
	v := fc.let(fc.conv(a, u, an), rng, text)
	if op == "clz" || op == "ctz" {
		zero, next := fc.b.node(), fc.b.node()
		fc.branchAt(&cfa.Binary{Op: cfa.Eq, X: v, Y: k(0), T: cfa.IntT}, zero, next, rng, text)
		fc.cur = zero
		fc.emitAt(&cfa.Unsupported{Construct: name + " of 0 (undefined)"}, rng, text)
		fc.b.join(fc.cur, next, "", rng, text)
		fc.cur = next
	}
	let := func(e cfa.Expr) cfa.Expr { return fc.let(e, rng, text) }
	var r cfa.Expr
	switch op {
	case "popcount":
		r = cfa.PopCount(v, w, let)
	case "parity":
		r = bin(cfa.And, cfa.PopCount(v, w, let), k(1))
	case "clz":
		r = cfa.LeadingZeros(v, w, let)
	case "ctz":
		r = cfa.TrailingZeros(v, w, let)
	}
	return fc.conv(r, cfa.IntT, x)
}

// overflowBuiltin parses gcc's checked arithmetic builtins: the generic
// __builtin_add/sub/mul_overflow (typed is nil) and the typed
// __builtin_[su](add|sub|mul)(|l|ll)_overflow (typed is int, long or
// long long, unsigned for the u forms).
func (fc *fnctx) overflowBuiltin(name string) (op cfa.BinaryOp, typed *cfa.Type, ok bool) {
	rest, ok := strings.CutPrefix(name, "__builtin_")
	if !ok {
		return 0, nil, false
	}
	rest, ok = strings.CutSuffix(rest, "_overflow")
	if !ok {
		return 0, nil, false
	}
	ops := map[string]cfa.BinaryOp{"add": cfa.Add, "sub": cfa.Sub, "mul": cfa.Mul}
	if op, ok := ops[rest]; ok {
		return op, nil, true
	}
	if len(rest) < 4 || rest[0] != 's' && rest[0] != 'u' {
		return 0, nil, false
	}
	signed := rest[0] == 's'
	for o, bop := range ops {
		if s, ok := strings.CutPrefix(rest[1:], o); ok {
			switch s {
			case "":
				return bop, cfa.IntType(32, signed), true
			case "l":
				return bop, cfa.IntType(fc.t.tm.PtrBits(), signed), true
			case "ll":
				return bop, cfa.IntType(64, signed), true
			}
		}
	}
	return 0, nil, false
}

// keepsValues reports whether converting x to the integer type t keeps
// its value: every value of x's type (a narrower type of the same
// signedness, or an unsigned type narrower than a signed t), or the
// value of a constant.
func keepsValues(x cfa.Expr, t *cfa.Type) bool {
	xt := x.Type()
	if c, ok := x.(*cfa.Const); ok && xt.IsInteger() {
		v := constInt(c)
		w := t.Width()
		if !xt.IsSigned() && v < 0 {
			return !t.IsSigned() && w >= 64 // an unsigned constant of 2^63 or more
		}
		if t.IsSigned() {
			return w >= 64 || v >= -(1<<(w-1)) && v < 1<<(w-1)
		}
		if xt.IsSigned() && v < 0 {
			return false
		}
		return w >= 64 || uint64(v) < 1<<w
	}
	switch {
	case !xt.IsInteger():
		return false
	case xt.IsSigned() == t.IsSigned():
		return xt.Width() <= t.Width()
	case !xt.IsSigned():
		return xt.Width() < t.Width()
	}
	return false
}

// checkedArith translates __builtin_add/sub/mul_overflow(a, b, r) and
// their typed forms (overflowBuiltin; gcc's "Integer Overflow Builtins"):
// with T the type r points to, *r = a op b wrapped to T and the result
// (_Bool) says whether the infinitely precise a op b leaves T's range.
// Exact when T is an integer type of 32 to 64 bits and both operands
// convert to T keeping their values (keepsValues; the typed forms convert
// to their own type, which must be T): then the condition is
// overflowIn's on the converted operands. Operands and result are
// evaluated once, before the store, so r may point to an operand. Other
// operand or result types are unsupported.
func (fc *fnctx) checkedArith(name string, op cfa.BinaryOp, typed *cfa.Type, x *cc.PostfixExpression, args []cc.ExpressionNode) cfa.Expr {
	a, b, r := fc.rv(args[0]), fc.rv(args[1]), fc.rv(args[2])
	rt := r.Type()
	if rt.Kind != cfa.Pointer || rt.Elem == nil || !rt.Elem.IsInteger() || rt.Elem.Kind == cfa.Bool {
		fc.unsupported(name+" with a result that is no pointer to an integer", args[2])
	}
	T := rt.Elem
	if w := T.Width(); w < 32 || w > 64 {
		fc.unsupported(name+" with a result of type "+T.String(), args[2])
	}
	if typed != nil {
		if !cfa.Same(T, typed) {
			fc.unsupported(name+" with a result of type "+T.String(), args[2])
		}
		a, b = fc.conv(a, typed, args[0]), fc.conv(b, typed, args[1])
	}
	if !keepsValues(a, T) || !keepsValues(b, T) {
		fc.unsupported(name+" with an operand whose values "+T.String()+" does not hold", x)
	}
	rng, text := fc.rt(x)
	ta := fc.let(fc.conv(a, T, args[0]), rng, text)
	tb := fc.let(fc.conv(b, T, args[1]), rng, text)
	tr := fc.let(r, rng, text)
	ov := fc.let(fc.overflowIn(op, ta, tb, T, x), rng, text)
	u := cfa.IntType(T.Width(), false)
	val := &cfa.Binary{Op: op, X: fc.conv(ta, u, x), Y: fc.conv(tb, u, x), T: u}
	fc.emitAt(&cfa.Assign{LHS: &cfa.Deref{X: tr, T: T}, RHS: fc.conv(val, T, x)}, rng, text)
	return fc.conv(ov, cfa.BoolType, x)
}

func (fc *fnctx) isBitBuiltin(name string) bool { _, _, ok := fc.bitBuiltin(name); return ok }

func (fc *fnctx) isOverflowBuiltin(name string) bool { _, _, ok := fc.overflowBuiltin(name); return ok }

// libraryName reports whether name is a C library function or a gcc
// builtin, which CBMC proofs may define in several stub files (aws-c-common's
// memcpy and memset overrides, each with __builtin___memset_chk): such
// duplicates are not a translation error. The first definition is kept,
// and every call or address of the function is unsupported (dupUse), so
// no verdict depends on which definition CBMC's linker would keep.
func libraryName(name string) bool {
	return libcBuiltins[name] || cfa.LibraryModels[name] || strings.HasPrefix(name, "__builtin_")
}

// dupUse stops the translation of a use of a function defined more than
// once (funcSym.dupAt) as unsupported.
func (fc *fnctx) dupUse(s *funcSym, n cc.Node) {
	if s != nil && len(s.dupAt) > 0 {
		fc.unsupported(s.key.name+" defined more than once (also at "+strings.Join(s.dupAt, ", ")+")", n)
	}
}

// posixMemalign translates a call of posix_memalign(memptr, alignment,
// size) without a body (POSIX.1-2008; CBMC's library models it on
// malloc): when alignment is not a power of two multiple of sizeof(void
// *) the result is EINVAL (22) and nothing is allocated; otherwise a
// Call of malloc(size) (the program's malloc if it defines one, else the
// modelled one, which may fail under Options.Malloc), and on NULL the
// result is ENOMEM (12) with *memptr unchanged, else *memptr is the block
// and the result 0. Arguments are evaluated once, in order.
func (fc *fnctx) posixMemalign(x *cc.PostfixExpression, args []cc.ExpressionNode) cfa.Expr {
	mp := fc.rv(args[0])
	if mp.Type().Kind != cfa.Pointer {
		fc.unsupported("posix_memalign of a non-pointer", args[0])
	}
	sizeT := fc.t.tm.SizeT()
	vp := fc.t.tm.Ptr(cfa.VoidType)
	rng, text := fc.rt(x)
	tp := fc.let(fc.conv(mp, fc.t.tm.Ptr(vp), args[0]), rng, text)
	al := fc.let(fc.conv(fc.rv(args[1]), sizeT, args[1]), rng, text)
	sz := fc.let(fc.conv(fc.rv(args[2]), sizeT, args[2]), rng, text)
	res := fc.temp(cfa.IntT)
	k := func(v int64) cfa.Expr { return cfa.NewConst(sizeT, v) }
	bin := func(op cfa.BinaryOp, a, b cfa.Expr, t *cfa.Type) cfa.Expr {
		return &cfa.Binary{Op: op, X: a, Y: b, T: t}
	}
	valid := bin(cfa.LAnd, bin(cfa.Ne, al, k(0), cfa.IntT),
		bin(cfa.LAnd, bin(cfa.Eq, bin(cfa.And, al, bin(cfa.Sub, al, k(1), sizeT), sizeT), k(0), cfa.IntT),
			bin(cfa.Eq, bin(cfa.Rem, al, k(int64(fc.t.tm.PtrBits()/8)), sizeT), k(0), cfa.IntT), cfa.IntT), cfa.IntT)
	alloc, bad, join := fc.b.node(), fc.b.node(), fc.b.node()
	fc.branchAt(valid, alloc, bad, rng, text)
	fc.cur = bad
	fc.emitAt(&cfa.Assign{LHS: res, RHS: cfa.NewConst(cfa.IntT, 22)}, rng, text)
	fc.b.join(fc.cur, join, "", rng, text)
	fc.cur = alloc
	blk := fc.temp(vp)
	mallocT := &cfa.Type{Kind: cfa.Func, Result: vp, Params: []*cfa.Type{sizeT}}
	if m := fc.t.byName["malloc"]; m == nil || m.def == nil {
		fc.t.p.Externals["malloc"] = mallocT
	}
	fc.emitAt(&cfa.Call{Fn: "malloc", Args: []cfa.Expr{sz}, Result: blk, Pos: rng.Start}, rng, text)
	if m := fc.t.byName["malloc"]; fc.t.cfg.Malloc == MallocMayFail && (m == nil || m.def == nil) {
		fc.mallocFail(blk, rng, text)
	}
	ok, fail := fc.b.node(), fc.b.node()
	fc.branchAt(bin(cfa.Ne, blk, cfa.NewConst(vp, 0), cfa.IntT), ok, fail, rng, text)
	fc.cur = fail
	fc.emitAt(&cfa.Assign{LHS: res, RHS: cfa.NewConst(cfa.IntT, 12)}, rng, text)
	fc.b.join(fc.cur, join, "", rng, text)
	fc.cur = ok
	fc.emitAt(&cfa.Assign{LHS: &cfa.Deref{X: tp, T: vp}, RHS: blk}, rng, text)
	fc.emitAt(&cfa.Assign{LHS: res, RHS: cfa.NewConst(cfa.IntT, 0)}, rng, text)
	fc.b.join(fc.cur, join, "", rng, text)
	fc.cur = join
	return res
}
