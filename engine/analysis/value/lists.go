package value

import (
	"fmt"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
)

// The list abstraction (engine/analysis/smg) on the states of this
// package: a step lends its state's memory and allocation count to a
// Heap and takes them back, with the segment a dereference could not
// materialise without a case split (tx.split).

// memMode reports whether the analysis checks memory safety.
func (t *tx) memMode() bool { return t.c.opts.Memory != nil }

func (t *tx) heap() *smg.Heap {
	return &smg.Heap{Mem: t.s.mem, Allocs: t.s.allocs, Split: t.split, Ptr: t.c.ptr, Memory: t.memMode()}
}

func (t *tx) setHeap(h *smg.Heap) { t.s.mem, t.s.allocs, t.split = h.Mem, h.Allocs, h.Split }

// segDeref is called on a pointer value about to be dereferenced: a
// pointer into a list segment is replaced by one into a materialised
// block (Heap.Deref); ok is false when that needs a case split
// (recorded in t.split) or the segment's shape is unknown.
func (t *tx) segDeref(v memory.Value) (memory.Value, bool) {
	if memory.ObjKind(v.Obj) != memory.KindSeg {
		return v, true
	}
	h := t.heap()
	v, ok := h.Deref(v)
	t.setHeap(h)
	return v, ok
}

// segEndsCompare compares pointers to the first and the last block of
// one list segment in memory mode (Heap.EndsCompare).
func (t *tx) segEndsCompare(op cfa.BinaryOp, x memory.Value) (memory.Value, bool) {
	h := t.heap()
	v, ok := h.EndsCompare(op, x)
	t.setHeap(h)
	return v, ok
}

// abstractLists is the list abstraction of the state at a loop head
// (Heap.Abstract) with the chain length the precision sets there; trees
// of blocks it cannot fold become shape notes (ShapeNotes).
func (t *tx) abstractLists() {
	if t.s.allocs == 0 {
		return
	}
	h := t.heap()
	h.Abstract(t.listThreshold(), func(site int) {
		t.c.noteShape(fmt.Sprintf("heap shape not abstracted: tree of blocks allocated at %s", t.c.siteName(site)))
	})
	t.setHeap(h)
}

// splitSeg returns the two cases of a segment of ≥ 1 block that a step
// dereferenced (Heap.SplitSeg) as states, or nil.
func (c *CPA) splitSeg(s *State, ref uint64) []*State {
	h := smg.Heap{Mem: s.mem, Allocs: s.allocs, Ptr: c.ptr, Memory: c.opts.Memory != nil}
	var out []*State
	for _, hc := range h.SplitSeg(ref) {
		ns := *s
		ns.mem, ns.allocs = hc.Mem, hc.Allocs
		out = append(out, &ns)
	}
	return out
}
