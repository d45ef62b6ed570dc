// Package value is the explicit-value analysis (seed
// 001_7a124141fc78263e.txt, section 3.8.1: abstract states are partial
// maps from memory to concrete values; unknown values are absent; Assume
// is decided on concrete values, and equalities refine unknowns).
//
// # Semantics
//
// Machine integers of every C width up to 64 bits and both signednesses,
// with the concrete semantics of engine/cfa/csem (gcc -fwrapv: wrap-around,
// truncating division, arithmetic right shift of signed values, sign and
// zero extension, _Bool conversion as != 0). Undefined operations
// (division by zero, INT_MIN / -1, shift counts out of range) give an
// unknown value, never a panic. Floating point and __int128 are unknown.
//
// # Memory model
//
// Cells are keyed by (object, byte offset) and hold scalars of 1–8 bytes.
// Objects are globals (by Var.ID), locals (Var.ID and call-frame depth, so
// recursion keeps frames apart; Leave drops the callee's frame), heap
// blocks (allocation site and allocation number) and string literals
// (their bytes are read from the literal). Pointer values are symbolic
// addresses (object, offset); function pointers designate functions.
// Arrays and structs are laid out by the front end's offsets; reads may
// assemble integers from byte cells and vice versa (little-endian), and a
// partial overwrite keeps the other bytes. Unknown offsets make the whole
// object unknown on write; a write through an unknown pointer forgets
// every object a pointer may designate (address-taken variables, heap
// blocks, string literals), keeping variables whose address is never
// taken. The map is a persistent treap whose shape depends only on its
// keys (engine/analysis/memory): successors share all untouched cells
// with their predecessor.
//
// # List segments
//
// The heap is a symbolic memory graph in the sense of seed 001 (sections
// 3.9–3.11), kept by engine/analysis/smg in the same cells: besides
// concrete blocks, a heap object may be a singly or doubly linked list
// segment of at least its minimum length, nested lists fold into
// segments with a template sub-structure, and chains alternating two data
// vectors into segments of pairs. At loop heads (unless
// Options.NoListAbstraction) the state is abstracted (smg.Heap.Abstract)
// with the chain length the precision sets there, so that the cell-wise
// stop and join above work on shapes; a dereference of a segment
// materialises a concrete block, and a segment of one block or more
// splits the step into its two cases (lists.go). Shapes that cannot be
// folded (trees of one allocation site) are named in the reason of an
// incomplete run (CPA.ShapeNotes, shapes.go). Under CEGAR the precision
// may track heap blocks field by field ("<heap>+k") and set the chain
// length the abstraction merges per loop head ("<lists>6", "<lists>12",
// "<lists>off"); see smg_refine.go.
//
// # Memory safety
//
// With Options.Memory (memsafety.go; seed 001, sections 3.9–3.10:
// objects with sizes and validity) heap blocks carry their size and
// status (allocated, freed, alloca of a frame, dead) in cells of a
// metadata object beside them, so merge and stop treat them like
// values; pointers into a frame that is left, or to a local whose
// declaration runs again, become pointers to dead objects. Every memory
// access of a step (through a pointer or an array subscript, and the
// ranges of the library models) is checked before the step, free's
// argument when it runs, lost blocks (no known pointer from the globals
// and live frames reaches them) and blocks left at the end after it. A
// certain violation makes the state a target (State.IsTarget,
// MemoryViolation, MemoryViolations); an undecided check records
// "memory: cannot prove …" and is reported to MemChecks.Undecided with
// its edge (the engine's per-site properties). In symbolic mode a block
// of symbolic size keeps its size as a term, and a bound the state does
// not decide splits the step into an in-bounds successor and a violating
// one, each with its condition assumed (Symbolic.CheckBounds and
// Tx.Split).
//
// # Calls
//
// Calls into functions with bodies bind parameters in a new frame (Enter)
// and copy the result back (Leave). Calls without body follow
// cfa.Program.Extern: the library models of lib.go (memset, memcpy,
// memmove, memcmp, strlen, strcmp, strncmp, strcpy, strncpy, strchr,
// abs/labs/llabs, toupper/tolower and the ctype classifications with
// cfa.CtypeValue, malloc and calloc — fresh blocks; Options.MallocMayFail
// adds a NULL successor —, free as a no-op; comparisons are known only
// when equal), output and error functions (no effect), functions declared
// pure (unknown result, no effect), __VERIFIER_nondet_* (unknown result),
// __VERIFIER_assume. Any other function havocs its result, every global,
// every address-taken variable of every frame and every heap block
// (cfa.UnmodelledWrites), explains a cpa.Callback (no TRUE) when the
// program takes the address of a function with a body, and the state
// explains a cpa.Unmodelled call of f. Unsupported edges explain a
// cpa.Unsupported construct at their position and otherwise change
// nothing: a FALSE through them must be reported UNKNOWN, and a Safe run
// must be qualified by cpa.Algorithm.Explanations. Memory checks explain
// cpa.MemViolation and cpa.MemUndecided (the property, the position, the
// detail). Explanations are typed (cpa.Explanation): the engine decides
// on their kinds, names and positions, never on their text.
//
// # Precision, merge, stop
//
// A Precision says which variables are tracked (FullPrecision, or a
// VarPrecision of qualified names "g" and "f::x", globally or per
// location, plus heap objects); values of untracked variables are never
// stored, except variables holding only function pointers (callbacks,
// tables and structs of hooks), which every precision tracks: an unknown
// function pointer enters every address-taken function and makes up call
// cycles (onlyFuncPointers). Merge is merge-sep by default; Join (for merge-join) keeps the
// cells both states agree on. Stop is stop-sep with LessOrEqual: a state
// with fewer known values (and at least the same reasons) covers one with
// more that agree; State.Features lets the reached set index candidates.
//
// # Symbolic mode
//
// With Options.Symbolic set, the same memory model serves symbolic
// execution (engine/analysis/symbolic; seed 000, sections 2.3 and
// 2.6.6) and predicate abstraction (engine/analysis/predicate): a Value
// may carry a term instead of bits, integer values that would be unknown
// are fresh symbols or terms with the C semantics of engine/smt, reads
// of unknown memory materialise symbols, an array index or a pointer
// offset may be a term (Addr.Index, Addr.SymOff), and Transfer reports
// the symbolic conditions each Assume took. This package builds no term:
// it calls the extension interface Symbolic (symbolic.go) at each of
// these points, lending it the transfer in progress through the handle
// Tx, and engine/analysis/symbolic/symval, which symbolic execution
// owns, implements it (as CPAchecker's value analysis calls its symbolic
// value factory). Without it no term is ever built, and the analysis is
// the explicit one described above.
//
// # Invariants
//
// State.Invariant (cpa.InvariantReporter) reports the known integer
// values and null pointers of the visible variables as C conditions
// ("x == 5", "p == 0"); the engine makes the loop invariants of
// correctness witnesses from them.
//
// # Example
//
// After `unsigned char uc = 250; uc += 10; short s = -70000; arr[2] = 42;
// p = &arr[2];` the state prints as
//
//	{uc=4, s=-4464, p=&arr+8, arr[8]=42}
//
// (cells in key order, offsets in bytes; locals of outer frames as "x@1",
// heap blocks as "heap12#0", reasons after " ! ").
//
// Known limitations: pointers into a returned frame dangle silently;
// objects in cells unknown to the analysis are not scanned when an
// unmodelled function is called; printf's %n is not modelled.
package value
