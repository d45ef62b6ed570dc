// Package predicate is predicate abstraction with adjustable-block
// encoding and lazy refinement as a CPA (seed 004, section 2; seed 002,
// "abstraction at loop heads, SSA path formulas inside a block";
// CPAchecker's predicate analysis). It is the analysis of the
// configuration predicate-cegar; its refiner is
// engine/cegar.PredicateRefiner.
//
// # Domain
//
// A state is (v, φ, abs): v is the memory of engine/analysis/value in
// symbolic mode (the memory model symbolic execution uses: cells holding
// concrete bit patterns, addresses, or terms of the CPA's smt.Builder),
// φ a set of Bool terms over the symbols of v, and abs whether the state
// is an abstraction state. Its meaning is
//
//	⟦(v, φ)⟧ = { σ(v) | σ assigns the symbols, σ ⊨ ⋀φ }
//
// where cells absent from v may hold anything. Inside a block, (v, φ)
// is the block's strongest postcondition in SSA form: v maps each cell
// to its current term (the SSA variable or its definition, hash-consed)
// and φ is the conjunction of the block's branch conditions — the path
// formula of adjustable-block encoding, bit-precise because the terms
// have the C semantics of engine/smt (wrap-around, truncating division,
// shifts, conversions), and built by the same memory model as the
// other symbolic analyses (pointers into arrays, small arrays under a
// symbolic index through ite, heap blocks, unmodelled functions that
// havoc what they may write). Constructs the memory model cannot follow
// make values unknown (fresh symbols) or carry reasons (cpa.Explainer),
// never a silent skip; error paths are confirmed by engine/smt's
// encoder and the concrete interpreter before a FALSE.
//
// # Blocks and abstraction
//
// Blocks end at loop heads (IsAbstractionLocation): every cycle of a CFA
// passes a loop head, so blocks are loop-free and each is one SSA path
// (merge is merge-sep). At a loop head the successor is abstracted under
// the predicates π(l) of the precision at that location. A predicate is a
// Bool term over predicate variables, smt Vars named by the qualified
// name of a program variable ("main::y") with its width; it is
// instantiated with the terms the memory holds for those variables.
// Then every integer cell of the memory is forgotten (addresses stay:
// pointers are never symbolic in this memory model), the predicates'
// variables get fresh symbols, and φ becomes the abstraction over them:
//
//   - Boolean (the default): the disjunction of the minterms over π(l)
//     that are satisfiable together with the block formula, enumerated
//     by the solver with blocking clauses (at most Options.MaxMinterms,
//     16, else Cartesian);
//   - Cartesian (Options.Cartesian): the conjunction of the literals p or
//     ¬p that the block formula implies (two solver calls per
//     predicate).
//
// The Boolean abstraction is needed for invariants such as j ≤ n from
// the predicates j < n and j == n (engine/testdata/verdicts/
// predicate_count.c; TestBooleanAndCartesian), which the Cartesian one
// loses; it costs about three times the Cartesian run on that program
// (BenchmarkAbstraction, doc/perf/2026-11-27-predicate-cegar.md). Both over-approximate, and a
// solver that gives up makes the abstraction coarser (Unknown is "not
// implied"), so both are sound. A predicate over a variable that an
// unmodelled function may have written is instantiated with the fresh
// symbol the memory model gave it and is no longer implied.
//
// Coverage is by implication: a ⊑ b when b's memory is less precise
// than a's (value analysis order) and φ_a implies φ_b — syntactically
// (every conjunct of b's is one of a's) or, for abstraction states, by a
// solver call refuting φ_a ∧ ¬φ_b. Abstraction states name their
// symbols after the predicate variables, so states with the same
// abstraction are equal.
//
// # Refinement
//
// CPA.Interpolate computes the predicates of an infeasible error path.
// Z3 4.8 has no interpolation API; the two candidates were (a) its
// fixedpoint engine Spacer through a cgo shim, encoding the path as
// constrained Horn clauses with one predicate per block boundary and
// reading the solved interpretation as sequence interpolants, and (b)
// sequence interpolants from unsat cores and weakest preconditions. This
// package implements (b), without a new cgo surface: the path is
// replayed in symbolic execution and cut at every loop head into blocks,
// where instead of abstracting, the fresh symbol of every integer
// variable in scope (globals and the function's locals) is linked to its
// value before the cut by an equality. The blocks' conditions and the
// links are the SSA path formula split at the block boundaries. One
// CheckAssuming call gives an unsat core; at boundary k the core
// conditions after k, with the links after k substituted (the weakest
// precondition of the assignments in between), are formulas over the
// symbols of k and later inputs, and their comparisons over k's symbols
// alone become predicates at k's location. They are candidates of an
// interpolant at k: the conditions after k contradict what holds at k.
// What (b) loses against real interpolants is invariants that are no
// atom of any weakest precondition (s == 2·j for s += 2 in a loop over
// j < k with the assertion s == 2·k: predicate_noprogress.c); such a
// path comes back without new predicates and the run ends UNKNOWN
// ("refinement made no progress"), never TRUE. (a) was not built for
// lack of time, so there is no measurement comparing them; (b) costs
// one satisfiability check per refinement (BenchmarkRefinement: the
// running example's 14-step path in doc/perf/2026-11-27-predicate-cegar.md).
//
// Lazy abstraction: the precision maps locations to predicates and
// grows only where a path needs it; the refiner restarts at the pivot,
// the parent of the first boundary whose location gained a predicate
// (the state abstracted under the precision of its parent), and hands
// the new precision to the waitlist (cegar.RestartPivotFrontier).
// Progress is judged against the precision the path's own states were
// abstracted with, so subtrees explored under an older precision are
// refined rather than reported as no progress.
//
// # Limits
//
// Blocks do not merge, so a loop body with many independent branches
// (SV-COMP's locks) costs 2^branches states per iteration; CPAchecker
// merges them into disjunctive block formulas. Precisions are not read
// from results.json (Config.InitialPrecision is ignored). Predicates
// name scalar integer variables only, not array elements or heap cells,
// so a proof that needs facts about memory contents across a loop head
// fails with no progress (UNKNOWN).
package predicate
