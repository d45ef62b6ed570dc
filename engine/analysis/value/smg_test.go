package value

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

// smgFixture is a CPA of a program with pointer variables head, p and a
// state builder over it.
type smgFixture struct {
	c       *CPA
	head, p uint64
}

func newSMGFixture(t *testing.T) *smgFixture {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: `
struct node { struct node *next; struct node *prev; int data; };
struct node *head, *p;
int main(void) { return head == p; }
`}})
	if err != nil {
		t.Fatal(err)
	}
	f := &smgFixture{c: New(prog, Options{})}
	for _, v := range prog.Vars {
		if v != nil && v.Global && v.Name == "head" {
			f.head = memory.GlobalObj(v.ID)
		}
		if v != nil && v.Global && v.Name == "p" {
			f.p = memory.GlobalObj(v.ID)
		}
	}
	if f.head == 0 || f.p == 0 || f.c.ptr != 64 {
		t.Fatalf("fixture: head %x p %x ptr %d", f.head, f.p, f.c.ptr)
	}
	return f
}

const site = 5

func ptrTo(o uint64, off int64) memory.Value { return memory.Value{Obj: o, Bits: uint64(off)} }

// seg puts a segment of minimum length min (1: no cell) with next field
// 0, prev field pfo (-1: singly linked), data cell [16]=data.
func (f *smgFixture) seg(mem *memory.Node, n uint32, min uint64, pfo int64, next, prev *memory.Value, data uint64) (*memory.Node, uint64) {
	s := memory.SegObj(site, n)
	if min >= 2 {
		mem = mem.Put(s, metaMin, memory.Value{Bits: min}, 1)
	}
	mem = mem.Put(s, metaNfo, memory.Value{}, 8).Put(s, metaHfo, memory.Value{}, 8)
	if pfo >= 0 {
		mem = mem.Put(s, metaPfo, memory.Value{Bits: uint64(pfo)}, 8)
		if prev != nil {
			mem = mem.Put(s, metaPrev, *prev, 8)
		}
	}
	if next != nil {
		mem = mem.Put(s, metaNext, *next, 8)
	}
	return mem.Put(s, 16, memory.Value{Bits: data}, 4), s
}

func (f *smgFixture) state(mem *memory.Node, allocs uint32) *State {
	return &State{c: f.c, mem: mem, allocs: allocs}
}

// TestMaterialiseSLL: dereferencing a segment of ≥ 3 blocks yields a
// concrete first block with the segment's data, linked to the rest,
// which keeps ≥ 2; the pointer now designates the concrete block.
func TestMaterialiseSLL(t *testing.T) {
	f := newSMGFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 3, -1, &null, nil, 1)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
	tx := tx{c: f.c, s: *f.state(mem, 1), full: true}
	v, ok := tx.segDeref(ptrTo(s, 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap || v.Bits != 16 {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	got := tx.s.String()
	want := "{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"
	if got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
	// ≥ 1 block: no in-place materialisation, a split is requested.
	tx2 := tx
	tx2.s.mem = tx2.s.mem.Del(s, metaMin)
	if _, ok := tx2.segDeref(ptrTo(s, 0)); ok || tx2.split != s {
		t.Fatalf("segDeref of a 1+ segment: ok %v split %x", ok, tx2.split)
	}
}

// TestSplitSegment: a segment of ≥ 1 block is exactly one block (linked
// to the successor) or one block followed by a segment of ≥ 1.
func TestSplitSegment(t *testing.T) {
	f := newSMGFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 1, -1, &null, nil, 1)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
	cases := f.c.splitSeg(f.state(mem, 1), s)
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	want := []string{
		"{head=&heap5#1, heap5#1=0, heap5#1[16]=1}",
		"{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}",
	}
	for i, cs := range cases {
		if got := cs.String(); got != want[i] {
			t.Errorf("case %d\n got %s\nwant %s", i, got, want[i])
		}
	}
}

// TestMaterialiseDLLFromEnd: a pointer to the last block of a doubly
// linked segment materialises that block: it takes the segment's next
// pointer, its prev pointer designates the segment's (new) last block.
func TestMaterialiseDLLFromEnd(t *testing.T) {
	f := newSMGFixture(t)
	null := memory.Value{}
	mem, s := f.seg(nil, 0, 2, 8, &null, &null, 7)
	mem = mem.Put(f.head, 0, ptrTo(s, 0), 8).Put(f.p, 0, ptrTo(s|memory.LastTag, 0), 8)
	tx := tx{c: f.c, s: *f.state(mem, 1), full: true}
	v, ok := tx.segDeref(ptrTo(s|memory.LastTag, 0))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	got := tx.s.String()
	want := "{head=&seg5#0, p=&heap5#1, heap5#1=0, heap5#1[8]=&seg5#0.last, heap5#1[16]=7, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.pfo=8, seg5#0.next=&heap5#1, seg5#0.prev=0, seg5#0[16]=7}"
	if got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
}

// TestAbstractChain: a chain of three blocks with equal data becomes a
// segment of ≥ 3 and the heap is renamed canonically; blocks whose data
// differ, or an interior block designated from outside, are not merged,
// and nothing is abstracted or renamed when the state holds objects of a
// kind smg.go does not know (memory-safety metadata keyed by block).
func TestAbstractChain(t *testing.T) {
	f := newSMGFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	build := func(data2 uint64, pTo uint64) *State {
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
		s    *State
		want string
	}{
		{"equal data", build(1, 0), "{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
		{"pointer to the last block", build(1, b(9)), "{head=&seg5#0, p=&seg5#0.last, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
		{"different data", build(2, 0), "{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=0, heap5#2[16]=1}"},
		{"interior block designated", build(1, b(8)), "{head=&heap5#0, p=&heap5#1, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=0, heap5#2[16]=1}"},
		{"unknown object kind", func() *State {
			s := build(1, 0)
			s.mem = s.mem.Put((memory.KindSeg+1)<<memory.KindShift|uint64(site)<<32|7, 0, memory.Value{Bits: 1}, 8)
			return s
		}(), ""},
	} {
		tx := tx{c: f.c, s: *tc.s, full: true}
		if tc.want == "" {
			before := tc.s.String()
			tx.abstractLists()
			if got := tx.s.String(); got != before {
				t.Errorf("%s: abstraction with metadata of an unknown kind\n got %s\nwant %s", tc.name, got, before)
			}
			continue
		}
		tx.abstractLists()
		if got := tx.s.String(); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestSegmentEntailmentAndJoin: a segment of ≥ 3 blocks is covered by
// one of ≥ 2 or ≥ 1 (no min cell) but not conversely, and the join of
// ≥ 3 and ≥ 2 is ≥ 1 (the cells they agree on).
func TestSegmentEntailmentAndJoin(t *testing.T) {
	f := newSMGFixture(t)
	null := memory.Value{}
	mk := func(min uint64) *State {
		mem, s := f.seg(nil, 0, min, -1, &null, nil, 1)
		return f.state(mem.Put(f.head, 0, ptrTo(s, 0), 8), 1)
	}
	s3, s2, s1 := mk(3), mk(2), mk(1)
	if !lessOrEqual(s3, s1) || !lessOrEqual(s2, s1) {
		t.Error("a longer segment must be covered by a segment of ≥ 1")
	}
	if lessOrEqual(s1, s3) || lessOrEqual(s2, s3) || lessOrEqual(s1, s2) {
		t.Error("a shorter segment must not be covered by a longer one")
	}
	if !lessOrEqual(s3, s2) {
		t.Error("a segment of ≥ 3 must be covered by one of ≥ 2 (coversSegs)")
	}
	j, ok := joinStates(s3, s2)
	if !ok || j.String() != s1.String() {
		t.Errorf("join = %v, want %v", j, s1)
	}
}

// TestSegmentEndsMayAlias: the first and the last block of a segment of
// ≥ 1 may be one block, so comparing pointers to them is unknown.
func TestSegmentEndsMayAlias(t *testing.T) {
	s := memory.SegObj(site, 0)
	if _, ok := symbolicBinary(cfa.Eq, ptrTo(s, 0), ptrTo(s|memory.LastTag, 0), 64); ok {
		t.Error("&seg == &seg.last must be unknown")
	}
	if v, ok := symbolicBinary(cfa.Eq, ptrTo(s, 0), ptrTo(memory.HeapObj(site, 1), 0), 64); !ok || v.Bits != 0 {
		t.Error("a segment and another block are distinct")
	}
}
