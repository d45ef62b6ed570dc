// Package symbolic is symbolic execution as a CPA (seed
// 000_f76fde50ed4a4828.txt, section 2.3, and the symbolic execution CPA
// of section 2.6.6; in CPAchecker terms, the value analysis with
// symbolic values plus the constraints CPA). It is the analysis of the
// configurations symex (full precision, no CEGAR) and symex-cegar.
//
// # Domain
//
// A state is (v, pc): v is the memory of engine/analysis/value run in
// symbolic mode (value.Options.Symbolic set to symval.New), a persistent
// map from cells (object, offset) to values that are concrete bit
// patterns, addresses, or terms of an smt.Builder (one per CPA); pc is
// the set of path constraints, Bool terms over the symbols. Its meaning
// is
//
//	⟦(v, pc)⟧ = { σ(v) | σ assigns the symbols, σ ⊨ ⋀pc }
//
// where cells absent from v may hold anything. The memory model is the
// value analysis's, not a copy: its Value carries an optional term, and
// everything symbolic about values and memory (fresh symbols for
// nondeterministic inputs, uninitialised and havocked cells, volatile
// reads, results of unmodelled functions; terms with the C semantics of
// engine/smt for arithmetic; ite over the elements for small arrays
// under a symbolic index; symbolic pointer offsets and block sizes) is
// this package's subpackage engine/analysis/symbolic/symval, which the
// value analysis calls through value.Symbolic (the symbolic value
// factory of CPAchecker's value analysis). Constants fold, so concrete
// computations stay as fast as in the value analysis.
//
// # Transfer
//
// The memory transfer is the value analysis's (value.CPA.Transfer); in
// symbolic mode it reports the conditions an Assume (or
// __VERIFIER_assume) took when they are symbolic. Each new condition is
// added to pc and the successor is dropped when pc became
// unsatisfiable. The check asks the solver only about the constraints
// connected to the new ones through shared symbols (the rest was
// satisfiable and shares nothing with them), answers are cached by that
// set of terms, a condition whose negation is already in pc is refuted
// without the solver, and one solver (from the injected smt.Factory,
// the engine's Config.Solver) serves the whole run with push and pop,
// and is closed when the run's context ends. An Unknown answer (Z3
// gave up) keeps the successor, which is sound, and is counted in Stats
// with its reason; the engine checks every error
// path bit-precisely anyway, so symbolic execution's targets are
// feasible except through such unknowns. The run's context reaches the
// solver through cpa.ContextUser: cancelling it interrupts Z3, and the
// transfer returns the cancellation, which ends the run Incomplete with
// the state back on the waitlist.
//
// # Merge and stop
//
// Merge is merge-sep. Stop is stop-sep with ⊑: (v, pc) ⊑ (v', pc') iff
// v ⊑ v' in the value analysis's order (every cell v' knows, v knows
// with the same value, and for terms that means the same hash-consed
// term; frames and allocations equal) and pc' ⊆ pc as sets of terms.
// Then every σ ⊨ ⋀pc satisfies ⋀pc' and gives v's values to the cells
// of v', so ⟦(v, pc)⟧ ⊆ ⟦(v', pc')⟧: coverage is sound. With
// Options.ImplicationStop, pc' may also be implied by pc (one solver
// call, Unknown meaning no). Constraint sets that differ are never
// treated as equal, however alike they print (x#0 as 8 and as 32 bits
// are different symbols).
//
// Symbols are named label#k, with k counting the symbols created on the
// path: unique on a path, equal across paths that create symbols alike.
// At loop heads a state is brought into a canonical form (canonical.go):
// constraints that share no symbol with the memory, directly or through
// other constraints, are dropped (they are satisfiable and constrain
// nothing the state holds), and the remaining symbols are renamed sym!0,
// sym!1, … in the order they occur in the memory. Both preserve ⟦·⟧, and
// together they let stop compare states up to renaming, so a loop that
// reads a fresh input in every iteration (the locks of SV-COMP) reaches
// a fixed point. Options.NoRenaming turns this off.
//
// # Precision
//
// Precision is (Vars, Constraints), Π_SE = 2^X × 2^P: Vars is a
// value.Precision (untracked variables hold no value; their reads are
// fresh symbols) and Constraints a ConstraintPrecision (an untracked
// constraint is not added, so its branch is not pruned). Both only lose
// information, so every precision is sound. Constraints are identified
// by their edge and the program variables of its condition
// (VarConstraints: by function and variable name, through any
// value.Precision), never by terms whose symbol names depend on the
// path, so symex-cegar refines them with the value analysis's scoped
// entries (see Refinement).
//
// # Refinement
//
// CPA.Refine is the constraint interpolation of symex-cegar, kept
// simple: it replays an error path under full precision, takes every
// step symbolic execution refutes (going on past each as if it were a
// no-op, like the sliced prefixes of seed 001, section 3.8.5), shrinks
// the constraints behind each refutation to a minimal unsatisfiable core
// by deletion (solver checks only), and computes by backward liveness
// along the path (per call frame, so recursion keeps caller and callee
// apart; a write through a pointer may reach every address-taken
// variable) where which variables are needed for the refuting
// conditions. It picks the refutation that needs no variable inside a
// loop assigning it (or the fewest), and adds its variables at those
// locations to the precision, as scoped entries of
// engine/analysis/value ("main::y@main:+8:[y < 0]"); VarConstraints then tracks
// the core's constraints too (Tracking is that precision).
// cegar.SymbolicRefiner adapts it to the CEGAR loop of engine/cegar
// (restart from the root). ErrFeasible means the
// path cannot be refuted, ErrNoProgress that the precision already
// holds what the refutation needs (for example memory reached through
// pointers only).
//
// # Invariants
//
// State.Invariant (cpa.InvariantReporter) reports, over the visible
// variables, the constants the memory holds, equalities between
// variables holding one symbol, stored truth values ("f == (n > 3)")
// and the path constraints whose symbols visible variables hold, as C
// comparisons; the engine makes the loop invariants of correctness
// witnesses from them.
//
// # Termination
//
// Full-precision symbolic execution does not terminate on loops whose
// bound is symbolic (seed 000, figure 7): such runs end at the state
// limit or the timeout, and the verdict is UNKNOWN with that reason.
//
// # Example
//
// For
//
//	int x = __VERIFIER_nondet_int();
//	if (x > 100) __VERIFIER_assert(x > 50);
//
// the state at the entry of __VERIFIER_assert prints as (terms
// shortened)
//
//	{x@0=$|nondet_int#0|, cond=$(ite (bvslt #x00000032 |nondet_int#0|) #x00000001 #x00000...} | (bvslt #x00000064 |nondet_int#0|)
//
// and its error branch [!cond] adds ¬(50 < nondet_int#0), which the
// solver refutes together with 100 < nondet_int#0: the property is
// proved without any path exclusion by the engine.
package symbolic
