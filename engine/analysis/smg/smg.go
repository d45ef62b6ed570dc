package smg

import (
	"fmt"
	"math"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// List abstraction: the shape part of symbolic memory graphs (seed
// 001_7a124141fc78263e.txt, sections 3.9.2–3.9.4 and chapter 4; Dudka,
// Peringer, Vojnar, "Byte-precise verification of low-level list
// manipulation", SAS 2013) on top of the cells of engine/analysis/memory.
//
// A list segment is a heap object of kind memory.KindSeg standing for a chain of
// at least one, and at least its minimum length (1 or 2), heap blocks of
// one allocation site, each linked to the next by the pointer at the
// next-field offset nfo, pointing at the head offset hfo of the next
// block; for doubly linked segments every block but the first also holds
// at prev-field offset pfo a pointer to hfo of the block before it. A
// pointer to the segment (&seg+x) designates byte x of its first block;
// no pointer from outside designates a later block (abstraction only
// merges blocks without such pointers). The segment's cells at ordinary
// offsets are the data values all its blocks share (abstraction merges
// only blocks whose data cells are equal); its link fields have no cell.
// Its shape lives in metadata cells at offsets MetaBase+k that no C
// access reaches: the minimum length (absent: 1), nfo, hfo, pfo (absent:
// singly linked), the next pointer of the last block (absent: unknown)
// and the prev pointer of the first block (absent: unknown). Every cell
// of a segment may be dropped soundly, as for any object: a segment
// whose nfo or hfo is unknown cannot be materialised and every access
// through it is unknown (reads) or havocs the heap (writes).
//
// Abstraction (Abstract; the value analysis calls it at loop heads
// unless its Options.NoListAbstraction is set) runs as a precision
// adjustment would: maximal chains of two or more blocks or
// segments of one allocation site, linked through one next field (and
// prev field), whose later members have no incoming pointer but their
// links and whose data cells are equal, become one segment of minimum
// length min(sum, 2); then unreachable heap objects are dropped and the
// heap objects are renamed in the order a depth-first walk from the
// variables reaches them, so that states with isomorphic heaps have equal
// cells: stop (covers, the existing ⊑ on cells) and join then work on
// SMGs unchanged. The minimum length is capped at 2 so that the chains a
// loop builds converge (a segment of ≥ n blocks is one of ≥ 2).
//
// The metadata objects that memory-safety checking keys by heap block
// (memory.KindMeta: size and status) follow the merge, the materialisation and
// the renaming (smg_mem.go); objects of any other kind this file does not
// know would not, so a state holding any is not abstracted at all.
//
// Materialisation happens on dereference (addrOf of a Deref, pointer
// arguments of library models): a segment of ≥ 2 blocks becomes a fresh
// concrete block (its data cells, prev pointer and next pointer to the
// rest) followed by the segment, now of ≥ 1; pointers to the segment
// are redirected to the fresh block. A segment of ≥ 1 block needs a case
// split — exactly one block (linked to the segment's successor), or one
// block followed by a segment of ≥ 1 —, which a transfer cannot return:
// Deref records the segment in Heap.Split and the address is unknown;
// the value analysis reruns the step on both cases (SplitSeg).

// The shape cells of a segment, at offsets no C access reaches.
const (
	MetaBase int64 = math.MinInt64 / 2
	MetaMin        = MetaBase     // minimum length when 2 (absent: 1)
	MetaNfo        = MetaBase + 1 // next-field offset
	MetaHfo        = MetaBase + 2 // head offset the links point to
	MetaPfo        = MetaBase + 3 // prev-field offset (doubly linked)
	MetaNext       = MetaBase + 4 // next pointer of the last block
	MetaPrev       = MetaBase + 5 // prev pointer of the first block
	MetaEnd        = MetaBase + 6
	// maxSegMin caps the minimum length of segments; chains of at
	// least MinChain blocks are abstracted (seed 001, chapter 4: the
	// threshold is 3 by default).
	maxSegMin = 3
	MinChain  = 3
	// maxSegMinAny caps the minimum length read from a segment (the
	// largest threshold the value analysis's shape refinement sets,
	// smg_refine.go there).
	maxSegMinAny = 12
	// NoAbstraction is the threshold of Abstract that merges no chain.
	NoAbstraction = math.MaxInt32
	// MaxSplits bounds the case splits of one transfer (nested
	// dereferences of segments of ≥ 1 block); beyond it the transfer's
	// own result, with those addresses unknown, is kept.
	MaxSplits = 4
)

// Heap is what the list abstraction reads and rewrites of a state of
// the value analysis: its memory and allocation count, the segment a
// dereference could not materialise without a case split, and the
// settings it needs. The value analysis builds one for a step's state
// and takes Mem, Allocs and Split back.
type Heap struct {
	Mem    *memory.Node
	Allocs uint32
	// Split is a list segment of at least one block that a dereference
	// met and could not materialise without a case split (SplitSeg); 0
	// if none.
	Split uint64
	// Ptr is the pointer width in bits.
	Ptr int
	// Memory is set in memory-safety mode: blocks carry metadata
	// (smg_mem.go).
	Memory bool
	// threshold and noteTree are Abstract's arguments.
	threshold int
	noteTree  func(site int)
}

// MetaNames name the metadata cells (MetaBase+k) when a state is printed.
var MetaNames = [...]string{".min", ".nfo", ".hfo", ".pfo", ".next", ".prev"}

// IsMeta reports whether off is the offset of a shape cell.
func IsMeta(off int64) bool { return off >= MetaBase && off < MetaEnd }

// SegAlias reports whether a and b may designate one block although
// they differ: the first and the last block of one segment.
func SegAlias(a, b uint64) bool {
	return a != b && memory.ObjKind(a) == memory.KindSeg && memory.ObjKind(b) == memory.KindSeg && memory.SegBase(a) == memory.SegBase(b)
}

// segShape is the shape of a segment read from its metadata cells.
type segShape struct {
	min      int
	nfo, hfo int64
	pfo      int64 // -1: singly linked
	next     memory.Value
	hasNext  bool
	prev     memory.Value
	hasPrev  bool
	ok       bool // nfo and hfo known
}

func (h *Heap) segShapeOf(seg uint64) segShape {
	m := h.Mem
	sh := segShape{min: 1, pfo: -1}
	if n := m.Get(seg, MetaMin); n != nil && n.Val.Obj == 0 && n.Val.Sym == nil && n.Val.Bits >= 2 {
		sh.min = int(min(n.Val.Bits, maxSegMinAny))
	}
	nf, hf := m.Get(seg, MetaNfo), m.Get(seg, MetaHfo)
	if nf != nil && hf != nil && nf.Val.Obj == 0 && hf.Val.Obj == 0 && nf.Val.Sym == nil && hf.Val.Sym == nil {
		sh.nfo, sh.hfo, sh.ok = int64(nf.Val.Bits), int64(hf.Val.Bits), true
	}
	if n := m.Get(seg, MetaPfo); n != nil && n.Val.Obj == 0 && n.Val.Sym == nil {
		sh.pfo = int64(n.Val.Bits)
	}
	if n := m.Get(seg, MetaNext); n != nil {
		sh.next, sh.hasNext = n.Val, true
	}
	if n := m.Get(seg, MetaPrev); n != nil {
		sh.prev, sh.hasPrev = n.Val, true
	}
	return sh
}

func (h *Heap) ptrBytes() uint8 { return uint8(h.Ptr / 8) }

func (h *Heap) clearObj(obj uint64) { h.Mem = h.Mem.DelObj(obj) }

// Deref is called on a pointer value about to be dereferenced: a
// pointer into a segment's first (or, tagged, last) block is replaced by
// one into a materialised block; ok is false when that needs a case
// split (recorded in h.Split) or the segment's shape is unknown.
func (h *Heap) Deref(v memory.Value) (memory.Value, bool) {
	if memory.ObjKind(v.Obj) != memory.KindSeg {
		return v, true
	}
	if IsPairSeg(h.Mem, v.Obj) {
		return h.pairDeref(v) // smg_period.go
	}
	seg := memory.SegBase(v.Obj)
	sh := h.segShapeOf(seg)
	if !sh.ok {
		return memory.Value{}, false
	}
	if sh.min < 2 {
		if h.Split == 0 {
			h.Split = v.Obj
		}
		return memory.Value{}, false
	}
	n := h.materialise(seg, sh, false, memory.IsLast(v.Obj))
	return memory.Value{Obj: n, Bits: v.Bits}, true
}

func (h *Heap) redirect(from, to uint64) {
	h.Mem = h.Mem.MapVals(func(v memory.Value) memory.Value {
		if v.Obj == from && v.Sym == nil {
			v.Obj = to
		}
		return v
	})
}

// materialise turns the first block of seg (fromEnd: its last block)
// into a fresh concrete block and returns it: its cells are seg's data
// cells, and pointers to that block now point to it. With only, the
// block is the segment's only one: it takes the segment's next and prev
// pointers, every pointer to either end of seg points to it, and seg
// disappears. Otherwise seg keeps one block less (at least 1), linked to
// the fresh block by its next (fromEnd) or prev pointer.
func (h *Heap) materialise(seg uint64, sh segShape, only, fromEnd bool) uint64 {
	if IsPairSeg(h.Mem, seg) {
		return h.materialisePair(seg, sh, only) // smg_period.go
	}
	n := memory.HeapObj(memory.ObjSite(seg), h.Allocs)
	h.Allocs++
	var data []*memory.Node
	h.Mem.Ascend(seg, MetaEnd, seg+1, math.MinInt64, func(c *memory.Node) bool {
		data = append(data, c)
		return true
	})
	pb := h.ptrBytes()
	hp := func(o uint64) memory.Value { return memory.Value{Obj: o, Bits: uint64(sh.hfo) & memory.Mask(h.Ptr)} }
	switch {
	case only:
		h.redirect(seg, n)
		h.redirect(seg|memory.LastTag, n)
	case fromEnd:
		h.redirect(seg|memory.LastTag, n)
	default:
		h.redirect(seg, n)
	}
	for _, c := range data {
		v := c.Val
		if v.Obj == seg && (only || !fromEnd) || v.Obj == seg|memory.LastTag && (only || fromEnd) {
			v.Obj = n // as redirect did in the other cells
		}
		h.Mem = h.Mem.Put(n, c.Off, v, c.Size)
	}
	h.unfoldNested(seg, n)         // smg_nested.go
	h.memMaterialise(seg, n, only) // smg_mem.go
	sh.min--
	switch {
	case only:
		if sh.hasNext {
			h.Mem = h.Mem.Put(n, sh.nfo, sh.next, pb)
		}
		if sh.pfo >= 0 && sh.hasPrev {
			h.Mem = h.Mem.Put(n, sh.pfo, sh.prev, pb)
		}
		h.clearObj(seg)
		return n
	case fromEnd:
		if sh.hasNext {
			h.Mem = h.Mem.Put(n, sh.nfo, sh.next, pb)
		}
		if sh.pfo >= 0 {
			h.Mem = h.Mem.Put(n, sh.pfo, hp(seg|memory.LastTag), pb)
		}
		h.Mem = h.Mem.Put(seg, MetaNext, hp(n), pb)
	default:
		h.Mem = h.Mem.Put(n, sh.nfo, hp(seg), pb)
		if sh.pfo >= 0 {
			if sh.hasPrev {
				h.Mem = h.Mem.Put(n, sh.pfo, sh.prev, pb)
			}
			h.Mem = h.Mem.Put(seg, MetaPrev, hp(n), pb)
		}
	}
	if sh.min >= 2 {
		h.Mem = h.Mem.Put(seg, MetaMin, memory.Value{Bits: uint64(sh.min)}, 1)
	} else {
		h.Mem = h.Mem.Del(seg, MetaMin)
	}
	return n
}

// SplitSeg returns the two cases of a segment of ≥ 1 block, for a
// dereference of its first block (ref untagged) or last block (tagged):
// exactly one block, and one block followed (preceded) by a segment of
// ≥ 1; nil when the segment's shape is unknown.
func (h Heap) SplitSeg(ref uint64) []Heap {
	var out []Heap
	seg := memory.SegBase(ref)
	for _, only := range []bool{true, false} {
		c := h
		sh := c.segShapeOf(seg)
		if !sh.ok {
			return nil
		}
		c.materialise(seg, sh, only, memory.IsLast(ref))
		out = append(out, c)
	}
	return out
}

// link is a pointer cell: from (obj, off) to the object to (tagged for
// a segment's last block).
type link struct {
	from uint64
	off  int64
	to   uint64
}

// heapGraph indexes the heap of a state for abstraction.
type heapGraph struct {
	h     *Heap
	cells map[uint64][]*memory.Node // heap objects' cells (key order)
	in    map[uint64][]link         // incoming pointers, from any cell
	objs  []uint64                  // heap objects in key order
}

func (h *Heap) heapGraph() *heapGraph {
	g := &heapGraph{h: h, cells: map[uint64][]*memory.Node{}, in: map[uint64][]link{}}
	h.Mem.Each(func(n *memory.Node) bool {
		if memory.IsHeapish(n.Obj) {
			if _, ok := g.cells[n.Obj]; !ok {
				g.objs = append(g.objs, n.Obj)
			}
			g.cells[n.Obj] = append(g.cells[n.Obj], n)
		}
		if memory.IsHeapish(n.Val.Obj) && n.Val.Sym == nil {
			g.in[n.Val.Obj] = append(g.in[n.Val.Obj], link{from: n.Obj, off: n.Off, to: n.Val.Obj})
		}
		return true
	})
	return g
}

func (g *heapGraph) cell(obj uint64, off int64) *memory.Node {
	for _, c := range g.cells[obj] {
		if c.Off == off {
			return c
		}
	}
	return nil
}

// nextOf is the pointer obj's last block holds in its next field nfo,
// and the cell holding it (a segment's MetaNext).
func (g *heapGraph) nextOf(obj uint64, nfo int64) (memory.Value, *memory.Node, bool) {
	off := nfo
	if memory.ObjKind(obj) == memory.KindSeg {
		if c := g.cell(obj, MetaNfo); c == nil || int64(c.Val.Bits) != nfo || c.Val.Obj != 0 {
			return memory.Value{}, nil, false
		}
		off = MetaNext
	}
	c := g.cell(obj, off)
	if c == nil || c.Val.Sym != nil || int64(c.Size) != int64(g.h.ptrBytes()) {
		return memory.Value{}, nil, false
	}
	return c.Val, c, true
}

// prevOf is the pointer obj's first block holds in its prev field pfo
// (a segment's MetaPrev), and the cell holding it.
func (g *heapGraph) prevOf(obj uint64, pfo int64) (memory.Value, *memory.Node, bool) {
	off := pfo
	if memory.ObjKind(obj) == memory.KindSeg {
		if c := g.cell(obj, MetaPfo); c == nil || int64(c.Val.Bits) != pfo || c.Val.Obj != 0 {
			return memory.Value{}, nil, false
		}
		off = MetaPrev
	}
	c := g.cell(obj, off)
	if c == nil || c.Val.Sym != nil || int64(c.Size) != int64(g.h.ptrBytes()) {
		return memory.Value{}, nil, false
	}
	return c.Val, c, true
}

// data returns the data cells of obj: its cells but metadata and the
// link fields.
func (g *heapGraph) data(obj uint64, nfo, pfo int64) []*memory.Node {
	pb := int64(g.h.ptrBytes())
	var out []*memory.Node
	for _, c := range g.cells[obj] {
		if IsMeta(c.Off) || overlaps(c.Off, int64(c.Size), nfo, pb) || (pfo >= 0 && overlaps(c.Off, int64(c.Size), pfo, pb)) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func overlaps(a, an, b, bn int64) bool { return a < b+bn && b < a+an }

func sameData(x, y []*memory.Node) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Off != y[i].Off || x[i].Val != y[i].Val || x[i].Size != y[i].Size {
			return false
		}
	}
	return true
}

// segMin is the minimum length of a chain member.
func (g *heapGraph) segMin(obj uint64) int {
	if memory.ObjKind(obj) != memory.KindSeg {
		return 1
	}
	if c := g.cell(obj, MetaMin); c != nil && c.Val.Bits >= 2 {
		return int(min(c.Val.Bits, maxSegMinAny))
	}
	return 1
}

// shapeMatches reports whether a segment member has the chain's shape.
func (g *heapGraph) shapeMatches(obj uint64, nfo, hfo, pfo int64) bool {
	if memory.ObjKind(obj) != memory.KindSeg {
		return true
	}
	if IsPairSeg(g.h.Mem, obj) {
		return false // smg_period.go
	}
	get := func(off int64) (int64, bool) {
		c := g.cell(obj, off)
		if c == nil || c.Val.Obj != 0 || c.Val.Sym != nil {
			return 0, false
		}
		return int64(c.Val.Bits), true
	}
	n, ok1 := get(MetaNfo)
	h, ok2 := get(MetaHfo)
	p, ok3 := get(MetaPfo)
	if !ok3 {
		p = -1
	}
	return ok1 && ok2 && n == nfo && h == hfo && p == pfo
}

// chain follows the next field nfo from a0 while the members qualify
// (seed 001, section 3.9.3: same shape, same data, no pointer from
// outside into the blocks that disappear); the result starts with a0.
// Pointers to a0's first block and to the last member's last block may
// come from anywhere; every other block may only be designated by its
// neighbours' next and prev pointers.
func (g *heapGraph) chain(a0 uint64, nfo, hfo, pfo int64) []uint64 {
	ptr := g.h.Ptr
	if !g.shapeMatches(a0, nfo, hfo, pfo) || IsTemplate(a0) {
		return nil
	}
	mem := g.h.Memory
	key0, ok0 := g.h.memKey(a0) // smg_mem.go
	if mem && !ok0 {
		return nil
	}
	d0 := g.data(a0, nfo, pfo)
	members := []uint64{a0}
	links := []*memory.Node{nil} // links[i]: the next-pointer cell of member i-1
	in := map[uint64]bool{a0: true}
	cur := a0
	for {
		v, lc, ok := g.nextOf(cur, nfo)
		if !ok || !memory.IsHeapish(v.Obj) || memory.IsLast(v.Obj) || memory.Sext(v.Bits, ptr) != hfo {
			break
		}
		b := v.Obj
		if in[b] || memory.ObjSite(b) != memory.ObjSite(a0) || !g.shapeMatches(b, nfo, hfo, pfo) {
			break
		}
		if mem {
			// Memory mode: one size, allocated, and equal data cells.
			if key, ok := g.h.memKey(b); !ok || key != key0 || !sameData(d0, g.data(b, nfo, pfo)) {
				break
			}
		} else if !g.sameDataNested(a0, b, d0, g.data(b, nfo, pfo)) { // smg_nested.go
			break
		}
		if pfo >= 0 {
			pv, _, ok := g.prevOf(b, pfo)
			if !ok || pv.Obj != memory.LastRef(cur) || memory.Sext(pv.Bits, ptr) != hfo {
				break
			}
		}
		members = append(members, b)
		links = append(links, lc)
		in[b] = true
		cur = b
	}
	// Cut the chain where a block that would disappear is designated
	// from outside.
	fromPred := func(i int, l link) bool {
		return i > 0 && l.from == members[i-1] && l.off == links[i].Off
	}
	fromSucc := func(i int, l link) bool {
		return pfo >= 0 && i+1 < len(members) && l.from == members[i+1] && (l.off == pfo || l.off == MetaPrev)
	}
	// ok reports whether member i may be in the chain, as its last
	// member when last.
	ok := func(i int, last bool) bool {
		m := members[i]
		if memory.ObjKind(m) == memory.KindSeg {
			if i > 0 {
				for _, l := range g.in[m] {
					if !fromPred(i, l) {
						return false
					}
				}
			}
			if !last {
				for _, l := range g.in[m|memory.LastTag] {
					if !fromSucc(i, l) {
						return false
					}
				}
			}
			return true
		}
		if i == 0 || last {
			return true
		}
		for _, l := range g.in[m] {
			if !fromPred(i, l) && !fromSucc(i, l) && (mem || !g.fromOwnSub(m, l)) { // smg_nested.go
				return false
			}
		}
		return true
	}
	for i := range members {
		last := i == len(members)-1
		if ok(i, last) {
			continue
		}
		if i > 0 && ok(i, true) {
			return members[:i+1]
		}
		return members[:i]
	}
	return members
}

// Abstract is the list abstraction of a state at a loop head, followed
// by garbage collection and canonical renaming of the heap: chains of
// at least threshold blocks are merged (NoAbstraction: none, the heap is
// only renamed); noteTree, when not nil, is called with the allocation
// site of a tree of blocks that cannot be folded (smg_nested.go).
func (h *Heap) Abstract(threshold int, noteTree func(site int)) {
	if h.Allocs == 0 {
		return
	}
	h.threshold, h.noteTree = threshold, noteTree
	if c := h.Mem.Ceil((memory.KindSeg+1)<<memory.KindShift, math.MinInt64); c != nil && (memory.ObjKind(c.Obj) != memory.KindMeta || !h.Memory) {
		// Objects of a kind this file does not know would not follow
		// the renaming: no abstraction then. Memory-safety metadata
		// does (smg_mem.go).
		return
	}
	mem := h.Memory
	if mem && h.symbolicHeapPointer() {
		return // smg_mem.go
	}
	if h.threshold >= NoAbstraction {
		h.canonicalHeap()
		return
	}
	if !mem {
		h.abstractInner() // smg_nested.go
	}
	for round := 0; round < 8; round++ {
		if !h.abstractOnce() && (mem || !h.abstractPairs()) {
			break
		}
	}
	h.canonicalHeap()
	if !mem {
		h.noteTrees() // smg_nested.go
	}
}

// abstractOnce merges the longest chain found; it reports whether it
// merged one.
func (h *Heap) abstractOnce() bool {
	g := h.heapGraph()
	pb := int64(h.ptrBytes())
	var best []uint64
	bestLen := 0
	var bnfo, bhfo, bpfo int64
	threshold := h.threshold
	for _, a0 := range g.objs {
		for _, cd := range g.linkCands(a0, pb) {
			v, _, ok := g.nextOf(a0, cd.nfo)
			if !ok || !memory.IsHeapish(v.Obj) || memory.IsLast(v.Obj) {
				continue
			}
			pfos := g.prevFields(a0, v.Obj, cd, pb)
			if reversedDLL(pfos[0], cd.nfo) {
				continue // smg_nested.go
			}
			for _, pfo := range pfos {
				ch := g.chain(a0, cd.nfo, cd.hfo, pfo)
				n := 0
				for _, m := range ch {
					n += g.segMin(m)
				}
				if len(ch) >= 2 && n >= threshold && len(ch) > len(best) {
					best, bestLen, bnfo, bhfo, bpfo = ch, n, cd.nfo, cd.hfo, pfo
				}
				if len(ch) >= 2 {
					break
				}
			}
		}
	}
	if best == nil {
		return false
	}
	h.mergeChain(g, best, bestLen, bnfo, bhfo, bpfo)
	return true
}

// linkCand is a candidate next field of a block or segment: the offset
// nfo of the pointer and the offset hfo it points to in the next block.
type linkCand struct{ nfo, hfo int64 }

// linkCands returns the candidate next fields of x: a segment's own, or
// every pointer cell (pb bytes) of a block to another heap object of its
// allocation site. Used by abstractOnce and, for inner lists, by
// abstractInner (smg_nested.go).
func (g *heapGraph) linkCands(x uint64, pb int64) []linkCand {
	if memory.ObjKind(x) == memory.KindSeg {
		nf, hf := g.cell(x, MetaNfo), g.cell(x, MetaHfo)
		if nf == nil || hf == nil {
			return nil
		}
		return []linkCand{{int64(nf.Val.Bits), int64(hf.Val.Bits)}}
	}
	var cands []linkCand
	for _, c := range g.cells[x] {
		if memory.IsHeapish(c.Val.Obj) && !memory.IsLast(c.Val.Obj) && c.Val.Obj != x && memory.ObjSite(c.Val.Obj) == memory.ObjSite(x) && int64(c.Size) == pb && c.Val.Sym == nil && !IsMeta(c.Off) {
			cands = append(cands, linkCand{c.Off, memory.Sext(c.Val.Bits, g.h.Ptr)})
		}
	}
	return cands
}

// prevFields returns the candidate prev fields of a chain that starts at
// x and continues through cd to b: the offset of a pointer of b back to
// x's last block (a segment's recorded one), then -1 (singly linked).
func (g *heapGraph) prevFields(x, b uint64, cd linkCand, pb int64) []int64 {
	if memory.ObjKind(b) == memory.KindSeg {
		if c := g.cell(b, MetaPfo); c != nil {
			return []int64{int64(c.Val.Bits), -1}
		}
		return []int64{-1}
	}
	for _, c := range g.cells[b] {
		if c.Val.Obj == memory.LastRef(x) && memory.Sext(c.Val.Bits, g.h.Ptr) == cd.hfo && c.Off != cd.nfo && int64(c.Size) == pb && !IsMeta(c.Off) {
			return []int64{c.Off, -1}
		}
	}
	return []int64{-1}
}

// mergeChain replaces the chain members by one segment of minimum length
// min(total, maxSegMin): pointers to the first member's first block
// designate the segment, pointers to the last member's last block its
// last block.
func (h *Heap) mergeChain(g *heapGraph, ch []uint64, total int, nfo, hfo, pfo int64) {
	pb := h.ptrBytes()
	first, last := ch[0], ch[len(ch)-1]
	seg := memory.SegObj(memory.ObjSite(first), h.Allocs)
	h.Allocs++
	data := g.data(first, nfo, pfo)
	nextV, _, hasNext := g.nextOf(last, nfo)
	var prevV memory.Value
	hasPrev := false
	if pfo >= 0 {
		prevV, _, hasPrev = g.prevOf(first, pfo)
	}
	inChain := func(v memory.Value) bool {
		for _, m := range ch {
			if memory.SegBase(v.Obj) == m || v.Obj == m {
				return true
			}
		}
		return false
	}
	if hasNext && inChain(nextV) {
		hasNext = false // a cycle back into the chain: unknown
	}
	if hasPrev && inChain(prevV) {
		hasPrev = false
	}
	for _, m := range ch {
		h.clearObj(m)
	}
	h.redirect(first, seg)
	h.redirect(memory.LastRef(last), seg|memory.LastTag)
	for _, c := range data {
		v := c.Val
		switch {
		case v.Obj == first:
			v.Obj = seg
		case v.Obj == memory.LastRef(last):
			v.Obj = seg | memory.LastTag
		case inChain(v):
			continue
		}
		h.Mem = h.Mem.Put(seg, c.Off, v, c.Size)
	}
	if total >= 2 {
		h.Mem = h.Mem.Put(seg, MetaMin, memory.Value{Bits: uint64(min(total, max(maxSegMin, h.threshold)))}, 1)
	}
	h.Mem = h.Mem.Put(seg, MetaNfo, memory.Value{Bits: uint64(nfo)}, 8)
	h.Mem = h.Mem.Put(seg, MetaHfo, memory.Value{Bits: uint64(hfo)}, 8)
	if pfo >= 0 {
		h.Mem = h.Mem.Put(seg, MetaPfo, memory.Value{Bits: uint64(pfo)}, 8)
		if hasPrev {
			h.Mem = h.Mem.Put(seg, MetaPrev, prevV, pb)
		}
	}
	if hasNext {
		h.Mem = h.Mem.Put(seg, MetaNext, nextV, pb)
	}
	if h.Memory {
		h.memMerge(ch, seg) // smg_mem.go; chain admitted no sub-structures
		return
	}
	h.foldNested(g, ch, seg, nfo, pfo) // smg_nested.go
}

// canonicalHeap drops heap objects no variable reaches and renames the
// others (kind and allocation site kept) by the order in which a
// depth-first walk from the variables' cells, in key order, reaches
// them; the allocation count becomes the number of heap objects.
func (h *Heap) canonicalHeap() {
	names := map[uint64]uint64{}
	var next uint32
	var visit func(o uint64)
	visit = func(o uint64) {
		o = memory.SegBase(o) &^ ownTag
		if _, ok := names[o]; ok {
			return
		}
		if memory.ObjSite(o) == memory.DeadSite && memory.ObjKind(o) == memory.KindHeap {
			names[o] = o // a dead local (memory.DeadSite) keeps its name
			return
		}
		if memory.ObjKind(o) == memory.KindSeg {
			names[o] = memory.SegObj(memory.ObjSite(o), next) | o&NestTag
		} else {
			names[o] = memory.HeapObj(memory.ObjSite(o), next) | o&NestTag
		}
		next++
		var targets []uint64
		h.Mem.Ascend(o, math.MinInt64, o+1, math.MinInt64, func(n *memory.Node) bool {
			if memory.IsHeapish(n.Val.Obj) && n.Val.Sym == nil {
				targets = append(targets, n.Val.Obj)
			}
			return true
		})
		for _, x := range targets {
			visit(x)
		}
	}
	h.Mem.Each(func(n *memory.Node) bool {
		if !memory.IsHeapish(n.Obj) && memory.IsHeapish(n.Val.Obj) {
			visit(n.Val.Obj)
		}
		return true
	})
	garbage := map[uint64]bool{}
	for _, o := range h.keptGarbage(names) { // smg_mem.go
		if memory.ObjKind(o) == memory.KindSeg {
			names[o] = memory.SegObj(memory.ObjSite(o), next)
		} else {
			names[o] = memory.HeapObj(memory.ObjSite(o), next)
		}
		garbage[o] = true
		next++
	}
	meta := func(n *memory.Node) (uint64, bool) { // a metadata object's new name
		r, ok := names[memory.HeapOfMeta(n.Obj)]
		return memory.MetaObj(r), ok
	}
	identity := next == h.Allocs && len(garbage) == 0
	if identity {
		for o, n := range names {
			if o != n {
				identity = false
				break
			}
		}
	}
	if identity {
		// Nothing to rename; still drop garbage.
		h.Mem = h.Mem.Filter(func(n *memory.Node) bool {
			if memory.ObjKind(n.Obj) == memory.KindMeta {
				_, ok := meta(n)
				return ok
			}
			if !memory.IsHeapish(n.Obj) {
				return true
			}
			_, ok := names[n.Obj]
			return ok
		})
		return
	}
	var cells []*memory.Node
	h.Mem.Each(func(n *memory.Node) bool {
		if memory.IsHeapish(n.Obj) {
			if _, ok := names[n.Obj]; !ok || garbage[n.Obj] {
				return true
			}
		}
		if memory.ObjKind(n.Obj) == memory.KindMeta {
			if _, ok := meta(n); !ok {
				return true
			}
		}
		cells = append(cells, n)
		return true
	})
	var mem *memory.Node
	for _, c := range cells {
		obj, v := c.Obj, c.Val
		if r, ok := names[obj]; ok {
			obj = r
		} else if memory.ObjKind(obj) == memory.KindMeta {
			obj, _ = meta(c)
		}
		if r, ok := names[v.Obj&^(memory.LastTag|ownTag)]; ok && memory.IsHeapish(v.Obj) && v.Sym == nil {
			v.Obj = r | v.Obj&(memory.LastTag|ownTag)
		} else if memory.IsHeapish(v.Obj) {
			continue // a pointer to garbage cannot remain
		}
		mem = mem.Put(obj, c.Off, v, c.Size)
	}
	h.Mem = mem
	h.Allocs = next
}

// SegName prints a segment as "seg17#0" (allocation site, number).
func SegName(o uint64) string {
	return fmt.Sprintf("seg%d#%d", memory.ObjSite(o), uint32(memory.SegBase(o)))
}

// HasSeg reports whether mem holds a list segment.
func HasSeg(mem *memory.Node) bool {
	c := mem.Ceil(memory.KindSeg<<memory.KindShift, math.MinInt64)
	return c != nil && memory.ObjKind(c.Obj) == memory.KindSeg
}

// CoversSegs is covers for states with list segments: every cell of b is
// a cell of a with the same value and size, except that a segment's
// minimum length in a may exceed b's (a segment of ≥ 3 blocks is one of
// ≥ 2). It is the entailment of SMGs on canonically named heaps.
func CoversSegs(a, b *memory.Node) bool {
	if !HasSeg(a) || !HasSeg(b) {
		return false
	}
	return b.Each(func(n *memory.Node) bool {
		m := a.Get(n.Obj, n.Off)
		if n.Off == MetaMin && memory.ObjKind(n.Obj) == memory.KindSeg {
			return m != nil && m.Val.Obj == 0 && n.Val.Obj == 0 && m.Val.Sym == nil && n.Val.Sym == nil && m.Val.Bits >= n.Val.Bits
		}
		return m != nil && m.Val == n.Val && m.Size == n.Size
	})
}
