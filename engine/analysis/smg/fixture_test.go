package smg

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
)

// fixture builds heaps over two pointer globals, head and p (64-bit
// pointers), as the value analysis lends them (Heap), in memory-safety
// mode when memory is set.
type fixture struct {
	head, p uint64
	memory  bool
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return &fixture{head: memory.GlobalObj(1), p: memory.GlobalObj(2)}
}

// newMemFixture is newFixture in memory-safety mode (Heap.Memory), so
// that heap blocks carry metadata.
func newMemFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.memory = true
	return f
}

const site = 5

func ptrTo(o uint64, off int64) memory.Value { return memory.Value{Obj: o, Bits: uint64(off)} }

// seg puts a segment of minimum length min (1: no cell) with next field
// 0, prev field pfo (-1: singly linked), data cell [16]=data.
func (f *fixture) seg(mem *memory.Node, n uint32, min uint64, pfo int64, next, prev *memory.Value, data uint64) (*memory.Node, uint64) {
	s := memory.SegObj(site, n)
	if min >= 2 {
		mem = mem.Put(s, MetaMin, memory.Value{Bits: min}, 1)
	}
	mem = mem.Put(s, MetaNfo, memory.Value{}, 8).Put(s, MetaHfo, memory.Value{}, 8)
	if pfo >= 0 {
		mem = mem.Put(s, MetaPfo, memory.Value{Bits: uint64(pfo)}, 8)
		if prev != nil {
			mem = mem.Put(s, MetaPrev, *prev, 8)
		}
	}
	if next != nil {
		mem = mem.Put(s, MetaNext, *next, 8)
	}
	return mem.Put(s, 16, memory.Value{Bits: data}, 4), s
}

// state is the heap of mem with allocs allocations.
func (f *fixture) state(mem *memory.Node, allocs uint32) *Heap {
	return &Heap{Mem: mem, Allocs: allocs, Ptr: 64, Memory: f.memory}
}

// show prints the cells of h in key order as the value analysis prints
// a state: "{head=&heap5#1, heap5#1=&seg5#0, seg5#0.min=2, seg5#0[16]=1}".
func show(h *Heap) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	h.Mem.Each(func(n *memory.Node) bool {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(objName(n.Obj))
		if IsMeta(n.Off) {
			b.WriteString(MetaNames[n.Off-MetaBase])
		} else if n.Off != 0 {
			fmt.Fprintf(&b, "[%d]", n.Off)
		}
		b.WriteByte('=')
		b.WriteString(valueString(n.Val, n.Size))
		return true
	})
	b.WriteByte('}')
	return b.String()
}

func objName(o uint64) string {
	switch memory.ObjKind(o) {
	case memory.KindGlobal:
		return map[int]string{1: "head", 2: "p"}[memory.VarID(o)]
	case memory.KindHeap:
		return fmt.Sprintf("heap%d#%d", memory.ObjSite(o), uint32(o))
	case memory.KindSeg:
		return SegName(o)
	case memory.KindMeta:
		return "meta(" + objName(memory.HeapOfMeta(o)) + ")"
	}
	return fmt.Sprintf("obj%#x", o)
}

func valueString(v memory.Value, size uint8) string {
	if v.Obj == 0 {
		bits := int(size) * 8
		x := memory.Sext(v.Bits, bits)
		if x < 0 && x > math.MinInt32 {
			return fmt.Sprint(x)
		}
		return fmt.Sprint(v.Bits & memory.Mask(bits))
	}
	s := "&" + objName(v.Obj)
	if memory.IsLast(v.Obj) {
		s += ".last"
	}
	if off := int64(v.Bits); off != 0 {
		s += fmt.Sprintf("%+d", off)
	}
	return s
}
