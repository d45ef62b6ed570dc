package smg

import (
	"math"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
)

// List abstraction in memory-safety mode (Heap.Memory; seed 001,
// sections 3.9–3.11 and chapter 4: the objects of an SMG carry their
// size and validity, and a segment abstracts only valid objects of one
// size).
//
// A heap block's size and status live in its metadata object
// (memory.MetaObj), a list segment's in the segment's own
// metadata object: the size and status that every block of the segment
// has. The abstraction follows the metadata:
//
//   - chain merges only blocks and segments of one status, allocated
//     (stHeap) or freed (stFreed: dangling pointers, for instance a dead
//     local's, keep freed lists reachable), and of one size (the same
//     known size or the same size term), and compares data cells exactly (no nested
//     sub-structures, no pair segments: their templates would carry no
//     metadata); mergeChain gives the segment that size and status and
//     drops the members' metadata (memMerge);
//   - materialise gives the fresh block a copy of the segment's metadata
//     (memMaterialise), and drops the segment's when it disappears;
//   - canonicalHeap renames a metadata object with its block; the block of
//     a metadata object no variable reaches keeps its metadata (under a
//     fresh name, without its cells) while its status is allocated or
//     unknown, so that memcleanup still sees a leaked block, and loses it
//     otherwise (a freed or failed block nothing designates);
//   - memtrack's reachability (the value analysis's reachableHeap) walks
//     segments: a segment reached through a pointer to its first block is
//     reached whole (every block is linked from the one before), one
//     reached only through its last block whole when doubly linked
//     (SegReached).
//
// A state whose heap holds a pointer with a symbolic offset is not
// abstracted in memory mode: the renaming keeps only pointers with known
// offsets, and a dropped pointer would look like a leak.

// Reachability of a block or segment for memtrack (SegReached).
const (
	ReachNone  = iota // no block reached
	ReachMaybe        // a segment's last block only: the others may be lost
	ReachAll          // every block reached
)

// SegReached tells how much of the heap block or segment b the blocks
// reachableHeap found reach: a block is reached or not; a segment whole
// when a pointer to its first block reaches it, or to its last block and
// the segment is doubly linked (each block's prev pointer designates the
// block before), partly (ReachMaybe: it may be a single block) when only
// its last block of a singly linked segment is reached, not at all when
// neither end is.
func SegReached(mem *memory.Node, reached map[uint64]bool, b uint64) int {
	if memory.ObjKind(b) != memory.KindSeg {
		if reached[b] {
			return ReachAll
		}
		return ReachNone
	}
	b = memory.SegBase(b)
	switch {
	case reached[b]:
		return ReachAll
	case reached[b|memory.LastTag]:
		if mem.Get(b, MetaPfo) != nil {
			return ReachAll
		}
		return ReachMaybe
	}
	return ReachNone
}

// memKey is the metadata a chain member must share with the others to
// be merged (memory mode): its status, known to be allocated (stHeap) or
// freed (stFreed: a chain of freed blocks that dangling pointers still
// reach, each access to which is a violation), and its size, known (a
// constant or a term).
type memKey struct {
	size memory.Value
	st   uint64
}

func (h *Heap) memKey(obj uint64) (memKey, bool) {
	st, ok := h.Mem.MetaGet(obj, memory.MetaStatus)
	if !ok || st != memory.StHeap && st != memory.StFreed {
		return memKey{}, false
	}
	n := h.Mem.Get(memory.MetaObj(obj), memory.MetaSize)
	if n == nil || n.Val.Obj != 0 || n.Size != 8 {
		return memKey{}, false
	}
	return memKey{n.Val, st}, true
}

// memMerge gives the segment seg the size and status of the chain ch
// (memKey of its first member, shared by all) and drops the members'
// metadata.
func (h *Heap) memMerge(ch []uint64, seg uint64) {
	key, ok := h.memKey(ch[0])
	for _, m := range ch {
		h.clearObj(memory.MetaObj(m))
	}
	if !ok {
		return // chain admits no such member in memory mode
	}
	h.Mem = h.Mem.Put(memory.MetaObj(seg), memory.MetaSize, key.size, 8)
	h.Mem = h.Mem.MetaPut(seg, memory.MetaStatus, key.st)
}

// memMaterialise copies the metadata of seg to the fresh block n; with
// only (seg disappears) it drops seg's.
func (h *Heap) memMaterialise(seg, n uint64, only bool) {
	m := memory.MetaObj(seg)
	var cells []*memory.Node
	h.Mem.Ascend(m, math.MinInt64, m+1, math.MinInt64, func(c *memory.Node) bool {
		cells = append(cells, c)
		return true
	})
	for _, c := range cells {
		h.Mem = h.Mem.Put(memory.MetaObj(n), c.Off, c.Val, c.Size)
	}
	if only {
		h.clearObj(m)
	}
}

// symbolicHeapPointer reports whether some cell holds a pointer to a heap
// block or segment with a symbolic offset (memory mode does not abstract
// such states).
func (h *Heap) symbolicHeapPointer() bool {
	found := false
	h.Mem.Each(func(n *memory.Node) bool {
		if n.Val.Sym != nil && memory.IsHeapish(n.Val.Obj) {
			found = true
			return false
		}
		return true
	})
	return found
}

// keptGarbage returns, in memory mode, the blocks and segments that
// canonicalHeap's walk did not name (names) but whose metadata must stay:
// status allocated or unknown (a leak memcleanup must see). Dead locals
// (deadSite) are named by the walk when reached, and lose their metadata
// otherwise.
func (h *Heap) keptGarbage(names map[uint64]uint64) []uint64 {
	if !h.Memory {
		return nil
	}
	var out []uint64
	seen := map[uint64]bool{}
	h.Mem.Each(func(n *memory.Node) bool {
		if memory.ObjKind(n.Obj) != memory.KindMeta {
			return true
		}
		b := memory.HeapOfMeta(n.Obj)
		if _, ok := names[b]; ok || seen[b] || memory.ObjSite(b) == memory.DeadSite {
			return true
		}
		seen[b] = true
		if st, ok := h.Mem.MetaGet(b, memory.MetaStatus); !ok || st == memory.StHeap {
			out = append(out, b)
		}
		return true
	})
	return out
}

// EndsCompare compares pointers to the first and the last block of
// one list segment (x designates one of them; memory mode): distinct
// blocks when the segment has at least 2, so == is false and != true
// (other comparisons unknown); with at least 1 block the step is split
// (Heap.Split: exactly one block, where both designate it, or one block
// before a segment, where they differ) and the value is unknown here.
// Without this, a branch that assumes the ends equal would keep a
// segment of ≥ 2 blocks, and memtrack would find its blocks lost.
func (h *Heap) EndsCompare(op cfa.BinaryOp, x memory.Value) (memory.Value, bool) {
	seg := memory.SegBase(x.Obj)
	sh := h.segShapeOf(seg)
	if !sh.ok {
		return memory.Value{}, false
	}
	if sh.min < 2 {
		if h.Split == 0 {
			h.Split = seg
		}
		return memory.Value{}, false
	}
	switch op {
	case cfa.Eq:
		return memory.Value{}, true
	case cfa.Ne:
		return memory.Value{Bits: 1}, true
	}
	return memory.Value{}, false
}
