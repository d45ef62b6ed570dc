// Package reduce shrinks a cfa.Program for one property before the
// analyses run: the size-reduction passes of seed 002
// (/work/shared/seeds/002_0b385698e7d47eb0.txt, "per-assertion CFA
// reduction"): backward slicing (the slice program of engine/pdg),
// constant propagation and folding, dead-branch elimination, and the
// removal of no-op chains and unreachable locations.
//
// Reduce works on a copy (Clone): the original program is never changed,
// and the copy shares its variables, types and expressions. Every pass
// preserves the property's verdict in one direction: every execution of
// the original program that reaches an error edge has a counterpart in
// the reduced program reaching the corresponding error edge, so TRUE on
// the reduced program is TRUE on the original. The reverse does not hold
// for slicing (a sliced loop may exit where the original never does), so
// a FALSE or UNKNOWN on a reduced program is not a verdict: engine
// verifies the original program then, and every counterexample, witness
// and reproducer refers to the original program.
//
// Bodiless functions, volatile reads and entry parameters: slicing keeps
// every edge engine/pdg puts in the slice (its rule for calls without a
// body is cfa.Program.Extern and cfa.UnmodelledWrites), every Unsupported
// edge, every Decl, and every write through a pointer the points-to
// analysis cannot resolve together with its own slice (as the slicing CPA
// does, engine/analysis/slicing). Constant propagation only tracks locals
// whose address is never taken and that are not volatile, which no call
// can write.
package reduce
