// Package bmc decides reachability properties by bounded model checking
// over merged paths (DESIGN.md layer 6), with unwinding assertions that
// make a bounded run a proof and k-induction's step case on the same
// encoding (Clarke, Kroening, Lerda, "A tool for checking ANSI-C
// programs", TACAS 2004; Beyer, Dangl, Wendler, "A unifying view on
// SMT-based software verification", JAR 2018, sections 3 and 4).
//
// # Unrolling
//
// The CFA is unrolled to a bound k into a DAG whose nodes are a call
// stack and a location, each frame with the iteration count of every
// loop (a natural loop of a depth-first back edge) the location lies in:
// a back edge counts one more iteration, leaving a loop forgets its
// count, and calls are inlined (a function nested k times in itself is
// cut off). A step that would take a loop's back edge a (k+1)-th time in
// a row, or recurse deeper, is a cut-off arc: its reachability is the
// unwinding assertion. Error edges are error arcs. Every path of the DAG
// is a path of the CFA, and every CFA path either stays in the DAG or
// leaves it over a cut-off arc.
//
// # Encoding: large blocks
//
// The DAG is encoded in topological order by smt.Merger: each node joins
// the symbolic states arriving over its in-arcs into one (registers and
// memory objects if-then-else over the arriving guards, the guard a
// fresh variable for their disjunction), each arc applies its step to a
// copy with EncodePath's bit-precise semantics, and an assumption
// strengthens the guard. The formula has one block per DAG, not one per
// path: test_locks_N, with 2^N paths per loop iteration, grows linearly
// in N (BenchmarkLocks against engine/kinduction's path enumeration).
// Memory accesses through a pointer split over the objects its value
// set allows (smt's value sets).
//
// # Queries
//
// Each query goes to a fresh one-shot solver over the formula with its
// SSA definitions substituted away (smt.Merger.Query) and its arrays
// eliminated (engine/smt/arrayelim: every object is an SMT array whose
// versions are store chains and if-then-else at join points; as
// bit-vectors Z3 decides aws-c-common's array-list proofs in seconds
// where its array solver took minutes). Per bound:
//
//   - an error arc reachable without undefined behaviour: the model's
//     execution (the arcs whose guards hold, followed back from the
//     error arc) is checked by engine/cexcheck.CheckPathOpts (SMT and
//     concrete replay); only a confirmed one is FALSE;
//   - otherwise, whether an error after undefined behaviour, a step
//     outside the encoding (an *smt.EncodeError; a call of an unmodelled
//     function when functions with a body have escaped, which may call
//     them back) or a cut-off arc is reachable: none is TRUE, a cut-off
//     tries the next bound (1, 2, 4, … up to Options.MaxUnwind, or only
//     Options.Unwind), the others are UNKNOWN.
//
// A bound may skip its error query when that query costs much more than
// the cut-off query (deferral.go): it asks only whether a cut-off arc is
// reachable, and if one is, goes on to the next bound. The first and the
// last bound, and every bound that ends the cut-offs, run both; the
// error queries keep at least half of the time, so a FALSE comes at most
// about twice as late, and a TRUE needs an error query at its own bound
// as before. mlkem-native's contract checks, whose quantifier loops over
// 256 coefficients need bound 256, spend 2 s per bound on the error
// query and 0.2 s on the cut-offs.
//
// A loop's bound is the larger of the bound and its floor (floors.go):
// Options.Unwindset, CBMC's --unwindset by CBMC's loop ids, and the
// constant trip count of a loop outside the entry function. The bounds
// of the loops of strlen, strncmp and memcmp in CBMC's library
// (strlen.0, …) set how many bytes their models unroll on a block of
// non-constant size (smt.EncodeOptions.StringBytes). Floors make
// an unrolling larger, never a proof weaker: the unwinding assertions of
// every loop still decide.
//
// CheckAll decides the properties of one entry together: one unrolling
// per bound, a model violating several properties decides each of them,
// and an error arc of one property is an ordinary step for the others.
//
// # k-induction
//
// With Options.KInduction, a bound whose only reachable cut-offs are
// back edges of the entry function's loops tries the step case: for
// every cut point h (a loop head of the entry function), from an
// arbitrary state at h (smt.Merger.Havoc of the state of h's first
// visit in the base case: every register, and the contents and liveness
// of every object, fresh; sizes kept, as they never change) the
// unrolling counts cut point visits in the entry function's frame, and
// no error arc of the (k+1)-th segment may be reachable, nor a cut-off
// or a step outside the encoding. Error arcs end their executions (one
// property at a time), so the first k segments are error-free by
// construction. A loop whose iterations allocate memory (malloc,
// calloc, realloc, alloca in the step case's unrolling) gets no step
// case: the blocks of earlier iterations are not objects of the
// arbitrary state, and a havocked pointer to one would read another
// object's bytes.
//
// # Horn clauses
//
// With Options.Horn, where k-induction fails, the CFA is cut at the
// entry function's loop heads into loop-free segments (the unrolling
// with segment set: from the program's start, and from an arbitrary
// state at each loop head, up to the next loop head), each encoded as
// one large block; every segment becomes constrained Horn clauses over
// one relation per loop head (its state: smt.Merger.ShapeOf), and every
// error, cut-off and step outside the encoding implies false (horn.go).
// A solution found by smt.HornSolver (Z3's Spacer, IC3/PDR) is an
// inductive invariant per loop head: TRUE, with the solution's C-stateable
// conditions as witness candidates (horn_invariants.go). A segment that
// allocates inside a loop of the entry function gets no clauses (the
// clause of a segment that runs again would give the blocks of all its
// runs one address). Tries: hornTries.
//
// # Scope
//
// Everything EncodePath encodes: integers of any width, pointers and
// pointer arithmetic, arrays, structs, the heap, calls with bodies
// (inlined), recursion up to the bound, the modelled library. What it
// cannot encode is a step outside the encoding (UNKNOWN when reachable).
package bmc
