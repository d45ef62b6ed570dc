// Package reduce shrinks a cfa.Program for one property before the
// analyses run: the size-reduction passes of seed 002
// (/work/shared/seeds/002_0b385698e7d47eb0.txt, "per-assertion CFA
// reduction"): backward slicing (the slice program of engine/pdg), thin
// and value slicing (thin.go), function inlining (inline.go), constant
// propagation and folding, dead-branch elimination, and the removal of
// no-op chains and unreachable locations. Lift maps an error path of the
// reduced program back to the original program.
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
// and reproducer refers to the original program. Inlining alone is
// exact (the copy has the call's semantics).
//
// Thin and value slices and their refinement (seed 002, section 2.4):
// the seed treats a thin slice as an abstraction whose spurious
// counterexamples are removed by adding abstracted branches to the
// criterion. Here the argument for TRUE does not depend on the
// refinement: a thin or value slice keeps the CFA skeleton, turns every
// branch outside it into a nondeterministic branch and keeps every flow
// (and base-pointer) dependence of what it keeps, so it is an
// over-approximation like the backward slice, and TRUE on it is a proof
// at every round. Only FALSE needs the refinement argument: a FALSE on a
// reduced program is a verdict only after Lift gives a path of the
// original program that engine/cexcheck.CheckPath finds Feasible (SMT and
// concrete replay on the original). When it is not, the branches the
// path took nondeterministically (Abstracted) join the criterion and the
// program is sliced again (value slicing, RefinePasses); each round
// keeps strictly more branches, and after a bounded number of rounds the
// backward slice, then the original program, decide: the loop ends, and
// no verdict rests on an unchecked reduced path.
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
