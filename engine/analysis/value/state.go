package value

import (
	"fmt"
	"math"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

// Value is a scalar: an integer bit pattern (Obj == 0), a symbolic
// address, the byte offset Bits into the object Obj (pointers into
// variables, heap blocks, string literals; function designators with
// offset 0), or, in symbolic mode only (Options.Symbolic), a symbolic
// integer: Sym is a non-constant bit-vector term of the value's width
// (Obj and Bits are then 0). Unknown values are not represented: they
// are absent from the state. Values are compared with ==: terms are
// hash-consed.
type Value struct {
	Obj  uint64
	Bits uint64
	Sym  *smt.Term
}

// Objects are encoded in a uint64: the kind in the top 3 bits, then, for
// locals, the call-frame depth in bits 32–60 and the Var.ID in the low 32
// bits; for globals the Var.ID; for heap blocks the allocation site (Call
// edge ID) in bits 32–60 and the allocation number in the low bits; for
// string literals and functions an interned number. All cells of one
// object, and all locals of one frame, are contiguous in key order.
const (
	kindNone uint64 = iota
	kindGlobal
	kindLocal
	kindHeap
	kindString
	kindFunc
)

const kindShift = 61

func objKind(o uint64) uint64 { return o >> kindShift }

func globalObj(id int) uint64 { return kindGlobal<<kindShift | uint64(uint32(id)) }

func localObj(depth, id int) uint64 {
	return kindLocal<<kindShift | uint64(depth)<<32 | uint64(uint32(id))
}

func frameRange(depth int) (lo, hi uint64) {
	return kindLocal<<kindShift | uint64(depth)<<32, kindLocal<<kindShift | uint64(depth+1)<<32
}

func heapObj(site int, n uint32) uint64 {
	return kindHeap<<kindShift | uint64(uint32(site)&0x1fffffff)<<32 | uint64(n)
}

func varID(o uint64) int { return int(uint32(o)) }

func frameOf(o uint64) int { return int(o>>32) & 0x1fffffff }

// State is the abstract state of the value analysis (seed 001, section
// 3.8.1): a partial map from memory cells to concrete values, persistent
// and shared between states; the depth of the current call frame; the
// number of heap allocations so far; the number of symbols created on the
// path (symbolic mode); and the reasons (sorted) why paths through this
// state are imprecise ("unmodelled f", "unsupported: …"). States are
// immutable.
type State struct {
	c       *CPA
	mem     *node
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
func (s *State) Len() int { return s.mem.len() }

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
	return (covers(a.mem, b.mem) || coversSegs(a, b)) && pairsAgree(a.mem, b.mem)
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
		j.mem = b.mem.filter(func(n *node) bool {
			m := a.mem.get(n.obj, n.off)
			return m != nil && m.val == n.val && m.size == n.size &&
				(objKind(n.obj) != kindSeg || isPairSeg(a.mem, n.obj) == isPairSeg(b.mem, n.obj)) // smg_period.go
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
	s.mem.each(func(n *node) bool {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(s.c.objName(n.obj, s.depth))
		if isMeta(n.off) {
			b.WriteString(metaNames[n.off-metaBase])
		} else if n.off != 0 {
			fmt.Fprintf(&b, "[%d]", n.off)
		}
		b.WriteByte('=')
		b.WriteString(s.c.valueString(n.val, n.size, s.depth))
		return true
	})
	b.WriteByte('}')
	if len(s.reasons) > 0 {
		b.WriteString(" ! " + cpa.JoinExplanations(s.reasons, "; "))
	}
	return b.String()
}

func (c *CPA) objName(o uint64, depth int) string {
	switch objKind(o) {
	case kindGlobal:
		return c.prog.Vars[varID(o)].Name
	case kindLocal:
		v := c.prog.Vars[varID(o)]
		if f := frameOf(o); f != depth {
			return fmt.Sprintf("%s@%d", v.Name, f)
		}
		return v.Name
	case kindHeap:
		return fmt.Sprintf("heap%d#%d", (o>>32)&0x1fffffff, uint32(o))
	case kindSeg:
		return segName(o)
	case kindString:
		return fmt.Sprintf("str%d", uint32(o))
	case kindFunc:
		return c.funcNames[uint32(o)]
	case kindMeta:
		return "meta(" + c.objName(heapOfMeta(o), depth) + ")" // memsafety.go
	}
	return fmt.Sprintf("obj%#x", o)
}

func (c *CPA) valueString(v Value, size uint8, depth int) string {
	if v.Sym != nil {
		if v.Obj != 0 {
			return "&" + c.objName(v.Obj, depth) + "+" + symString(v.Sym) // symptr.go
		}
		return symString(v.Sym)
	}
	if v.Obj == 0 {
		bits := int(size) * 8
		x := sext(v.Bits, bits)
		if x < 0 && x > math.MinInt32 {
			return fmt.Sprint(x)
		}
		return fmt.Sprint(v.Bits & mask(bits))
	}
	if objKind(v.Obj) == kindFunc && v.Bits == 0 {
		return "&" + c.funcNames[uint32(v.Obj)]
	}
	s := "&" + c.objName(v.Obj, depth)
	if isLast(v.Obj) {
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
// fills alike in every iteration.
func (s *State) Features(buf []uint64) []uint64 {
	for _, scalars := range []bool{true, false} {
		s.mem.each(func(n *node) bool {
			if s.c.scalarVar(n.obj) != scalars || n.off == metaMin && objKind(n.obj) == kindSeg {
				return true // minimum lengths compare by ≥ (coversSegs)
			}
			h := prio(n.obj^n.val.Obj*0x2545f4914f6cdd1d, n.off^int64(n.val.Bits*0x9e3779b97f4a7c15)^int64(n.size)<<56^int64(symID(n.val)))
			buf = append(buf, h)
			return true
		})
	}
	return buf
}

// scalarVar reports whether obj is a variable of scalar type.
func (c *CPA) scalarVar(obj uint64) bool {
	switch objKind(obj) {
	case kindGlobal, kindLocal:
		return c.prog.Vars[varID(obj)].T.IsScalar()
	}
	return false
}

// Int returns the value of the scalar variable v (a global, or a local of
// the current frame) interpreted by v's type (sign-extended for signed
// types), and whether it is known.
func (s *State) Int(v *cfa.Var) (int64, bool) {
	obj := globalObj(v.ID)
	if !v.Global {
		obj = localObj(s.depth, v.ID)
	}
	t := tx{c: s.c, s: *s, full: true}
	val, ok := t.load(addr{obj: obj, known: true, offKnown: true}, v.T)
	if !ok || val.Obj != 0 || val.Sym != nil {
		return 0, false
	}
	return intOf(val, v.T), true
}

// Pointer returns the target of the pointer variable v as a printable
// object name and byte offset ("a", 4), and whether it is known.
func (s *State) Pointer(v *cfa.Var) (string, int64, bool) {
	obj := globalObj(v.ID)
	if !v.Global {
		obj = localObj(s.depth, v.ID)
	}
	t := tx{c: s.c, s: *s, full: true}
	val, ok := t.load(addr{obj: obj, known: true, offKnown: true}, v.T)
	if !ok || val.Obj == 0 || val.Sym != nil {
		return "", 0, false
	}
	return s.c.objName(val.Obj, s.depth), sext(val.Bits, s.c.ptr), true
}
