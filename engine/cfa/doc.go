// Package cfa is reverify's intermediate representation: control-flow
// automata (CFA), one per C function, whose edges carry typed, side-effect
// free operations (seed 000_f76fde50ed4a4828.txt, section 2.2: a CFA is
// (L, l0, G) with G ⊆ L × Ops × L; seed 003_63b5314914713559.txt,
// section 3.1).
//
// A Program holds the functions with bodies, the globals (initialised by
// the pseudo-function Init, which analyses run before the entry function),
// the externally defined functions, and a fingerprint per top-level
// definition for change analysis. Only engine/frontend builds Programs from
// C; tests build them by hand with NewProgram, NewFunction, NewLocation,
// NewVar and AddEdge.
//
// Invariants, checked by Program.Check (always on in tests):
//   - each function has one entry without in-edges and one exit without
//     out-edges; every location is reachable from the entry or marked Dead;
//   - a location has either one non-assume out-edge or a complementary
//     pair of Assume edges sharing one condition;
//   - expressions are side-effect free and fully typed, with C's integer
//     promotions and usual arithmetic conversions explicit as Casts;
//   - every edge keeps its source Range and original source Text.
//
// Calls are edges from the call site to the return site; analyses enter a
// callee's CFA themselves (see Step). An interprocedural path is a []Step.
//
// The stable text form (Program.Text), used by golden tests and
// `reverify cfa`, looks like:
//
//	func main() int  // loop.c
//	  entry L0 exit L1
//	  L0 -> L2  decl int x  @3:3
//	  L2 -> L3*  x = 0  @3:7
//	  L3 -> L4  [x < 10]  @4:10
//	  L3 -> L5  [!(x < 10)]  @4:10
//	  L4 -> L3*  x = x + 1  @4:20
//	  L5 -> L1  return 0  @5:3
//
// A "*" marks a loop head (the target of a back edge of the depth-first
// search from the entry, graph.BackEdgeTargets).
//
// # Call graph
//
// NewCallGraph builds the program's one call graph on engine/graph
// (callgraph.go), over the global initialiser and the functions with a
// body; the caller chooses how a call through a pointer is resolved: by
// points-to sets (engine/pdg) or by SyntacticTargets, every function
// whose address is taken (engine/spec's reachable functions, diffslice's
// call distances). A call of an unmodelled function without a body may
// call back under both (extern.go).
package cfa
