// Package cexcheck is reverify's bit-precise counterexample check: it
// decides whether an error path of the CFA is a real execution of the
// program.
//
// It implements IsFeasible(σ) of seed 001_7a124141fc78263e.txt, section
// 3.5 (Algorithm 2, line 10: a feasible error path is the verdict false,
// an infeasible one is refined or excluded), and checkPath(σ, A) of seed
// 000_f76fde50ed4a4828.txt, section 3.3 (figure 21: the check runs on the
// full program, never on a slice or another abstraction, so that every
// counterexample is valid). Where CPAchecker re-checks every
// counterexample with its predicate analysis (seed 000, section 4.4),
// reverify checks it bit-precisely and then runs it.
//
// # The check
//
// CheckPath (CheckPathOpts under a variant of the C semantics,
// smt.EncodeOptions) takes a path of CFA steps from the program entry to
// the target:
//
//  1. engine/smt encodes the path bit-precisely (smt.CheckPathOpts: the
//     SSA form of the interprocedural path with the C integer, pointer and
//     memory semantics of engine/cfa/csem, and the conditions under which
//     an operation on it is undefined) and solves it.
//  2. Unsatisfiable, whatever values undefined operations produce: the
//     path is Infeasible.
//  3. A model without undefined behaviour: its values of the path's
//     nondeterministic inputs (and the initial bytes of the blocks the
//     path allocates) are fed to the concrete interpreter engine/interp,
//     which must follow the path step by step to its end
//     (interp.ReplayHeapSem). Only when the solver and the interpreter
//     agree is the path Feasible, with the inputs of its execution
//     (Check.Inputs, Check.HeapInit).
//  4. Everything else is Undecided, with a reason (Check.Reason): the
//     solver's unknown or a cancellation, a construct or limit of the
//     encoder, a path feasible only with undefined behaviour (Check.UB),
//     a replay that disagrees with the model, or one that stops at an
//     unmodelled function whose effects the encoding havocs. An
//     Undecided path is never a counterexample, and never refuted.
//
// Every FALSE verdict of reverify passes this check: the CEGAR loop of
// engine/cegar checks the error paths its refiners cannot refute,
// engine/kinduction the counterexamples of its base case, engine/bmc the
// executions of satisfying unrollings, and the engine facade the paths
// of the plain, multi-property, memory-safety and reduced-program runs.
//
// # The cache
//
// CheckCache keeps the outcomes of checks for the runs of one
// verification call (engine.Verify) to share, keyed by program (pointer
// identity), C semantics (smt.EncodeOptions) and path (PathKey: the
// SHA-256 of the path's edge IDs and step kinds). The three fix the
// formula and the replay, so a cached Feasible or Infeasible is exactly
// what the check would say again; an Undecided is kept only when the
// check's context was still live at its end (a cancelled or timed-out
// check may be decided with a larger budget). A cache bound to a program
// (NewCheckCache) checks the paths of other programs directly, without
// keeping them; it holds at most a fixed number of entries.
package cexcheck
