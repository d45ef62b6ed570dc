package smg

import (
	"strconv"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// alt prints the offset of D1's cell at C offset k as the state prints it.
func alt(k int64) string { return "[" + itoa(AltBase+k) + "]" }

func itoa(x int64) string { return strconv.FormatInt(x, 10) }

// TestAbstractPairs: a chain 1, 2, 1, 2 becomes a segment of ≥ 2 pairs
// with D0 = 1 and D1 = 2 (and a chain 1, 2, 1, 2, 1 the same followed by
// the last block); a chain whose pairs differ, or whose interior block is
// designated from outside, stays concrete; equal data are left to the
// ordinary abstraction (a plain segment).
func TestAbstractPairs(t *testing.T) {
	f := newFixture(t)
	seg := "seg5#0" + ".min=2, seg5#0.nfo=0, seg5#0.hfo=0"
	for _, tc := range []struct {
		name string
		s    *Heap
		want string
	}{
		{"1 2 1 2", f.dataChain([]uint64{1, 2, 1, 2}, 0),
			"{head=&seg5#0, " + seg + ", seg5#0.next=0, seg5#0[" + itoa(PeriodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"},
		{"1 2 1 2 1", f.dataChain([]uint64{1, 2, 1, 2, 1}, 0),
			"{head=&seg5#0, heap5#1=0, heap5#1[16]=1, " + seg + ", seg5#0.next=&heap5#1, seg5#0[" + itoa(PeriodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"},
		{"1 2 1 3", f.dataChain([]uint64{1, 2, 1, 3}, 0),
			"{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=&heap5#3, heap5#2[16]=1, heap5#3=0, heap5#3[16]=3}"},
		{"interior designated", f.dataChain([]uint64{1, 2, 1, 2}, 1),
			"{head=&heap5#0, p=&heap5#1, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=&heap5#3, heap5#2[16]=1, heap5#3=0, heap5#3[16]=2}"},
		{"equal data", f.dataChain([]uint64{1, 1, 1, 1}, 0),
			"{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=1}"},
	} {
		h := *tc.s
		h.Abstract(MinChain, nil)
		if got := show(&h); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestMaterialisePairs: dereferencing a segment of ≥ 2 pairs yields A
// (D0) → B (D1) → the segment, now of ≥ 1 pair; one of ≥ 1 pair splits
// into exactly one pair (B takes the segment's next pointer) and one
// pair followed by a segment of ≥ 1.
func TestMaterialisePairs(t *testing.T) {
	f := newFixture(t)
	h0 := *f.dataChain([]uint64{1, 2, 1, 2}, 0)
	h0.Abstract(MinChain, nil)
	s := h0
	seg := memory.SegObj(site, 0)
	h1 := s
	v, ok := h1.Deref(ptrTo(seg, 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap || v.Bits != 16 {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	want := "{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&seg5#0, heap5#2[16]=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(PeriodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}"
	if got := show(&h1); got != want {
		t.Errorf("after materialisation\n got %s\nwant %s", got, want)
	}
	// Now ≥ 1 pair: a dereference asks for a split.
	h2 := h1
	if _, ok := h2.Deref(ptrTo(seg, 0)); ok || h2.Split != seg {
		t.Fatalf("segDeref of ≥ 1 pair: ok %v split %x", ok, h2.Split)
	}
	cases := (&h1).SplitSeg(seg)
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	wants := []string{
		"{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&heap5#3, heap5#2[16]=2, heap5#3=&heap5#4, heap5#3[16]=1, heap5#4=0, heap5#4[16]=2}",
		"{head=&heap5#1, heap5#1=&heap5#2, heap5#1[16]=1, heap5#2=&heap5#3, heap5#2[16]=2, heap5#3=&heap5#4, heap5#3[16]=1, heap5#4=&seg5#0, heap5#4[16]=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[" + itoa(PeriodOff) + "]=2, seg5#0" + alt(16) + "=2, seg5#0[16]=1}",
	}
	for i, cs := range cases {
		if got := show(&cs); got != wants[i] {
			t.Errorf("case %d\n got %s\nwant %s", i, got, wants[i])
		}
	}
}

// dataChain builds head → b(7) → b(8) → … with data[16] = ds[i] and the
// last block's next NULL; p designates block pTo when not 0.
func (f *fixture) dataChain(ds []uint64, pTo int) *Heap {
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
