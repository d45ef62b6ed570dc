package value

import (
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
)

// Heap-value precision and shape precision: what CEGAR refines in the
// symbolic memory graphs of engine/analysis/smg (seed 001_7a124141fc78263e.txt,
// sections 4.2.5, 4.2.9 and 4.2.10).
//
// Heap fields. A ScopedPrecision entry named HeapFieldName(k),
// "<heap>+k", tracks the cells at byte offset k of every heap block and
// list segment (a field of the list's node type, whatever the allocation
// site) where the entry holds; HeapName tracks every heap cell (and
// string literals). Where some heap field is tracked, the heap is
// tracked: writes to heap blocks are kept, and the precision adjustment
// after each step forgets the cells at untracked offsets (their values
// become unknown) but keeps the segments' shape metadata. So blocks that
// differ only in untracked data have equal data cells and the list
// abstraction at the next loop head merges them into a segment (seed 001,
// section 4.2.5: "concrete values that are not part of the precision are
// replaced by unknown values" before abstraction). The value refiner
// (engine/cegar) learns fields: after interpolation has found that an
// interpolant needs heap cells, it forgets one field at a time and keeps
// only the fields without which the rest of the infeasible prefix would
// become feasible (section 4.2.9, heap value refinement, by field instead
// of by value: a field is stable across revisions of a program, a value
// is not).
//
// Shape. The refiner adds shape entries (engine/analysis/smg, shape.go:
// smg.ListsName, smg.ListsOff) when an error path is feasible for the
// value analysis with full precision but infeasible once list
// abstraction is off (the merge of blocks into a segment lost the length
// or the links that made it infeasible): it raises each loop head on the
// path where a segment exists one rung (smg.NextListThreshold).

// HeapFieldName returns the precision name of byte offset off of heap
// blocks: "<heap>+8".
func HeapFieldName(off int64) string { return HeapName + "+" + strconv.FormatInt(off, 10) }

// heapField parses HeapFieldName.
func heapField(name string) (int64, bool) {
	rest, ok := strings.CutPrefix(name, HeapName+"+")
	if !ok {
		return 0, false
	}
	off, err := strconv.ParseInt(rest, 10, 64)
	return off, err == nil
}

// isPrecisionName reports whether name is a name of the heap or of the
// shape (HeapName, HeapFieldName, smg.ListsName, smg.ListsOff).
func isPrecisionName(name string) bool {
	if name == HeapName || smg.IsShapeName(name) {
		return true
	}
	_, ok := heapField(name)
	return ok
}

// HeapFieldPrecision is implemented by precisions that track heap
// blocks field by field (ScopedPrecision).
type HeapFieldPrecision interface {
	// TracksHeapField reports whether byte offset off of heap blocks is
	// tracked at l.
	TracksHeapField(l *cfa.Location, off int64) bool
	// TracksSomeHeapField reports whether some heap field is tracked at l.
	TracksSomeHeapField(l *cfa.Location) bool
}

// FullValues tracks every value, like FullPrecision, with the list
// abstraction that Shape sets per loop head (nil: the default one), or
// none at all with NoLists. The value refiner runs error paths under it.
type FullValues struct {
	Shape   smg.ShapePrecision
	NoLists bool
}

// Tracks returns true.
func (FullValues) Tracks(*cfa.Location, *cfa.Var) bool { return true }

// Full returns true.
func (FullValues) Full() bool { return true }

// ListThreshold implements smg.ShapePrecision.
func (p FullValues) ListThreshold(l *cfa.Location) int {
	if p.NoLists {
		return smg.NoAbstraction
	}
	if p.Shape != nil {
		return p.Shape.ListThreshold(l)
	}
	return 0
}

func (p FullValues) String() string {
	if p.NoLists {
		return "full, no lists"
	}
	return "full"
}

// tracksName reports whether the entry name holds at l.
func (p *ScopedPrecision) tracksName(l *cfa.Location, name string) bool {
	return p.scopesHold(p.lookup("", name), l)
}

// TracksHeapField implements HeapFieldPrecision.
func (p *ScopedPrecision) TracksHeapField(l *cfa.Location, off int64) bool {
	if p == nil {
		return false
	}
	return p.scopesHold(p.heapFields[off], l)
}

// TracksSomeHeapField implements HeapFieldPrecision.
func (p *ScopedPrecision) TracksSomeHeapField(l *cfa.Location) bool {
	if p == nil {
		return false
	}
	for _, s := range p.heapFields {
		if p.scopesHold(s, l) {
			return true
		}
	}
	return false
}

// ListThreshold implements smg.ShapePrecision: the threshold of the
// shape entries that hold at l (smg.ThresholdAt).
func (p *ScopedPrecision) ListThreshold(l *cfa.Location) int {
	if p == nil || !p.hasLists {
		return 0
	}
	return smg.ThresholdAt(func(name string) bool { return p.tracksName(l, name) })
}

// listThreshold is the chain length the list abstraction of t merges.
func (t *tx) listThreshold() int {
	if sp, ok := t.prec.(smg.ShapePrecision); ok && t.loc != nil {
		if n := sp.ListThreshold(t.loc); n > 0 {
			return n
		}
	}
	return smg.MinChain
}

// heapTracked reports whether heap blocks are tracked at all at t.loc
// (some field or all of them).
func (t *tx) heapTracked() bool {
	if t.prec.Tracks(t.loc, nil) {
		return true
	}
	hf, ok := t.prec.(HeapFieldPrecision)
	return ok && hf.TracksSomeHeapField(t.loc)
}

// cellTracked reports whether the precision keeps cell n at t.loc: cells
// of heap blocks and segments by field (their shape metadata whenever
// the heap is tracked), the others by object.
func (t *tx) cellTracked(n *memory.Node) bool {
	if t.full {
		return true
	}
	if !memory.IsHeapish(n.Obj) {
		return t.tracked(n.Obj)
	}
	if t.prec.Tracks(t.loc, nil) {
		return true
	}
	hf, ok := t.prec.(HeapFieldPrecision)
	if !ok {
		return false
	}
	if smg.IsMeta(n.Off) || n.Off == smg.PeriodOff {
		return hf.TracksSomeHeapField(t.loc)
	}
	return hf.TracksHeapField(t.loc, smg.FieldOf(n.Off))
}

// HeapCells returns the byte offsets of the cells of heap blocks and
// list segments that s knows, sorted, and whether s knows cells of other
// objects that are not variables (string literals, memory-safety
// metadata). A segment's shape metadata counts as its link fields: the
// next-field offset (nfo) and, doubly linked, the prev-field offset
// (pfo), whose cells the segment stands for in every block it abstracts
// (its links, the next pointer of its last block, the prev pointer of
// its first). A path that a segment's shape refutes (a nested outer list
// folded by engine/analysis/smg (smg_nested.go) whose prev pointer the assertion reads) is
// refuted by the same fields of the concrete blocks in a state where the
// chain is not folded, and the analysis keeps those only where the
// fields are tracked. With ForgetHeapField it lets value interpolation
// (engine/cegar) keep only the heap fields an infeasible path needs.
func (s *State) HeapCells() (fields []int64, other bool) {
	seen := map[int64]bool{}
	add := func(off int64) {
		if !seen[off] {
			seen[off] = true
			fields = append(fields, off)
		}
	}
	s.mem.Each(func(n *memory.Node) bool {
		switch {
		case memory.IsHeapish(n.Obj):
			if (n.Off == smg.MetaNfo || n.Off == smg.MetaPfo) && n.Val.Obj == 0 && n.Val.Sym == nil {
				add(int64(n.Val.Bits))
			}
			if !smg.IsMeta(n.Off) && n.Off != smg.PeriodOff {
				add(smg.FieldOf(n.Off))
			}
		case memory.ObjKind(n.Obj) != memory.KindGlobal && memory.ObjKind(n.Obj) != memory.KindLocal:
			other = true
		}
		return true
	})
	sort.Slice(fields, func(i, j int) bool { return fields[i] < fields[j] })
	return fields, other
}

// ForgetHeapField returns s without the cells at byte offset off of heap
// blocks and list segments (s itself when it has none).
func (s *State) ForgetHeapField(off int64) *State {
	mem := s.mem.Filter(func(n *memory.Node) bool {
		return !memory.IsHeapish(n.Obj) || n.Off == smg.PeriodOff || smg.FieldOf(n.Off) != off
	})
	if mem == s.mem {
		return s
	}
	ns := *s
	ns.mem = mem
	return &ns
}

// HasListSegment reports whether s holds a list segment.
func (s *State) HasListSegment() bool { return smg.HasSeg(s.mem) }
