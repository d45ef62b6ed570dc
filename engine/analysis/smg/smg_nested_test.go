package smg

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
)

const innerSite = 6

// nestedHeap builds head → o0 → o1 → o2 → NULL (site 5, next at 0),
// each outer block holding at [16] a pointer to its own inner list
// (site 6, next at 0, data [8]=1): inner[i] ≥ 3 is a segment of ≥
// inner[i] blocks, else that many concrete blocks (1 or 2). share makes every
// outer block point to o0's inner list; back[i] makes oi's inner list
// (two concrete blocks) point back to oi from its last block's [16];
// pInner points p at o1's inner list.
func (f *fixture) nestedHeap(inner [3]uint64, share bool, back [3]bool, pInner bool) *Heap {
	var mem *memory.Node
	n := uint32(0)
	alloc := func(s int) uint64 { n++; return memory.HeapObj(s, n-1) }
	outs := []uint64{alloc(site), alloc(site), alloc(site)}
	mem = mem.Put(f.head, 0, ptrTo(outs[0], 0), 8)
	var first memory.Value
	for i, o := range outs {
		next := memory.Value{}
		if i+1 < len(outs) {
			next = ptrTo(outs[i+1], 0)
		}
		mem = mem.Put(o, 0, next, 8)
		var root memory.Value
		if inner[i] >= 3 {
			s := memory.SegObj(innerSite, n)
			n++
			mem = mem.Put(s, MetaMin, memory.Value{Bits: inner[i]}, 1).Put(s, MetaNfo, memory.Value{}, 8).Put(s, MetaHfo, memory.Value{}, 8).Put(s, MetaNext, memory.Value{}, 8).Put(s, 8, memory.Value{Bits: 1}, 4)
			root = ptrTo(s, 0)
		} else if inner[i] == 1 {
			a := alloc(innerSite)
			mem = mem.Put(a, 0, memory.Value{}, 8).Put(a, 8, memory.Value{Bits: 1}, 4)
			root = ptrTo(a, 0)
		} else {
			a, b := alloc(innerSite), alloc(innerSite)
			mem = mem.Put(a, 0, ptrTo(b, 0), 8).Put(a, 8, memory.Value{Bits: 1}, 4)
			mem = mem.Put(b, 0, memory.Value{}, 8).Put(b, 8, memory.Value{Bits: 1}, 4)
			if back[i] {
				mem = mem.Put(b, 16, ptrTo(o, 0), 8)
			}
			root = ptrTo(a, 0)
		}
		if i == 0 {
			first = root
		}
		if share {
			root = first
		}
		if pInner && i == 1 {
			mem = mem.Put(f.p, 0, root, 8)
		}
		mem = mem.Put(o, 16, root, 8)
	}
	return f.state(mem, n)
}

// TestAbstractNested: outer blocks each owning an isomorphic inner list
// (two concrete blocks or a segment of ≥ 3) fold into one segment whose
// data cell points to a template inner segment (tagged, of ≥ 2: the
// smallest among the members; of ≥ 1 when one member's inner list is a
// single block, read as a segment of exactly one); a shared inner list stays a plain shared
// pointer; an inner list designated from outside is not owned, and the
// outer blocks are not merged; pointers back to the owner become the
// owner mark (seg|ownTag) when every member has one, and prevent the
// merge when only one has.
func TestAbstractNested(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name  string
		inner [3]uint64
		share bool
		back  [3]bool
		pInnr bool
		want  string
	}{
		{"nested", [3]uint64{2, 3, 2}, false, [3]bool{}, false,
			"{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=&seg6#1073741825, seg6#1073741825.min=2, seg6#1073741825.nfo=0, seg6#1073741825.hfo=0, seg6#1073741825.next=0, seg6#1073741825[8]=1}"},
		{"a one-block inner list", [3]uint64{1, 3, 2}, false, [3]bool{}, false,
			"{head=&seg5#0, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=&seg6#1073741825, seg6#1073741825.nfo=0, seg6#1073741825.hfo=0, seg6#1073741825.next=0, seg6#1073741825[8]=1}"},
		{"shared", [3]uint64{2, 2, 2}, true, [3]bool{}, false,
			"{head=&seg5#0, heap6#1=&heap6#2, heap6#1[8]=1, heap6#2=0, heap6#2[8]=1, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=&heap6#1}"},
		{"designated from outside", [3]uint64{2, 2, 2}, false, [3]bool{}, true, ""},
		{"back pointer to the owner in one member", [3]uint64{2, 2, 2}, false, [3]bool{false, true, false}, false, ""},
		{"back pointers to the owners", [3]uint64{2, 2, 2}, false, [3]bool{true, true, true}, false,
			"{head=&seg5#0, heap6#1073741825=&heap6#1073741826, heap6#1073741825[8]=1, heap6#1073741826=0, heap6#1073741826[8]=1, heap6#1073741826[16]=&seg5#536870912, seg5#0.min=3, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=&heap6#1073741825}"},
	} {
		s := f.nestedHeap(tc.inner, tc.share, tc.back, tc.pInnr)
		h := *s
		h.Abstract(MinChain, nil)
		got := show(&h)
		if tc.want == "" {
			if strings.Contains(got, "seg5#") {
				t.Errorf("%s: outer blocks merged: %s", tc.name, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestMaterialiseNested: materialising a block of an outer segment gives
// it a fresh, untagged copy of the inner template (seed 001, 3.9.4 step
// (1)); the segment keeps the template for its other blocks, so a write
// into the copy does not reach them. Materialising the copy's first
// block then works as for any segment.
func TestMaterialiseNested(t *testing.T) {
	f := newFixture(t)
	h := *f.nestedSeg(3, 2)
	v, ok := h.Deref(ptrTo(memory.SegObj(site, 0), 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	want := "{head=&heap5#2, heap5#2=&seg5#0, heap5#2[16]=&seg6#3, seg5#0.min=2, seg5#0.nfo=0, seg5#0.hfo=0, seg5#0.next=0, seg5#0[16]=&seg6#1073741825, " +
		"seg6#3.min=2, seg6#3.nfo=0, seg6#3.hfo=0, seg6#3.next=0, seg6#3[8]=1, " +
		"seg6#1073741825.min=2, seg6#1073741825.nfo=0, seg6#1073741825.hfo=0, seg6#1073741825.next=0, seg6#1073741825[8]=1}"
	if got := show(&h); got != want {
		t.Fatalf("after materialisation\n got %s\nwant %s", got, want)
	}
	// Write into the copy's first block: the template is unchanged.
	w, ok := h.Deref(ptrTo(memory.SegObj(innerSite, 3), 8))
	if !ok || memory.ObjKind(w.Obj) != memory.KindHeap {
		t.Fatalf("inner segDeref = %v, %v", w, ok)
	}
	h.Mem = h.Mem.Put(w.Obj, 8, memory.Value{Bits: 5}, 4)
	if c := h.Mem.Get(memory.SegObj(innerSite, 1)|NestTag, 8); c == nil || c.Val.Bits != 1 {
		t.Errorf("template data after a write into the copy: %v", c)
	}
	// The only-block case of a segment of ≥ 1: the copy, and no segment.
	cases := (f.nestedSeg(1, 2)).SplitSeg(memory.SegObj(site, 0))
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	if got := show(&cases[0]); !strings.HasPrefix(got, "{head=&heap5#2, heap5#2=0, heap5#2[16]=&seg6#3, ") {
		t.Errorf("only block: %s", got)
	}
}

// TestMaterialiseNestedOwner: the owner mark in a template becomes a
// pointer to the materialised block in its copy.
func TestMaterialiseNestedOwner(t *testing.T) {
	f := newFixture(t)
	s := f.nestedHeap([3]uint64{2, 2, 2}, false, [3]bool{true, true, true}, false)
	h := *s
	h.Abstract(MinChain, nil)
	v, ok := h.Deref(ptrTo(memory.SegObj(site, 0), 16))
	if !ok || memory.ObjKind(v.Obj) != memory.KindHeap {
		t.Fatalf("segDeref = %v, %v", v, ok)
	}
	n := v.Obj
	child := h.Mem.Get(n, 16)
	if child == nil || memory.ObjKind(child.Val.Obj) != memory.KindHeap || IsTemplate(child.Val.Obj) {
		t.Fatalf("materialised block's inner pointer: %v in %s", child, show(&h))
	}
	second := h.Mem.Get(child.Val.Obj, 0)
	if second == nil {
		t.Fatalf("copy's next: %s", show(&h))
	}
	if back := h.Mem.Get(second.Val.Obj, 16); back == nil || back.Val != ptrTo(n, 0) {
		t.Errorf("copy's back pointer = %v, want &%s (%s)", back, objName(n), show(&h))
	}
}

// TestDLLCanonicalDirection: a doubly linked chain is abstracted with the
// link at the lower offset as its next field, whichever end the search
// meets first (the blocks in key order run along next, or against it),
// so that equal lists get equal segments.
func TestDLLCanonicalDirection(t *testing.T) {
	f := newFixture(t)
	b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
	for _, rev := range []bool{false, true} {
		var mem *memory.Node
		for i := uint32(0); i < 3; i++ {
			lo, hi := memory.Value{}, memory.Value{}
			if i < 2 {
				hi = ptrTo(b(i+1), 0)
			}
			if i > 0 {
				lo = ptrTo(b(i-1), 0)
			}
			next, prev := hi, lo
			if rev {
				next, prev = lo, hi
			}
			mem = mem.Put(b(i), 0, next, 8).Put(b(i), 8, prev, 8)
		}
		first := b(0)
		if rev {
			first = b(2)
		}
		mem = mem.Put(f.head, 0, ptrTo(first, 0), 8)
		h := *f.state(mem, 3)
		h.Abstract(MinChain, nil)
		got := show(&h)
		if !strings.Contains(got, "seg5#0.nfo=0, ") || !strings.Contains(got, "seg5#0.pfo=8") {
			t.Errorf("reversed key order %v: %s", rev, got)
		}
	}
}

// nestedSeg is head → an outer segment of ≥ outerMin (site 5) whose
// blocks each own an inner segment of ≥ innerMin (site 6, data [8]=1):
// the template, tagged.
func (f *fixture) nestedSeg(outerMin, innerMin uint64) *Heap {
	o, in := memory.SegObj(site, 0), memory.SegObj(innerSite, 1)|NestTag
	var mem *memory.Node
	mem = mem.Put(f.head, 0, ptrTo(o, 0), 8)
	mem = mem.Put(o, MetaMin, memory.Value{Bits: outerMin}, 1).Put(o, MetaNfo, memory.Value{}, 8).Put(o, MetaHfo, memory.Value{}, 8).Put(o, MetaNext, memory.Value{}, 8).Put(o, 16, ptrTo(in, 0), 8)
	if innerMin >= 2 {
		mem = mem.Put(in, MetaMin, memory.Value{Bits: innerMin}, 1)
	}
	mem = mem.Put(in, MetaNfo, memory.Value{}, 8).Put(in, MetaHfo, memory.Value{}, 8).Put(in, MetaNext, memory.Value{}, 8).Put(in, 8, memory.Value{Bits: 1}, 4)
	return f.state(mem, 2)
}

// TestNoteTrees: a block of a site with at least treeMinBlocks blocks
// that links through two fields to two blocks of its site which do not
// link back (a tree) is noted (its site passed to noteTree); a doubly linked list, whose neighbours
// link back through the other field, is not.
func TestNoteTrees(t *testing.T) {
	for _, tree := range []bool{false, true} {
		f := newFixture(t)
		var mem *memory.Node
		b := func(n uint32) uint64 { return memory.HeapObj(site, n) }
		mem = mem.Put(f.head, 0, ptrTo(b(0), 0), 8)
		for i := uint32(0); i < treeMinBlocks; i++ {
			if tree {
				// Heap order: children of i at 2i+1 and 2i+2.
				for k, off := range []int64{0, 8} {
					if c := 2*i + 1 + uint32(k); c < treeMinBlocks {
						mem = mem.Put(b(i), off, ptrTo(b(c), 0), 8)
					} else {
						mem = mem.Put(b(i), off, memory.Value{}, 8)
					}
				}
				continue
			}
			next, prev := memory.Value{}, memory.Value{}
			if i+1 < treeMinBlocks {
				next = ptrTo(b(i+1), 0)
			}
			if i > 0 {
				prev = ptrTo(b(i-1), 0)
			}
			mem = mem.Put(b(i), 0, next, 8).Put(b(i), 8, prev, 8).Put(b(i), 16, memory.Value{Bits: uint64(i)}, 4)
		}
		h := f.state(mem, treeMinBlocks)
		var sites []int
		h.noteTree = func(s int) { sites = append(sites, s) }
		h.noteTrees()
		if tree && (len(sites) != 1 || sites[0] != site) {
			t.Errorf("tree: noted sites %v, want [%d]", sites, site)
		}
		if !tree && len(sites) != 0 {
			t.Errorf("doubly linked list: noted sites %v", sites)
		}
	}
}
