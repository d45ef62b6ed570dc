package memory

import (
	"math"

	"github.com/reverify/reverify/engine/smt"
)

// Value is a scalar: an integer bit pattern (Obj == 0), a symbolic
// address, the byte offset Bits into the object Obj (pointers into
// variables, heap blocks, string literals; function designators with
// offset 0), or, in symbolic mode only (the value analysis's
// Options.Symbolic), a symbolic integer: Sym is a non-constant
// bit-vector term of the value's width (Obj and Bits are then 0).
// Unknown values are not represented: they are absent from the memory. Values are compared with ==: terms are
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
	KindNone uint64 = iota
	KindGlobal
	KindLocal
	KindHeap
	KindString
	KindFunc
)

// KindShift is the position of the kind bits.
const KindShift = 61

// ObjKind is the kind of object o.
func ObjKind(o uint64) uint64 { return o >> KindShift }

// GlobalObj is the global variable with Var.ID id.
func GlobalObj(id int) uint64 { return KindGlobal<<KindShift | uint64(uint32(id)) }

// LocalObj is the local variable with Var.ID id in the frame at depth.
func LocalObj(depth, id int) uint64 {
	return KindLocal<<KindShift | uint64(depth)<<32 | uint64(uint32(id))
}

// FrameRange is the key range [lo, hi) of the locals of the frame at
// depth.
func FrameRange(depth int) (lo, hi uint64) {
	return KindLocal<<KindShift | uint64(depth)<<32, KindLocal<<KindShift | uint64(depth+1)<<32
}

// HeapObj is the heap block number n of allocation site site (a Call
// edge ID).
func HeapObj(site int, n uint32) uint64 {
	return KindHeap<<KindShift | uint64(uint32(site)&0x1fffffff)<<32 | uint64(n)
}

// VarID is the Var.ID of a global or local object.
func VarID(o uint64) int { return int(uint32(o)) }

// FrameOf is the frame depth of a local object.
func FrameOf(o uint64) int { return int(o>>32) & 0x1fffffff }

// KindSeg objects are list segments (engine/analysis/smg), numbered
// like heap blocks.
const KindSeg uint64 = 6

// SegObj is the list segment number n of allocation site site.
func SegObj(site int, n uint32) uint64 {
	return KindSeg<<KindShift | uint64(uint32(site)&0x1fffffff)<<32 | uint64(n)
}

// ObjSite is the allocation site of a heap block or segment.
func ObjSite(o uint64) int { return int((o >> 32) & 0x1fffffff) }

// IsHeapish reports whether o is a heap block or a list segment.
func IsHeapish(o uint64) bool { k := ObjKind(o); return k == KindHeap || k == KindSeg }

// LastTag marks a pointer to the last block of a segment (in the
// allocation-number bits, which never reach 2³¹): Value{Obj: seg|LastTag}.
const LastTag uint64 = 1 << 31

// SegBase is the segment o designates, without LastTag.
func SegBase(o uint64) uint64 { return o &^ LastTag }

// IsLast reports whether o designates the last block of a segment.
func IsLast(o uint64) bool { return ObjKind(o) == KindSeg && o&LastTag != 0 }

// LastRef is the object ID of pointers to obj's last block.
func LastRef(obj uint64) uint64 {
	if ObjKind(obj) == KindSeg {
		return obj | LastTag
	}
	return obj
}

// KindMeta objects hold the metadata of the heap block with the same low
// bits: its size (8-byte cell at offset MetaSize) and status (8-byte cell
// at MetaStatus).
const KindMeta uint64 = 7

const (
	MetaSize   = 0
	MetaStatus = 8
)

// Block statuses.
const (
	StHeap   = 1 // allocated by malloc/calloc, not freed
	StFreed  = 2 // freed
	StDead   = 3 // a stack object (local, alloca block) whose frame was left
	StFailed = 4 // the block of a failed malloc (never seen by the program)
	StAlloca = 16
	// stAlloca + d: an alloca block of frame depth d
)

// DeadSite is the allocation site of the objects that stand for dead
// locals (HeapObj(DeadSite, Var.ID)).
const DeadSite = 0x1fffffff

const lowBits = 1<<KindShift - 1

// MetaObj is the metadata object of a heap block or of a list segment
// (engine/analysis/smg; a pointer to its last block names the segment
// too). A segment's metadata object carries LastTag, which no allocation number
// reaches, so that it differs from the one of a block with the same
// site and number; its size and status are those of every block of the
// segment (engine/analysis/smg, smg_mem.go).
func MetaObj(heap uint64) uint64 {
	if ObjKind(heap) == KindSeg {
		return KindMeta<<KindShift | SegBase(heap)&lowBits | LastTag
	}
	return KindMeta<<KindShift | heap&lowBits
}

// HeapOfMeta is the heap block or segment whose metadata m holds.
func HeapOfMeta(m uint64) uint64 {
	if m&LastTag != 0 {
		return KindSeg<<KindShift | m&lowBits&^LastTag
	}
	return KindHeap<<KindShift | m&lowBits
}

// MetaGet returns the metadata cell at off of heap block or segment heap
// (memory-safety mode), if it holds a known integer.
func (t *Node) MetaGet(heap uint64, off int64) (uint64, bool) {
	n := t.Get(MetaObj(heap), off)
	if n == nil || n.Val.Obj != 0 || n.Val.Sym != nil {
		return 0, false
	}
	return n.Val.Bits, true
}

// MetaPut returns t with the metadata cell at off of heap set to v.
func (t *Node) MetaPut(heap uint64, off int64, v uint64) *Node {
	return t.Put(MetaObj(heap), off, Value{Bits: v}, 8)
}

// DelObj returns t without the cells of object obj.
func (t *Node) DelObj(obj uint64) *Node {
	return t.DelRange(obj, math.MinInt64, obj+1, math.MinInt64)
}
