package smg

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// TestMaterialiseSLL: dereferencing a segment of ≥ 3 blocks yields a
// concrete first block with the segment's data, linked to the rest,
// which keeps ≥ 2; the pointer now designates the concrete block.
func TestMaterialiseSLL(t *testing.T) {
	f := newFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 3, -1, &null, nil, 1)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
	h := *f.state(mem, 1)
	v, ok := h.Deref(ptrTo(s, 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap || v.Bits != 16 {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	got := show(&h)
	want := "{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"
	if got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
	// ≥ 1 block: no in-place materialisation, a split is requested.
	h2 := h
	h2.Mem = h2.Mem.Del(s, MetaMin)
	if _, ok := h2.Deref(ptrTo(s, 0)); ok || h2.Split != s {
		t.Fatalf("segDeref of a 1+ segment: ok %v split %x", ok, h2.Split)
	}
}

// TestSplitSegment: a segment of ≥ 1 block is exactly one block (linked
// to the successor) or one block followed by a segment of ≥ 1.
func TestSplitSegment(t *testing.T) {
	f := newFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 1, -1, &null, nil, 1)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
	cases := (f.state(mem, 1)).SplitSeg(s)
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	want := []string{
		"{head=&heap5#1, heap5#1=0, heap5#1[16]=1}",
		"{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}",
	}
	for i, cs := range cases {
		if got := show(&cs); got != want[i] {
			t.Errorf("case %d\n got %s\nwant %s", i, got, want[i])
		}
	}
}

// TestMaterialiseDLLFromEnd: a pointer to the last block of a doubly
// linked segment materialises that block: it takes the segment's next
// pointer, its prev pointer designates the segment's (new) last block.
func TestMaterialiseDLLFromEnd(t *testing.T) {
	f := newFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 2, 8, &null, &null, 7)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8).Put(f.p, 0, ptrTo(s|memory.LastTag, 0), 8)
	h := *f.state(mem, 1)
	v, ok := h.Deref(ptrTo(s|memory.LastTag, 0))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	got := show(&h)
	want := "{head=&seg5#0, p=&heap5#1, heap5#1=0, heap5#1[8]=&seg5#0.last, heap5#1[16]=7, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.pfo=8, seg5#0.next=&heap5#1, seg5#0.prev=0, seg5#0[16]=7}"
	if got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
}

// TestAbstractChain: a chain of three blocks with equal data becomes a
// segment of ≥ 3 and the heap is renamed canonically; blocks whose data
// differ, or an interior block designated from outside, are not merged,
// and nothing is abstracted or renamed when the state holds objects of a
// kind engine/analysis/smg does not know (memory-safety metadata keyed by block).
func TestAbstractChain(t *testing.T) {
	f := newFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	build := func(data2 uint64, pTo uint64) *Heap {
		var mem *memory.Node
		mem = mem.Put(f.head, 0, ptrTo(b(7), 0), 8)
		mem = mem.Put(b(7), 0, ptrTo(b(8), 0), 8).Put(b(7), 16, memory.Value{Bits: 1}, 4)
		mem = mem.Put(b(8), 0, ptrTo(b(9), 0), 8).Put(b(8), 16, memory.Value{Bits: data2}, 4)
		mem = mem.Put(b(9), 0, memory.Value{}, 8).Put(b(9), 16, memory.Value{Bits: 1}, 4)
		if pTo != 0 {
			mem = mem.Put(f.p, 0, ptrTo(pTo, 0), 8)
		}
		return f.state(mem, 10)
	}
	for _, tc := range []struct {
		name string
		s    *Heap
		want string
	}{
		{"equal data", build(1, 0), "{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
		{"pointer to the last block", build(1, b(9)), "{head=&seg5#0, p=&seg5#0.last, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
		{"different data", build(2, 0), "{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=0, heap5#2[16]=1}"},
		{"interior block designated", build(1, b(8)), "{head=&heap5#0, p=&heap5#1, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=0, heap5#2[16]=1}"},
		{"unknown object kind", func() *Heap {
			s := build(1, 0)
			s.Mem = s.Mem.Put((memory.KindSeg+1)<<memory.KindShift|uint64(site)<<32|7, 0, memory.Value{Bits: 1}, 8)
			return s
		}(), ""},
	} {
		h := *tc.s
		if tc.want == "" {
			before := show(tc.s)
			h.Abstract(MinChain, nil)
			if got := show(&h); got != before {
				t.Errorf("%s: abstraction with metadata of an unknown kind\n got %s\nwant %s", tc.name, got, before)
			}
			continue
		}
		h.Abstract(MinChain, nil)
		if got := show(&h); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
