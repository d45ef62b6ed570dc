// Package symval is the symbolic mode of the value analysis: the
// symbolic values of symbolic execution (seed 000_f76fde50ed4a4828.txt,
// section 2.3, and the symbolic execution CPA of section 2.6.6; in
// CPAchecker terms the symbolic value factory that the value analysis
// calls out to) and symbolic offsets and sizes in its memory model (seed
// 001_7a124141fc78263e.txt, sections 3.9–3.10: objects with sizes and
// validity, offsets into them). It implements value.Symbolic; symbolic
// execution (engine/analysis/symbolic) owns it, and predicate
// abstraction (engine/analysis/predicate) uses it for the value memory
// it keeps. engine/analysis/value holds the explicit domain and the
// memory model and never imports this package: it calls the interface
// it declares, set in value.Options.Symbolic (nil for the explicit
// analysis), and lends each call the transfer in progress through the
// handle value.Tx (cells, object sizes, path conditions, memory
// violations, the symbol counter).
//
// # Values (values.go)
//
// An integer value the explicit analysis would not know is a term of the
// one smt.Builder given to New:
//
//   - nondeterministic inputs (Havoc, __VERIFIER_nondet_*), volatile
//     reads and results of unmodelled functions are fresh symbols;
//   - a read of memory the state knows nothing about (an uninitialised
//     local, a parameter of the entry function, a cell forgotten by a
//     havoc) materialises fresh symbols and stores them, so later reads
//     agree; absent cells therefore still mean "any value" and the order
//     ⊑ of the explicit analysis stays sound;
//   - operations with a symbolic operand build terms with the C semantics
//     of engine/smt (CBinary, CUnary, CCast, CCompare); undefined
//     operations give "undef" symbols where they are undefined;
//   - a symbolic array index reads and writes arrays of at most
//     Options.MaxIteCells elements through if-then-else over the
//     elements (a read out of bounds gives a fresh symbol); larger
//     arrays, and pointers indexed, get a symbolic byte offset;
//   - Assume records its condition as a Bool term (value.Tx.Assume)
//     instead of taking both branches blindly; value.CPA.Transfer hands
//     it to the caller, which owns the path constraints.
//
// Symbols are named label#k where k counts the symbols created on the
// path (value.Tx.NewSymbol): unique on each path, and equal on paths
// that create them alike, which is what lets stop find equal memory on
// different paths. A symbolic integer converted to a pointer is unknown.
//
// # Offsets (offsets.go)
//
// A pointer into a known object may have a symbolic byte offset, the
// value Value{Obj: o, Sym: off} (memory.PtrValue): its arithmetic and
// comparisons are terms over the offset, reads and writes through it are
// if-then-else over the object's cells, and memset, memcpy and memmove
// of a symbolic length or at a symbolic offset rewrite each byte of a
// small destination by an if-then-else on the range.
//
// # Bounds (bounds.go)
//
// With memory checks (value.Options.Memory) a block of symbolic size
// keeps its size as a term, and an access whose bound the state does not
// decide splits the step into an in-bounds successor and a violating one,
// each with its condition assumed (value.Tx.Split); symbolic execution
// drops whichever its path constraints make infeasible.
//
// # Example
//
// For
//
//	int a[4]; int i = __VERIFIER_nondet_int(); a[i] = 7; int x = a[2];
//
// the store through the symbolic index writes every element k as
// ite(nondet_int#0 = k, 7, a[k]) (a[k] itself a fresh symbol a#1… when
// unknown), so the state holds x = ite(nondet_int#0 = 2, 7, a#…) (shortened); with
// memory checks the store is split by 0 ≤ nondet_int#0 < 4 into an
// in-bounds successor and a valid-deref violation.
package symval
