package symval

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/results"
)

// Symbolic block sizes and offsets in memory mode (value.Options.Memory
// in symbolic mode: the symbolic execution of engine/analysis/symbolic
// over the value analysis's memory model, seed 001, section 3.9: objects
// of symbolic size).
//
// A malloc, alloca or realloc-free block whose size argument is a term
// stores the term (zero-extended to 64 bits) in its size cell. An access
// whose bound the state does not decide — a concrete offset into a block
// of symbolic size, or a symbolic array index (value.SymIndex) into an object
// of known size — is split by the bounds condition B (the accessed bytes
// lie in [0, size)): the step's successor assumes B, and a second
// successor, the state before the step assuming ¬B, carries the
// violation. The symbolic execution CPA drops whichever its path
// constraints make infeasible, so a site is proved when ¬B is infeasible
// on every path, and a feasible ¬B is a target that the engine confirms
// by SMT and concrete replay like any other (FALSE only then).

// symSize returns the size argument of the allocation call as a 64-bit
// term when it is symbolic, else nil.
func (sv *Symbolic) symSize(t value.Tx, call *cfa.Call) *smt.Term {
	if len(call.Args) == 0 {
		return nil
	}
	switch call.Fn {
	case "malloc", "alloca", "__builtin_alloca":
	default:
		return nil
	}
	v, ok := t.Eval(call.Args[0])
	if !ok || v.Sym == nil || v.Obj != 0 || v.Sym.Sort.Width == 0 || v.Sym.Sort.Width > 64 {
		return nil
	}
	return sv.b.ZeroExt(v.Sym, 64)
}

// sizeTerm returns the size of heap block obj as a term when its size
// cell holds one.
func (sv *Symbolic) sizeTerm(t value.Tx, obj uint64) *smt.Term {
	if memory.ObjKind(obj) != memory.KindHeap {
		return nil
	}
	c := t.Get(memory.MetaObj(obj), memory.MetaSize)
	if c == nil || c.Val.Obj != 0 || c.Val.Sym == nil || c.Val.Sym.Sort.Width != 64 {
		return nil
	}
	return c.Val.Sym
}

// symBounds splits the access of n bytes at a (object size size, -1 if
// not a constant) by its bounds condition (see above) and reports
// whether it could: no other second successor of this step, and an
// offset and size each constant or a term.
func (sv *Symbolic) symBounds(t value.Tx, e *cfa.Edge, what string, a value.Addr, n int64, size int64) bool {
	b := sv.b
	if t.Forked() || n <= 0 {
		return false
	}
	var sizeT *smt.Term
	if size >= 0 {
		sizeT = b.BV(uint64(size), 64)
	} else if sizeT = sv.sizeTerm(t, a.Obj); sizeT == nil {
		return false
	}
	var in *smt.Term
	switch {
	case a.Index != nil:
		// bytes [off + k·scale, off + k·scale + n) with k the index term;
		// k is bounded first so that the products cannot wrap.
		if a.Index.Scale <= 0 || a.Off < -1<<40 || a.Off > 1<<40 || a.Index.Scale > 1<<20 {
			return false
		}
		k := a.Index.Idx
		lim := int64(1) << 40
		start := b.Add(b.BV(uint64(a.Off), 64), b.Mul(k, b.BV(uint64(a.Index.Scale), 64)))
		// The index also stays inside its array (k ∈ [0, a.Index.N)): the
		// if-then-else writes of symbolic mode update that array's
		// elements only, so an index past the array but inside the
		// object goes to the violating successor, whose replay finds no
		// violation (UNKNOWN, never a TRUE over a lost write).
		in = b.And(b.Sle(b.BV(uint64(-lim), 64), k), b.Sle(k, b.BV(uint64(lim), 64)),
			b.Sle(b.BV(0, 64), start), b.Ule(b.Add(start, b.BV(uint64(n), 64)), sizeT),
			b.Sle(b.BV(0, 64), k), b.Slt(k, b.BV(uint64(a.Index.N), 64)))
	case a.Off < 0 || a.Off > 1<<40:
		return false // a definite violation or no sensible bound: not split
	default:
		in = b.Ule(b.BV(uint64(a.Off+n), 64), sizeT)
	}
	sv.splitOn(t, e, in, t.OfObject(results.MemoryViolation{Problem: results.OutOfBounds, Access: what, Bytes: n}, a.Obj), "out-of-bounds access of %d bytes by %s (%s of symbolic size or offset)", n, what, t.ObjName(a.Obj))
	return true
}

// splitOn splits the step by the bounds condition in (see above): the
// step's successor assumes in, a second successor (the state before the
// step) assumes ¬in and carries the valid-deref violation described by
// format and args (value.Tx.Split). The caller has checked that the step
// is not forked yet.
func (sv *Symbolic) splitOn(t value.Tx, e *cfa.Edge, in *smt.Term, f results.MemoryViolation, format string, args ...any) {
	b := sv.b
	if in == b.True() {
		return
	}
	out := b.Not(in)
	if in == b.False() {
		// certainly out of bounds: the step itself is the violation
		t.Split(e, nil, nil, f, format, args...)
		return
	}
	t.Split(e, in, out, f, format, args...)
}

// inBounds is the condition that the n bytes (a 64-bit term) at the
// offset off (a pointer-width term, read as signed) lie in an object of
// size bytes (a 64-bit term): 0 ≤ off ∧ off ≤ size ∧ n ≤ size − off,
// compared so that nothing wraps. An access of no bytes is in bounds.
func (sv *Symbolic) inBounds(off, n, size *smt.Term) *smt.Term {
	b := sv.b
	o := off
	if w := o.Sort.Width; w < 64 {
		o = b.SignExt(o, 64)
	}
	zero := b.BV(0, 64)
	return b.Or(b.Eq(n, zero), b.And(b.Sle(zero, o), b.Ule(o, size), b.Ule(n, b.Sub(size, o))))
}

// objSizeTerm returns the size of obj as a 64-bit term (constant or a
// heap block's symbolic size) and whether the object is valid; an
// invalid object, or one whose size is not known, has been reported
// (nil term).
func (sv *Symbolic) objSizeTerm(t value.Tx, e *cfa.Edge, obj uint64, what string) *smt.Term {
	size, valid := t.CheckedSize(e, obj, what)
	if !valid {
		return nil
	}
	if size >= 0 {
		return sv.b.BV(uint64(size), 64)
	}
	if st := sv.sizeTerm(t, obj); st != nil {
		return st
	}
	t.Undecided(e, "the size of %s is unknown (%s)", t.ObjName(obj), what)
	return nil
}

// checkSymOff checks an access of n bytes at an address with a symbolic
// offset (offsets.go) by splitting on its bounds condition.
func (sv *Symbolic) checkSymOff(t value.Tx, e *cfa.Edge, what string, a value.Addr, n int64) {
	off, ok := sv.addrOffTerm(a)
	if !ok || t.Forked() || n <= 0 {
		t.Undecided(e, "unknown offset in %s", what)
		return
	}
	size := sv.objSizeTerm(t, e, a.Obj, what)
	if size == nil {
		return
	}
	sv.splitOn(t, e, sv.inBounds(off, sv.b.BV(uint64(n), 64), size), t.OfObject(results.MemoryViolation{Problem: results.OutOfBounds, Access: what, Bytes: n}, a.Obj),
		"out-of-bounds access of %d bytes by %s (%s at a symbolic offset)", n, what, t.ObjName(a.Obj))
}

// symRangeAccess checks the ranges of memset, memcpy, memmove and memcmp
// (the arguments ptrs, length argument 2) when the length or an offset
// is symbolic: one split by the conjunction of the bounds conditions of
// every range. It reports false when it did not apply (the concrete
// checks of the value analysis then run): a second successor already
// taken, no symbolic part, or a pointer that is not a known
// object (null, unknown, an integer address).
func (sv *Symbolic) symRangeAccess(t value.Tx, e *cfa.Edge, call *cfa.Call, ptrs ...int) bool {
	b := sv.b
	if t.Forked() || len(call.Args) != 3 {
		return false
	}
	nv, ok := t.Eval(call.Args[2])
	nt := call.Args[2].Type()
	if !ok || nv.Obj != 0 || !value.TermType(nt) {
		return false
	}
	symbolic := nv.Sym != nil
	n := b.BV(uint64(value.IntOf(nv, nt)), 64)
	if nv.Sym != nil {
		switch w := nv.Sym.Sort.Width; {
		case w > 64:
			return false
		case w == 64:
			n = nv.Sym
		case nt.IsSigned():
			n = b.SignExt(nv.Sym, 64)
		default:
			n = b.ZeroExt(nv.Sym, 64)
		}
	}
	type rng struct {
		v    memory.Value
		what string
	}
	var rs []rng
	for _, i := range ptrs {
		v, ok := t.Eval(call.Args[i])
		if !ok || v.Obj == 0 || !memory.SymOffsetObj(v.Obj) || (v.Sym != nil && v.Sym.Sort.Width != sv.ptr) {
			return false
		}
		symbolic = symbolic || v.Sym != nil
		rs = append(rs, rng{v, call.Args[i].String()})
	}
	if !symbolic {
		return false
	}
	in := b.True()
	for _, r := range rs {
		size := sv.objSizeTerm(t, e, r.v.Obj, r.what)
		if size == nil {
			return true // reported
		}
		in = b.And(in, sv.inBounds(sv.offTerm(r.v), n, size))
	}
	sv.splitOn(t, e, in, results.MemoryViolation{Problem: results.OutOfBounds, Func: call.Fn}, "out-of-bounds access by %s (a symbolic length or offset)", call.Fn)
	return true
}
