package value

import (
	"math"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/smt"
)

// Addr is the address of an lvalue: a known object (Obj ≠ 0, Known) at
// a byte offset (OffKnown), a known object at an unknown offset, or an
// unknown object (Obj == 0: a pointer that may point anywhere). In
// symbolic mode (Options.Symbolic) the offset may be symbolic instead:
// Index or SymOff, which the Symbolic extension builds and reads.
type Addr struct {
	Obj      uint64
	Off      int64
	Known    bool // Obj is known
	OffKnown bool
	Field    *cfa.Field // the bit-field accessed, if any
	// Index is a symbolic array index (OffKnown is false): the address
	// is Off + k·Scale for the k ∈ [0, N) that the index term equals.
	Index *SymIndex
	// SymOff is a symbolic byte offset (OffKnown is false): the address
	// is SymOff + Off, in the pointer width.
	SymOff *smt.Term
}

// SymIndex is a symbolic array index (Addr.Index): the element is k ∈
// [0, N) with Idx = k (Idx is 64 bits wide, sign- or zero-extended from
// the index type), at offset k·Scale bytes from the address's offset.
type SymIndex struct {
	Idx   *smt.Term
	Scale int64
	N     int64
}

func (t *tx) varObj(v *cfa.Var) uint64 {
	if v.Global {
		return memory.GlobalObj(v.ID)
	}
	return memory.LocalObj(t.s.depth, v.ID)
}

func (t *tx) varOf(obj uint64) *cfa.Var {
	switch memory.ObjKind(obj) {
	case memory.KindGlobal, memory.KindLocal:
		return t.c.prog.Vars[memory.VarID(obj)]
	}
	return nil
}

// addrOf computes the address of the lvalue e.
func (t *tx) addrOf(e cfa.Expr) Addr {
	switch e := e.(type) {
	case *cfa.VarRef:
		return Addr{Obj: t.varObj(e.Var), Known: true, OffKnown: true}
	case *cfa.StringLit:
		return Addr{Obj: t.c.strObj(e.Val), Known: true, OffKnown: true}
	case *cfa.Deref:
		v, ok := t.eval(e.X)
		if ok && memory.ObjKind(v.Obj) == memory.KindSeg {
			v, ok = t.segDeref(v) // materialise a list segment (lists.go)
		}
		if !ok || v.Obj == 0 || memory.ObjKind(v.Obj) == memory.KindFunc {
			return Addr{}
		}
		if v.Sym != nil {
			return symAddr(v) // a symbolic offset (symbolic mode)
		}
		return Addr{Obj: v.Obj, Off: memory.Sext(v.Bits, t.c.ptr), Known: true, OffKnown: true}
	case *cfa.Member:
		a := t.addrOf(e.X)
		f := &e.X.Type().Fields[e.Field]
		a.Off += f.Offset
		if f.BitWidth > 0 {
			a.Field = f
		}
		return a
	case *cfa.Index:
		a := t.addrOf(e.X)
		a.Field = nil
		i, ok := t.eval(e.I)
		if ok && i.Sym != nil {
			return t.c.sym.Index(Tx{t}, a, e, i) // symbolic mode
		}
		if !ok || i.Obj != 0 {
			a.OffKnown = false
			a.Index = nil
			a.SymOff = nil
			return a
		}
		if a.SymOff != nil {
			return t.c.sym.Index(Tx{t}, a, e, i) // symbolic mode
		}
		a.Off += IntOf(i, e.I.Type()) * e.T.Size
		return a
	}
	return Addr{}
}

// eval evaluates a scalar expression; ok is false when its value is
// unknown.
func (t *tx) eval(e cfa.Expr) (memory.Value, bool) {
	switch e := e.(type) {
	case *cfa.Const:
		return memory.Value{Bits: e.V}, true
	case *cfa.FloatConst:
		return memory.Value{}, false
	case *cfa.FuncRef:
		return memory.Value{Obj: t.c.funcObj(e.Name)}, true
	case *cfa.VarRef:
		if e.Var.Volatile {
			if t.c.sym != nil && TermType(e.Var.T) {
				return t.c.sym.Fresh(Tx{t}, "volatile "+e.Var.Name, e.Var.T), true
			}
			return memory.Value{}, false
		}
		if isAggregate(e.Var.T) {
			return memory.Value{}, false
		}
		return t.load(t.addrOf(e), e.Var.T)
	case *cfa.Deref, *cfa.Member, *cfa.Index:
		if isAggregate(e.Type()) {
			return memory.Value{}, false
		}
		return t.load(t.addrOf(e), e.Type())
	case *cfa.AddrOf:
		if f, ok := e.X.(*cfa.FuncRef); ok {
			return memory.Value{Obj: t.c.funcObj(f.Name)}, true
		}
		a := t.addrOf(e.X)
		if t.c.sym != nil && a.Known && (a.Index != nil || a.SymOff != nil) {
			if off, ok := t.c.sym.Offset(a); ok {
				return memory.PtrValue(a.Obj, off), true // a symbolic offset
			}
		}
		if !a.Known || !a.OffKnown {
			return memory.Value{}, false
		}
		return memory.Value{Obj: a.Obj, Bits: uint64(a.Off) & memory.Mask(t.c.ptr)}, true
	case *cfa.Cast:
		v, ok := t.eval(e.X)
		return t.convertValue(v, ok, e.X.Type(), e.T)
	case *cfa.Unary:
		v, ok := t.eval(e.X)
		if !ok {
			return memory.Value{}, false
		}
		if v.Sym != nil && v.Obj != 0 {
			if e.Op == cfa.LNot {
				return memory.Value{Bits: 0}, true // a valid address is not null
			}
			return memory.Value{}, false
		}
		if v.Sym != nil {
			return t.c.sym.Unary(e, v)
		}
		if v.Obj != 0 {
			if e.Op == cfa.LNot {
				return memory.Value{Bits: 0}, true // a valid address is not null
			}
			return memory.Value{}, false
		}
		if !Scalar(e.X.Type()) || !Scalar(e.T) {
			return memory.Value{}, false
		}
		return memory.Value{Bits: csem.Unary(e.Op, v.Bits, e.X.Type(), e.T)}, true
	case *cfa.Binary:
		return t.binary(e)
	}
	return memory.Value{}, false
}

// Scalar reports whether values of t fit the value analysis's uint64
// representation (memory.Value.Bits): _Bool, and integers and pointers of
// 1 to 64 bits.
func Scalar(t *cfa.Type) bool {
	switch t.Kind {
	case cfa.Int, cfa.Pointer:
		return t.Bits > 0 && t.Bits <= 64
	case cfa.Bool:
		return true
	}
	return false
}

// IsTrue reports whether the concrete value v counts as true in C: an
// address, or non-zero bits.
func IsTrue(v memory.Value) bool { return v.Obj != 0 || v.Bits != 0 }

func boolValue(b bool) memory.Value {
	if b {
		return memory.Value{Bits: 1}
	}
	return memory.Value{}
}

func (t *tx) binary(e *cfa.Binary) (memory.Value, bool) {
	switch e.Op {
	case cfa.LAnd, cfa.LOr:
		x, xok := t.eval(e.X)
		if conc(x, xok) && IsTrue(x) == (e.Op == cfa.LOr) {
			return boolValue(e.Op == cfa.LOr), true
		}
		y, yok := t.eval(e.Y)
		if conc(y, yok) && IsTrue(y) == (e.Op == cfa.LOr) {
			return boolValue(e.Op == cfa.LOr), true
		}
		if conc(x, xok) && conc(y, yok) {
			return boolValue(e.Op == cfa.LAnd), true
		}
		if xok && yok {
			return t.c.sym.Binary(Tx{t}, e, x, y) // one is a term
		}
		return memory.Value{}, false
	}
	x, xok := t.eval(e.X)
	if !xok {
		return memory.Value{}, false
	}
	y, yok := t.eval(e.Y)
	if !yok {
		return memory.Value{}, false
	}
	xt, yt := e.X.Type(), e.Y.Type()
	if !Scalar(xt) || !Scalar(yt) || !Scalar(e.T) {
		return memory.Value{}, false
	}
	if x.Sym != nil || y.Sym != nil {
		return t.c.sym.Binary(Tx{t}, e, x, y)
	}
	// Pointer arithmetic (C semantics: the integer counts elements).
	if xt.Kind == cfa.Pointer && yt.Kind != cfa.Pointer && (e.Op == cfa.Add || e.Op == cfa.Sub) && y.Obj == 0 {
		d := uint64(IntOf(y, yt) * ElemSize(xt))
		if e.Op == cfa.Sub {
			d = -d
		}
		return memory.Value{Obj: x.Obj, Bits: (x.Bits + d) & memory.Mask(t.c.ptr)}, true
	}
	if yt.Kind == cfa.Pointer && xt.Kind != cfa.Pointer && e.Op == cfa.Add && x.Obj == 0 {
		return memory.Value{Obj: y.Obj, Bits: (y.Bits + uint64(IntOf(x, xt)*ElemSize(yt))) & memory.Mask(t.c.ptr)}, true
	}
	if xt.Kind == cfa.Pointer && yt.Kind == cfa.Pointer && e.Op == cfa.Sub {
		if x.Obj != y.Obj {
			return memory.Value{}, false
		}
		d := memory.Sext(x.Bits, t.c.ptr) - memory.Sext(y.Bits, t.c.ptr)
		return memory.Value{Bits: uint64(d/ElemSize(xt)) & memory.Mask(e.T.Width())}, true
	}
	if t.c.opts.Memory != nil && x.Obj != 0 && y.Obj != 0 && x.Obj != y.Obj && (t.mayBeFreed(x.Obj) || t.mayBeFreed(y.Obj)) {
		return memory.Value{}, false // the address of a freed block may be reused (memsafety.go)
	}
	if smg.SegAlias(x.Obj, y.Obj) && t.memMode() {
		return t.segEndsCompare(e.Op, x) // lists.go, smg.Heap.EndsCompare
	}
	if (e.Op == cfa.Eq || e.Op == cfa.Ne) && t.mayAdjoin(x, y) {
		return memory.Value{}, false
	}
	if x.Obj != 0 || y.Obj != 0 {
		return symbolicBinary(e.Op, x, y, t.c.ptr)
	}
	r, ub := csem.Binary(e.Op, x.Bits, y.Bits, xt, yt, e.T)
	if ub != csem.NoUB {
		return memory.Value{}, false // division by zero, MIN / -1, bad shift count
	}
	return memory.Value{Bits: r}, true
}

// ElemSize is the step in bytes of pointer arithmetic on the pointer type
// pt: the size of its element, 1 for void * and function pointers (gcc).
func ElemSize(pt *cfa.Type) int64 {
	if pt.Elem == nil || pt.Elem.Size <= 0 {
		return 1 // void * and function pointers: gcc's byte arithmetic
	}
	return pt.Elem.Size
}

// symbolicBinary evaluates an operation on symbolic addresses: equality
// and ordering within one object compare offsets; distinct objects are
// unequal; a valid address differs from null; the rest is unknown.
func symbolicBinary(op cfa.BinaryOp, x, y memory.Value, ptrBits int) (memory.Value, bool) {
	if smg.SegAlias(x.Obj, y.Obj) {
		return memory.Value{}, false // both ends of one list segment (smg.SegAlias)
	}
	if x.Obj == y.Obj {
		a, b := memory.Sext(x.Bits, ptrBits), memory.Sext(y.Bits, ptrBits)
		switch op {
		case cfa.Eq:
			return boolValue(a == b), true
		case cfa.Ne:
			return boolValue(a != b), true
		case cfa.Lt:
			return boolValue(a < b), true
		case cfa.Le:
			return boolValue(a <= b), true
		case cfa.Gt:
			return boolValue(a > b), true
		case cfa.Ge:
			return boolValue(a >= b), true
		case cfa.Sub:
			return memory.Value{Bits: uint64(a-b) & memory.Mask(ptrBits)}, true
		}
		return memory.Value{}, false
	}
	distinct := (x.Obj != 0 && y.Obj != 0) || (x.Obj == 0 && x.Bits == 0) || (y.Obj == 0 && y.Bits == 0)
	if distinct {
		switch op {
		case cfa.Eq:
			return boolValue(false), true
		case cfa.Ne:
			return boolValue(true), true
		}
	}
	if op == cfa.Add && (x.Obj == 0 || y.Obj == 0) {
		return memory.Value{Obj: x.Obj | y.Obj, Bits: (x.Bits + y.Bits) & memory.Mask(ptrBits)}, true
	}
	if op == cfa.Sub && y.Obj == 0 {
		return memory.Value{Obj: x.Obj, Bits: (x.Bits - y.Bits) & memory.Mask(ptrBits)}, true
	}
	return memory.Value{}, false
}

// convertValue converts v of type from to type to (C casts: truncation,
// sign or zero extension, _Bool as != 0; addresses survive conversions
// between pointers and integers at least as wide as a pointer).
func (t *tx) convertValue(v memory.Value, ok bool, from, to *cfa.Type) (memory.Value, bool) {
	if !ok || !Scalar(to) || !Scalar(from) {
		return memory.Value{}, false
	}
	if v.Sym != nil {
		return t.c.sym.Convert(v, from, to)
	}
	if to.Kind == cfa.Bool {
		return boolValue(IsTrue(v)), true
	}
	if v.Obj != 0 {
		if to.Width() < t.c.ptr {
			return memory.Value{}, false
		}
		return v, true
	}
	return memory.Value{Bits: csem.Convert(v.Bits, from, to)}, true
}

// ScalarSize is the number of bytes of a scalar of type ty in a cell (0
// when it does not fit one: not Scalar).
func ScalarSize(ty *cfa.Type) int64 {
	if !Scalar(ty) {
		return 0
	}
	if ty.Kind == cfa.Bool {
		return 1
	}
	return int64(ty.Width() / 8)
}

// load reads a scalar of type ty at a.
func (t *tx) load(a Addr, ty *cfa.Type) (memory.Value, bool) {
	if a.Index != nil || a.SymOff != nil && a.Known {
		return t.c.sym.Load(Tx{t}, a, ty) // symbolic mode
	}
	if !a.Known || !a.OffKnown {
		return memory.Value{}, false
	}
	if f := a.Field; f != nil {
		n := f.Bytes()
		if t.c.sym != nil {
			return t.c.sym.Load(Tx{t}, a, ty)
		}
		raw, ok := t.loadBytes(a.Obj, a.Off, n)
		if !ok {
			return memory.Value{}, false
		}
		x := (raw >> uint(f.BitOffset)) & memory.Mask(f.BitWidth)
		if ty.IsSigned() {
			x = uint64(memory.Sext(x, f.BitWidth))
		}
		return memory.Value{Bits: x & memory.Mask(ty.Width())}, true
	}
	size := ScalarSize(ty)
	if size == 0 {
		return memory.Value{}, false
	}
	if n := t.s.mem.Get(a.Obj, a.Off); n != nil && int64(n.Size) == size {
		if n.Val.Sym != nil && n.Val.Obj == 0 && !TermType(ty) {
			return memory.Value{}, false // a symbolic integer read as a pointer
		}
		if ty.Kind == cfa.Bool && n.Val.Obj == 0 && n.Val.Sym == nil {
			return memory.Value{Bits: n.Val.Bits & 0xff}, true
		}
		return n.Val, true
	}
	if t.c.sym != nil && TermType(ty) {
		return t.c.sym.Load(Tx{t}, a, ty) // fresh symbols for unknown bytes
	}
	raw, ok := t.loadBytes(a.Obj, a.Off, size)
	return memory.Value{Bits: raw}, ok
}

// loadBytes assembles n ≤ 8 bytes (little-endian) from integer cells or a
// string literal.
func (t *tx) loadBytes(obj uint64, off, n int64) (uint64, bool) {
	var r uint64
	for i := int64(0); i < n; i++ {
		b, ok := t.loadByte(obj, off+i)
		if !ok {
			return 0, false
		}
		r |= b << uint(8*i)
	}
	return r, true
}

func (t *tx) loadByte(obj uint64, off int64) (uint64, bool) {
	if c := t.s.mem.Floor(obj, off); c != nil && c.Obj == obj && c.Off+int64(c.Size) > off {
		if c.Val.Obj != 0 || c.Val.Sym != nil {
			return 0, false
		}
		return (c.Val.Bits >> uint(8*(off-c.Off))) & 0xff, true
	}
	if memory.ObjKind(obj) == memory.KindString {
		return t.c.strByte(obj, off)
	}
	return 0, false
}

// clearRange forgets every cell overlapping [off, off+size) of obj. The
// bytes of an integer cell outside the range survive as byte cells.
func (t *tx) clearRange(obj uint64, off, size int64) {
	lo := off - 7
	if off < math.MinInt64+7 {
		lo = math.MinInt64
	}
	var dead []*memory.Node
	t.s.mem.Ascend(obj, lo, obj, off+size, func(n *memory.Node) bool {
		if n.Off+int64(n.Size) > off {
			dead = append(dead, n)
		}
		return true
	})
	for _, n := range dead {
		t.s.mem = t.s.mem.Del(obj, n.Off)
		if n.Val.Obj != 0 {
			continue
		}
		for i := int64(0); i < int64(n.Size); i++ {
			if b := n.Off + i; b < off || b >= off+size {
				t.s.mem = t.s.mem.Put(obj, b, t.byteOf(n.Val, i), 1)
			}
		}
	}
}

// clearObj forgets every cell of obj.
func (t *tx) clearObj(obj uint64) {
	t.s.mem = t.s.mem.DelObj(obj)
}

// store writes a scalar of type ty (known or unknown) at a. A write to an
// unknown offset forgets the whole object; a write through an unknown
// pointer forgets every object a pointer may reach (havocReachable).
func (t *tx) store(a Addr, ty *cfa.Type, v memory.Value, known bool) {
	if a.Index != nil || a.SymOff != nil && a.Known {
		t.c.sym.Store(Tx{t}, a, ty, v, known) // symbolic mode
		return
	}
	if !a.Known {
		t.havocAddressable()
		return
	}
	if !a.OffKnown {
		t.clearObj(a.Obj)
		return
	}
	if f := a.Field; f != nil {
		n := f.Bytes()
		if t.c.sym != nil {
			t.c.sym.Store(Tx{t}, a, ty, v, known)
			return
		}
		raw, ok := t.loadBytes(a.Obj, a.Off, n)
		t.clearRange(a.Obj, a.Off, n)
		if !ok || !known || v.Obj != 0 || !t.tracked(a.Obj) {
			return
		}
		m := memory.Mask(f.BitWidth) << uint(f.BitOffset)
		raw = raw&^m | (v.Bits<<uint(f.BitOffset))&m
		for i := int64(0); i < n; i++ {
			t.s.mem = t.s.mem.Put(a.Obj, a.Off+i, memory.Value{Bits: (raw >> uint(8*i)) & 0xff}, 1)
		}
		return
	}
	size := ScalarSize(ty)
	if size == 0 {
		size = ty.Size
		if size <= 0 {
			size = 1
		}
		t.clearRange(a.Obj, a.Off, size)
		return
	}
	if v.Sym != nil && v.Sym.Sort.Width != int(8*size) {
		known = false // a term of the wrong width: never stored
	}
	if known && t.tracked(a.Obj) {
		if old := t.s.mem.Get(a.Obj, a.Off); old != nil && int64(old.Size) == size {
			t.s.mem = t.s.mem.Put(a.Obj, a.Off, v, uint8(size))
			return
		}
		t.clearRange(a.Obj, a.Off, size)
		if ty.Kind == cfa.Bool && v.Obj == 0 && v.Sym == nil {
			v.Bits &= 0xff
		}
		t.s.mem = t.s.mem.Put(a.Obj, a.Off, v, uint8(size))
		return
	}
	t.clearRange(a.Obj, a.Off, size)
}

// cellsIn returns the cells lying entirely within [a.Off, a.Off+size),
// with offsets relative to a.Off (fresh nodes, not linked).
func (t *tx) cellsIn(a Addr, size int64) []*memory.Node {
	if !a.Known || !a.OffKnown {
		return nil
	}
	var out []*memory.Node
	t.s.mem.Ascend(a.Obj, a.Off, a.Obj, a.Off+size, func(n *memory.Node) bool {
		if n.Off+int64(n.Size) <= a.Off+size {
			out = append(out, &memory.Node{Off: n.Off - a.Off, Val: n.Val, Size: n.Size})
		}
		return true
	})
	if memory.ObjKind(a.Obj) == memory.KindString {
		// Materialise literal bytes not overwritten.
		for i := int64(0); i < size; i++ {
			if b, ok := t.c.strByte(a.Obj, a.Off+i); ok {
				if c := t.s.mem.Floor(a.Obj, a.Off+i); c == nil || c.Obj != a.Obj || c.Off+int64(c.Size) <= a.Off+i {
					out = append(out, &memory.Node{Off: i, Val: memory.Value{Bits: b}, Size: 1})
				}
			}
		}
	}
	return out
}

// writeCells replaces [dst.Off, dst.Off+size) by cells (relative offsets).
func (t *tx) writeCells(dst Addr, cells []*memory.Node, size int64) {
	if !dst.Known {
		t.havocAddressable()
		return
	}
	if !dst.OffKnown {
		t.clearObj(dst.Obj)
		return
	}
	t.clearRange(dst.Obj, dst.Off, size)
	if !t.tracked(dst.Obj) {
		return
	}
	for _, c := range cells {
		t.s.mem = t.s.mem.Put(dst.Obj, dst.Off+c.Off, c.Val, c.Size)
	}
}

// copyCells copies size bytes from src to dst (struct assignment, memcpy).
func (t *tx) copyCells(dst, src Addr, size int64) {
	var cells []*memory.Node
	if src.Known && src.OffKnown {
		cells = t.cellsIn(src, size)
	}
	t.writeCells(dst, cells, size)
}

// havocAddressable forgets every object a pointer may designate: variables
// whose address is taken (arrays included), heap blocks and string
// literals. Variables whose address is never taken keep their values.
func (t *tx) havocAddressable() {
	t.s.mem = t.s.mem.Filter(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal, memory.KindLocal:
			return !t.c.prog.Vars[memory.VarID(n.Obj)].AddrTaken
		}
		return false
	})
}

// havocLvalue makes the lvalue e unknown.
func (t *tx) havocLvalue(e cfa.Expr) {
	a := t.addrOf(e)
	ty := e.Type()
	if isAggregate(ty) {
		t.writeCells(a, nil, ty.Size)
		return
	}
	t.store(a, ty, memory.Value{}, false)
}

// assign performs lhs = rhs.
func (t *tx) assign(lhs, rhs cfa.Expr) {
	lt := lhs.Type()
	if isAggregate(lt) {
		dst := t.addrOf(lhs)
		if c, ok := rhs.(*cfa.Const); ok && c.V == 0 {
			// The front end's zero initialisation of a whole object.
			t.writeCells(dst, nil, lt.Size)
			if dst.Known && dst.OffKnown && lt.Size <= int64(t.c.opts.MaxBlockBytes) && t.tracked(dst.Obj) {
				t.zeroLeaves(dst.Obj, dst.Off, lt)
			}
			return
		}
		t.copyCells(dst, t.addrOf(rhs), lt.Size)
		return
	}
	v, ok := t.eval(rhs)
	v, ok = t.convertValue(v, ok, rhs.Type(), lt)
	t.store(t.addrOf(lhs), lt, v, ok)
}

// zeroInit sets the scalar leaves of an object with static storage
// duration to zero (C 6.7.9p10), up to MaxBlockBytes; larger objects stay
// unknown.
func (t *tx) zeroInit(obj uint64, ty *cfa.Type) {
	if ty.Size > int64(t.c.opts.MaxBlockBytes) || !t.tracked(obj) {
		return
	}
	t.zeroLeaves(obj, 0, ty)
}

func (t *tx) zeroLeaves(obj uint64, off int64, ty *cfa.Type) {
	switch ty.Kind {
	case cfa.Struct, cfa.Union:
		for _, f := range ty.Fields {
			if f.BitWidth > 0 {
				n := f.Bytes()
				for i := int64(0); i < n; i++ {
					if t.s.mem.Get(obj, off+f.Offset+i) == nil {
						t.clearRange(obj, off+f.Offset+i, 1)
						t.s.mem = t.s.mem.Put(obj, off+f.Offset+i, memory.Value{}, 1)
					}
				}
				continue
			}
			t.zeroLeaves(obj, off+f.Offset, f.Type)
			if ty.Kind == cfa.Union {
				return
			}
		}
	case cfa.Array:
		for i := int64(0); i < ty.Len; i++ {
			t.zeroLeaves(obj, off+i*ty.Elem.Size, ty.Elem)
		}
	default:
		if s := ScalarSize(ty); s > 0 {
			t.s.mem = t.s.mem.Put(obj, off, memory.Value{}, uint8(s))
		}
	}
}

// IntOf interprets the concrete integer value v of type ty as an int64
// (sign or zero extension by ty's signedness; _Bool as 8 bits).
func IntOf(v memory.Value, ty *cfa.Type) int64 {
	w := ty.Width()
	if ty.Kind == cfa.Bool {
		w = 8
	}
	if ty.IsSigned() {
		return memory.Sext(v.Bits, w)
	}
	return int64(v.Bits & memory.Mask(w))
}

// mayAdjoin reports whether the addresses x and y, in two different
// data objects, may be equal: a pointer one past the end of its object
// and a pointer to the start of another compare equal when the second
// object happens to follow the first in memory (C11 6.5.9p6; gcc lays
// out locals and globals side by side, and the fresh objects of a
// contract check stand for slices of one array a caller may pass).
// Objects never overlap, so no other pair of valid addresses of two
// objects is one address. A symbolic offset may lie at either place; a
// heap block's start is not its end (a block of size 0 has an address
// of its own: glibc gives it a chunk).
func (t *tx) mayAdjoin(x, y memory.Value) bool {
	data := func(o uint64) bool {
		k := memory.ObjKind(o)
		return o != 0 && (k == memory.KindGlobal || k == memory.KindLocal || k == memory.KindString || k == memory.KindHeap)
	}
	if x.Obj == y.Obj || !data(x.Obj) || !data(y.Obj) {
		return false
	}
	start := func(v memory.Value) bool { return v.Sym != nil || memory.Sext(v.Bits, t.c.ptr) == 0 }
	end := func(v memory.Value) bool {
		off := memory.Sext(v.Bits, t.c.ptr)
		if v.Sym != nil {
			return true
		}
		if size := t.constSize(v.Obj); size >= 0 {
			return off == size && (off != 0 || memory.ObjKind(v.Obj) != memory.KindHeap)
		}
		return off != 0
	}
	return end(x) && start(y) || end(y) && start(x)
}
