package value

import (
	"strings"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// Symbolic is symbolic mode (Options.Symbolic; seed 000, section 2.3,
// and section 2.6.6: the value analysis with symbolic values, as
// CPAchecker's value analysis with its symbolic value factory). The
// memory model stays this package's; what changes is that an integer
// value the explicit analysis would not know is a term, and that an
// array index, a pointer offset or a block size may be one. The value
// analysis calls the extension only when Options.Symbolic is set, at the
// points listed below: where a term may enter (inputs, reads of unknown
// memory, symbolic indices, allocation sizes) and where one is met (a
// Value with a term, an Addr with an Index or SymOff). It builds no term
// itself. The implementation, engine/analysis/symbolic/symval, belongs
// to symbolic execution; it reaches the transfer in progress through the
// handle Tx, never through this package's internals.
//
// Symbols are named label#k where k counts the symbols created on the
// path (Tx.NewSymbol): unique on each path, and equal on paths that
// create them alike, which is what lets stop find equal memory on
// different paths.
type Symbolic interface {
	// Values: terms for integers (seed 000, section 2.3).

	// Fresh returns a new symbol for a value of type ty (TermType),
	// named after label: nondeterministic inputs (Havoc,
	// __VERIFIER_nondet_*), volatile reads, results of unmodelled
	// functions.
	Fresh(t Tx, label string, ty *cfa.Type) memory.Value
	// Term returns the integer value v (not an address) as a term of w
	// bits: its term, or a constant.
	Term(v memory.Value, w int) *smt.Term
	// Byte returns byte i (little-endian) of the integer cell value v,
	// which holds a term.
	Byte(v memory.Value, i int64) memory.Value
	// Convert converts v, which holds a term (an integer, or an address
	// with a symbolic offset), from type from to type to (C casts);
	// ok is false when the result is unknown.
	Convert(v memory.Value, from, to *cfa.Type) (memory.Value, bool)
	// Unary applies e's operator to v, which holds a term.
	Unary(e *cfa.Unary, v memory.Value) (memory.Value, bool)
	// Binary applies e's operator (arithmetic, comparisons, && and ||,
	// pointer arithmetic) to x and y, both known and one holding a term.
	Binary(t Tx, e *cfa.Binary, x, y memory.Value) (memory.Value, bool)
	// Abs returns |x| (wrapping at the minimum) of the signed integer x,
	// which holds a term, as a term of x's width.
	Abs(x memory.Value) memory.Value
	// Assume records the condition cond (negated unless truth) as a path
	// condition of the step (Tx.Assume) when it is a term, and reports
	// false when it is the constant false.
	Assume(t Tx, cond cfa.Expr, truth bool) bool

	// Addresses and memory: symbolic indices and offsets, reads and
	// writes through them, the library's block operations.

	// Index returns the address of e = a[i] when the index i holds a
	// term or a has a symbolic offset (a.SymOff).
	Index(t Tx, a Addr, e *cfa.Index, i memory.Value) Addr
	// Offset returns the byte offset of a symbolically addressed lvalue
	// (a.Index or a.SymOff) as a term of the pointer width, and whether
	// a has one (for &lvalue).
	Offset(a Addr) (*smt.Term, bool)
	// Load reads a scalar of type ty at a known address a whose offset
	// is symbolic (a.Index, a.SymOff), at a bit-field (a.Field), or in
	// memory the state knows nothing or only part of (materialising
	// fresh symbols and storing them, so later reads agree).
	Load(t Tx, a Addr, ty *cfa.Type) (memory.Value, bool)
	// Store writes a scalar of type ty at a known address a whose offset
	// is symbolic (a.Index, a.SymOff) or at a bit-field (a.Field).
	Store(t Tx, a Addr, ty *cfa.Type, v memory.Value, known bool)
	// Fill models memset (src the zero Addr, c the byte) and
	// memcpy/memmove (from src) of the call into the known object of
	// dst when the length or an offset is symbolic, and reports false,
	// changing nothing, when it cannot (the caller forgets the object).
	Fill(t Tx, call *cfa.Call, dst, src Addr, c memory.Value) bool
	// MemoryQuery is the result of CBMC's memory primitive call
	// (cfa.MemoryQueries) when a pointer offset or a length holds a
	// term; ok is false when the state does not decide it.
	MemoryQuery(t Tx, call *cfa.Call) (memory.Value, bool)

	// Memory safety (Options.Memory; seed 001, sections 3.9–3.10):
	// symbolic block sizes and bounds.

	// AllocSize returns the size argument of the allocation call as a
	// 64-bit term when it is one (Options.Memory), else nil.
	AllocSize(t Tx, call *cfa.Call) *smt.Term
	// CheckOffset checks an access of n bytes by what at the address a
	// with a symbolic offset (a.SymOff) (Options.Memory): it splits the
	// step by the bounds condition (Tx.Split), or reports the check
	// undecided.
	CheckOffset(t Tx, e *cfa.Edge, what string, a Addr, n int64)
	// CheckBounds checks an access of n bytes by what at a, an address
	// with a symbolic index (a.Index) or into an object whose size is a
	// term (size -1; else its constant size), by splitting the step on
	// its bounds condition, and reports whether it could.
	CheckBounds(t Tx, e *cfa.Edge, what string, a Addr, n, size int64) bool
	// CheckRanges checks the ranges of memset, memcpy, memmove and
	// memcmp (the pointer arguments ptrs, the length argument 2) when
	// the length or an offset is a term, and reports false when it did
	// not apply (the concrete checks then run).
	CheckRanges(t Tx, e *cfa.Edge, call *cfa.Call, ptrs ...int) bool
}

// Tx is the handle of a transfer in progress that Symbolic works on: the
// successor state being built, its memory cells, objects and the path
// conditions and violations of the step. It is valid only during the
// call it is passed to.
type Tx struct{ t *tx }

// NewSymbol returns the number of the next symbol created on the path
// and counts it.
func (h Tx) NewSymbol() int {
	k := h.t.s.syms
	h.t.s.syms++
	return int(k)
}

// Eval evaluates the scalar expression e; ok is false when its value is
// unknown.
func (h Tx) Eval(e cfa.Expr) (memory.Value, bool) { return h.t.eval(e) }

// Load reads a scalar of type ty at a.
func (h Tx) Load(a Addr, ty *cfa.Type) (memory.Value, bool) { return h.t.load(a, ty) }

// Store writes a scalar of type ty (known or unknown) at a.
func (h Tx) Store(a Addr, ty *cfa.Type, v memory.Value, known bool) { h.t.store(a, ty, v, known) }

// Byte returns byte i (little-endian) of the integer cell value v.
func (h Tx) Byte(v memory.Value, i int64) memory.Value { return h.t.byteOf(v, i) }

// Tracked reports whether the precision tracks object obj at the
// successor's location (cells of untracked objects are never stored).
func (h Tx) Tracked(obj uint64) bool { return h.t.tracked(obj) }

// Get returns the cell at (obj, off), or nil.
func (h Tx) Get(obj uint64, off int64) *memory.Node { return h.t.s.mem.Get(obj, off) }

// Floor returns the last cell at or before (obj, off) in key order, or
// nil.
func (h Tx) Floor(obj uint64, off int64) *memory.Node { return h.t.s.mem.Floor(obj, off) }

// Put stores v as the cell of size bytes at (obj, off), replacing a cell
// at that key; the caller has cleared overlapping cells.
func (h Tx) Put(obj uint64, off int64, v memory.Value, size uint8) {
	h.t.s.mem = h.t.s.mem.Put(obj, off, v, size)
}

// ClearRange forgets every cell overlapping [off, off+n) of obj; bytes
// of an integer cell outside the range survive as byte cells.
func (h Tx) ClearRange(obj uint64, off, n int64) { h.t.clearRange(obj, off, n) }

// ClearObj forgets every cell of obj.
func (h Tx) ClearObj(obj uint64) { h.t.clearObj(obj) }

// StrByte returns byte off of obj when obj is a string literal.
func (h Tx) StrByte(obj uint64, off int64) (uint64, bool) {
	if memory.ObjKind(obj) != memory.KindString {
		return 0, false
	}
	return h.t.c.strByte(obj, off)
}

// ObjName names obj as state strings do ("x", "x@1", "heap12#0").
func (h Tx) ObjName(obj uint64) string { return h.t.c.objName(obj, h.t.s.depth) }

// ObjectSize returns the size of obj in bytes when it is a constant the
// state knows (variables, string literals, heap blocks with a concrete
// size), else -1.
func (h Tx) ObjectSize(obj uint64) int64 { return h.t.constSize(obj) }

// MayBeEqual reports whether the addresses x and y, of two different
// objects or one of them an integer, may nevertheless be equal: the two
// ends of a list segment, adjoining objects (mayAdjoin), and with
// Options.Memory a block that may be freed (its address may be reused).
func (h Tx) MayBeEqual(x, y memory.Value) bool {
	t := h.t
	return smg.SegAlias(x.Obj, y.Obj) || t.mayAdjoin(x, y) || t.c.opts.Memory != nil && (t.mayBeFreed(x.Obj) || t.mayBeFreed(y.Obj))
}

// Identifiable reports whether the state knows obj as a live object
// that CBMC's same_object may compare.
func (h Tx) Identifiable(obj uint64) bool { return h.t.identifiable(obj) }

// QuerySize returns the size in bytes of the data object obj and whether
// it is valid, when the state knows both (known); readOnly admits string
// literals (CBMC's r_ok).
func (h Tx) QuerySize(obj uint64, readOnly bool) (size int64, valid, known bool) {
	return h.t.querySize(obj, readOnly)
}

// Assume records the Bool term c as a path condition the step takes
// (Succ.Assumed).
func (h Tx) Assume(c *smt.Term) { h.t.assumed = append(h.t.assumed, c) }

// Forked reports whether the step already has a second successor
// (malloc returning NULL, or a split), which Split needs free.
func (h Tx) Forked() bool { return h.t.alt != nil }

// Split splits the step by a bounds condition (Options.Memory; seed 001,
// section 3.9): the step's successor assumes in, and a second successor,
// the state before the step, assumes out (¬in) and carries the
// valid-deref violation f described by format and args. With in nil the
// access is certainly out of bounds: the step itself becomes the
// violation and no condition is assumed. Forked must be false.
func (h Tx) Split(e *cfa.Edge, in, out *smt.Term, f results.MemoryViolation, format string, args ...any) {
	t := h.t
	alt := *t
	alt.s.reasons = t.s.reasons
	altAssumed := append(append([]*smt.Term(nil), t.assumed...), out)
	if in != nil {
		t.assumed = append(t.assumed, in)
	}
	alt.violation(ValidDeref, e, f, format, args...)
	st := alt.s
	if in == nil {
		t.s = st
		return
	}
	t.alt = &st
	t.altAssumed = altAssumed
}

// Undecided reports the valid-deref check of the step e undecided, for
// the reason format and args say.
func (h Tx) Undecided(e *cfa.Edge, format string, args ...any) {
	h.t.memUnknown(ValidDeref, e, format, args...)
}

// CheckedSize returns the size of obj in bytes (-1: unknown) and whether
// the object is valid; an invalid or undecidable object has been
// reported for the access what at e.
func (h Tx) CheckedSize(e *cfa.Edge, obj uint64, what string) (int64, bool) {
	return h.t.objSize(e, obj, what)
}

// OfObject returns f with the object obj filled in: its name and, for a
// heap block, its allocation site.
func (h Tx) OfObject(f results.MemoryViolation, obj uint64) results.MemoryViolation {
	return h.t.object(f, obj)
}

// conc reports whether an evaluation result is a known concrete value.
func conc(v memory.Value, ok bool) bool { return ok && v.Sym == nil }

// TermType reports whether values of ty may be terms in symbolic mode:
// integers and _Bool of at most 64 bits.
func TermType(ty *cfa.Type) bool {
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

// inputLabel names the symbols of a nondeterministic source.
func inputLabel(source string) string {
	return strings.TrimPrefix(source, "__VERIFIER_")
}

// byteOf returns byte i of the integer cell value v.
func (t *tx) byteOf(v memory.Value, i int64) memory.Value {
	if v.Sym != nil {
		return t.c.sym.Byte(v, i)
	}
	return memory.Value{Bits: (v.Bits >> uint(8*i)) & 0xff}
}

// input stores a fresh symbol into the scalar lvalue lhs in symbolic mode
// (Havoc, results of nondet and unmodelled functions) and reports whether
// it did; otherwise the caller makes lhs unknown.
func (t *tx) input(lhs cfa.Expr, label string) bool {
	if t.c.sym == nil || lhs == nil || !TermType(lhs.Type()) {
		return false
	}
	t.store(t.addrOf(lhs), lhs.Type(), t.c.sym.Fresh(Tx{t}, label, lhs.Type()), true)
	return true
}

// symAddr is the address of the lvalue *v for a pointer with a symbolic
// offset.
func symAddr(v memory.Value) Addr {
	return Addr{Obj: v.Obj, Known: true, SymOff: v.Sym}
}

// constSize returns the size of obj in bytes when it is a constant the
// state knows (variables, string literals, heap blocks with a concrete
// size cell), else -1.
func (t *tx) constSize(obj uint64) int64 {
	switch memory.ObjKind(obj) {
	case memory.KindGlobal, memory.KindLocal:
		return t.c.prog.Vars[memory.VarID(obj)].T.Size
	case memory.KindString:
		t.c.mu.Lock()
		defer t.c.mu.Unlock()
		return int64(len(t.c.strVals[uint32(obj)])) + 1
	case memory.KindHeap:
		if c := t.s.mem.Get(memory.MetaObj(obj), memory.MetaSize); c != nil && c.Val.Obj == 0 && c.Val.Sym == nil {
			return int64(c.Val.Bits)
		}
	}
	return -1
}

// Term returns the value of the scalar integer variable v (a global, or a
// local of the current frame) as a term of the analysis's Builder
// (constants for concrete values), and whether it is known. It is meant
// for tests and explanations; outside symbolic mode it returns false.
func (s *State) Term(v *cfa.Var) (*smt.Term, bool) {
	if s.c.sym == nil || !TermType(v.T) {
		return nil, false
	}
	obj := memory.GlobalObj(v.ID)
	if !v.Global {
		obj = memory.LocalObj(s.depth, v.ID)
	}
	n := s.mem.Get(obj, 0)
	if n == nil || int64(n.Size) != ScalarSize(v.T) || n.Val.Obj != 0 {
		return nil, false
	}
	return s.c.sym.Term(n.Val, smt.TypeWidth(v.T)), true
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
