package smg

import (
	"math"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// Nested list segments: segments whose blocks each own a sub-structure
// (seed 001_7a124141fc78263e.txt, section 3.9.3 step (7) and 3.9.4 step
// (1): the sub-SMG nested below a segment and its nesting level; chapter
// 4; Dudka, Peringer, Vojnar, SAS 2013, section 4, "nested lists").
//
// A chain of blocks whose data cells agree except for pointers to
// sub-structures each block owns (a list of lists: every block of the
// outer list points to its own inner list) is abstracted into one
// segment when those sub-structures are isomorphic: same allocation
// sites, kinds, offsets and sizes of cells, equal scalar cells, equal
// pointers to objects outside them (NULL, globals, shared blocks), and
// inner segments with equal link offsets (their minimum lengths may
// differ: the template takes the smallest, so it covers every member; a
// concrete block matches a segment as a segment of exactly one block).
// A sub-structure is owned by block m through its cell at offset off when
// every pointer into its objects comes from that cell or from the
// sub-structure itself, and no object of it has the outer chain's
// allocation site or points into an object of that site other than m
// itself. Pointers back to m (a child's parent pointer) become the owner
// mark seg|ownTag in the template, and point to the materialised block in
// each copy; a pointer to another block of the outer chain would be one
// pointer shared by every copy, which the template cannot say, so such
// chains are not merged.
//
// The first member's sub-structure becomes the segment's template: its
// objects are renamed with NestTag set in their allocation number (nesting
// level 1); the other members' sub-structures are deleted (each was owned
// by one member and described by the template). A data cell of a segment
// that points to a template object stands for a pointer, in every block
// of the segment, to that block's own copy of the template. Only one
// nesting level is represented: a sub-structure that itself holds
// template objects (a list of lists of lists) is not folded.
//
// Materialisation (unfoldNested, called by materialise) copies the
// template into fresh objects without the tag for the concrete block and
// points its cells to the copy; the segment keeps the template for the
// blocks it still stands for. Join and entailment need nothing more:
// canonicalHeap keeps the tag, so isomorphic heaps have equal cells, and
// CoversSegs compares the minimum lengths of inner segments by ≥ as for
// outer ones.
//
// Inner lists are abstracted first (abstractInner): a chain of at least
// two blocks hanging from a data cell of a heap block that is linked to a
// block of its own site (a block of a possible outer chain) becomes a
// segment, so that an inner list of two concrete blocks and one of ≥ 3
// have the same shape (segments of ≥ 2 and ≥ 3).

// NestTag marks template objects (nesting level 1) in the allocation-
// number bits of a heap object or segment (allocation numbers stay below
// 2³⁰; lastTag is bit 31).
const NestTag uint64 = 1 << 30

// ownTag marks, in a template object's cell, a pointer to the block that
// owns the copy (Value{Obj: seg|ownTag}: the block of seg that the copy
// belongs to), as a child's parent pointer; allocation numbers stay below
// 2²⁹.
const ownTag uint64 = 1 << 29

// maxNested bounds the objects of one sub-structure that abstraction
// compares.
const maxNested = 64

// IsTemplate reports whether o is a template object (NestTag).
func IsTemplate(o uint64) bool { return memory.IsHeapish(o) && o&NestTag != 0 }

// isOwnerRef reports whether v, in a sub-structure owned by m, points to
// its owner: to the concrete block m itself, or, in a template of the
// segment m, the owner mark m|ownTag.
func isOwnerRef(v memory.Value, m uint64) bool {
	if v.Sym != nil {
		return false
	}
	if memory.ObjKind(m) == memory.KindSeg {
		return v.Obj == m|ownTag
	}
	return v.Obj == m
}

// fromOwnSub reports whether the link l to block m comes from a
// sub-structure m owns (a child's pointer to its parent).
func (g *heapGraph) fromOwnSub(m uint64, l link) bool {
	if !memory.IsHeapish(l.from) || memory.ObjSite(l.from) == memory.ObjSite(m) {
		return false
	}
	for _, c := range g.cells[m] {
		if !memory.IsHeapish(c.Val.Obj) || c.Val.Sym != nil || memory.ObjSite(c.Val.Obj) == memory.ObjSite(m) || IsMeta(c.Off) {
			continue
		}
		if sub, ok := g.ownedSub(m, c); ok {
			for _, o := range sub {
				if o == l.from {
					return true
				}
			}
		}
	}
	return false
}

// reach returns the heap objects (segment IDs untagged by lastTag)
// reachable from o through pointer cells but pointers to owner (see
// isOwnerRef), o first, in depth-first order over cells in key order; ok
// is false beyond maxNested objects.
func (g *heapGraph) reach(o, owner uint64) ([]uint64, bool) {
	seen := map[uint64]bool{}
	var out []uint64
	var visit func(o uint64) bool
	visit = func(o uint64) bool {
		o = memory.SegBase(o)
		if seen[o] {
			return true
		}
		if len(out) == maxNested {
			return false
		}
		seen[o] = true
		out = append(out, o)
		for _, c := range g.cells[o] {
			if memory.IsHeapish(c.Val.Obj) && c.Val.Sym == nil && !isOwnerRef(c.Val, owner) && !visit(c.Val.Obj) {
				return false
			}
		}
		return true
	}
	return out, visit(o)
}

// ownedSub returns the sub-structure that block m owns through its cell
// c (see the file comment), or ok false.
func (g *heapGraph) ownedSub(m uint64, c *memory.Node) ([]uint64, bool) {
	v := c.Val
	if !memory.IsHeapish(v.Obj) || v.Sym != nil {
		return nil, false
	}
	sub, ok := g.reach(v.Obj, m)
	if !ok {
		return nil, false
	}
	in := map[uint64]bool{}
	for _, o := range sub {
		in[o] = true
	}
	tmpl := IsTemplate(m) || memory.ObjKind(m) == memory.KindSeg
	for _, o := range sub {
		// A segment's data cells point to template objects; a concrete
		// block's to untagged ones (one nesting level).
		if memory.ObjSite(o) == memory.ObjSite(m) || IsTemplate(o) != tmpl {
			return nil, false
		}
		for _, ref := range []uint64{o, o | memory.LastTag} {
			if ref != o && memory.ObjKind(o) != memory.KindSeg {
				continue
			}
			for _, l := range g.in[ref] {
				if !in[l.from] && !(l.from == m && l.off == c.Off) {
					return nil, false
				}
			}
		}
		for _, x := range g.cells[o] {
			if memory.IsHeapish(x.Val.Obj) && x.Val.Sym == nil && memory.ObjSite(x.Val.Obj) == memory.ObjSite(m) && !isOwnerRef(x.Val, m) {
				return nil, false
			}
		}
	}
	return sub, true
}

// nestIso is an isomorphism under construction between two owned
// sub-structures a and b; mins collects, per object of a, the smallest
// minimum length of the segments it is matched with.
type nestIso struct {
	g    *heapGraph
	inA  map[uint64]bool
	inB  map[uint64]bool
	fwd  map[uint64]uint64
	rev  map[uint64]uint64
	mins map[uint64]int
	// conv collects the concrete blocks of a matched with a segment of
	// b (a block is a segment of exactly one): their link offsets.
	conv map[uint64]linkShape
	// ownA and ownB are the owners of a and b.
	ownA, ownB uint64
}

// linkShape are the link offsets of a segment (pfo -1: singly linked).
type linkShape struct{ nfo, hfo, pfo int64 }

func newNestIso(g *heapGraph, ownA, ownB uint64, a, b []uint64, mins map[uint64]int, conv map[uint64]linkShape) *nestIso {
	n := &nestIso{g: g, inA: map[uint64]bool{}, inB: map[uint64]bool{}, fwd: map[uint64]uint64{}, rev: map[uint64]uint64{}, mins: mins, conv: conv, ownA: ownA, ownB: ownB}
	for _, o := range a {
		n.inA[o] = true
	}
	for _, o := range b {
		n.inB[o] = true
	}
	return n
}

func (n *nestIso) val(x, y memory.Value) bool {
	if x.Sym != nil || y.Sym != nil || !memory.IsHeapish(x.Obj) || !memory.IsHeapish(y.Obj) {
		return x == y
	}
	if ox, oy := isOwnerRef(x, n.ownA), isOwnerRef(y, n.ownB); ox || oy {
		return ox && oy && x.Bits == y.Bits
	}
	ax, by := n.inA[memory.SegBase(x.Obj)], n.inB[memory.SegBase(y.Obj)]
	if !ax && !by {
		return x == y // a shared target
	}
	if ax != by || x.Bits != y.Bits || memory.IsLast(x.Obj) != memory.IsLast(y.Obj) {
		return false
	}
	return n.obj(memory.SegBase(x.Obj), memory.SegBase(y.Obj))
}

// shapeCells are an object's cells but its minimum length.
func shapeCells(cs []*memory.Node) []*memory.Node {
	out := make([]*memory.Node, 0, len(cs))
	for _, c := range cs {
		if c.Off != MetaMin {
			out = append(out, c)
		}
	}
	return out
}

func (n *nestIso) obj(x, y uint64) bool {
	if m, ok := n.fwd[x]; ok {
		return m == y
	}
	if _, ok := n.rev[y]; ok {
		return false
	}
	if memory.ObjSite(x) != memory.ObjSite(y) {
		return false
	}
	n.fwd[x], n.rev[y] = y, x
	cx, cy := shapeCells(n.g.cells[x]), shapeCells(n.g.cells[y])
	if kx, ky := memory.ObjKind(x), memory.ObjKind(y); kx != ky {
		// A concrete block and a segment: the block as a segment of
		// exactly one block with the segment's link offsets.
		var ok bool
		var sh linkShape
		if kx == memory.KindHeap {
			cx, sh, ok = n.g.asSegCells(x, y)
		} else {
			cy, sh, ok = n.g.asSegCells(y, x)
		}
		if !ok {
			return false
		}
		if n.mins != nil {
			n.mins[x] = 1
		}
		if kx == memory.KindHeap && n.conv != nil {
			n.conv[x] = sh
		}
	}
	if len(cx) != len(cy) {
		return false
	}
	for i := range cx {
		if cx[i].Off != cy[i].Off || cx[i].Size != cy[i].Size || !n.val(cx[i].Val, cy[i].Val) {
			return false
		}
	}
	if memory.ObjKind(x) == memory.KindSeg && memory.ObjKind(y) == memory.KindSeg && n.mins != nil {
		m := min(n.g.segMin(x), n.g.segMin(y))
		if old, ok := n.mins[x]; !ok || m < old {
			n.mins[x] = m
		}
	}
	return true
}

// nestedPair reports whether the cells ca of block a and cb of block b
// point to isomorphic sub-structures that a and b own; mins (may be nil)
// collects the minimum lengths of a's segments as for nestIso.
func (g *heapGraph) nestedPair(a uint64, ca *memory.Node, b uint64, cb *memory.Node, mins map[uint64]int, conv map[uint64]linkShape) bool {
	if ca.Val.Bits != cb.Val.Bits || memory.IsLast(ca.Val.Obj) != memory.IsLast(cb.Val.Obj) {
		return false
	}
	sa, ok := g.ownedSub(a, ca)
	if !ok {
		return false
	}
	sb, ok := g.ownedSub(b, cb)
	if !ok {
		return false
	}
	return newNestIso(g, a, b, sa, sb, mins, conv).obj(memory.SegBase(ca.Val.Obj), memory.SegBase(cb.Val.Obj))
}

// sameDataNested is sameData up to owned isomorphic sub-structures: the
// data cells x of chain member a and y of b are equal, or differ only in
// pointers to sub-structures that a and b own and that are isomorphic.
func (g *heapGraph) sameDataNested(a, b uint64, x, y []*memory.Node) bool {
	if sameData(x, y) {
		return true
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Off != y[i].Off || x[i].Size != y[i].Size {
			return false
		}
		if x[i].Val == y[i].Val {
			continue
		}
		if !g.nestedPair(a, x[i], b, y[i], nil, nil) {
			return false
		}
	}
	return true
}

// foldNested completes mergeChain for the data cells that point to owned
// sub-structures: the first member's sub-structure becomes the template
// of seg (tagged, inner minimum lengths lowered to the smallest among the
// members), the other members' sub-structures are deleted. g is the heap
// graph from before the merge. A cell whose sub-structures turn out not
// to be isomorphic (chain checked them, so this is a safeguard) is
// dropped from seg: its value is then unknown.
func (h *Heap) foldNested(g *heapGraph, ch []uint64, seg uint64, nfo, pfo int64) {
	first := ch[0]
	d0 := g.data(first, nfo, pfo)
	for i, c := range d0 {
		if !memory.IsHeapish(c.Val.Obj) || c.Val.Sym != nil {
			continue
		}
		var others []*memory.Node
		shared := true
		for _, m := range ch[1:] {
			dm := g.data(m, nfo, pfo)
			if i >= len(dm) || dm[i].Off != c.Off {
				shared = false
				others = nil
				break
			}
			others = append(others, dm[i])
			if dm[i].Val != c.Val {
				shared = false
			}
		}
		if shared {
			continue
		}
		sub0, ok := g.ownedSub(first, c)
		mins, conv := map[uint64]int{}, map[uint64]linkShape{}
		for j, dm := range others {
			if !ok {
				break
			}
			ok = g.nestedPair(first, c, ch[j+1], dm, mins, conv)
		}
		if !ok || len(others) != len(ch)-1 {
			h.Mem = h.Mem.Del(seg, c.Off)
			continue
		}
		keep := map[uint64]bool{}
		for _, o := range sub0 {
			keep[o] = true
		}
		for j, dm := range others {
			sub, _ := g.ownedSub(ch[j+1], dm)
			for _, o := range sub {
				if !keep[o] {
					h.clearObj(o)
				}
			}
		}
		for _, o := range sub0 {
			to := o
			if !IsTemplate(o) {
				to = o | NestTag
				h.moveObj(o, to)
			}
			h.ownerRefs(to, first, seg)
			if m, ok := mins[o]; ok && memory.ObjKind(o) == memory.KindSeg {
				if m >= 2 {
					h.Mem = h.Mem.Put(to, MetaMin, memory.Value{Bits: uint64(m)}, 1)
				} else {
					h.Mem = h.Mem.Del(to, MetaMin)
				}
			}
		}
		for _, o := range sub0 {
			if sh, ok := conv[o]; ok {
				h.blockToSeg(o|NestTag, sh)
			}
		}
	}
}

// ownerRefs rewrites the template object o's pointers to its owner,
// first (redirected to seg by mergeChain when first was a concrete
// block, first|ownTag when it was a segment), to the owner mark of seg.
func (h *Heap) ownerRefs(o, first, seg uint64) {
	var cells []*memory.Node
	h.Mem.Ascend(o, math.MinInt64, o+1, math.MinInt64, func(x *memory.Node) bool {
		if x.Val.Sym == nil && (x.Val.Obj == seg || x.Val.Obj == first|ownTag) {
			cells = append(cells, x)
		}
		return true
	})
	for _, x := range cells {
		v := x.Val
		v.Obj = seg | ownTag
		h.Mem = h.Mem.Put(o, x.Off, v, x.Size)
	}
}

// asSegCells returns the cells of the concrete block x read as a
// segment of exactly one block with the link offsets of segment s (seed
// 001, section 3.9.3: a region and a 1+ segment of equal shape): s's
// offset cells, x's next (and prev) pointers as the segment's next (and
// prev) cells, x's other cells, in key order; ok is false when s's
// offsets are unknown or x lacks a link cell.
func (g *heapGraph) asSegCells(x, s uint64) ([]*memory.Node, linkShape, bool) {
	get := func(off int64) (*memory.Node, bool) {
		c := g.cell(s, off)
		return c, c != nil && c.Val.Obj == 0 && c.Val.Sym == nil
	}
	nf, ok1 := get(MetaNfo)
	hf, ok2 := get(MetaHfo)
	if !ok1 || !ok2 {
		return nil, linkShape{}, false
	}
	sh := linkShape{int64(nf.Val.Bits), int64(hf.Val.Bits), -1}
	pf, ok3 := get(MetaPfo)
	if ok3 {
		sh.pfo = int64(pf.Val.Bits)
	}
	pb := int64(g.h.ptrBytes())
	next := g.cell(x, sh.nfo)
	if next == nil || int64(next.Size) != pb {
		return nil, sh, false
	}
	out := []*memory.Node{nf, hf}
	if ok3 {
		out = append(out, pf)
	}
	out = append(out, &memory.Node{Obj: s, Off: MetaNext, Val: next.Val, Size: next.Size})
	if sh.pfo >= 0 {
		prev := g.cell(x, sh.pfo)
		if prev == nil || int64(prev.Size) != pb {
			return nil, sh, false
		}
		out = append(out, &memory.Node{Obj: s, Off: MetaPrev, Val: prev.Val, Size: prev.Size})
	}
	for _, c := range g.data(x, sh.nfo, sh.pfo) {
		if overlaps(c.Off, int64(c.Size), sh.nfo, pb) || sh.pfo >= 0 && overlaps(c.Off, int64(c.Size), sh.pfo, pb) {
			return nil, sh, false
		}
		out = append(out, c)
	}
	return out, sh, true
}

// blockToSeg turns the template block o into a template segment of ≥ 1
// block with link offsets sh: its next and prev cells become the
// segment's, pointers to o point to the segment's first block.
func (h *Heap) blockToSeg(o uint64, sh linkShape) {
	var cells []*memory.Node
	h.Mem.Ascend(o, math.MinInt64, o+1, math.MinInt64, func(n *memory.Node) bool {
		cells = append(cells, n)
		return true
	})
	seg := memory.SegObj(memory.ObjSite(o), h.Allocs) | NestTag
	h.Allocs++
	h.clearObj(o)
	pb := int64(h.ptrBytes())
	h.Mem = h.Mem.Put(seg, MetaNfo, memory.Value{Bits: uint64(sh.nfo)}, 8).Put(seg, MetaHfo, memory.Value{Bits: uint64(sh.hfo)}, 8)
	if sh.pfo >= 0 {
		h.Mem = h.Mem.Put(seg, MetaPfo, memory.Value{Bits: uint64(sh.pfo)}, 8)
	}
	for _, c := range cells {
		switch {
		case c.Off == sh.nfo && int64(c.Size) == pb:
			h.Mem = h.Mem.Put(seg, MetaNext, c.Val, c.Size)
		case sh.pfo >= 0 && c.Off == sh.pfo && int64(c.Size) == pb:
			h.Mem = h.Mem.Put(seg, MetaPrev, c.Val, c.Size)
		case overlaps(c.Off, int64(c.Size), sh.nfo, pb) || sh.pfo >= 0 && overlaps(c.Off, int64(c.Size), sh.pfo, pb):
			// a partial link cell: unknown
		default:
			h.Mem = h.Mem.Put(seg, c.Off, c.Val, c.Size)
		}
	}
	h.redirect(o, seg)
}

// moveObj renames object from to to: its cells and every pointer to it
// (to a segment's last block as well).
func (h *Heap) moveObj(from, to uint64) {
	var cells []*memory.Node
	h.Mem.Ascend(from, math.MinInt64, from+1, math.MinInt64, func(n *memory.Node) bool {
		cells = append(cells, n)
		return true
	})
	h.clearObj(from)
	for _, c := range cells {
		h.Mem = h.Mem.Put(to, c.Off, c.Val, c.Size)
	}
	h.redirect(from, to)
	if memory.ObjKind(from) == memory.KindSeg {
		h.redirect(from|memory.LastTag, to|memory.LastTag)
	}
}

// unfoldNested gives the freshly materialised block n its own copy of
// the templates its cells point to (seed 001, section 3.9.4 step (1)):
// fresh untagged objects with the template's cells, pointers between
// template objects mapped to the copies, owner marks of seg to n.
func (h *Heap) unfoldNested(seg, n uint64) {
	copies := map[uint64]uint64{}
	var cp func(o uint64) uint64
	cp = func(o uint64) uint64 {
		if c, ok := copies[o]; ok {
			return c
		}
		var c uint64
		if memory.ObjKind(o) == memory.KindSeg {
			c = memory.SegObj(memory.ObjSite(o), h.Allocs)
		} else {
			c = memory.HeapObj(memory.ObjSite(o), h.Allocs)
		}
		h.Allocs++
		copies[o] = c
		var cells []*memory.Node
		h.Mem.Ascend(o, math.MinInt64, o+1, math.MinInt64, func(x *memory.Node) bool {
			cells = append(cells, x)
			return true
		})
		for _, x := range cells {
			v := x.Val
			if v.Sym == nil && v.Obj == seg|ownTag {
				v.Obj = n // the owner of this copy
			}
			h.Mem = h.Mem.Put(c, x.Off, h.untemplate(v, cp), x.Size)
		}
		return c
	}
	var cells []*memory.Node
	h.Mem.Ascend(n, math.MinInt64, n+1, math.MinInt64, func(x *memory.Node) bool {
		if IsTemplate(x.Val.Obj) && x.Val.Sym == nil {
			cells = append(cells, x)
		}
		return true
	})
	for _, x := range cells {
		h.Mem = h.Mem.Put(n, x.Off, h.untemplate(x.Val, cp), x.Size)
	}
}

func (h *Heap) untemplate(v memory.Value, cp func(uint64) uint64) memory.Value {
	if IsTemplate(v.Obj) && v.Sym == nil {
		v.Obj = cp(memory.SegBase(v.Obj)) | v.Obj&memory.LastTag
	}
	return v
}

// abstractInner abstracts owned inner lists of two or more blocks: a
// chain that starts at a block (or segment) designated only by one data
// cell of a heap block h of another allocation site, where h links to a
// block of its own site or is linked from one (h may belong to an outer
// chain). It runs before the outer abstraction so that inner lists of
// different lengths get the same shape.
func (h *Heap) abstractInner() {
	for round := 0; round < 16; round++ {
		if !h.abstractInnerOnce() {
			return
		}
	}
}

func (h *Heap) abstractInnerOnce() bool {
	g := h.heapGraph()
	pb := int64(h.ptrBytes())
	linked := func(o uint64) bool {
		for _, c := range g.cells[o] {
			if memory.IsHeapish(c.Val.Obj) && c.Val.Sym == nil && memory.SegBase(c.Val.Obj) != o && memory.ObjSite(c.Val.Obj) == memory.ObjSite(o) {
				return true
			}
		}
		for _, l := range g.in[o] {
			if memory.IsHeapish(l.from) && l.from != o && memory.ObjSite(l.from) == memory.ObjSite(o) {
				return true
			}
		}
		return false
	}
	for _, x := range g.objs {
		if IsTemplate(x) {
			continue
		}
		// x's only designator from outside its own site: o.
		o, n := uint64(0), 0
		for _, ref := range []uint64{x, x | memory.LastTag} {
			for _, l := range g.in[ref] {
				if !memory.IsHeapish(l.from) || memory.ObjSite(l.from) != memory.ObjSite(x) {
					o = l.from
					n++
				}
			}
		}
		if n != 1 || !memory.IsHeapish(o) || IsTemplate(o) || !linked(o) {
			continue
		}
		for _, cd := range g.linkCands(x, pb) {
			v, _, ok := g.nextOf(x, cd.nfo)
			if !ok || !memory.IsHeapish(v.Obj) || memory.IsLast(v.Obj) || IsTemplate(v.Obj) {
				continue
			}
			pfos := g.prevFields(x, v.Obj, cd, pb)
			if reversedDLL(pfos[0], cd.nfo) {
				continue
			}
			for _, pfo := range pfos {
				ch := g.chain(x, cd.nfo, cd.hfo, pfo)
				if len(ch) < 2 {
					continue
				}
				total := 0
				for _, m := range ch {
					total += g.segMin(m)
				}
				h.mergeChain(g, ch, total, cd.nfo, cd.hfo, pfo)
				return true
			}
		}
	}
	return false
}

// reversedDLL reports whether a doubly linked chain found through next
// field nfo, whose blocks link back through pfo, runs against the
// canonical direction (the link at the lower offset is the next field):
// abstraction then looks for it from its other end, so that one list
// gets one shape whichever end the search meets first (isomorphic nested
// sub-structures must agree on nfo and pfo).
func reversedDLL(pfo, nfo int64) bool { return pfo >= 0 && pfo < nfo }

// treeMinBlocks is the number of concrete blocks of one allocation site
// at a loop head from which a branching shape among them is reported.
const treeMinBlocks = 6

// noteTrees records, for ShapeNotes, a heap shape that list abstraction
// cannot fold: at least treeMinBlocks concrete blocks of one allocation
// site, one of which links through two fields a and b to two distinct
// blocks of its site that do not link back to it through the other field
// (as a doubly linked list's neighbours do): a tree or DAG. Cheap, and
// only a hint for an UNKNOWN: the state is not changed.
func (h *Heap) noteTrees() {
	if h.Allocs < treeMinBlocks {
		return
	}
	g := h.heapGraph()
	count := map[int]int{}
	for _, o := range g.objs {
		if memory.ObjKind(o) == memory.KindHeap && !IsTemplate(o) {
			count[memory.ObjSite(o)]++
		}
	}
	pb := int64(h.ptrBytes())
	points := func(from uint64, off int64, to uint64) bool {
		c := g.cell(from, off)
		return c != nil && c.Val.Sym == nil && c.Val.Obj == to
	}
	for _, x := range g.objs {
		site := memory.ObjSite(x)
		if memory.ObjKind(x) != memory.KindHeap || IsTemplate(x) || count[site] < treeMinBlocks {
			continue
		}
		var succ []*memory.Node
		for _, c := range g.cells[x] {
			if memory.ObjKind(c.Val.Obj) == memory.KindHeap && c.Val.Sym == nil && c.Val.Obj != x && memory.ObjSite(c.Val.Obj) == site && int64(c.Size) == pb && !IsMeta(c.Off) {
				succ = append(succ, c)
			}
		}
		for i := range succ {
			for j := i + 1; j < len(succ); j++ {
				a, b := succ[i], succ[j]
				if a.Val.Obj == b.Val.Obj || points(a.Val.Obj, b.Off, x) || points(b.Val.Obj, a.Off, x) {
					continue
				}
				if h.noteTree != nil {
					h.noteTree(site)
				}
				return
			}
		}
	}
}
