package smg

import (
	"fmt"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// memBlock puts block b linked to next (0: NULL) with data cell [16]=1
// and its size and status metadata.
func memBlock(mem *memory.Node, b, next uint64, size, st uint64) *memory.Node {
	v := memory.Value{}
	if next != 0 {
		v = ptrTo(next, 0)
	}
	mem = mem.Put(b, 0, v, 8).Put(b, 16, memory.Value{Bits: 1}, 4)
	return mem.Put(memory.MetaObj(b), memory.MetaSize, memory.Value{Bits: size}, 8).Put(memory.MetaObj(b), memory.MetaStatus, memory.Value{Bits: st}, 8)
}

// TestMemAbstractChain: in memory mode a chain of three allocated (or
// three freed) blocks of one size becomes a segment that carries their
// size and status, the blocks' metadata disappearing with them; a block
// of another size or status in the middle keeps the chain apart, and the
// renaming carries each block's metadata along.
func TestMemAbstractChain(t *testing.T) {
	f := newMemFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	build := func(st, size2, st2 uint64) *Heap {
		var mem *memory.Node
		mem = mem.Put(f.head, 0, ptrTo(b(7), 0), 8)
		mem = memBlock(mem, b(7), b(8), 24, st)
		mem = memBlock(mem, b(8), b(9), size2, st2)
		mem = memBlock(mem, b(9), 0, 24, st)
		return f.state(mem, 10)
	}
	seg := func(st uint64) string {
		return fmt.Sprintf("{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1, meta(seg5#0)=24, meta(seg5#0)[8]=%d}", st)
	}
	apart := func(size2, st2 uint64) string {
		return fmt.Sprintf("{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=0, heap5#2[16]=1, "+
			"meta(heap5#0)=24, meta(heap5#0)[8]=1, meta(heap5#1)=%d, meta(heap5#1)[8]=%d, meta(heap5#2)=24, meta(heap5#2)[8]=1}", size2, st2)
	}
	for _, tc := range []struct {
		name           string
		st, size2, st2 uint64
		want           string
	}{
		{"allocated, one size", memory.StHeap, 24, memory.StHeap, seg(memory.StHeap)},
		{"freed, one size", memory.StFreed, 24, memory.StFreed, seg(memory.StFreed)},
		{"two sizes", memory.StHeap, 32, memory.StHeap, apart(32, memory.StHeap)},
		{"allocated and freed", memory.StHeap, 24, memory.StFreed, apart(24, memory.StFreed)},
		{"allocated and failed", memory.StHeap, 24, memory.StFailed, apart(24, memory.StFailed)},
	} {
		h := *build(tc.st, tc.size2, tc.st2)
		h.Abstract(MinChain, nil)
		if got := show(&h); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	// Without memory checking, metadata, which the abstraction then
	// cannot rename, still forbids abstraction (TestAbstractChain).
	s := build(memory.StHeap, 24, memory.StHeap)
	s.Memory = false
	h := *s
	before := show(s)
	if h.Abstract(MinChain, nil); show(&h) != before {
		t.Errorf("metadata abstracted without Heap.Memory: %s", show(&h))
	}
}

// TestMemMaterialise: the block materialised from a segment gets the
// segment's size and status; when it is the segment's only block, the
// segment's metadata goes with the segment.
func TestMemMaterialise(t *testing.T) {
	f := newMemFixture(t)
	null := memory.Value{}
	mk := func(min uint64) (*Heap, uint64) {
		mem, s := f.seg(nil, 0, min, -1, &null, nil, 1)
		mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
		mem = mem.Put(memory.MetaObj(s), memory.MetaSize, memory.Value{Bits: 24}, 8).Put(memory.MetaObj(s), memory.MetaStatus, memory.Value{Bits: memory.StHeap}, 8)
		return f.state(mem, 1), s
	}
	s3, seg := mk(3)
	h := *s3
	if v, ok := h.Deref(ptrTo(seg, 16)); !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	want := "{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1, " +
		"meta(heap5#1)=24, meta(heap5#1)[8]=1, meta(seg5#0)=24, meta(seg5#0)[8]=1}"
	if got := show(&h); got != want {
		t.Errorf("materialised from ≥ 3\n got %s\nwant %s", got, want)
	}
	s1, seg := mk(1)
	cases := (s1).SplitSeg(seg)
	wants := []string{
		"{head=&heap5#1, heap5#1=0, heap5#1[16]=1, meta(heap5#1)=24, meta(heap5#1)[8]=1}",
		"{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1, meta(heap5#1)=24, meta(heap5#1)[8]=1, meta(seg5#0)=24, meta(seg5#0)[8]=1}",
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, cs := range cases {
		if got := show(&cs); got != wants[i] {
			t.Errorf("split case %d\n got %s\nwant %s", i, got, wants[i])
		}
	}
}
