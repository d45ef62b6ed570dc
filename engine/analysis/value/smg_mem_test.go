package value

import (
	"fmt"

	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// newMemFixture is newSMGFixture with memory-safety checking on
// (Options.Memory), so that heap blocks carry metadata.
func newMemFixture(t *testing.T) *smgFixture {
	t.Helper()
	f := newSMGFixture(t)
	f.c = New(f.c.prog, Options{Memory: &MemChecks{Deref: true, Free: true, Memtrack: true, Memcleanup: true, Entry: "main"}})
	return f
}

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
	build := func(st, size2, st2 uint64) *State {
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
		tx := tx{c: f.c, s: *build(tc.st, tc.size2, tc.st2), full: true}
		tx.abstractLists()
		if got := tx.s.String(); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	// Without memory checking, metadata of a kind smg.go cannot rename
	// still forbids abstraction (TestAbstractChain).
	plain := newSMGFixture(t)
	s := build(memory.StHeap, 24, memory.StHeap)
	s.c = plain.c
	tx := tx{c: plain.c, s: *s, full: true}
	before := s.String()
	if tx.abstractLists(); tx.s.String() != before {
		t.Errorf("metadata abstracted without Options.Memory: %s", tx.s.String())
	}
}

// TestMemMaterialise: the block materialised from a segment gets the
// segment's size and status; when it is the segment's only block, the
// segment's metadata goes with the segment.
func TestMemMaterialise(t *testing.T) {
	f := newMemFixture(t)
	null := memory.Value{}
	mk := func(min uint64) (*State, uint64) {
		mem, s := f.seg(nil, 0, min, -1, &null, nil, 1)
		mem = mem.Put(f.head, 0, ptrTo(s, 0), 8)
		mem = mem.Put(memory.MetaObj(s), memory.MetaSize, memory.Value{Bits: 24}, 8).Put(memory.MetaObj(s), memory.MetaStatus, memory.Value{Bits: memory.StHeap}, 8)
		return f.state(mem, 1), s
	}
	s3, seg := mk(3)
	tx := tx{c: f.c, s: *s3, full: true}
	if v, ok := tx.segDeref(ptrTo(seg, 16)); !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	want := "{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1, " +
		"meta(heap5#1)=24, meta(heap5#1)[8]=1, meta(seg5#0)=24, meta(seg5#0)[8]=1}"
	if got := tx.s.String(); got != want {
		t.Errorf("materialised from ≥ 3\n got %s\nwant %s", got, want)
	}
	s1, seg := mk(1)
	cases := f.c.splitSeg(s1, seg)
	wants := []string{
		"{head=&heap5#1, heap5#1=0, heap5#1[16]=1, meta(heap5#1)=24, meta(heap5#1)[8]=1}",
		"{head=&heap5#1, heap5#1=&seg5#0, heap5#1[16]=1, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1, meta(heap5#1)=24, meta(heap5#1)[8]=1, meta(seg5#0)=24, meta(seg5#0)[8]=1}",
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	for i, cs := range cases {
		if got := cs.String(); got != wants[i] {
			t.Errorf("split case %d\n got %s\nwant %s", i, got, wants[i])
		}
	}
}

// TestMemCanonicalGarbage: the canonical renaming renames metadata with
// its block; a block no variable reaches keeps its metadata (not its
// cells) while allocated or of unknown status, so that memcleanup sees
// the leak, and loses it when freed.
func TestMemCanonicalGarbage(t *testing.T) {
	f := newMemFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(b(4), 0), 8)
	mem = memBlock(mem, b(4), 0, 8, memory.StHeap)
	mem = memBlock(mem, b(2), 0, 16, memory.StHeap)  // leaked
	mem = memBlock(mem, b(3), 0, 32, memory.StFreed) // freed garbage
	mem = mem.Put(b(6), 0, memory.Value{}, 8).Put(memory.MetaObj(b(6)), memory.MetaSize, memory.Value{Bits: 4}, 8)
	tx := tx{c: f.c, s: *f.state(mem, 7), full: true}
	tx.abstractLists()
	want := "{head=&heap5#0, heap5#0=0, heap5#0[16]=1, meta(heap5#0)=8, meta(heap5#0)[8]=1, meta(heap5#1)=16, meta(heap5#1)[8]=1, meta(heap5#2)=4}"
	if got := tx.s.String(); got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if live := tx.liveBlocks(); len(live) != 2 {
		t.Errorf("live blocks after renaming: %v, want 2", live)
	}
}

// TestMemSegReached: memtrack's reachability of a segment: whole through
// its first block; through its last block only whole when doubly linked,
// else undecided (the segment may hold one block or lose the others);
// not at all when nothing designates it (a certain leak).
func TestMemSegReached(t *testing.T) {
	f := newMemFixture(t)
	null := memory.Value{}
	for _, tc := range []struct {
		name string
		pfo  int64
		to   func(seg uint64) memory.Value
		want int
	}{
		{"first block", -1, func(s uint64) memory.Value { return ptrTo(s, 0) }, reachAll},
		{"last block, singly linked", -1, func(s uint64) memory.Value { return ptrTo(s|memory.LastTag, 0) }, reachMaybe},
		{"last block, doubly linked", 8, func(s uint64) memory.Value { return ptrTo(s|memory.LastTag, 0) }, reachAll},
		{"none", -1, func(s uint64) memory.Value { return null }, reachNone},
	} {
		mem, s := f.seg(nil, 0, 2, tc.pfo, &null, &null, 1)
		mem = mem.Put(f.head, 0, tc.to(s), 8)
		mem = mem.Put(memory.MetaObj(s), memory.MetaSize, memory.Value{Bits: 24}, 8).Put(memory.MetaObj(s), memory.MetaStatus, memory.Value{Bits: memory.StHeap}, 8)
		tx := tx{c: f.c, s: *f.state(mem, 1), full: true}
		reached := tx.reachableHeap(func(n *memory.Node) bool { return memory.ObjKind(n.Obj) == memory.KindGlobal })
		if got := tx.segReached(reached, s); got != tc.want {
			t.Errorf("%s: segReached = %d, want %d", tc.name, got, tc.want)
		}
		if live := tx.liveBlocks(); len(live) != 1 || live[0] != s {
			t.Errorf("%s: liveBlocks = %x, want the segment", tc.name, live)
		}
		tx.track(anEdge(t, f), false)
		_, _, violated := tx.s.MemoryViolation()
		unknown := false
		for _, r := range tx.s.Explain() {
			unknown = unknown || r.Kind == cpa.MemUndecided
		}
		if violated != (tc.want == reachNone) || unknown != (tc.want == reachMaybe) {
			t.Errorf("%s: track: violated %v, unknown %v: %s", tc.name, violated, unknown, tx.s.String())
		}
	}
}

// anEdge is some edge of the fixture's program (the site of a check).
func anEdge(t *testing.T, f *smgFixture) *cfa.Edge {
	for _, fn := range f.c.prog.Funcs {
		for _, l := range fn.Locs {
			if len(l.Out) > 0 {
				return l.Out[0]
			}
		}
	}
	t.Fatal("no edge")
	return nil
}
