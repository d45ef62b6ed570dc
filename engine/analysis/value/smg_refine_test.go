package value

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
)

// TestListLadder: shape refinement climbs from the default threshold to
// chains of 6, of 12, then no abstraction, and stops there; a precision
// holding a rung at a location reports the highest one it holds.
func TestListLadder(t *testing.T) {
	var got []string
	cur := 0
	p := NewScopedPrecision()
	for i := 0; i < 10; i++ {
		name, ok := smg.NextListThreshold(cur)
		if !ok {
			break
		}
		got = append(got, name)
		p = p.With(Entry{Name: name, Loc: -1})
		next := p.ListThreshold(nil)
		if next <= cur {
			t.Fatalf("rung %s: threshold %d after %d, no progress", name, next, cur)
		}
		cur = next
	}
	if want := "<lists>6 <lists>12 <lists>off"; strings.Join(got, " ") != want {
		t.Errorf("ladder %q, want %q", strings.Join(got, " "), want)
	}
	if cur != smg.NoAbstraction {
		t.Errorf("top threshold %d, want off", cur)
	}
	if NewScopedPrecision().ListThreshold(nil) != 0 || (FullValues{}).ListThreshold(nil) != 0 || (FullValues{NoLists: true}).ListThreshold(nil) != smg.NoAbstraction {
		t.Error("default thresholds")
	}
}

// TestHeapFieldPrecision: where only the link field (offset 0) of heap
// blocks is tracked, the precision adjustment forgets the data cells
// (offset 16), so a chain of blocks whose data differ merges into a
// segment without data; tracking the data field too keeps them apart.
func TestHeapFieldPrecision(t *testing.T) {
	f := newSMGFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(b(7), 0), 8)
	mem = mem.Put(b(7), 0, ptrTo(b(8), 0), 8).Put(b(7), 16, memory.Value{Bits: 1}, 4)
	mem = mem.Put(b(8), 0, ptrTo(b(9), 0), 8).Put(b(8), 16, memory.Value{Bits: 2}, 4)
	mem = mem.Put(b(9), 0, memory.Value{}, 8).Put(b(9), 16, memory.Value{Bits: 1}, 4)
	s := f.state(mem, 10)
	vars := []Entry{{Name: "head", Loc: -1}, {Name: "p", Loc: -1}}
	for _, tc := range []struct {
		name string
		prec *ScopedPrecision
		want string
	}{
		{"links only", NewScopedPrecision(append(vars, Entry{Name: HeapFieldName(0), Loc: -1})...),
			"{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0}"},
		{"links and data", NewScopedPrecision(append(vars, Entry{Name: HeapFieldName(0), Loc: -1}, Entry{Name: HeapFieldName(16), Loc: -1})...),
			"{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=0, heap5#2[16]=1}"},
		{"whole heap", NewScopedPrecision(append(vars, Entry{Name: HeapName, Loc: -1})...),
			"{head=&heap5#0, heap5#0=&heap5#1, heap5#0[16]=1, heap5#1=&heap5#2, heap5#1[16]=2, heap5#2=0, heap5#2[16]=1}"},
		{"no heap", NewScopedPrecision(vars...), "{head=&heap5#0}"},
	} {
		tx := tx{c: f.c, s: *s, prec: tc.prec}
		tx.abstract()
		tx.abstractLists()
		if got := tx.s.String(); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	fields, other := s.HeapCells()
	if len(fields) != 2 || fields[0] != 0 || fields[1] != 16 || other {
		t.Errorf("HeapCells = %v, %v", fields, other)
	}
	if got := s.ForgetHeapField(16).String(); got != "{head=&heap5#7, heap5#7=&heap5#8, heap5#8=&heap5#9, heap5#9=0}" {
		t.Errorf("ForgetHeapField(16) = %s", got)
	}
}

// TestPrecisionNamesRoundTrip: heap-field and shape entries survive the
// text form.
func TestPrecisionNamesRoundTrip(t *testing.T) {
	texts := []string{"<heap>+8@main", "<lists>off@main:+2:[i < 5]", "<lists>6"}
	p, err := ParseScopedPrecision(texts)
	if err != nil {
		t.Fatal(err)
	}
	if p.TracksHeapField(nil, 8) || p.TracksHeapField(nil, 4) {
		t.Error("a field of main tracked outside main")
	}
	if p.ListThreshold(nil) != 6 {
		t.Errorf("threshold %d, want 6 (everywhere)", p.ListThreshold(nil))
	}
	for _, e := range []Entry{{Name: "<heap>+8", Func: "main", Loc: -1}, {Name: "<lists>off", Func: "main", Loc: -1, At: "+2:[i < 5]"}} {
		if !p.Contains(e) {
			t.Errorf("%v lost", e)
		}
	}
}

// TestHeapCellsSegmentLinks: a segment's shape metadata stands for the
// link fields of the blocks it abstracts, so an interpolant holding only
// a doubly-linked segment's shape (its prev pointer, no data cell)
// reports the next and prev fields; without them the value refiner found
// no field to add and stopped with "no progress" (lists_nested.c:42).
func TestHeapCellsSegmentLinks(t *testing.T) {
	f := newSMGFixture(t)
	seg := memory.SegObj(site, 3)
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(seg, 0), 8)
	mem = mem.Put(seg, smg.MetaMin, memory.Value{Bits: 2}, 8).Put(seg, smg.MetaNfo, memory.Value{Bits: 0}, 8).Put(seg, smg.MetaHfo, memory.Value{Bits: 0}, 8)
	mem = mem.Put(seg, smg.MetaPfo, memory.Value{Bits: 8}, 8).Put(seg, smg.MetaPrev, memory.Value{}, 8)
	s := f.state(mem, 4)
	fields, other := s.HeapCells()
	if len(fields) != 2 || fields[0] != 0 || fields[1] != 8 || other {
		t.Errorf("HeapCells = %v, %v, want [0 8], false", fields, other)
	}
	// A singly-linked segment with a data cell: its next field and the
	// data field.
	mem = nil
	mem = mem.Put(f.head, 0, ptrTo(seg, 0), 8)
	mem = mem.Put(seg, smg.MetaNfo, memory.Value{Bits: 8}, 8).Put(seg, smg.MetaHfo, memory.Value{Bits: 0}, 8).Put(seg, 16, memory.Value{Bits: 1}, 4)
	fields, _ = f.state(mem, 4).HeapCells()
	if len(fields) != 2 || fields[0] != 8 || fields[1] != 16 {
		t.Errorf("HeapCells = %v, want [8 16]", fields)
	}
}
