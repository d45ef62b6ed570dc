package symval

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Options configure symbolic mode.
type Options struct {
	// MaxIteCells bounds the arrays (in elements) that a symbolic index
	// reads and writes by an if-then-else over all elements, and the
	// offsets a symbolic pointer offset reads and writes so; larger
	// arrays and objects are read as fresh symbols and forgotten on
	// write. memset, memcpy and memmove of a symbolic length rewrite
	// objects of at most 4·MaxIteCells bytes. 0 selects 64.
	MaxIteCells int
}

// Symbolic is the symbolic mode of the value analysis for a program: it
// builds its terms with one smt.Builder and implements value.Symbolic.
// Set it as value.Options.Symbolic; it holds no state of its own besides
// the Builder, so one value may serve every transfer of a run.
type Symbolic struct {
	b      *smt.Builder
	ptr    int // pointer width in bits
	maxIte int
}

// New returns the symbolic mode of the value analysis of prog, whose
// terms b builds.
func New(prog *cfa.Program, b *smt.Builder, opts Options) *Symbolic {
	if opts.MaxIteCells <= 0 {
		opts.MaxIteCells = 64
	}
	return &Symbolic{b: b, ptr: prog.DataModel.PointerBits(), maxIte: opts.MaxIteCells}
}

var _ value.Symbolic = (*Symbolic)(nil)

// Fresh returns a new symbol label#k for a value of type ty.
func (sv *Symbolic) Fresh(t value.Tx, label string, ty *cfa.Type) memory.Value {
	return sv.fresh(t, label, ty)
}

// Term returns v as a term of w bits.
func (sv *Symbolic) Term(v memory.Value, w int) *smt.Term { return sv.term(v, w) }

// Byte returns byte i of the symbolic integer cell value v.
func (sv *Symbolic) Byte(v memory.Value, i int64) memory.Value {
	return memory.OfTerm(sv.b.Extract(v.Sym, int(8*i+7), int(8*i)))
}

// Convert converts a symbolic value (CCast); conversions to or from
// pointers give unknown, except an address with a symbolic offset kept
// at the pointer width or tested for truth.
func (sv *Symbolic) Convert(v memory.Value, from, to *cfa.Type) (memory.Value, bool) {
	return sv.convertSym(v, from, to)
}

// Unary applies -, ~ or ! to a symbolic operand (CUnary).
func (sv *Symbolic) Unary(e *cfa.Unary, v memory.Value) (memory.Value, bool) {
	return sv.unarySym(e, v)
}

// Binary applies e's operator when an operand is symbolic: && and || as
// formulas, pointer arithmetic and comparisons on symbolic offsets
// (offsets.go), integer operators with the C semantics of engine/smt
// (CBinary).
func (sv *Symbolic) Binary(t value.Tx, e *cfa.Binary, x, y memory.Value) (memory.Value, bool) {
	if e.Op == cfa.LAnd || e.Op == cfa.LOr {
		return sv.logicalSym(e, x, y)
	}
	if v, ok, handled := sv.ptrArithSym(t, e, x, y); handled {
		return v, ok
	}
	return sv.binarySym(e, x, y)
}

// Abs returns ite(x < 0, -x, x) for the symbolic signed integer x.
func (sv *Symbolic) Abs(x memory.Value) memory.Value {
	b := sv.b
	return memory.Value{Sym: b.Ite(b.Slt(x.Sym, b.BV(0, x.Sym.Sort.Width)), b.Neg(x.Sym), x.Sym)}
}

// Assume records the condition of an Assume as a path condition.
func (sv *Symbolic) Assume(t value.Tx, cond cfa.Expr, truth bool) bool {
	return sv.assumeSym(t, cond, truth)
}

// Index is the address of a[i] for a symbolic index i, or for an array
// at a symbolic offset: a value.SymIndex over a small array, a symbolic
// byte offset otherwise.
func (sv *Symbolic) Index(t value.Tx, a value.Addr, e *cfa.Index, i memory.Value) value.Addr {
	return sv.indexAddr(t, a, e, i)
}

// Offset returns a's symbolic byte offset as a pointer-width term.
func (sv *Symbolic) Offset(a value.Addr) (*smt.Term, bool) { return sv.addrOffTerm(a) }

// Load reads through a symbolic index or offset, a bit-field, or memory
// the state does not know (fresh symbols, stored).
func (sv *Symbolic) Load(t value.Tx, a value.Addr, ty *cfa.Type) (memory.Value, bool) {
	switch {
	case a.Index != nil:
		return sv.loadIndexed(t, a, ty)
	case a.SymOff != nil:
		return sv.loadSymOff(t, a, ty)
	case a.Field != nil:
		return sv.loadFieldSym(t, a, a.Field, a.Field.Bytes(), ty)
	}
	return sv.loadBytesSym(t, a.Obj, a.Off, value.ScalarSize(ty), ty)
}

// Store writes through a symbolic index or offset, or into a bit-field.
func (sv *Symbolic) Store(t value.Tx, a value.Addr, ty *cfa.Type, v memory.Value, known bool) {
	switch {
	case a.Index != nil:
		sv.storeIndexed(t, a, ty, v, known)
	case a.SymOff != nil:
		sv.storeSymOff(t, a, ty, v, known)
	default:
		sv.storeFieldSym(t, a, a.Field, a.Field.Bytes(), ty, v, known)
	}
}

// Fill models memset (src not Known: every byte c) and memcpy/memmove
// (from src) of a symbolic length or offset (symFill).
func (sv *Symbolic) Fill(t value.Tx, call *cfa.Call, dst, src value.Addr, c memory.Value) bool {
	byteAt := func(int64, *smt.Term) (memory.Value, bool) { return c, true }
	if src.Known {
		byteAt = sv.srcByte(t, src)
	}
	return sv.symFill(t, call, dst, byteAt)
}

// MemoryQuery is the result of CBMC's memory primitives as a term.
func (sv *Symbolic) MemoryQuery(t value.Tx, call *cfa.Call) (memory.Value, bool) {
	return sv.memoryQuerySym(t, call)
}

// AllocSize returns a symbolic size argument of malloc or alloca.
func (sv *Symbolic) AllocSize(t value.Tx, call *cfa.Call) *smt.Term { return sv.symSize(t, call) }

// CheckOffset checks an access at a symbolic offset (checkSymOff).
func (sv *Symbolic) CheckOffset(t value.Tx, e *cfa.Edge, what string, a value.Addr, n int64) {
	sv.checkSymOff(t, e, what, a, n)
}

// CheckBounds checks an access through a symbolic index or into a block
// of symbolic size (symBounds).
func (sv *Symbolic) CheckBounds(t value.Tx, e *cfa.Edge, what string, a value.Addr, n, size int64) bool {
	return sv.symBounds(t, e, what, a, n, size)
}

// CheckRanges checks the ranges of memset, memcpy, memmove and memcmp of
// a symbolic length or offset (symRangeAccess).
func (sv *Symbolic) CheckRanges(t value.Tx, e *cfa.Edge, call *cfa.Call, ptrs ...int) bool {
	return sv.symRangeAccess(t, e, call, ptrs...)
}

func b2u(c bool) uint64 {
	if c {
		return 1
	}
	return 0
}
