package value

import (
	"fmt"
	"math"
	"strings"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// State is the abstract state of the value analysis (seed 001, section
// 3.8.1): a partial map from memory cells to concrete values, persistent
// and shared between states; the depth of the current call frame; the
// number of heap allocations so far; the number of symbols created on the
// path (symbolic mode); and the reasons (sorted) why paths through this
// state are imprecise ("unmodelled f", "unsupported: …"). States are
// immutable.
type State struct {
	c       *CPA
	mem     *memory.Node
	depth   int
	allocs  uint32
	syms    uint32
	reasons []cpa.Explanation
}

// Explain returns the reasons (cpa.Explainer).
func (s *State) Explain() []cpa.Explanation { return s.reasons }

// Depth returns the call-frame depth.
func (s *State) Depth() int { return s.depth }

// Len returns the number of known memory cells (O(n)).
func (s *State) Len() int { return s.mem.Len() }

// lessOrEqual: a ⊑ b iff they are in the same frame with the same
// allocations, b's reasons include a's, and every cell b knows, a knows
// with the same value (fewer known values cover more).
func lessOrEqual(a, b *State) bool {
	if a == b {
		return true
	}
	if a.depth != b.depth || a.allocs != b.allocs || !cpa.SubsetExplanations(a.reasons, b.reasons) {
		return false
	}
	return (memory.Covers(a.mem, b.mem) || smg.CoversSegs(a.mem, b.mem)) && smg.PairsAgree(a.mem, b.mem)
}

// join keeps the cells on which a and b agree.
func joinStates(a, b *State) (*State, bool) {
	if a.depth != b.depth {
		return nil, false
	}
	j := &State{c: b.c, depth: b.depth, allocs: max(a.allocs, b.allocs), reasons: cpa.UnionExplanations(a.reasons, b.reasons)}
	if a.mem == b.mem {
		j.mem = b.mem
	} else {
		j.mem = b.mem.Filter(func(n *memory.Node) bool {
			m := a.mem.Get(n.Obj, n.Off)
			return m != nil && m.Val == n.Val && m.Size == n.Size &&
				(memory.ObjKind(n.Obj) != memory.KindSeg || smg.IsPairSeg(a.mem, n.Obj) == smg.IsPairSeg(b.mem, n.Obj)) // segments of pairs (smg_period.go in engine/analysis/smg)
		})
	}
	if j.mem == b.mem && j.allocs == b.allocs && len(j.reasons) == len(b.reasons) {
		return b, true
	}
	return j, true
}

// String lists the known cells in key order, e.g.
// "{x=1, a[4]=7, p=&a+8, main::y@1=-3}": variables by name (locals of
// outer frames with "@depth"), heap blocks as "heap17#0", offsets in
// bytes.
func (s *State) String() string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	s.mem.Each(func(n *memory.Node) bool {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(s.c.objName(n.Obj, s.depth))
		if smg.IsMeta(n.Off) {
			b.WriteString(smg.MetaNames[n.Off-smg.MetaBase])
		} else if n.Off != 0 {
			fmt.Fprintf(&b, "[%d]", n.Off)
		}
		b.WriteByte('=')
		b.WriteString(s.c.valueString(n.Val, n.Size, s.depth))
		return true
	})
	b.WriteByte('}')
	if len(s.reasons) > 0 {
		b.WriteString(" ! " + cpa.JoinExplanations(s.reasons, "; "))
	}
	return b.String()
}

func (c *CPA) objName(o uint64, depth int) string {
	switch memory.ObjKind(o) {
	case memory.KindGlobal:
		return c.prog.Vars[memory.VarID(o)].Name
	case memory.KindLocal:
		v := c.prog.Vars[memory.VarID(o)]
		if f := memory.FrameOf(o); f != depth {
			return fmt.Sprintf("%s@%d", v.Name, f)
		}
		return v.Name
	case memory.KindHeap:
		return fmt.Sprintf("heap%d#%d", (o>>32)&0x1fffffff, uint32(o))
	case memory.KindSeg:
		return smg.SegName(o)
	case memory.KindString:
		return fmt.Sprintf("str%d", uint32(o))
	case memory.KindFunc:
		return c.funcNames[uint32(o)]
	case memory.KindMeta:
		return "meta(" + c.objName(memory.HeapOfMeta(o), depth) + ")" // memsafety.go
	}
	return fmt.Sprintf("obj%#x", o)
}

func (c *CPA) valueString(v memory.Value, size uint8, depth int) string {
	if v.Sym != nil {
		if v.Obj != 0 {
			return "&" + c.objName(v.Obj, depth) + "+" + symString(v.Sym) // a symbolic offset
		}
		return symString(v.Sym)
	}
	if v.Obj == 0 {
		bits := int(size) * 8
		x := memory.Sext(v.Bits, bits)
		if x < 0 && x > math.MinInt32 {
			return fmt.Sprint(x)
		}
		return fmt.Sprint(v.Bits & memory.Mask(bits))
	}
	if memory.ObjKind(v.Obj) == memory.KindFunc && v.Bits == 0 {
		return "&" + c.funcNames[uint32(v.Obj)]
	}
	s := "&" + c.objName(v.Obj, depth)
	if memory.IsLast(v.Obj) {
		s += ".last"
	}
	if off := int64(v.Bits); off != 0 {
		s += fmt.Sprintf("%+d", off)
	}
	return s
}

// Features appends one hash per known cell (object, offset, value, size):
// if a ⊑ b, every cell of b is a cell of a (cpa.Featured). Cells of
// scalar variables come first: the reached set files a state under the
// first of its features with the smallest bucket, and a loop counter
// tells states apart better than the elements of an array that the loop
// fills alike in every iteration. Cells of other objects are bulk
// features (cpa.BulkFeature).
func (s *State) Features(buf []uint64) []uint64 {
	for _, scalars := range []bool{true, false} {
		s.mem.Each(func(n *memory.Node) bool {
			if s.c.scalarVar(n.Obj) != scalars || n.Off == smg.MetaMin && memory.ObjKind(n.Obj) == memory.KindSeg {
				return true // minimum lengths compare by ≥ (smg.CoversSegs)
			}
			h := memory.Prio(n.Obj^n.Val.Obj*0x2545f4914f6cdd1d, n.Off^int64(n.Val.Bits*0x9e3779b97f4a7c15)^int64(n.Size)<<56^int64(symID(n.Val)))
			if scalars {
				h &^= cpa.BulkFeature
			} else {
				h |= cpa.BulkFeature
			}
			buf = append(buf, h)
			return true
		})
	}
	return buf
}

// scalarVar reports whether obj is a variable of scalar type.
func (c *CPA) scalarVar(obj uint64) bool {
	switch memory.ObjKind(obj) {
	case memory.KindGlobal, memory.KindLocal:
		return c.prog.Vars[memory.VarID(obj)].T.IsScalar()
	}
	return false
}

// Int returns the value of the scalar variable v (a global, or a local of
// the current frame) interpreted by v's type (sign-extended for signed
// types), and whether it is known.
func (s *State) Int(v *cfa.Var) (int64, bool) {
	obj := memory.GlobalObj(v.ID)
	if !v.Global {
		obj = memory.LocalObj(s.depth, v.ID)
	}
	t := tx{c: s.c, s: *s, full: true}
	val, ok := t.load(Addr{Obj: obj, Known: true, OffKnown: true}, v.T)
	if !ok || val.Obj != 0 || val.Sym != nil {
		return 0, false
	}
	return IntOf(val, v.T), true
}

// Pointer returns the target of the pointer variable v as a printable
// object name and byte offset ("a", 4), and whether it is known.
func (s *State) Pointer(v *cfa.Var) (string, int64, bool) {
	obj := memory.GlobalObj(v.ID)
	if !v.Global {
		obj = memory.LocalObj(s.depth, v.ID)
	}
	t := tx{c: s.c, s: *s, full: true}
	val, ok := t.load(Addr{Obj: obj, Known: true, OffKnown: true}, v.T)
	if !ok || val.Obj == 0 || val.Sym != nil {
		return "", 0, false
	}
	return s.c.objName(val.Obj, s.depth), memory.Sext(val.Bits, s.c.ptr), true
}
