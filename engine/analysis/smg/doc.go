// Package smg is the shape part of symbolic memory graphs (seed
// 001_7a124141fc78263e.txt, sections 3.9–3.11 and chapter 4; Dudka,
// Peringer, Vojnar, "Byte-precise verification of low-level list
// manipulation", SAS 2013): linked lists abstracted into list segments
// and materialised again on dereference, over the cells and objects of
// engine/analysis/memory. The value analysis (engine/analysis/value)
// lends a state's memory to a Heap and takes it back.
//
// # Segments
//
// A list segment (memory.KindSeg) stands for a chain of at least one,
// and at least its minimum length, heap blocks of one allocation site,
// singly or doubly linked through one next (and prev) field. Its cells
// at ordinary offsets are the data all its blocks share; its shape (the
// minimum length, next-field, head and prev-field offsets, the pointers
// leaving its ends) lives in cells at offsets MetaBase+k that no C access
// reaches (smg.go). Nested lists (smg_nested.go): blocks that differ only
// in pointers to sub-structures each owns fold into a segment whose data
// cell points to one template of the sub-structure (NestTag), copied
// fresh into every materialised block. Chains alternating two data
// vectors become segments of pairs (smg_period.go). In memory-safety
// mode (Heap.Memory) segments carry the size and status of their blocks
// in metadata objects (smg_mem.go).
//
// # Operations
//
//   - Abstract, at loop heads: chains of at least a threshold of blocks
//     (MinChain by default; the shape precision raises it, NoAbstraction
//     switches it off: shape.go, the precision entries ListsName and
//     ListsOff that CEGAR adds one rung at a time, NextListThreshold, and
//     ShapePrecision, which the value analysis's precisions implement) with equal data and no pointer
//     from outside into their inner blocks become segments, unreachable
//     heap objects are dropped, and the heap is renamed canonically, so
//     that the cell-wise stop and join of the value analysis work on
//     shapes (CoversSegs: a segment's minimum length compares by ≥).
//   - Deref, on dereference: a segment of at least two blocks
//     materialises its first (or last) block in place; one of at least
//     one block needs a case split (Heap.Split), whose two cases SplitSeg
//     returns.
//   - EndsCompare, SegReached: comparisons of the two ends of a segment
//     and memtrack's reachability of its blocks, in memory-safety mode.
//
// Dropping any cell stays sound: a segment whose shape cells are gone is
// read as unknown and written as unknown memory.
package smg
