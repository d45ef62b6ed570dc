package value

import (
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Symbolic mode (Options.Symbolic; seed 000, section 2.3). The memory
// model is the same; what changes is that an integer value the explicit
// analysis would not know is a term:
//
//   - nondeterministic inputs (Havoc, __VERIFIER_nondet_*), volatile
//     reads and results of unmodelled functions are fresh symbols;
//   - a read of memory the state knows nothing about (an uninitialised
//     local, a parameter of the entry function, a cell forgotten by a
//     havoc) materialises fresh symbols and stores them, so later reads
//     agree; absent cells therefore still mean "any value" and the order
//     ⊑ of the explicit analysis stays sound;
//   - operations with a symbolic operand build terms with the C semantics
//     of engine/smt (CBinary, CUnary, CCast, CCompare); undefined
//     operations give "undef" symbols where they are undefined;
//   - a symbolic array index reads and writes arrays of at most
//     MaxIteCells elements through if-then-else over the elements (a
//     read out of bounds gives a fresh symbol); larger arrays, and
//     pointers indexed, get a symbolic byte offset (symptr.go);
//   - Assume records its condition as a Bool term (tx.assumed) instead of
//     taking both branches blindly; Transfer hands it to the caller,
//     which owns the path constraints.
//
// Pointers into a known object may have a symbolic byte offset
// (symptr.go); a symbolic integer converted to a pointer is unknown.
// Symbols are named
// label#k where k counts the symbols created on the path (State.syms):
// unique on each path, and equal on paths that create them alike, which
// is what lets stop find equal memory on different paths.

// conc reports whether an evaluation result is a known concrete value.
func conc(v memory.Value, ok bool) bool { return ok && v.Sym == nil }

// symType reports whether values of ty may be symbolic: integers and
// _Bool of at most 64 bits.
func symType(ty *cfa.Type) bool {
	return (ty.Kind == cfa.Int || ty.Kind == cfa.Bool) && ty.Bits > 0 && ty.Bits <= 64
}

// symID is a hash ingredient for v's term (0 for concrete values).
func symID(v memory.Value) int {
	if v.Sym == nil {
		return 0
	}
	return v.Sym.ID + 1
}

// symString prints a term in state strings, shortened.
func symString(t *smt.Term) string {
	s := t.String()
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "$" + s
}

// term returns the integer value v (not an address) as a term of w bits.
func (t *tx) term(v memory.Value, w int) *smt.Term {
	if v.Sym != nil {
		return v.Sym
	}
	return t.c.b.BV(v.Bits, w)
}

// fresh returns a new symbol for a value of type ty (symType), named
// after label. A _Bool symbol is a zero-extended 1-bit symbol, so it is 0
// or 1 like every _Bool value.
func (t *tx) fresh(label string, ty *cfa.Type) memory.Value {
	if ty.Kind == cfa.Bool {
		return memory.Value{Sym: t.c.b.ZeroExt(t.freshVar(label, 1), 8)}
	}
	return memory.Value{Sym: t.freshVar(label, ty.Width())}
}

// freshVar returns a new symbol of w bits.
func (t *tx) freshVar(label string, w int) *smt.Term {
	k := t.s.syms
	t.s.syms++
	return t.c.b.Var(label+"#"+strconv.FormatUint(uint64(k), 10), smt.BVSort(w))
}

// inputLabel names the symbols of a nondeterministic source.
func inputLabel(source string) string {
	return strings.TrimPrefix(source, "__VERIFIER_")
}

// strByte returns byte off of obj when obj is a string literal.
func (t *tx) strByte(obj uint64, off int64) (uint64, bool) {
	if memory.ObjKind(obj) != memory.KindString {
		return 0, false
	}
	return t.c.strByte(obj, off)
}

// byteOf returns byte i of the integer cell value v.
func (t *tx) byteOf(v memory.Value, i int64) memory.Value {
	if v.Sym != nil {
		return memory.OfTerm(t.c.b.Extract(v.Sym, int(8*i+7), int(8*i)))
	}
	return memory.Value{Bits: (v.Bits >> uint(8*i)) & 0xff}
}

// input stores a fresh symbol into the scalar lvalue lhs in symbolic mode
// (Havoc, results of nondet and unmodelled functions) and reports whether
// it did; otherwise the caller makes lhs unknown.
func (t *tx) input(lhs cfa.Expr, label string) bool {
	if t.c.b == nil || lhs == nil || !symType(lhs.Type()) {
		return false
	}
	t.store(t.addrOf(lhs), lhs.Type(), t.fresh(label, lhs.Type()), true)
	return true
}

// convertSym converts a symbolic integer (CCast); conversions to or from
// pointers give unknown.
func (t *tx) convertSym(v memory.Value, from, to *cfa.Type) (memory.Value, bool) {
	if v.Obj != 0 {
		// an address with a symbolic offset (symptr.go)
		switch {
		case to.Kind == cfa.Bool:
			return memory.Value{Bits: 1}, true
		case to.Width() == t.c.ptr && v.Sym.Sort.Width == t.c.ptr:
			return v, true
		}
		return memory.Value{}, false
	}
	if !symType(from) || !symType(to) || v.Sym.Sort.Width != smt.TypeWidth(from) {
		return memory.Value{}, false
	}
	return memory.OfTerm(smt.CCast(t.c.b, v.Sym, from, to)), true
}

// unarySym applies -, ~ or ! to a symbolic operand.
func (t *tx) unarySym(e *cfa.Unary, v memory.Value) (memory.Value, bool) {
	xt := e.X.Type()
	if !symType(xt) || !symType(e.T) || v.Sym.Sort.Width != smt.TypeWidth(xt) {
		return memory.Value{}, false
	}
	if e.Op != cfa.LNot && smt.TypeWidth(e.T) != smt.TypeWidth(xt) {
		return memory.Value{}, false
	}
	return memory.OfTerm(smt.CUnary(t.c.b, e.Op, v.Sym, xt, e.T)), true
}

// binarySym applies an integer operator when an operand is symbolic;
// addresses and pointer types give unknown.
func (t *tx) binarySym(e *cfa.Binary, x, y memory.Value) (memory.Value, bool) {
	xt, yt := e.X.Type(), e.Y.Type()
	if x.Obj != 0 || y.Obj != 0 || !symType(xt) || !symType(yt) || !symType(e.T) {
		return memory.Value{}, false
	}
	xw, yw := smt.TypeWidth(xt), smt.TypeWidth(yt)
	xs, ys := t.term(x, xw), t.term(y, yw)
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
	r, _ := smt.CBinary(t.c.b, e.Op, xs, ys, xt, yt, e.T)
	return memory.OfTerm(r), true
}

// logicalSym evaluates && or || when an operand is symbolic (both known).
func (t *tx) logicalSym(e *cfa.Binary, x, y memory.Value) (memory.Value, bool) {
	if !symType(e.T) {
		return memory.Value{}, false
	}
	b := t.c.b
	c := b.And(t.truthTerm(x), t.truthTerm(y))
	if e.Op == cfa.LOr {
		c = b.Or(t.truthTerm(x), t.truthTerm(y))
	}
	return memory.OfTerm(smt.CBool(b, c, e.T)), true
}

// truthTerm is v != 0 as a Bool term (addresses are true).
func (t *tx) truthTerm(v memory.Value) *smt.Term {
	if v.Obj != 0 {
		return t.c.b.True()
	}
	if v.Sym != nil {
		return smt.CTruth(t.c.b, v.Sym)
	}
	return t.c.b.Bool(truthOf(v))
}

// condTerm is the truth of the condition e as a Bool term, or nil when
// part of it is unknown. Comparisons and logical operators are built
// directly as formulas (not as int-valued 0/1 terms).
func (t *tx) condTerm(e cfa.Expr) *smt.Term {
	b := t.c.b
	switch c := e.(type) {
	case *cfa.Unary:
		if c.Op == cfa.LNot {
			if x := t.condTerm(c.X); x != nil {
				return b.Not(x)
			}
			return nil
		}
	case *cfa.Binary:
		switch {
		case c.Op == cfa.LAnd || c.Op == cfa.LOr:
			stop := b.Bool(c.Op == cfa.LOr) // the value that decides
			x := t.condTerm(c.X)
			if x == stop {
				return x
			}
			y := t.condTerm(c.Y)
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
			x, xok := t.eval(c.X)
			y, yok := t.eval(c.Y)
			if !xok || !yok {
				return nil
			}
			if x.Sym == nil && y.Sym == nil {
				if v, ok := t.binary(c); ok && v.Sym == nil {
					return b.Bool(truthOf(v))
				}
				return nil
			}
			xt := c.X.Type()
			if x.Obj != 0 || y.Obj != 0 || xt.Kind == cfa.Pointer || c.Y.Type().Kind == cfa.Pointer {
				return t.ptrCompare(c.Op, x, y) // symptr.go
			}
			if !symType(xt) || !symType(c.Y.Type()) {
				return nil
			}
			w := smt.TypeWidth(xt)
			xs, ys := t.term(x, w), t.term(y, w)
			if xs.Sort.Width != w || ys.Sort.Width != w {
				return nil
			}
			return smt.CCompare(b, c.Op, xs, ys, xt)
		}
	}
	v, ok := t.eval(e)
	if !ok {
		return nil
	}
	return t.truthTerm(v)
}

// assumeSym records the condition of an Assume as a path condition; it
// returns false when the condition is the constant false.
func (t *tx) assumeSym(cond cfa.Expr, truth bool) bool {
	c := t.condTerm(cond)
	if c == nil {
		return true
	}
	if !truth {
		c = t.c.b.Not(c)
	}
	switch c.Op {
	case smt.True:
		return true
	case smt.False:
		return false
	}
	t.assumed = append(t.assumed, c)
	return true
}

// indexAddr is the address of a[i] for a symbolic index i: a symIndex
// when the array is small enough, an unknown offset otherwise.
func (t *tx) indexAddr(a Addr, e *cfa.Index, i memory.Value) Addr {
	at := e.X.Type()
	it := e.I.Type()
	if a.SymOff != nil {
		return t.symIndexOff(a, i, it, e.T.Size) // symptr.go
	}
	ok := a.Known && a.OffKnown && a.Index == nil && at.Kind == cfa.Array &&
		at.Len > 0 && at.Len <= int64(t.c.opts.MaxIteCells) && e.T.Size > 0 &&
		symType(it) && i.Sym.Sort.Width == smt.TypeWidth(it)
	if !ok && a.Known && a.OffKnown && a.Index == nil && e.T.Size > 0 {
		// a large array, or a pointer indexed: a symbolic byte offset
		return t.symIndexOff(a, i, it, e.T.Size)
	}
	a.OffKnown = false
	a.Index = nil
	if !ok {
		return a
	}
	idx := i.Sym
	if w := idx.Sort.Width; w < 64 {
		if it.IsSigned() {
			idx = t.c.b.SignExt(idx, 64)
		} else {
			idx = t.c.b.ZeroExt(idx, 64)
		}
	}
	a.Index = &SymIndex{Idx: idx, Scale: e.T.Size, N: at.Len}
	return a
}

// element returns the concrete address of element k of a symbolically
// indexed address.
func (a Addr) element(k int64) Addr {
	a.Off += k * a.Index.Scale
	a.OffKnown = true
	a.Index = nil
	return a
}

// loadIndexed reads through a symbolic index: ite(i = 0, a[0], ite(i =
// 1, a[1], … fresh)), the fresh symbol standing for an out-of-bounds
// read. Non-integer elements, or elements holding addresses, give unknown.
func (t *tx) loadIndexed(a Addr, ty *cfa.Type) (memory.Value, bool) {
	if !symType(ty) {
		return memory.Value{}, false
	}
	b := t.c.b
	w := smt.TypeWidth(ty)
	acc := t.fresh("oob", ty).Sym
	for k := a.Index.N - 1; k >= 0; k-- {
		v, ok := t.load(a.element(k), ty)
		if !ok || v.Obj != 0 {
			return memory.Value{}, false
		}
		acc = b.Ite(b.Eq(a.Index.Idx, b.BV(uint64(k), 64)), t.term(v, w), acc)
	}
	return memory.OfTerm(acc), true
}

// storeIndexed writes through a symbolic index: every element k becomes
// ite(i = k, v, a[k]); elements that cannot be written so (addresses,
// non-integer types) become unknown. A write out of bounds is undefined
// behaviour and assumed not to happen (as for unknown offsets).
func (t *tx) storeIndexed(a Addr, ty *cfa.Type, v memory.Value, known bool) {
	if !symType(ty) || (known && v.Obj != 0) {
		for k := int64(0); k < a.Index.N; k++ {
			t.store(a.element(k), ty, memory.Value{}, false)
		}
		return
	}
	if !known {
		v = t.fresh("havoc", ty)
	}
	b := t.c.b
	w := smt.TypeWidth(ty)
	nv := t.term(v, w)
	for k := int64(0); k < a.Index.N; k++ {
		ak := a.element(k)
		old, ok := t.load(ak, ty)
		if !ok || old.Obj != 0 {
			t.store(ak, ty, memory.Value{}, false)
			continue
		}
		t.store(ak, ty, memory.OfTerm(b.Ite(b.Eq(a.Index.Idx, b.BV(uint64(k), 64)), nv, t.term(old, w))), true)
	}
}

// loadBytesSym reads n ≤ 8 bytes (little-endian) as an integer of type
// ty, materialising fresh symbols for bytes the state does not know (and
// storing them, so later reads agree). A byte of an address cell makes
// the read unknown.
func (t *tx) loadBytesSym(obj uint64, off, n int64, ty *cfa.Type) (memory.Value, bool) {
	label := t.c.objName(obj, t.s.depth)
	// Nothing known in the range: one symbol for the whole value.
	if c := t.s.mem.Floor(obj, off+n-1); (c == nil || c.Obj != obj || c.Off+int64(c.Size) <= off) && memory.ObjKind(obj) != memory.KindString {
		var v memory.Value
		if ty != nil && ty.Kind == cfa.Bool && n == 1 {
			v = t.fresh(label, ty)
		} else {
			v = memory.Value{Sym: t.freshVar(label, int(8*n))}
		}
		if t.tracked(obj) {
			t.s.mem = t.s.mem.Put(obj, off, v, uint8(n))
		}
		return v, true
	}
	b := t.c.b
	var acc *smt.Term
	for i := int64(0); i < n; i++ {
		var by memory.Value
		if c := t.s.mem.Floor(obj, off+i); c != nil && c.Obj == obj && c.Off+int64(c.Size) > off+i {
			if c.Val.Obj != 0 {
				return memory.Value{}, false
			}
			by = t.byteOf(c.Val, off+i-c.Off)
		} else if x, ok := t.strByte(obj, off+i); ok {
			by = memory.Value{Bits: x}
		} else {
			by = memory.Value{Sym: t.freshVar(label, 8)}
			if t.tracked(obj) {
				t.s.mem = t.s.mem.Put(obj, off+i, by, 1)
			}
		}
		bt := t.term(by, 8)
		if acc == nil {
			acc = bt
		} else {
			acc = b.Concat(bt, acc)
		}
	}
	return memory.OfTerm(acc), true
}

// loadFieldSym reads the bit-field f at a (n storage bytes) as type ty.
func (t *tx) loadFieldSym(a Addr, f *cfa.Field, n int64, ty *cfa.Type) (memory.Value, bool) {
	if !symType(ty) {
		return memory.Value{}, false
	}
	raw, ok := t.loadBytesSym(a.Obj, a.Off, n, nil)
	if !ok {
		return memory.Value{}, false
	}
	b := t.c.b
	x := b.Extract(t.term(raw, int(8*n)), f.BitOffset+f.BitWidth-1, f.BitOffset)
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
func (t *tx) storeFieldSym(a Addr, f *cfa.Field, n int64, ty *cfa.Type, v memory.Value, known bool) {
	raw, ok := t.loadBytesSym(a.Obj, a.Off, n, nil)
	t.clearRange(a.Obj, a.Off, n)
	if !ok || v.Obj != 0 || !t.tracked(a.Obj) || !symType(ty) {
		return
	}
	if !known {
		v = t.fresh("havoc", ty)
	}
	b := t.c.b
	w := int(8 * n)
	x := t.term(v, smt.TypeWidth(ty))
	switch xw := x.Sort.Width; {
	case xw > w:
		x = b.Extract(x, w-1, 0)
	case xw < w:
		x = b.ZeroExt(x, w)
	}
	m := b.BV(memory.Mask(f.BitWidth)<<uint(f.BitOffset), w)
	nr := b.BOr(b.BAnd(t.term(raw, w), b.BNot(m)), b.BAnd(b.Shl(x, b.BV(uint64(f.BitOffset), w)), m))
	r := memory.OfTerm(nr)
	for i := int64(0); i < n; i++ {
		t.s.mem = t.s.mem.Put(a.Obj, a.Off+i, t.byteOf(r, i), 1)
	}
}

// Term returns the value of the scalar integer variable v (a global, or a
// local of the current frame) as a term of the analysis's Builder
// (constants for concrete values), and whether it is known. It is meant
// for tests and explanations; outside symbolic mode it returns false.
func (s *State) Term(v *cfa.Var) (*smt.Term, bool) {
	if s.c.b == nil || !symType(v.T) {
		return nil, false
	}
	obj := memory.GlobalObj(v.ID)
	if !v.Global {
		obj = memory.LocalObj(s.depth, v.ID)
	}
	n := s.mem.Get(obj, 0)
	if n == nil || int64(n.Size) != sizeOf(v.T) || n.Val.Obj != 0 {
		return nil, false
	}
	t := tx{c: s.c, s: *s}
	return t.term(n.Val, smt.TypeWidth(v.T)), true
}

// Syms returns the number of symbols created on the path to s.
func (s *State) Syms() int { return int(s.syms) }

// Terms calls f on the term of every symbolic cell of s, in key order.
func (s *State) Terms(f func(*smt.Term)) {
	s.mem.Each(func(n *memory.Node) bool {
		if n.Val.Sym != nil {
			f(n.Val.Sym)
		}
		return true
	})
}

// MapTerms returns s with the term t of every symbolic cell replaced by
// f(t), a term of the same sort (constants become concrete values), and
// with the count of symbols created on the path set to syms. Symbolic
// execution uses it to rename symbols canonically; the caller makes sure
// that the symbols fresh creates from then on (label#k for k ≥ syms) do
// not occur in the result.
func (s *State) MapTerms(f func(*smt.Term) *smt.Term, syms int) *State {
	mem := s.mem.MapVals(func(v memory.Value) memory.Value {
		if v.Sym == nil {
			return v
		}
		if v.Obj != 0 {
			return memory.PtrValue(v.Obj, f(v.Sym)) // a symbolic offset
		}
		return memory.OfTerm(f(v.Sym))
	})
	if mem == s.mem && uint32(syms) == s.syms {
		return s
	}
	ns := *s
	ns.mem, ns.syms = mem, uint32(syms)
	return &ns
}
