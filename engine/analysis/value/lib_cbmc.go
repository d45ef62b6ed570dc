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
	a, v, ok := t.argAddr(call, 0)
	switch {
	case !ok:
		t.havocAddressable()
	case a.known && memory.ObjKind(a.obj) == memory.KindString:
		t.unsupported(e, cfa.HavocObject+" of a string literal")
	case a.known:
		t.clearObj(a.obj)
	case v.Obj == 0 && v.Sym == nil && v.Bits == 0:
		// NULL: nothing
	case memory.ObjKind(v.Obj) == memory.KindFunc:
		t.unsupported(e, cfa.HavocObject+" of a function")
	default:
		t.havocAddressable()
	}
}
