package value

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
)

// havocObject models CBMC's __CPROVER_havoc_object(p) (cfa.HavocObject;
// CBMC's goto-programs, "havoc_object": the whole object p points into
// gets nondeterministic contents, whatever p's offset): every cell of
// p's object is forgotten, so each of its bytes reads as unknown (a
// fresh symbol in symbolic mode). NULL havocs nothing (as the SMT
// encoding and the interpreter); an unknown pointer, or an integer
// address, forgets every addressable object (havocAddressable). A
// string literal keeps its bytes in the analysis's constant table, so
// havocking one is recorded as unsupported (no TRUE).
func (t *tx) havocObject(e *cfa.Edge, call *cfa.Call) {
	if len(call.Args) != 1 {
		t.unsupported(e, cfa.HavocObject+" with a wrong number of arguments")
		return
	}
	t.havocObjectOf(e, call)
}

// havocObjectOf forgets the object call's first argument points into,
// as havocObject describes.
func (t *tx) havocObjectOf(e *cfa.Edge, call *cfa.Call) {
	a, v, ok := t.argAddr(call, 0)
	switch {
	case !ok:
		t.havocAddressable()
	case a.Known && memory.ObjKind(a.Obj) == memory.KindString:
		t.unsupported(e, call.Fn+" of a string literal")
	case a.Known:
		t.clearObj(a.Obj)
	case v.Obj == 0 && v.Sym == nil && v.Bits == 0:
		// NULL: nothing
	case memory.ObjKind(v.Obj) == memory.KindFunc:
		t.unsupported(e, call.Fn+" of a function")
	default:
		t.havocAddressable()
	}
}

// havocSlice models CBMC's __CPROVER_havoc_slice(p, n) (cfa.HavocSlice):
// the cells overlapping the n bytes from p are forgotten (the bytes of a
// cell outside the range survive, clearRange), so those bytes read as
// unknown. When p's object or offset, or n, is not known, it forgets p's
// whole object, or every addressable object, as havocObject does: an
// over-approximation, whose spurious paths the counterexample check
// refutes (the encoding and the interpreter havoc the slice alone).
func (t *tx) havocSlice(e *cfa.Edge, call *cfa.Call) {
	if len(call.Args) != 2 {
		t.unsupported(e, cfa.HavocSlice+" with a wrong number of arguments")
		return
	}
	a, _, ok := t.argAddr(call, 0)
	n, nok := t.eval(call.Args[1])
	if ok && a.Known && a.OffKnown && nok && n.Obj == 0 && n.Sym == nil && memory.ObjKind(a.Obj) != memory.KindString && memory.ObjKind(a.Obj) != memory.KindFunc && n.Bits < 1<<40 {
		t.clearRange(a.Obj, a.Off, int64(n.Bits))
		return
	}
	t.havocObjectOf(e, call)
}
