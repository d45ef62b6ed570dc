package value

import (
	"github.com/reverify/reverify/engine/analysis/memory"
	"strconv"
	"testing"
)

// alt prints the offset of D1's cell at C offset k as the state prints it.
func alt(k int64) string { return "[" + itoa(altBase+k) + "]" }

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

// TestAbstractPairs: a chain 1, 2, 1, 2 becomes a segment of ≥ 2 pairs
// with D0 = 1 and D1 = 2 (and a chain 1, 2, 1, 2, 1 the same followed by
// the last block); a chain whose pairs differ, or whose interior block is
// designated from outside, stays concrete; equal data are left to the
// ordinary abstraction (a plain segment).
func TestAbstractPairs(t *testing.T) {
	f := newSMGFixture(t)
	seg := "seg5#0" + ".min=2, seg5#0.nfo=0, seg5#0.hfo=0"
	for _, tc := range []struct {
		name string
		s    *State
		want string
	}{
		{"1 2 1 2", f.dataChain([]uint64{1, 2, 1, 2}, 0),
			"{head=&seg5#0, " + seg + ", seg5#0.next=0, seg5#0[" + itoa(periodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"},
		{"1 2 1 2 1", f.dataChain([]uint64{1, 2, 1, 2, 1}, 0),
			"{head=&seg5#0, heap5#1=0, heap5#1[16]=1, " + seg + ", seg5#0.next=&heap5#1, seg5#0[" + itoa(periodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"},
		{"1 2 1 3", f.dataChain([]uint64{1, 2, 1, 3}, 0),
			"{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=&heap5#3, heap5#2[16]=1, heap5#3=0, heap5#3[16]=3}"},
		{"interior designated", f.dataChain([]uint64{1, 2, 1, 2}, 1),
			"{head=&heap5#0, p=&heap5#1, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=&heap5#3, heap5#2[16]=1, heap5#3=0, heap5#3[16]=2}"},
		{"equal data", f.dataChain([]uint64{1, 1, 1, 1}, 0),
			"{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
	} {
		tx := tx{c: f.c, s: *tc.s, full: true}
		tx.abstractLists()
		if got := tx.s.String(); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestMaterialisePairs: dereferencing a segment of ≥ 2 pairs yields A
// (D0) → B (D1) → the segment, now of ≥ 1 pair; one of ≥ 1 pair splits
// into exactly one pair (B takes the segment's next pointer) and one
// pair followed by a segment of ≥ 1.
func TestMaterialisePairs(t *testing.T) {
	f := newSMGFixture(t)
	tx0 := tx{c: f.c, s: *f.dataChain([]uint64{1, 2, 1, 2}, 0), full: true}
	tx0.abstractLists()
	s := tx0.s
	seg := memory.SegObj(site, 0)
	tx1 := tx{c: f.c, s: s, full: true}
	v, ok := tx1.segDeref(ptrTo(seg, 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap || v.Bits != 16 {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	want := "{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&seg5#0, heap5#2[16]=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(periodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"
	if got := tx1.s.String(); got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
	// Now ≥ 1 pair: a dereference asks for a split.
	tx2 := tx{c: f.c, s: tx1.s, full: true}
	if _, ok := tx2.segDeref(ptrTo(seg, 0)); ok || tx2.split != seg {
		t.Fatalf("segDeref of ≥ 1 pair: ok %v split %x", ok, tx2.split)
	}
	cases := f.c.splitSeg(&tx1.s, seg)
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	wants := []string{
		"{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&heap5#3, heap5#2[16]=2, heap5#3=&heap5#4, heap5#3[16]=1, heap5#4=0, heap5#4[16]=2}",
		"{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&heap5#3, heap5#2[16]=2, heap5#3=&heap5#4, heap5#3[16]=1, heap5#4=&seg5#0, heap5#4[16]=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(periodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}",
	}
	for i, cs := range cases {
		if got := cs.String(); got != wants[i] {
			t.Errorf("case %d\n got %s\nwant %s", i, got, wants[i])
		}
	}
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
	want := "{head=&seg5#0, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(periodOff) + "]=2}"
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
	plain.mem = plain.mem.Put(memory.SegObj(site, 0), metaMin, memory.Value{Bits: 2}, 1)
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
