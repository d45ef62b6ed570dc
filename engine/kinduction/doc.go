// Package kinduction decides reachability properties by k-induction over
// the CFA (DESIGN.md layer 6), as CPAchecker's and ESBMC's k-induction do
// (Donaldson, Haller, Kroening, Rümmer, "Software verification using
// k-induction", SAS 2011; Beyer, Dangl, Wendler, "Boosting k-induction
// with continuously-refined invariants", CAV 2015), bit-precisely via
// engine/smt.
//
// # Cut points and the two cases
//
// The cut points are the loop heads of the entry function. A state at a
// cut point is P-safe when no error edge is reachable from it before the
// next cut point (or the end of the program). For k = 1, 2, … (up to
// Options.MaxK and the context's deadline):
//
//   - base case: every path from the program's start that visits at most
//     k cut points and reaches an error edge is checked by
//     engine/cexcheck.CheckPathOpts (bit-precise SMT and concrete replay);
//     a feasible one is FALSE with that path as counterexample. When no
//     feasible path reaches a (k+1)-th cut point visit, every execution
//     has been enumerated and an error-free base case is TRUE;
//   - step case: from an arbitrary state at an arbitrary cut point (every
//     global, parameter and local of the entry function havocked), every
//     path through k further cut point visits whose first k segments do
//     not reach an error edge must be unable to reach an error edge in
//     its (k+1)-th segment. When the SMT solver proves all such paths
//     unsatisfiable, the base case for k and the step prove the property:
//     any error execution passing m > k cut points ends with k+1 cut
//     states whose first k segments are error-free, which the step
//     excludes.
//
// # Encoding: path enumeration
//
// Both cases enumerate paths depth-first and encode each with
// smt.EncodePathOpts (the SSA encoding of interprocedural CFA paths, so
// calls to loop-free functions with bodies are inlined by Enter and
// Leave steps). Prefixes are checked at every branch on one incremental
// solver (push/pop over the common prefix of conjuncts), so infeasible
// branches are pruned early. This was chosen over a DAG encoding with
// ite/phi merges because it reuses the one bit-precise encoder that
// every other analysis and the counterexample check share, and because
// the loops in scope have few feasible paths per iteration; its cost is
// exponential in the branches of one iteration (SV-COMP's test_locks_N
// has 2^N paths per iteration), bounded by Options.MaxPaths: beyond it
// the answer is UNKNOWN with that reason. Undefined behaviour yields
// unconstrained values in the encoding, so an unsatisfiable step is a
// proof whatever those values are.
//
// # Strengthening
//
// When the plain step fails, it is retried strengthened by candidate
// invariants checked to be inductive (Houdini; Flanagan and Leino, FME
// 2001): the comparisons of the entry function (Assume conditions,
// assertion arguments, assigned values), their negations and the
// non-strict forms of < and >, v >= 0 for each signed variable it
// assigns, v % g == r for each counter it steps only by multiples of g
// from constants that leave the remainder r (congruences), for a loop
// guard i <= n whose counter steps by one i <= n + 1 and the assertions
// that read n with n replaced by i's value at the exit (i - 1; constant
// relaxation, Furia and Meyer 2010: 2 * sum == n * (n + 1) becomes
// 2 * sum == (i - 1) * i), and at each cut point the affine
// equalities among the entry function's integer variables that Karr's
// analysis finds there (engine/affine: x + j == y + i for a loop that
// decrements x and y together). A candidate is kept only when it holds at
// the first cut point visit of every path from the program's start and
// is preserved by every error-free segment from a cut point where all
// kept candidates are assumed to the next cut point visit (the same path
// enumeration, repeated until nothing is dropped). Kept invariants are
// assumed at the start of the step case and reported in
// Result.Invariants (as text) and Result.Proved (for correctness
// witnesses; Options.ProofInvariants runs the search after a proof that
// needed none, so that the witness has invariants too).
//
// # Solving
//
// Branch checks go to one incremental solver (push/pop over the common
// prefix of conjuncts) with a 20 ms bound each; Z3's incremental core is
// slow on some bit-vector arithmetic (x + y == n), so a check that hits
// the bound is repeated on a one-shot solver over the inlined formula,
// as smt.CheckPath does.
//
// # Scope
//
// Programs whose functions reachable from the entry are not recursive,
// whose only loops are in the entry function (nested loops included),
// whose variables are scalar integers whose address is never taken (a
// variable no operation reads, such as an unused argv, may have any
// type: its value reaches no path condition), and
// whose calls without a body are __VERIFIER_nondet_*, __VERIFIER_assume,
// abort, exit and error functions. Everything else is UNKNOWN with the
// reason ("recursion at f.c:3:1"), never TRUE: the havoc of
// the step case covers exactly the state such programs have at a cut
// point (volatile reads and nondeterministic values are fresh inputs of
// the encoding).
package kinduction
