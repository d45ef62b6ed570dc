package symval

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Symbolic pointer offsets (symbolic mode only; seed 001, section 3.9:
// symbolic offsets into objects of the SMG domain, and seed 000,
// section 2.3 for the term semantics).
//
// A pointer into a known object whose byte offset is not a constant is
// the Value{Obj: o, Sym: off}, off a bit-vector term of the pointer
// width. Its arithmetic is the machine's (modulo 2^width, as the SMT
// encoding of engine/smt and the interpreter compute addresses), and an
// offset is read as a signed number, as concrete offsets are (memory.Sext):
//
//   - p ± i adds ±i·sizeof(*p), i converted to the pointer width by its
//     type's signedness; &a[i], &p->f and a[i] on a pointer with a
//     symbolic offset build the same terms;
//   - p - q and the comparisons of two pointers into one object are the
//     terms over their offsets; pointers into distinct objects are
//     unequal, and a pointer into an object is not null (as for
//     concrete offsets);
//   - a read of a scalar through off is ite(off = o₀, cell(o₀), ite(…,
//     fresh)) over the offsets o₀ in the object where the access fits,
//     stepping by the access size when off's residue modulo it is known
//     from its structure (memory.Residue) and by one byte otherwise; objects
//     with more such offsets than MaxIteCells, or of unknown size, read a
//     fresh symbol (the value is unconstrained, which is sound);
//   - a write stores ite(off = o₀, v, old) at each aligned offset o₀ when
//     the residue is known and the object small enough; otherwise the
//     whole object is forgotten (its cells read as fresh symbols later);
//     a write outside the object is undefined behaviour and assumed not
//     to happen, as for symbolic array indices;
//   - with memory checks, the access is split by its bounds condition
//     0 ≤ off ∧ off + n ≤ size (checkSymOff, bounds.go).
//
// Every other use of such a value (a conversion to a narrower integer,
// bit operations, a free, a comparison with an integer address) is
// unknown, which is the explicit analysis's answer for an unknown
// pointer. List abstraction (engine/analysis/smg) drops symbolic pointers into heap
// blocks when it renames the heap (smg's canonicalHeap), which forgets them.

// offTerm returns the offset of the address value v (Obj ≠ 0) as a term
// of the pointer width.
func (sv *Symbolic) offTerm(v memory.Value) *smt.Term {
	if v.Sym != nil {
		return v.Sym
	}
	return sv.b.BV(v.Bits&memory.Mask(sv.ptr), sv.ptr)
}

// ptrWidth converts the integer value v of type ty to the pointer width
// (sign- or zero-extended by ty, truncated when wider), as a term.
func (sv *Symbolic) ptrWidth(v memory.Value, ty *cfa.Type) (*smt.Term, bool) {
	b := sv.b
	w := sv.ptr
	if v.Sym == nil {
		return b.BV(uint64(value.IntOf(v, ty))&memory.Mask(w), w), true
	}
	x := v.Sym
	switch xw := x.Sort.Width; {
	case xw == w:
		return x, true
	case xw > w:
		return b.Extract(x, w-1, 0), true
	case ty.IsSigned():
		return b.SignExt(x, w), true
	default:
		return b.ZeroExt(x, w), true
	}
}

// addrOffTerm returns the offset of a symbolically addressed lvalue (a
// SymOff or an Index) as a term of the pointer width, and whether a
// has one.
func (sv *Symbolic) addrOffTerm(a value.Addr) (*smt.Term, bool) {
	b := sv.b
	w := sv.ptr
	switch {
	case !a.Known || !memory.SymOffsetObj(a.Obj):
		return nil, false
	case a.SymOff != nil:
		return b.Add(a.SymOff, b.BV(uint64(a.Off)&memory.Mask(w), w)), true
	case a.Index != nil:
		k := a.Index.Idx
		if w < 64 {
			k = b.Extract(k, w-1, 0)
		}
		return b.Add(b.BV(uint64(a.Off)&memory.Mask(w), w), b.Mul(k, b.BV(uint64(a.Index.Scale)&memory.Mask(w), w))), true
	}
	return nil, false
}

// ptrArithSym evaluates a binary operation on pointers when an operand
// is symbolic; handled is false when the operation does
// not involve addresses (the integer rules apply).
func (sv *Symbolic) ptrArithSym(t value.Tx, e *cfa.Binary, x, y memory.Value) (v memory.Value, ok, handled bool) {
	xt, yt := e.X.Type(), e.Y.Type()
	xp, yp := xt.Kind == cfa.Pointer, yt.Kind == cfa.Pointer
	if !xp && !yp && x.Obj == 0 && y.Obj == 0 {
		return memory.Value{}, false, false
	}
	b := sv.b
	switch {
	case xp && !yp && (e.Op == cfa.Add || e.Op == cfa.Sub):
		v, ok := sv.ptrAdd(t, e.Op, x, xt, y, yt)
		return v, ok, true
	case yp && !xp && e.Op == cfa.Add:
		v, ok := sv.ptrAdd(t, cfa.Add, y, yt, x, xt)
		return v, ok, true
	case xp && yp && e.Op == cfa.Sub:
		if x.Obj == 0 || x.Obj != y.Obj || !memory.SymOffsetObj(x.Obj) || !value.TermType(e.T) {
			return memory.Value{}, false, true
		}
		d := b.Sub(sv.offTerm(x), sv.offTerm(y))
		if s := value.ElemSize(xt); s != 1 {
			d = b.SDiv(d, b.BV(uint64(s)&memory.Mask(sv.ptr), sv.ptr))
		}
		r, ok := sv.ptrWidthTo(d, e.T)
		if !ok {
			return memory.Value{}, false, true
		}
		return memory.OfTerm(r), true, true
	case e.Op.IsComparison():
		c := sv.ptrCompare(t, e.Op, x, y)
		if c == nil || !value.TermType(e.T) {
			return memory.Value{}, false, true
		}
		return memory.OfTerm(smt.CBool(b, c, e.T)), true, true
	}
	return memory.Value{}, false, true
}

// ptrWidthTo converts a pointer-width term to the integer type ty
// (sign-extending: a pointer difference is signed).
func (sv *Symbolic) ptrWidthTo(x *smt.Term, ty *cfa.Type) (*smt.Term, bool) {
	b := sv.b
	w := smt.TypeWidth(ty)
	switch {
	case w == 0:
		return nil, false
	case w == x.Sort.Width:
		return x, true
	case w < x.Sort.Width:
		return b.Extract(x, w-1, 0), true
	}
	return b.SignExt(x, w), true
}

// ptrAdd is p ± i·sizeof(*p) for the address p (of pointer type pt) and
// the integer i (of type it), one of them symbolic; unknown for null or
// integer addresses and for objects that cannot carry a symbolic offset.
func (sv *Symbolic) ptrAdd(t value.Tx, op cfa.BinaryOp, p memory.Value, pt *cfa.Type, i memory.Value, it *cfa.Type) (memory.Value, bool) {
	if p.Obj == 0 || i.Obj != 0 || !memory.SymOffsetObj(p.Obj) || !value.Scalar(it) || (p.Sym != nil && p.Sym.Sort.Width != sv.ptr) {
		return memory.Value{}, false
	}
	b := sv.b
	w := sv.ptr
	k, ok := sv.ptrWidth(i, it)
	if !ok {
		return memory.Value{}, false
	}
	d := b.Mul(k, b.BV(uint64(value.ElemSize(pt))&memory.Mask(w), w))
	off := sv.offTerm(p)
	if op == cfa.Sub {
		return memory.PtrValue(p.Obj, b.Sub(off, d)), true
	}
	return memory.PtrValue(p.Obj, b.Add(off, d)), true
}

// ptrCompare is the comparison op of two pointer values as a Bool term,
// one of them with a symbolic offset: offsets compared as signed numbers
// within one object; pointers into distinct objects, and an address and
// null, are unequal. Nil when unknown.
func (sv *Symbolic) ptrCompare(t value.Tx, op cfa.BinaryOp, x, y memory.Value) *smt.Term {
	b := sv.b
	switch {
	case x.Obj != 0 && x.Obj == y.Obj:
		if !memory.SymOffsetObj(x.Obj) {
			return nil
		}
		if !op.IsComparison() {
			return nil
		}
		// offsets as signed numbers of the pointer width
		return smt.CCompare(b, op, sv.offTerm(x), sv.offTerm(y), cfa.IntType(sv.ptr, true))
	case op != cfa.Eq && op != cfa.Ne:
		return nil
	case x.Obj != 0 && y.Obj != 0:
		if t.MayBeEqual(x, y) {
			return nil
		}
	case x.Obj == 0 && (x.Sym != nil || x.Bits != 0), y.Obj == 0 && (y.Sym != nil || y.Bits != 0):
		return nil // an integer address
	}
	return b.Bool(op == cfa.Ne)
}

// symSlots returns the offsets at which an access of n bytes through the
// offset term off may fit object obj: every offset o with 0 ≤ o ≤ size-n
// and o ≡ off (mod n) when the residue is known (n a power of two), every
// byte offset otherwise; ok is false when the object's size is not a
// constant, or there are more than MaxIteCells offsets. aligned reports
// whether the residue was known.
func (sv *Symbolic) symSlots(t value.Tx, obj uint64, off *smt.Term, n int64) (slots []int64, aligned, ok bool) {
	size := t.ObjectSize(obj)
	switch {
	case size <= 0 || n <= 0:
		return nil, false, false
	case size < n:
		return nil, false, true // fits nowhere
	}
	step, first := int64(1), int64(0)
	if n&(n-1) == 0 {
		if r, ok := memory.Residue(off, n); ok {
			step, first, aligned = n, r, true
		}
	}
	if (size-n-first)/step+1 > int64(sv.maxIte) {
		return nil, aligned, false
	}
	for o := first; o <= size-n; o += step {
		slots = append(slots, o)
	}
	return slots, aligned, true
}

// loadSymOff reads a scalar of type ty through a symbolic offset (see
// above): an if-then-else over the offsets where it may lie, a fresh
// symbol past them; unknown for non-integer types and for cells holding
// addresses.
func (sv *Symbolic) loadSymOff(t value.Tx, a value.Addr, ty *cfa.Type) (memory.Value, bool) {
	if !value.TermType(ty) || a.Field != nil {
		return memory.Value{}, false
	}
	off, _ := sv.addrOffTerm(a)
	if off == nil {
		return memory.Value{}, false
	}
	n := value.ScalarSize(ty)
	acc := sv.fresh(t, "oob", ty).Sym
	slots, _, ok := sv.symSlots(t, a.Obj, off, n)
	if !ok {
		return memory.Value{Sym: acc}, true
	}
	b := sv.b
	w := smt.TypeWidth(ty)
	for k := len(slots) - 1; k >= 0; k-- {
		o := slots[k]
		v, ok := t.Load(value.Addr{Obj: a.Obj, Off: o, Known: true, OffKnown: true}, ty)
		if !ok || v.Obj != 0 {
			return memory.Value{}, false
		}
		acc = b.Ite(b.Eq(off, b.BV(uint64(o)&memory.Mask(sv.ptr), sv.ptr)), sv.term(v, w), acc)
	}
	return memory.OfTerm(acc), true
}

// storeSymOff writes a scalar of type ty through a symbolic offset (see
// above): ite(off = o, v, old) at each aligned offset o of a small
// object; the object is forgotten otherwise.
func (sv *Symbolic) storeSymOff(t value.Tx, a value.Addr, ty *cfa.Type, v memory.Value, known bool) {
	off, _ := sv.addrOffTerm(a)
	n := value.ScalarSize(ty)
	if off == nil || a.Field != nil || !value.TermType(ty) || n == 0 || (known && v.Obj != 0) {
		t.ClearObj(a.Obj)
		return
	}
	slots, aligned, ok := sv.symSlots(t, a.Obj, off, n)
	if !ok || !aligned {
		if ok && len(slots) == 0 {
			return // the access fits nowhere: undefined, assumed not to happen
		}
		t.ClearObj(a.Obj)
		return
	}
	if !known {
		v = sv.fresh(t, "havoc", ty)
	}
	b := sv.b
	w := smt.TypeWidth(ty)
	nv := sv.term(v, w)
	for _, o := range slots {
		ak := value.Addr{Obj: a.Obj, Off: o, Known: true, OffKnown: true}
		old, ok := t.Load(ak, ty)
		if !ok || old.Obj != 0 {
			t.Store(ak, ty, memory.Value{}, false)
			continue
		}
		t.Store(ak, ty, memory.OfTerm(b.Ite(b.Eq(off, b.BV(uint64(o)&memory.Mask(sv.ptr), sv.ptr)), nv, sv.term(old, w))), true)
	}
}

// symIndexOff folds an index into an address with a symbolic offset:
// a[i] with a's address off + symOff becomes the symbolic offset off +
// symOff + i·scale (pointer width).
func (sv *Symbolic) symIndexOff(t value.Tx, a value.Addr, i memory.Value, it *cfa.Type, scale int64) value.Addr {
	off, ok := sv.addrOffTerm(a)
	if !ok && a.Known && a.OffKnown && a.Index == nil && memory.SymOffsetObj(a.Obj) {
		off, ok = sv.b.BV(uint64(a.Off)&memory.Mask(sv.ptr), sv.ptr), true
	}
	if !ok || i.Obj != 0 || !value.Scalar(it) {
		a.OffKnown, a.Index, a.SymOff = false, nil, nil
		return a
	}
	k, ok := sv.ptrWidth(i, it)
	if !ok {
		a.OffKnown, a.Index, a.SymOff = false, nil, nil
		return a
	}
	b := sv.b
	w := sv.ptr
	a.SymOff = b.Add(off, b.Mul(k, b.BV(uint64(scale)&memory.Mask(w), w)))
	a.Off, a.Index, a.OffKnown = 0, nil, false
	return a
}

// lenTerm returns the length argument i of a library call as a 64-bit
// term (constant or symbolic; converted by its type's signedness).
func (sv *Symbolic) lenTerm(t value.Tx, call *cfa.Call, i int) (*smt.Term, bool) {
	b := sv.b
	if i >= len(call.Args) {
		return nil, false
	}
	v, ok := t.Eval(call.Args[i])
	ty := call.Args[i].Type()
	if !ok || v.Obj != 0 || !value.TermType(ty) {
		return nil, false
	}
	if v.Sym == nil {
		return b.BV(uint64(value.IntOf(v, ty)), 64), true
	}
	switch w := v.Sym.Sort.Width; {
	case w > 64:
		return nil, false
	case w == 64:
		return v.Sym, true
	case ty.IsSigned():
		return b.SignExt(v.Sym, 64), true
	default:
		return b.ZeroExt(v.Sym, 64), true
	}
}

// maxFillBytes bounds the objects whose bytes symFill rewrites one by one.
func (sv *Symbolic) maxFillBytes() int64 { return 4 * int64(sv.maxIte) }

// symFill models memset and memcpy/memmove when the length (argument 2)
// or the destination's offset is symbolic: byte o of d's object becomes
// ite(start ≤ o ∧ o − start < n, byteAt(o − start), old byte o), start
// the destination offset; every new byte is computed on the state before
// the call (memmove's semantics; memcpy's overlap is undefined). It
// reports false, changing nothing, when it cannot apply (an object not
// of a constant size of at most 4·MaxIteCells bytes); the caller then
// forgets the object.
func (sv *Symbolic) symFill(t value.Tx, call *cfa.Call, d value.Addr, byteAt func(rel int64, relT *smt.Term) (memory.Value, bool)) bool {
	b := sv.b
	if !d.Known || !memory.SymOffsetObj(d.Obj) || d.Field != nil {
		return false
	}
	size := t.ObjectSize(d.Obj)
	if size <= 0 || size > sv.maxFillBytes() {
		return false
	}
	n, ok := sv.lenTerm(t, call, 2)
	if !ok {
		return false
	}
	start, ok := sv.addrOffTerm(d)
	if !ok {
		if !d.OffKnown {
			return false
		}
		start = b.BV(uint64(d.Off)&memory.Mask(sv.ptr), sv.ptr)
	}
	if start.Sort.Width < 64 {
		start = b.SignExt(start, 64)
	}
	type put struct {
		off int64
		val memory.Value
		ok  bool
	}
	var puts []put
	for o := int64(0); o < size; o++ {
		ot := b.BV(uint64(o), 64)
		rel := b.Sub(ot, start)
		cond := b.And(b.Sle(start, ot), b.Ult(rel, n))
		if cond == b.False() {
			continue
		}
		relC := int64(-1)
		if rel.Op == smt.BVConst {
			relC = int64(rel.Val)
		}
		nv, nok := byteAt(relC, rel)
		old, ook := sv.loadBytesSym(t, d.Obj, o, 1, nil)
		if !nok || !ook || nv.Obj != 0 || old.Obj != 0 {
			puts = append(puts, put{off: o})
			continue
		}
		puts = append(puts, put{o, memory.OfTerm(b.Ite(cond, sv.term(nv, 8), sv.term(old, 8))), true})
	}
	for _, p := range puts {
		t.ClearRange(d.Obj, p.off, 1)
		if p.ok && t.Tracked(d.Obj) {
			t.Put(d.Obj, p.off, p.val, 1)
		}
	}
	return true
}

// srcByte returns the byte reader of symFill for the source address s:
// byte rel of the copy is the byte at s + rel (a term when rel or s's
// offset is symbolic, read by loadSymOff).
func (sv *Symbolic) srcByte(t value.Tx, s value.Addr) func(rel int64, relT *smt.Term) (memory.Value, bool) {
	return func(rel int64, relT *smt.Term) (memory.Value, bool) {
		if !s.Known {
			return memory.Value{}, false
		}
		if rel >= 0 && s.OffKnown {
			return sv.loadBytesSym(t, s.Obj, s.Off+rel, 1, nil)
		}
		b := sv.b
		w := sv.ptr
		r := relT
		if w < 64 {
			r = b.Extract(r, w-1, 0)
		}
		off, ok := sv.addrOffTerm(s)
		if !ok {
			if !s.OffKnown {
				return memory.Value{}, false
			}
			off = b.BV(uint64(s.Off)&memory.Mask(w), w)
		}
		return sv.loadSymOff(t, value.Addr{Obj: s.Obj, Known: true, SymOff: b.Add(off, r)}, cfa.UCharType)
	}
}

// memoryQuerySym is memoryQuery's result as a term when a pointer offset
// or the length is symbolic, under the rules of the value analysis's
// concrete answers: POINTER_OFFSET(p) is p's offset (converted
// to the result type), same_object(p, q) compares the objects, and r_ok,
// w_ok and rw_ok(p, n) are 0 ≤ off ∧ off ≤ size ∧ n ≤ size − off for an
// object whose validity and size (a constant, or a heap block's size
// term) the state knows. ok is false when the state does not decide it.
func (sv *Symbolic) memoryQuerySym(t value.Tx, call *cfa.Call) (memory.Value, bool) {
	b := sv.b
	if call.Result == nil || len(call.Args) != cfa.MemoryQueries[call.Fn] || !value.TermType(call.Result.Type()) {
		return memory.Value{}, false
	}
	p, ok := t.Eval(call.Args[0])
	if !ok || p.Obj == 0 || !memory.SymOffsetObj(p.Obj) || (p.Sym != nil && p.Sym.Sort.Width != sv.ptr) {
		return memory.Value{}, false
	}
	rt := call.Result.Type()
	switch call.Fn {
	case "__CPROVER_POINTER_OFFSET":
		if p.Sym == nil {
			return memory.Value{}, false
		}
		r, ok := sv.ptrWidthTo(p.Sym, rt)
		if !ok {
			return memory.Value{}, false
		}
		return memory.OfTerm(r), true
	case "__CPROVER_same_object":
		q, ok := t.Eval(call.Args[1])
		if !ok || (p.Sym == nil && q.Sym == nil) || (q.Obj == 0 && (q.Sym != nil || q.Bits != 0)) ||
			!t.Identifiable(p.Obj) || !t.Identifiable(q.Obj) {
			return memory.Value{}, false
		}
		return memory.Value{Bits: b2u(p.Obj == q.Obj)}, true
	case "__CPROVER_r_ok", "__CPROVER_w_ok", "__CPROVER_rw_ok":
	default:
		return memory.Value{}, false
	}
	n, ok := sv.lenTerm(t, call, 1)
	if !ok || (p.Sym == nil && n.Op == smt.BVConst) {
		return memory.Value{}, false
	}
	var size *smt.Term
	if sz, valid, known := t.QuerySize(p.Obj, call.Fn == "__CPROVER_r_ok"); known {
		if !valid {
			return memory.Value{}, true
		}
		size = b.BV(uint64(sz), 64)
	} else if memory.ObjKind(p.Obj) == memory.KindHeap && t.Identifiable(p.Obj) {
		size = sv.sizeTerm(t, p.Obj)
	}
	if size == nil {
		return memory.Value{}, false
	}
	o := sv.offTerm(p)
	if o.Sort.Width < 64 {
		o = b.SignExt(o, 64)
	}
	zero := b.BV(0, 64)
	in := b.And(b.Sle(zero, o), b.Ule(o, size), b.Ule(n, b.Sub(size, o)))
	return memory.OfTerm(smt.CBool(b, in, rt)), true
}
