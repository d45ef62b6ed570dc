// Package validate checks verification witnesses against a program by
// replay (DESIGN.md, output contracts; the witness formats are those
// package engine/witness reads and writes) and chooses, before a
// correctness witness is written, loop invariants that it proves
// (Select). Shapes: a *witness.Witness (witness.ReadWitness) and a cfa.Program
// in, a Validation out (Confirmed, the reason, and for a confirmed
// violation witness the error path with its inputs, from which
// engine/witness/reproduce.Reproducer builds a reproducer). Seed 001_7a124141fc78263e.txt,
// section 3.6: witnesses can be checked themselves by a witness
// validator; the algorithms are those of the papers cited below.
//
// # Validation by replay
//
// Validate (after witness.ReadWitness) checks a YAML witness against the program
// with engine/smt's bit-precise path encoding and the injected solver.
// A violation witness must describe a feasible path: a depth-first search
// over the interprocedural CFA follows the waypoints in order
// (assumptions and \result constraints become assumptions on the path,
// branching waypoints fix the direction of their statement, the target
// waypoint matches a call of a function the witness's specification
// names, starting at its location, and ends the path; a call of another
// error function, such as __assert_fail under G ! call(reach_error()),
// is no violation and ends the path as abort() does), prunes infeasible branches and checks the
// complete path without undefined behaviour (smt.CheckPath); the model
// gives the inputs Reproducer needs, so `reverify reproduce` works from
// the YAML witness alone. A correctness witness is checked by Floyd's
// inductive assertions: the loop heads carrying invariants cut the
// program, every loop-free segment from the program start or from a cut
// point under its invariant to the next cut point must establish that
// invariant (negation unsatisfiable), and no segment may reach an error
// call of the property. Each invariant may assume the others (the
// invariant_set semantics). With "k-induction: K" the invariant set is
// checked by K-induction over the same segments (as CPAchecker's
// k-induction-based validator; Beyer, Dangl, Dietsch, Heizmann,
// Stahlbauer, FSE 2015; Beyer, Dangl, Dietsch, Heizmann, FSE 2016): base
// case, every path from the start through K cut points establishes each
// invariant and reaches no error; step case, from each cut point under
// its invariant, every path whose first K-1 segments are good has a
// good K-th segment; when no feasible path from the start reaches a K-th
// cut point the base case covered every execution and the step case is
// skipped. The segments from one start are first decided all at once
// (merged.go): the region of (location, call stack) nodes they pass is
// encoded by smt.Merger with one joined state per node (large-block
// encoding, as engine/bmc unrolls), one depth of cut points at a time
// so that a loop unrolls only as far as its constants (smt.Merger.Fold)
// or the formula let it run; one query asks for a violated invariant,
// an error call or an access outside the encoding, and a model names
// what fails. Only what that leaves open is walked path by path, and
// the walk, within a quarter of the time left, names the path of a
// refutation. A loop body with N independent branches is one query
// instead of 2^N paths (SV-COMP's test_locks_N), a loop of 1,024
// iterations one unrolling instead of a path whose every branch is
// checked. Houdini checks the candidates of a region together: a model
// of the disjunction of their violations names the candidates that
// die. The loops no witness can name, of the front ends' models (the
// atexit handlers run after main, the C library models' functions, the
// byte loops of fgets, fread and read) and of lowered quantifiers, are
// unrolled there, one iteration per layer; executions that left such a
// loop after different numbers of iterations stay apart. Segments that
// multiply two variables are decided on one
// formula normalised into sums of monomials (smt.Normalizer), where
// bit-blasting alone does not finish on 64-bit polynomial invariants.
// A segment from a loop in a callee starts in
// every chain of direct calls from the entry function, with the callers'
// locals and the callee's parameters unconstrained, and continues into
// the caller on return; main(int argc, char **argv) is entered with
// unconstrained arguments as long as it never reads a pointer parameter.
// The result names the invariant and location that failed, or the
// unsupported construct (pointer reads from a cut point, a used argv,
// calls through pointers to the loop's function, recursion) with its
// file:line. Content the validator cannot use (avoid waypoints, location
// invariants, expressions outside csyntax.ParseExpr, locations without a loop)
// is a *witness.BadWitnessError.
//
// # Invariants as loop contracts
//
// LoopContracts prepares the second check of a correctness witness,
// validation by verification (Beyer and Spiessl, "MetaVal: Witness
// Validation via Verification", CAV 2020): it writes each invariant into
// the sources as a loop contract clause of its while or for loop, which
// the front end translates as CBMC applies loop contracts. The engine
// facade (engine.ValidateWitness) reads the sources again and has `bmc`
// prove the property and the contracts' obligations when the replay
// rejects the witness. A loop's frame keeps what the loop does not
// write, which the cut points above forget in a callee's loop.
//
// # Choosing invariants
//
// Before a correctness witness is written, Select (called by `reverify
// check`) looks for invariants the validator proves: the reached-set invariant need not
// be inductive in isolation (facts over untracked or out-of-scope
// variables are missing) and can be a disjunction over thousands of
// states. Select runs Houdini (Flanagan and Leino, FME 2001) with the
// validator's path segments over candidate conjuncts per loop: facts of
// the reached states, interval-hull bounds and small value sets of the
// variables they fix, comparisons between two such variables that all
// states satisfy, a small reached-set disjunction, and the comparisons in
// the conditions and call arguments of the loop's function (negated and
// relaxed). Candidates that do not hold initially or are not preserved
// die; survivors implied by the others are dropped; the result is kept
// only when the validator confirms it (inductive and implying the
// property), else the reached-set invariants are written unchanged.
// With a depth above 1, Select first tries the invariants without it,
// and keeps the smallest depth it confirms.
package validate
