package value

import (
	"strconv"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
)

// The list abstraction of engine/analysis/smg as the value analysis
// uses it (lists.go): entailment and join of states with segments,
// pointer comparisons, heap-field precision over segments, memtrack's
// reachability of segments. The abstraction itself is tested in
// engine/analysis/smg.

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
		mem = mem.Put(s, smg.MetaMin, memory.Value{Bits: min}, 1)
	}
	mem = mem.Put(s, smg.MetaNfo, memory.Value{}, 8).Put(s, smg.MetaHfo, memory.Value{}, 8)
	if pfo >= 0 {
		mem = mem.Put(s, smg.MetaPfo, memory.Value{Bits: uint64(pfo)}, 8)
		if prev != nil {
			mem = mem.Put(s, smg.MetaPrev, *prev, 8)
		}
	}
	if next != nil {
		mem = mem.Put(s, smg.MetaNext, *next, 8)
	}
	return mem.Put(s, 16, memory.Value{Bits: data}, 4), s
}

func (f *smgFixture) state(mem *memory.Node, allocs uint32) *State {
	return &State{c: f.c, mem: mem, allocs: allocs}
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

const innerSite = 6

// nestedSeg is head → an outer segment of ≥ outerMin (site 5) whose
// blocks each own an inner segment of ≥ innerMin (site 6, data [8]=1):
// the template, tagged.
func (f *smgFixture) nestedSeg(outerMin, innerMin uint64) *State {
	o, in := memory.SegObj(site, 0), memory.SegObj(innerSite, 1)|smg.NestTag
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(o, 0), 8)
	mem = mem.Put(o, smg.MetaMin, memory.Value{Bits: outerMin}, 1).Put(o, smg.MetaNfo, memory.Value{}, 8).Put(o, smg.MetaHfo, memory.Value{}, 8).Put(o, smg.MetaNext, memory.Value{}, 8).Put(o, 16, ptrTo(in, 0), 8)
	if innerMin >= 2 {
		mem = mem.Put(in, smg.MetaMin, memory.Value{Bits: innerMin}, 1)
	}
	mem = mem.Put(in, smg.MetaNfo, memory.Value{}, 8).Put(in, smg.MetaHfo, memory.Value{}, 8).Put(in, smg.MetaNext, memory.Value{}, 8).Put(in, 8, memory.Value{Bits: 1}, 4)
	return f.state(mem, 2)
}

// TestNestedEntailmentAndJoin: an outer segment whose template inner
// segment has ≥ 3 blocks is covered by one whose template has ≥ 2, not
// conversely, and their join is the template of ≥ 1 (seed 001, 3.9.3:
// the nested sub-SMG takes part in entailment and join).
func TestNestedEntailmentAndJoin(t *testing.T) {
	f := newSMGFixture(t)
	s3, s2, s1 := f.nestedSeg(2, 3), f.nestedSeg(2, 2), f.nestedSeg(2, 1)
	if !lessOrEqual(s3, s2) || !lessOrEqual(s2, s1) || !lessOrEqual(s3, s1) {
		t.Error("a longer inner template must be covered by a shorter one")
	}
	if lessOrEqual(s2, s3) || lessOrEqual(s1, s2) {
		t.Error("a shorter inner template must not be covered by a longer one")
	}
	j, ok := joinStates(s3, s2)
	if !ok || j.String() != s1.String() {
		t.Errorf("join = %v, want %v", j, s1)
	}
	// An outer segment without its template (the cell dropped) covers
	// the one with it, not conversely.
	bare := f.nestedSeg(2, 2)
	bare.mem = bare.mem.Del(memory.SegObj(site, 0), 16)
	if !lessOrEqual(s2, bare) || lessOrEqual(bare, s2) {
		t.Error("dropping the template's pointer must only lose information")
	}
}

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// dataChain builds head → b(7) → b(8) → … with data[16] = ds[i] and the
// last block's next NULL; p designates block pTo when not 0.
func (f *smgFixture) dataChain(ds []uint64, pTo int) *State {
	b := func(n int) uint64 { return memory.HeapObj(site, uint32(7+n)) }
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(b(0), 0), 8)
	for i, d := range ds {
		next := memory.Value{}
		if i+1 < len(ds) {
			next = ptrTo(b(i+1), 0)
		}
		mem = mem.Put(b(i), 0, next, 8).Put(b(i), 16, memory.Value{Bits: d}, 4)
	}
	if pTo > 0 {
		mem = mem.Put(f.p, 0, ptrTo(b(pTo), 0), 8)
	}
	return f.state(mem, uint32(7+len(ds)))
}

// TestPairFields: a pair segment's D1 cells count as the fields they
// stand for (heap-field precision, smg_refine.go), the segment's shape
// for its next field 0: forgetting field 16 drops D0's and D1's cell and
// keeps the marker.
func TestPairFields(t *testing.T) {
	f := newSMGFixture(t)
	tx0 := tx{c: f.c, s: *f.dataChain([]uint64{1, 2, 1, 2}, 0), full: true}
	tx0.abstractLists()
	fields, other := tx0.s.HeapCells()
	if len(fields) != 2 || fields[0] != 0 || fields[1] != 16 || other {
		t.Errorf("HeapCells = %v, %v, want [0 16], false", fields, other)
	}
	want := "{head=&seg5#0, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(smg.PeriodOff) + "]=2}"
	if got := tx0.s.ForgetHeapField(16).String(); got != want {
		t.Errorf("ForgetHeapField(16)\n got %s\nwant %s", got, want)
	}
}

// TestPairsAgree: a pair segment (1, 2, 1, 2, …) is not covered by an
// ordinary segment whose blocks all hold 1, although it has every cell
// of it, and their join keeps no data of the segment.
func TestPairsAgree(t *testing.T) {
	f := newSMGFixture(t)
	tx0 := tx{c: f.c, s: *f.dataChain([]uint64{1, 2, 1, 2}, 0), full: true}
	tx0.abstractLists()
	pairs := &tx0.s
	tx1 := tx{c: f.c, s: *f.dataChain([]uint64{1, 1, 1, 1}, 0), full: true}
	tx1.abstractLists()
	plain := &tx1.s
	plain.mem = plain.mem.Put(memory.SegObj(site, 0), smg.MetaMin, memory.Value{Bits: 2}, 1)
	if !memory.Covers(pairs.mem, plain.mem) {
		t.Fatalf("fixture: %s should have every cell of %s", pairs, plain)
	}
	if lessOrEqual(pairs, plain) {
		t.Errorf("%s ⊑ %s", pairs, plain)
	}
	j, ok := joinStates(pairs, plain)
	if want := "{head=&seg5#0}"; !ok || j.String() != want {
		t.Errorf("join = %v, want %s", j, want)
	}
}

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
		{"first block", -1, func(s uint64) memory.Value { return ptrTo(s, 0) }, smg.ReachAll},
		{"last block, singly linked", -1, func(s uint64) memory.Value { return ptrTo(s|memory.LastTag, 0) }, smg.ReachMaybe},
		{"last block, doubly linked", 8, func(s uint64) memory.Value { return ptrTo(s|memory.LastTag, 0) }, smg.ReachAll},
		{"none", -1, func(s uint64) memory.Value { return null }, smg.ReachNone},
	} {
		mem, s := f.seg(nil, 0, 2, tc.pfo, &null, &null, 1)
		mem = mem.Put(f.head, 0, tc.to(s), 8)
		mem = mem.Put(memory.MetaObj(s), memory.MetaSize, memory.Value{Bits: 24}, 8).Put(memory.MetaObj(s), memory.MetaStatus, memory.Value{Bits: memory.StHeap}, 8)
		tx := tx{c: f.c, s: *f.state(mem, 1), full: true}
		reached := tx.reachableHeap(func(n *memory.Node) bool { return memory.ObjKind(n.Obj) == memory.KindGlobal })
		if got := smg.SegReached(tx.s.mem, reached, s); got != tc.want {
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
		if violated != (tc.want == smg.ReachNone) || unknown != (tc.want == smg.ReachMaybe) {
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
