package value

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// ForgetIntegers returns s without every cell that holds an integer
// (concrete or symbolic) instead of an address, in every frame and in
// every object (variables, heap blocks), and with the count of symbols
// created on the path set to syms. Cells holding addresses, the frames,
// the allocations and the reasons stay. Absent cells mean "any value",
// so ⟦s⟧ ⊆ ⟦ForgetIntegers(s)⟧: predicate abstraction
// (engine/analysis/predicate) uses it to havoc the integer memory at a
// block boundary before it assumes the abstraction's predicates. Any
// syms is safe for the result itself, which holds no symbol; a caller
// that keeps older symbols elsewhere (path constraints) passes s.Syms()
// so that fresh symbols stay unique on the path.
func (s *State) ForgetIntegers(syms int) *State {
	mem := s.mem.Filter(func(n *memory.Node) bool { return n.Val.Obj != 0 && n.Val.Sym == nil })
	if mem == s.mem && s.syms == uint32(syms) {
		return s
	}
	ns := *s
	ns.mem, ns.syms = mem, uint32(syms)
	return &ns
}

// Materialize returns the value of the scalar integer variable v (a
// global, or a local of the current frame) as a term of v's width in
// symbolic mode, together with the state in which an unknown value has
// become a fresh symbol (stored, so later reads agree). ok is false
// outside symbolic mode, for variables that are not integers of at most
// 64 bits, for volatile variables (every read is a fresh input), and
// for cells holding an address.
func (s *State) Materialize(v *cfa.Var) (ns *State, t *smt.Term, ok bool) {
	if s.c.sym == nil || !TermType(v.T) || v.Volatile {
		return s, nil, false
	}
	obj := memory.GlobalObj(v.ID)
	if !v.Global {
		obj = memory.LocalObj(s.depth, v.ID)
	}
	tx := tx{c: s.c, s: *s, full: true}
	val, known := tx.load(Addr{Obj: obj, Known: true, OffKnown: true}, v.T)
	if !known || val.Obj != 0 {
		return s, nil, false
	}
	ns = &tx.s
	return ns, s.c.sym.Term(val, smt.TypeWidth(v.T)), true
}
