// Package memory is the memory model of the value analysis
// (engine/analysis/value) and of the list abstraction over it
// (engine/analysis/smg): cells, objects and scalar values, as the
// explicit-value domain of seed 001_7a124141fc78263e.txt, section 3.8.1,
// and the objects with sizes and validity of its sections 3.9–3.10 need
// them.
//
// # Cells
//
// A memory is a persistent map from cells, keyed by (object, byte
// offset), to scalars of 1–8 bytes (Node, tree.go): a treap whose
// priorities are a hash of the key (Prio), so that a set of keys has
// exactly one shape. Equal maps built along different paths share
// structure, every update copies only the path to the changed cell, and
// Covers (every cell of b is a cell of a) skips subtrees both maps
// share: comparing a state with one derived from it costs about the cells
// changed in between. A nil *Node is the empty memory; nodes are never
// modified after they are published.
//
// # Values
//
// A Value is an integer bit pattern (Obj == 0), a symbolic address (the
// byte offset Bits into the object Obj), or, in symbolic mode, a
// bit-vector term of engine/smt (Sym; with Obj set, a pointer with a
// symbolic offset). Unknown values are absent from the memory.
//
// # Objects
//
// Objects are encoded in a uint64 (object.go): the kind in the top 3
// bits (KindGlobal, KindLocal, KindHeap, KindString, KindFunc, KindSeg
// for the list segments of engine/analysis/smg, KindMeta for metadata),
// then, for locals, the call-frame depth and the Var.ID (so recursion
// keeps frames apart); for globals the Var.ID; for heap blocks and
// segments the allocation site (a Call edge ID) and the allocation
// number; for string literals and functions an interned number. All
// cells of one object, and all locals of one frame, are contiguous in key
// order (FrameRange, DelObj). A pointer to the last block of a segment
// carries LastTag.
//
// The metadata object of a heap block or segment (MetaObj, memory-safety
// mode) holds its size in bytes at MetaSize (a known constant or a term)
// and its status at MetaStatus (StHeap, StFreed, StDead, StFailed,
// StAlloca plus a frame depth), as cells like any other, so that merge
// and coverage treat them like values. Dead locals are heap objects of
// DeadSite.
package memory
