package value

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Symbolic block sizes and offsets in memory mode (Options.Memory with
// Options.Symbolic: the symbolic execution of engine/analysis/symbolic
// over this memory model, seed 001, section 3.9: objects of symbolic
// size).
//
// A malloc, alloca or realloc-free block whose size argument is a term
// stores the term (zero-extended to 64 bits) in its size cell. An access
// whose bound the state does not decide — a concrete offset into a block
// of symbolic size, or a symbolic array index (symIndex) into an object
// of known size — is split by the bounds condition B (the accessed bytes
// lie in [0, size)): the step's successor assumes B, and a second
// successor, the state before the step assuming ¬B, carries the
// violation. The symbolic execution CPA drops whichever its path
// constraints make infeasible, so a site is proved when ¬B is infeasible
// on every path, and a feasible ¬B is a target that the engine confirms
// by SMT and concrete replay like any other (FALSE only then).

// symSize returns the size argument of the allocation call as a 64-bit
// term when it is symbolic (symbolic mode), else nil.
func (t *tx) symSize(call *cfa.Call) *smt.Term {
	if t.c.b == nil || len(call.Args) == 0 {
		return nil
	}
	switch call.Fn {
	case "malloc", "alloca", "__builtin_alloca":
	default:
		return nil
	}
	v, ok := t.eval(call.Args[0])
	if !ok || v.Sym == nil || v.Obj != 0 || v.Sym.Sort.Width == 0 || v.Sym.Sort.Width > 64 {
		return nil
	}
	return t.c.b.ZeroExt(v.Sym, 64)
}

// sizeTerm returns the size of heap block obj as a term when its size
// cell holds one.
func (t *tx) sizeTerm(obj uint64) *smt.Term {
	if objKind(obj) != kindHeap {
		return nil
	}
	c := t.s.mem.get(metaObj(obj), metaSize)
	if c == nil || c.val.Obj != 0 || c.val.Sym == nil || c.val.Sym.Sort.Width != 64 {
		return nil
	}
	return c.val.Sym
}

// symBounds splits the access of n bytes at a (object size size, -1 if
// not a constant) by its bounds condition (see above) and reports
// whether it could: symbolic mode, no other second successor of this
// step, and an offset and size each constant or a term.
func (t *tx) symBounds(e *cfa.Edge, what string, a addr, n int64, size int64) bool {
	b := t.c.b
	if b == nil || t.alt != nil || n <= 0 {
		return false
	}
	var sizeT *smt.Term
	if size >= 0 {
		sizeT = b.BV(uint64(size), 64)
	} else if sizeT = t.sizeTerm(a.obj); sizeT == nil {
		return false
	}
	var in *smt.Term
	switch {
	case a.sym != nil:
		// bytes [off + k·scale, off + k·scale + n) with k the index term;
		// k is bounded first so that the products cannot wrap.
		if a.sym.scale <= 0 || a.off < -1<<40 || a.off > 1<<40 || a.sym.scale > 1<<20 {
			return false
		}
		k := a.sym.idx
		lim := int64(1) << 40
		start := b.Add(b.BV(uint64(a.off), 64), b.Mul(k, b.BV(uint64(a.sym.scale), 64)))
		// The index also stays inside its array (k ∈ [0, a.sym.n)): the
		// if-then-else writes of symbolic mode update that array's
		// elements only, so an index past the array but inside the
		// object goes to the violating successor, whose replay finds no
		// violation (UNKNOWN, never a TRUE over a lost write).
		in = b.And(b.Sle(b.BV(uint64(-lim), 64), k), b.Sle(k, b.BV(uint64(lim), 64)),
			b.Sle(b.BV(0, 64), start), b.Ule(b.Add(start, b.BV(uint64(n), 64)), sizeT),
			b.Sle(b.BV(0, 64), k), b.Slt(k, b.BV(uint64(a.sym.n), 64)))
	case a.off < 0 || a.off > 1<<40:
		return false // a definite violation or no sensible bound: not split
	default:
		in = b.Ule(b.BV(uint64(a.off+n), 64), sizeT)
	}
	if in == b.True() {
		return true
	}
	alt := *t
	alt.s.reasons = t.s.reasons
	altAssumed := append(append([]*smt.Term(nil), t.assumed...), b.Not(in))
	if in != b.False() {
		t.assumed = append(t.assumed, in)
	}
	objName := t.c.objName(a.obj, t.s.depth)
	alt.violation(ValidDeref, e, "out-of-bounds access of %d bytes by %s (%s of symbolic size or offset)", n, what, objName)
	st := alt.s
	if in == b.False() {
		// certainly out of bounds: the step itself is the violation
		t.s = st
		return true
	}
	t.alt = &st
	t.altAssumed = altAssumed
	return true
}
