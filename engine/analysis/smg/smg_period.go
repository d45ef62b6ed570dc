package smg

import (
	"math"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// Segments of pairs: list segments whose blocks alternate between two
// data vectors (a list of 1, 2, 1, 2, …: SV-COMP's alternating_list and
// splice tasks). smg.go merges only blocks whose data are equal, so such
// a list never converges; here a chain of units — two concrete blocks A,
// B (A's data D0, B's data D1, D0 ≠ D1, A linked to B) or a pair segment
// with the same D0 and D1 — becomes one pair segment: a kindSeg object
// standing for at least its minimum number (MetaMin, counted in pairs)
// of pairs, singly linked through next field nfo to head offset hfo. Its
// cells at ordinary offsets are D0, its cells at AltBase+k are D1 at
// offset k, and a marker cell at PeriodOff tells it from an ordinary
// segment (whose data all blocks share). This is the list abstraction of
// seed 001_7a124141fc78263e.txt, sections 3.9.3–3.9.4, with a two-block
// node type: sound for the same reasons (a segment of ≥ n pairs stands
// for every chain of n or more such pairs; every cell may be dropped).
//
// Restrictions that keep materialisation simple: pair segments are
// singly linked, and no pointer from outside designates any block of the
// chain but the first one's first block, so a pair segment has no
// pointer to its last block; a dereference of one materialises its first
// pair: A (D0) linked to B (D1) linked to the rest (a case split for a
// segment of ≥ 1 pair: exactly one pair, or one followed by a segment of
// ≥ 1). Ordinary abstraction never takes a pair segment into its chains
// (shapeMatches).
const (
	AltBase   int64 = math.MinInt64 / 4 // D1's cell at offset k: AltBase+k
	altSpan   int64 = 1 << 40
	PeriodOff       = AltBase - 1 // marker of a pair segment
)

func isAlt(off int64) bool { return off >= AltBase && off < AltBase+altSpan }

// FieldOf is the C offset of a heap cell (D1 cells of pair segments by
// the field they stand for).
func FieldOf(off int64) int64 {
	if isAlt(off) {
		return off - AltBase
	}
	return off
}

// IsPairSeg reports whether obj is a pair segment in mem.
func IsPairSeg(mem *memory.Node, obj uint64) bool {
	return memory.ObjKind(obj) == memory.KindSeg && mem.Get(memory.SegBase(obj), PeriodOff) != nil
}

// pairDeref is Deref for a pair segment.
func (h *Heap) pairDeref(v memory.Value) (memory.Value, bool) {
	seg := memory.SegBase(v.Obj)
	if memory.IsLast(v.Obj) {
		return memory.Value{}, false // never created; unknown if it were
	}
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
	n := h.materialisePair(seg, sh, false)
	return memory.Value{Obj: n, Bits: v.Bits}, true
}

// materialisePair turns the first pair of seg into two concrete blocks
// A → B and returns A; with only, the pair is the segment's only one: B
// takes the segment's next pointer and seg disappears; otherwise B links
// to seg, which keeps one pair less (at least 1).
func (h *Heap) materialisePair(seg uint64, sh segShape, only bool) uint64 {
	site := memory.ObjSite(seg)
	a := memory.HeapObj(site, h.Allocs)
	b := memory.HeapObj(site, h.Allocs+1)
	h.Allocs += 2
	var cells []*memory.Node
	h.Mem.Ascend(seg, MetaEnd, seg+1, math.MinInt64, func(c *memory.Node) bool {
		cells = append(cells, c)
		return true
	})
	h.redirect(seg, a)
	if only {
		h.redirect(seg|memory.LastTag, b)
	}
	pb := h.ptrBytes()
	hp := func(o uint64) memory.Value { return memory.Value{Obj: o, Bits: uint64(sh.hfo) & memory.Mask(h.Ptr)} }
	for _, c := range cells {
		if c.Off == PeriodOff {
			continue
		}
		v := c.Val
		if v.Obj == seg {
			v.Obj = a
		}
		if isAlt(c.Off) {
			h.Mem = h.Mem.Put(b, c.Off-AltBase, v, c.Size)
		} else {
			h.Mem = h.Mem.Put(a, c.Off, v, c.Size)
		}
	}
	h.Mem = h.Mem.Put(a, sh.nfo, hp(b), pb)
	if only {
		if sh.hasNext {
			h.Mem = h.Mem.Put(b, sh.nfo, sh.next, pb)
		}
		h.clearObj(seg)
		return a
	}
	h.Mem = h.Mem.Put(b, sh.nfo, hp(seg), pb)
	if sh.min-1 >= 2 {
		h.Mem = h.Mem.Put(seg, MetaMin, memory.Value{Bits: uint64(sh.min - 1)}, 1)
	} else {
		h.Mem = h.Mem.Del(seg, MetaMin)
	}
	return a
}

// pairUnit is one unit of a chain of pairs: a pair segment, or blocks
// a → b.
type pairUnit struct {
	a, b  uint64 // b == 0: a is a pair segment
	pairs int
}

// pairData returns D0 and D1 of a pair segment (D1 at C offsets).
func (g *heapGraph) pairData(seg uint64) (d0, d1 []*memory.Node) {
	for _, c := range g.cells[seg] {
		switch {
		case IsMeta(c.Off) || c.Off == PeriodOff:
		case isAlt(c.Off):
			d1 = append(d1, &memory.Node{Off: c.Off - AltBase, Val: c.Val, Size: c.Size})
		default:
			d0 = append(d0, c)
		}
	}
	return d0, d1
}

// onlyFrom reports whether every pointer to obj comes from the link cell
// (from, off).
func (g *heapGraph) onlyFrom(obj uint64, from uint64, off int64) bool {
	for _, l := range g.in[obj] {
		if l.from != from || l.off != off {
			return false
		}
	}
	return true
}

// pairChain follows nfo from a0 while units with a0's unit's data
// qualify; it returns the units and the next pointer of the last one.
func (g *heapGraph) pairChain(a0 uint64, nfo, hfo int64) ([]pairUnit, memory.Value, bool) {
	ptr := g.h.Ptr
	var units []pairUnit
	var d0, d1 []*memory.Node
	in := map[uint64]bool{}
	cur := a0
	var prevFrom uint64
	prevOff := int64(0)
	var lastNext memory.Value
	hasNext := false
	for {
		if in[cur] || memory.ObjSite(cur) != memory.ObjSite(a0) {
			break
		}
		var u pairUnit
		var ud0, ud1 []*memory.Node
		var next memory.Value
		var okNext bool
		if memory.ObjKind(cur) == memory.KindSeg {
			if !IsPairSeg(g.h.Mem, cur) || g.cell(cur, MetaPfo) != nil {
				break
			}
			nf, hf := g.cell(cur, MetaNfo), g.cell(cur, MetaHfo)
			if nf == nil || hf == nil || int64(nf.Val.Bits) != nfo || int64(hf.Val.Bits) != hfo {
				break
			}
			if len(g.in[cur|memory.LastTag]) > 0 {
				break
			}
			ud0, ud1 = g.pairData(cur)
			u = pairUnit{a: cur, pairs: g.segMin(cur)}
			next, _, okNext = g.nextOf(cur, nfo)
		} else {
			lc := g.cell(cur, nfo)
			if lc == nil || lc.Val.Sym != nil || !memory.IsHeapish(lc.Val.Obj) || memory.ObjKind(lc.Val.Obj) != memory.KindHeap ||
				int64(lc.Size) != int64(g.h.ptrBytes()) || memory.Sext(lc.Val.Bits, ptr) != hfo {
				break
			}
			b := lc.Val.Obj
			if b == cur || in[b] || memory.ObjSite(b) != memory.ObjSite(a0) || !g.onlyFrom(b, cur, nfo) {
				break
			}
			ud0, ud1 = g.data(cur, nfo, -1), g.data(b, nfo, -1)
			u = pairUnit{a: cur, b: b, pairs: 1}
			next, _, okNext = g.nextOf(b, nfo)
		}
		if len(units) == 0 {
			if sameData(ud0, ud1) {
				break // equal data: ordinary abstraction's business
			}
			d0, d1 = ud0, ud1
		} else if !sameData(d0, ud0) || !sameData(d1, ud1) || !g.onlyFrom(cur, prevFrom, prevOff) {
			break
		}
		units = append(units, u)
		in[u.a] = true
		if u.b != 0 {
			in[u.b] = true
			prevFrom, prevOff = u.b, nfo
		} else {
			prevFrom, prevOff = u.a, MetaNext
		}
		lastNext, hasNext = next, okNext
		if !okNext || next.Sym != nil || !memory.IsHeapish(next.Obj) || memory.IsLast(next.Obj) || memory.Sext(next.Bits, ptr) != hfo {
			break
		}
		cur = next.Obj
	}
	if hasNext && (in[memory.SegBase(lastNext.Obj)] && memory.IsHeapish(lastNext.Obj)) {
		hasNext = false // a cycle back into the chain: unknown
	}
	return units, lastNext, hasNext
}

// abstractPairs merges the longest chain of at least two units and two
// pairs (and at least the threshold's number of blocks) into a pair
// segment; it reports whether it merged one.
func (h *Heap) abstractPairs() bool {
	g := h.heapGraph()
	pb := int64(h.ptrBytes())
	threshold := h.threshold
	var best []pairUnit
	var bestNext memory.Value
	var bestHasNext bool
	var bnfo, bhfo int64
	bestPairs := 0
	for _, a0 := range g.objs {
		type cand struct{ nfo, hfo int64 }
		var cands []cand
		if memory.ObjKind(a0) == memory.KindSeg {
			if !IsPairSeg(h.Mem, a0) {
				continue
			}
			nf, hf := g.cell(a0, MetaNfo), g.cell(a0, MetaHfo)
			if nf == nil || hf == nil {
				continue
			}
			cands = append(cands, cand{int64(nf.Val.Bits), int64(hf.Val.Bits)})
		} else {
			for _, c := range g.cells[a0] {
				if memory.ObjKind(c.Val.Obj) == memory.KindHeap && c.Val.Obj != a0 && memory.ObjSite(c.Val.Obj) == memory.ObjSite(a0) && int64(c.Size) == pb && c.Val.Sym == nil && !IsMeta(c.Off) {
					cands = append(cands, cand{c.Off, memory.Sext(c.Val.Bits, h.Ptr)})
				}
			}
		}
		for _, cd := range cands {
			units, next, hasNext := g.pairChain(a0, cd.nfo, cd.hfo)
			pairs := 0
			for _, u := range units {
				pairs += u.pairs
			}
			if len(units) >= 2 && pairs >= 2 && 2*pairs >= threshold && len(units) > len(best) {
				best, bestNext, bestHasNext, bnfo, bhfo, bestPairs = units, next, hasNext, cd.nfo, cd.hfo, pairs
			}
		}
	}
	if best == nil {
		return false
	}
	h.mergePairs(g, best, bestPairs, bnfo, bhfo, bestNext, bestHasNext)
	return true
}

// mergePairs replaces the units by one pair segment of minimum length
// min(pairs, max(2, threshold/2)) pairs.
func (h *Heap) mergePairs(g *heapGraph, units []pairUnit, pairs int, nfo, hfo int64, next memory.Value, hasNext bool) {
	first := units[0].a
	seg := memory.SegObj(memory.ObjSite(first), h.Allocs)
	h.Allocs++
	var d0, d1 []*memory.Node
	if units[0].b == 0 {
		d0, d1 = g.pairData(first)
	} else {
		d0, d1 = g.data(first, nfo, -1), g.data(units[0].b, nfo, -1)
	}
	members := map[uint64]bool{}
	for _, u := range units {
		members[u.a] = true
		if u.b != 0 {
			members[u.b] = true
		}
	}
	for m := range members {
		h.clearObj(m)
	}
	h.redirect(first, seg)
	put := func(off int64, c *memory.Node) {
		v := c.Val
		switch {
		case v.Obj == first:
			v.Obj = seg
		case memory.IsHeapish(v.Obj) && members[memory.SegBase(v.Obj)]:
			return
		}
		h.Mem = h.Mem.Put(seg, off, v, c.Size)
	}
	for _, c := range d0 {
		put(c.Off, c)
	}
	for _, c := range d1 {
		put(AltBase+c.Off, c)
	}
	h.Mem = h.Mem.Put(seg, PeriodOff, memory.Value{Bits: 2}, 1)
	if m := min(pairs, max(2, h.threshold/2)); m >= 2 {
		h.Mem = h.Mem.Put(seg, MetaMin, memory.Value{Bits: uint64(m)}, 1)
	}
	h.Mem = h.Mem.Put(seg, MetaNfo, memory.Value{Bits: uint64(nfo)}, 8)
	h.Mem = h.Mem.Put(seg, MetaHfo, memory.Value{Bits: uint64(hfo)}, 8)
	if hasNext {
		h.Mem = h.Mem.Put(seg, MetaNext, next, h.ptrBytes())
	}
}

// PairsAgree reports whether every segment of b is a pair segment in a
// exactly when it is one in b. Without the marker a segment's cells are
// data all its blocks share, with it data every other block shares: so
// a ⊑ b, and a cell of a join, need the same reading on both sides.
func PairsAgree(a, b *memory.Node) bool {
	ok := true
	var last uint64
	b.Ascend(memory.KindSeg<<memory.KindShift, math.MinInt64, (memory.KindSeg+1)<<memory.KindShift, math.MinInt64, func(n *memory.Node) bool {
		if n.Obj != last {
			last = n.Obj
			if IsPairSeg(a, n.Obj) != IsPairSeg(b, n.Obj) {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}
