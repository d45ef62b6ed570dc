package symval

import (
	"strconv"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// term returns the integer value v (not an address) as a term of w bits.
func (sv *Symbolic) term(v memory.Value, w int) *smt.Term {
	if v.Sym != nil {
		return v.Sym
	}
	return sv.b.BV(v.Bits, w)
}

// fresh returns a new symbol for a value of type ty (value.TermType), named
// after label. A _Bool symbol is a zero-extended 1-bit symbol, so it is 0
// or 1 like every _Bool value.
func (sv *Symbolic) fresh(t value.Tx, label string, ty *cfa.Type) memory.Value {
	if ty.Kind == cfa.Bool {
		return memory.Value{Sym: sv.b.ZeroExt(sv.freshVar(t, label, 1), 8)}
	}
	return memory.Value{Sym: sv.freshVar(t, label, ty.Width())}
}

// freshVar returns a new symbol of w bits.
func (sv *Symbolic) freshVar(t value.Tx, label string, w int) *smt.Term {
	k := t.NewSymbol()
	return sv.b.Var(label+"#"+strconv.FormatUint(uint64(k), 10), smt.BVSort(w))
}

// convertSym converts a symbolic integer (CCast); conversions to or from
// pointers give unknown.
func (sv *Symbolic) convertSym(v memory.Value, from, to *cfa.Type) (memory.Value, bool) {
	if v.Obj != 0 {
		// an address with a symbolic offset (offsets.go)
		switch {
		case to.Kind == cfa.Bool:
			return memory.Value{Bits: 1}, true
		case to.Width() == sv.ptr && v.Sym.Sort.Width == sv.ptr:
			return v, true
		}
		return memory.Value{}, false
	}
	if !value.TermType(from) || !value.TermType(to) || v.Sym.Sort.Width != smt.TypeWidth(from) {
		return memory.Value{}, false
	}
	return memory.OfTerm(smt.CCast(sv.b, v.Sym, from, to)), true
}

// unarySym applies -, ~ or ! to a symbolic operand.
func (sv *Symbolic) unarySym(e *cfa.Unary, v memory.Value) (memory.Value, bool) {
	xt := e.X.Type()
	if !value.TermType(xt) || !value.TermType(e.T) || v.Sym.Sort.Width != smt.TypeWidth(xt) {
		return memory.Value{}, false
	}
	if e.Op != cfa.LNot && smt.TypeWidth(e.T) != smt.TypeWidth(xt) {
		return memory.Value{}, false
	}
	return memory.OfTerm(smt.CUnary(sv.b, e.Op, v.Sym, xt, e.T)), true
}

// binarySym applies an integer operator when an operand is symbolic;
// addresses and pointer types give unknown.
func (sv *Symbolic) binarySym(e *cfa.Binary, x, y memory.Value) (memory.Value, bool) {
	xt, yt := e.X.Type(), e.Y.Type()
	if x.Obj != 0 || y.Obj != 0 || !value.TermType(xt) || !value.TermType(yt) || !value.TermType(e.T) {
		return memory.Value{}, false
	}
	xw, yw := smt.TypeWidth(xt), smt.TypeWidth(yt)
	xs, ys := sv.term(x, xw), sv.term(y, yw)
	if xs.Sort.Width != xw || ys.Sort.Width != yw {
		return memory.Value{}, false
	}
	switch e.Op {
	case cfa.Shl, cfa.Shr:
		if smt.TypeWidth(e.T) != xw {
			return memory.Value{}, false
		}
	case cfa.Eq, cfa.Ne, cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge:
		if xw != yw {
			return memory.Value{}, false
		}
	default:
		if xw != yw || smt.TypeWidth(e.T) != xw {
			return memory.Value{}, false
		}
	}
	r, _ := smt.CBinary(sv.b, e.Op, xs, ys, xt, yt, e.T)
	return memory.OfTerm(r), true
}

// logicalSym evaluates && or || when an operand is symbolic (both known).
func (sv *Symbolic) logicalSym(e *cfa.Binary, x, y memory.Value) (memory.Value, bool) {
	if !value.TermType(e.T) {
		return memory.Value{}, false
	}
	b := sv.b
	c := b.And(sv.truthTerm(x), sv.truthTerm(y))
	if e.Op == cfa.LOr {
		c = b.Or(sv.truthTerm(x), sv.truthTerm(y))
	}
	return memory.OfTerm(smt.CBool(b, c, e.T)), true
}

// truthTerm is v != 0 as a Bool term (addresses are true).
func (sv *Symbolic) truthTerm(v memory.Value) *smt.Term {
	if v.Obj != 0 {
		return sv.b.True()
	}
	if v.Sym != nil {
		return smt.CTruth(sv.b, v.Sym)
	}
	return sv.b.Bool(value.IsTrue(v))
}

// condTerm is the truth of the condition e as a Bool term, or nil when
// part of it is unknown. Comparisons and logical operators are built
// directly as formulas (not as int-valued 0/1 terms).
func (sv *Symbolic) condTerm(t value.Tx, e cfa.Expr) *smt.Term {
	b := sv.b
	switch c := e.(type) {
	case *cfa.Unary:
		if c.Op == cfa.LNot {
			if x := sv.condTerm(t, c.X); x != nil {
				return b.Not(x)
			}
			return nil
		}
	case *cfa.Binary:
		switch {
		case c.Op == cfa.LAnd || c.Op == cfa.LOr:
			stop := b.Bool(c.Op == cfa.LOr) // the value that decides
			x := sv.condTerm(t, c.X)
			if x == stop {
				return x
			}
			y := sv.condTerm(t, c.Y)
			if y == stop {
				return y
			}
			if x == nil || y == nil {
				return nil
			}
			if c.Op == cfa.LAnd {
				return b.And(x, y)
			}
			return b.Or(x, y)
		case c.Op.IsComparison():
			x, xok := t.Eval(c.X)
			y, yok := t.Eval(c.Y)
			if !xok || !yok {
				return nil
			}
			if x.Sym == nil && y.Sym == nil {
				if v, ok := t.Eval(c); ok && v.Sym == nil {
					return b.Bool(value.IsTrue(v))
				}
				return nil
			}
			xt := c.X.Type()
			if x.Obj != 0 || y.Obj != 0 || xt.Kind == cfa.Pointer || c.Y.Type().Kind == cfa.Pointer {
				return sv.ptrCompare(t, c.Op, x, y) // offsets.go
			}
			if !value.TermType(xt) || !value.TermType(c.Y.Type()) {
				return nil
			}
			w := smt.TypeWidth(xt)
			xs, ys := sv.term(x, w), sv.term(y, w)
			if xs.Sort.Width != w || ys.Sort.Width != w {
				return nil
			}
			return smt.CCompare(b, c.Op, xs, ys, xt)
		}
	}
	v, ok := t.Eval(e)
	if !ok {
		return nil
	}
	return sv.truthTerm(v)
}

// assumeSym records the condition of an Assume as a path condition; it
// returns false when the condition is the constant false.
func (sv *Symbolic) assumeSym(t value.Tx, cond cfa.Expr, truth bool) bool {
	c := sv.condTerm(t, cond)
	if c == nil {
		return true
	}
	if !truth {
		c = sv.b.Not(c)
	}
	switch c.Op {
	case smt.True:
		return true
	case smt.False:
		return false
	}
	t.Assume(c)
	return true
}

// indexAddr is the address of a[i] for a symbolic index i: a SymIndex
// when the array is small enough, an unknown offset otherwise.
func (sv *Symbolic) indexAddr(t value.Tx, a value.Addr, e *cfa.Index, i memory.Value) value.Addr {
	at := e.X.Type()
	it := e.I.Type()
	if a.SymOff != nil {
		return sv.symIndexOff(t, a, i, it, e.T.Size) // offsets.go
	}
	ok := a.Known && a.OffKnown && a.Index == nil && at.Kind == cfa.Array &&
		at.Len > 0 && at.Len <= int64(sv.maxIte) && e.T.Size > 0 &&
		value.TermType(it) && i.Sym.Sort.Width == smt.TypeWidth(it)
	if !ok && a.Known && a.OffKnown && a.Index == nil && e.T.Size > 0 {
		// a large array, or a pointer indexed: a symbolic byte offset
		return sv.symIndexOff(t, a, i, it, e.T.Size)
	}
	a.OffKnown = false
	a.Index = nil
	if !ok {
		return a
	}
	idx := i.Sym
	if w := idx.Sort.Width; w < 64 {
		if it.IsSigned() {
			idx = sv.b.SignExt(idx, 64)
		} else {
			idx = sv.b.ZeroExt(idx, 64)
		}
	}
	a.Index = &value.SymIndex{Idx: idx, Scale: e.T.Size, N: at.Len}
	return a
}

// element returns the concrete address of element k of a symbolically
// indexed address.
func element(a value.Addr, k int64) value.Addr {
	a.Off += k * a.Index.Scale
	a.OffKnown = true
	a.Index = nil
	return a
}

// loadIndexed reads through a symbolic index: ite(i = 0, a[0], ite(i =
// 1, a[1], … fresh)), the fresh symbol standing for an out-of-bounds
// read. Non-integer elements, or elements holding addresses, give unknown.
func (sv *Symbolic) loadIndexed(t value.Tx, a value.Addr, ty *cfa.Type) (memory.Value, bool) {
	if !value.TermType(ty) {
		return memory.Value{}, false
	}
	b := sv.b
	w := smt.TypeWidth(ty)
	acc := sv.fresh(t, "oob", ty).Sym
	for k := a.Index.N - 1; k >= 0; k-- {
		v, ok := t.Load(element(a, k), ty)
		if !ok || v.Obj != 0 {
			return memory.Value{}, false
		}
		acc = b.Ite(b.Eq(a.Index.Idx, b.BV(uint64(k), 64)), sv.term(v, w), acc)
	}
	return memory.OfTerm(acc), true
}

// storeIndexed writes through a symbolic index: every element k becomes
// ite(i = k, v, a[k]); elements that cannot be written so (addresses,
// non-integer types) become unknown. A write out of bounds is undefined
// behaviour and assumed not to happen (as for unknown offsets).
func (sv *Symbolic) storeIndexed(t value.Tx, a value.Addr, ty *cfa.Type, v memory.Value, known bool) {
	if !value.TermType(ty) || (known && v.Obj != 0) {
		for k := int64(0); k < a.Index.N; k++ {
			t.Store(element(a, k), ty, memory.Value{}, false)
		}
		return
	}
	if !known {
		v = sv.fresh(t, "havoc", ty)
	}
	b := sv.b
	w := smt.TypeWidth(ty)
	nv := sv.term(v, w)
	for k := int64(0); k < a.Index.N; k++ {
		ak := element(a, k)
		old, ok := t.Load(ak, ty)
		if !ok || old.Obj != 0 {
			t.Store(ak, ty, memory.Value{}, false)
			continue
		}
		t.Store(ak, ty, memory.OfTerm(b.Ite(b.Eq(a.Index.Idx, b.BV(uint64(k), 64)), nv, sv.term(old, w))), true)
	}
}

// loadBytesSym reads n ≤ 8 bytes (little-endian) as an integer of type
// ty, materialising fresh symbols for bytes the state does not know (and
// storing them, so later reads agree). A byte of an address cell makes
// the read unknown.
func (sv *Symbolic) loadBytesSym(t value.Tx, obj uint64, off, n int64, ty *cfa.Type) (memory.Value, bool) {
	label := t.ObjName(obj)
	// Nothing known in the range: one symbol for the whole value.
	if c := t.Floor(obj, off+n-1); (c == nil || c.Obj != obj || c.Off+int64(c.Size) <= off) && memory.ObjKind(obj) != memory.KindString {
		var v memory.Value
		if ty != nil && ty.Kind == cfa.Bool && n == 1 {
			v = sv.fresh(t, label, ty)
		} else {
			v = memory.Value{Sym: sv.freshVar(t, label, int(8*n))}
		}
		if t.Tracked(obj) {
			t.Put(obj, off, v, uint8(n))
		}
		return v, true
	}
	b := sv.b
	var acc *smt.Term
	for i := int64(0); i < n; i++ {
		var by memory.Value
		if c := t.Floor(obj, off+i); c != nil && c.Obj == obj && c.Off+int64(c.Size) > off+i {
			if c.Val.Obj != 0 {
				return memory.Value{}, false
			}
			by = t.Byte(c.Val, off+i-c.Off)
		} else if x, ok := t.StrByte(obj, off+i); ok {
			by = memory.Value{Bits: x}
		} else {
			by = memory.Value{Sym: sv.freshVar(t, label, 8)}
			if t.Tracked(obj) {
				t.Put(obj, off+i, by, 1)
			}
		}
		bt := sv.term(by, 8)
		if acc == nil {
			acc = bt
		} else {
			acc = b.Concat(bt, acc)
		}
	}
	return memory.OfTerm(acc), true
}

// loadFieldSym reads the bit-field f at a (n storage bytes) as type ty.
func (sv *Symbolic) loadFieldSym(t value.Tx, a value.Addr, f *cfa.Field, n int64, ty *cfa.Type) (memory.Value, bool) {
	if !value.TermType(ty) {
		return memory.Value{}, false
	}
	raw, ok := sv.loadBytesSym(t, a.Obj, a.Off, n, nil)
	if !ok {
		return memory.Value{}, false
	}
	b := sv.b
	x := b.Extract(sv.term(raw, int(8*n)), f.BitOffset+f.BitWidth-1, f.BitOffset)
	w := smt.TypeWidth(ty)
	switch {
	case f.BitWidth > w:
		x = b.Extract(x, w-1, 0)
	case f.BitWidth < w && ty.IsSigned():
		x = b.SignExt(x, w)
	case f.BitWidth < w:
		x = b.ZeroExt(x, w)
	}
	return memory.OfTerm(x), true
}

// storeFieldSym writes v (of type ty) into the bit-field f at a (n
// storage bytes), keeping the other bits of the storage bytes.
func (sv *Symbolic) storeFieldSym(t value.Tx, a value.Addr, f *cfa.Field, n int64, ty *cfa.Type, v memory.Value, known bool) {
	raw, ok := sv.loadBytesSym(t, a.Obj, a.Off, n, nil)
	t.ClearRange(a.Obj, a.Off, n)
	if !ok || v.Obj != 0 || !t.Tracked(a.Obj) || !value.TermType(ty) {
		return
	}
	if !known {
		v = sv.fresh(t, "havoc", ty)
	}
	b := sv.b
	w := int(8 * n)
	x := sv.term(v, smt.TypeWidth(ty))
	switch xw := x.Sort.Width; {
	case xw > w:
		x = b.Extract(x, w-1, 0)
	case xw < w:
		x = b.ZeroExt(x, w)
	}
	m := b.BV(memory.Mask(f.BitWidth)<<uint(f.BitOffset), w)
	nr := b.BOr(b.BAnd(sv.term(raw, w), b.BNot(m)), b.BAnd(b.Shl(x, b.BV(uint64(f.BitOffset), w)), m))
	r := memory.OfTerm(nr)
	for i := int64(0); i < n; i++ {
		t.Put(a.Obj, a.Off+i, t.Byte(r, i), 1)
	}
}
