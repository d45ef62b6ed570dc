// Package cegar is reverify's counterexample-guided abstraction
// refinement (CEGAR) around the CPA algorithm of engine/cpa, and the
// refiners; error paths are checked bit-precisely by engine/cexcheck.
//
// It implements seed 001_7a124141fc78263e.txt, section 3.5 (Algorithm 2,
// CEGAR over CPAs) and sections 3.8.2–3.8.5 (value analysis with CEGAR:
// value-domain interpolation, refinement of per-location precisions,
// infeasible sliced prefixes and refinement selection), seed
// 000_f76fde50ed4a4828.txt, section 2.5 and figure 14 (CEGAR on the
// running example), and D. Beyer and S. Löwe, "Explicit-State Software
// Model Checking Based on CEGAR and Interpolation", FASE 2013.
//
// # The loop
//
// Run drives one cpa.Algorithm:
//
//	run the CPA algorithm until a target state, a fixed point or a limit
//	target with error path σ:
//	    no refiner: check σ (cexcheck.CheckPath: SMT and concrete replay)
//	        feasible → Unsafe; infeasible → exclude σ, continue
//	    else (π', pivot) := Refine(σ)
//	        refuted → restart from the pivot (RestartPivot: remove the
//	            pivot's subtrees, re-expand it under π') or the root
//	        not refutable → check σ: feasible → Unsafe (σ, inputs);
//	            infeasible → exclude σ, continue
//	        refinement limit, no progress, undecided check → Unknown
//	fixed point → Safe; state limit, cancellation → Incomplete
//
// A target is Unsafe only when both the SMT model (without undefined
// behaviour) and the concrete interpreter confirm its path. The refiner
// goes first: its refutation is sound (its domain over-approximates, the
// same domain a Safe verdict rests on), and most spurious paths of a
// CEGAR run are refuted by it much more cheaply than by the SMT check of
// a long path (loop-acceleration/array_4: five refinements of paths
// over 3000 steps through a 1024-element array). Options.CheckFirst
// checks every path bit-precisely before refining instead, as a
// cross-check (tests run both). Without a refiner Run is the plain
// analysis with counterexample checks that the value configuration uses.
//
// Excluding an infeasible error path removes every node of the path, not
// just the target: a path node may cover states reached along other
// prefixes (with more known values), whose executions continue along the
// path's suffix and may be feasible where the checked path is not.
// Removing the path's nodes uncovers them; the path nodes' other
// children stay. (Removing only the target answered TRUE on
// engine/testdata/verdicts/exclude_covered.c, whose error is real.)
//
// The loop never answers Safe after giving up: a refinement limit
// (Options.MaxRefinements) that is hit, or a refinement that makes no
// progress — the refiner finds nothing new for the path, or the same
// error path comes back under the same precision — is Unknown with that
// reason.
//
// # Refiners
//
// A Refiner maps an infeasible error path (its ARG nodes) to a new
// composite precision and a pivot node; ErrNotRefutable and
// ErrNoProgress are its two expected failures. PrecisionPrinter is an
// optional capability: the stable text of the precision, for results.
// SymbolicRefiner (symbolic.go: constraint interpolation of
// engine/analysis/symbolic) plugs in through the same interface, and so does
// SlicingRefiner (slicing.go): slicing refinement of seed 000, section
// 3.3, for the slicing CPA of engine/analysis/slicing. It adds the static
// backward slice (engine/pdg) of an infeasible error path's target-path
// criteria (every assumption on the path and its last edge; or, with
// TargetLocation, the last edge only) to the slicing precision, and when
// that adds nothing it delegates to the wrapped analysis's refiner on
// the path as the wrapped analysis saw it (no-ops for the edges outside
// the slice), or gives up with ErrNoProgress. Error paths are checked
// bit-precisely on the full program, never on the slice, so every
// counterexample is valid (figure 21).
//
// ValueRefiner is value interpolation for the explicit-value analysis
// (engine/analysis/value), whose precision is a value.ScopedPrecision:
//
//  1. ExtractSlicedPrefixes (seed 001, Algorithm 5): run the value
//     transfer with full precision along σ; at each step whose
//     post-condition is ⊥, record the prefix up to it, replace that
//     assumption by a no-op and go on (at most MaxPrefixes). None: the
//     value domain cannot refute σ (ErrNotRefutable) — σ is infeasible
//     only through relations between unknown values, e.g.
//     x > 100 ∧ ¬(x > 50) with x an input, and the loop excludes it.
//  2. Refine (Algorithm 4) on each prefix: the interpolant after step i
//     is Interpolate(Γ_{i-1} ∧ op_i, op_{i+1..n}) (Algorithm 3): the
//     post-condition of the previous interpolant, from which assignments
//     are dropped while the rest of the prefix stays ⊥ under the value
//     transfer. Testing one variable at a time re-runs the suffix each
//     time, quadratic in the path length (fatal for paths of thousands
//     of steps through recursion or unrolled loops), so first a backward
//     relevance analysis along the path (relevance.go: data dependence
//     into the contradiction, per frame, with everything address-taken
//     as one "mem" cell) drops all assignments that cannot matter at
//     once; the one-at-a-time test then minimizes the rest within a
//     budget of transfers. Each Γ_i is a restriction of the
//     post-condition of Γ_{i-1}, so the sequence is inductive by
//     construction; the last one is checked to contradict the prefix's
//     last step, and if the relevance analysis missed a dependence the
//     prefix is interpolated again without it (ValueStats.Fallbacks; the
//     tests require none).
//  3. Select (section 3.8.5): the refinement with the lowest domain-type
//     score (a variable assigned inside a loop costs LoopScore, others
//     1), then the narrowest (fewest non-empty interpolants), then the
//     shortest prefix; SelectShortest is plain Beyer & Löwe.
//  4. The variables of the interpolant after step i are added to the
//     precision at the location that step reaches; the pivot is the
//     parent of the first path node whose location gains a variable
//     that its precision did not track.
//
// Heap cells count by field (seed 001, section 4.2.9): once an
// interpolant needs heap cells at all, each byte offset of heap blocks
// is forgotten in turn and kept only if the rest of the prefix becomes
// feasible without it, and the precision gains "<heap>+k" (that field of
// every heap block, at every location: blocks whose fields were forgotten
// at different locations would disagree on which cells they know, and
// the list abstraction merges only blocks with equal data cells) instead
// of "<heap>" (every heap cell; still learnt when string literals or
// memory-safety metadata are needed). A list segment in an interpolant
// needs its link fields (value.State.HeapCells). Untracked fields are
// unknown, so the list abstraction merges blocks that differ only there
// (value/smg_refine.go).
//
// Shape refinement (value_shape.go; seed 001, sections 3.11 and 4.2.10):
// the full-precision transfer of step 1 uses the list abstraction of the
// path's precisions. When it cannot refute σ but the same transfer
// without list abstraction can, the abstraction is what made σ feasible
// (a segment forgot the length of the chain it merged): each loop head
// on σ whose state holds a list segment climbs one rung of
// smg.NextListThreshold — abstract only chains of 6 blocks, then 12,
// then not at all there ("<lists>6@main:+2:[i < 5]") — and the pivot is
// the parent of the first of them. The ladder is finite: when every such
// loop head is at "off", σ is not refutable and the bit-precise check
// decides as before.
//
// # Precision scope
//
// Precisions name functions, variables and statements, never location
// numbers, so that a precision survives edits elsewhere (value.Entry,
// value.LocationKeys): "main::y@main:+8:[y < 0]" tracks main's local y
// at the location of main whose first out-edge is the test y < 0, 8
// lines into main; "main::y@main" in all of main; "g" everywhere. A key
// is matched by its statement text (with an ordinal "#k" among equal
// ones) wherever the statement moved, and failing that by its line among
// statements of the same kind, so edits in other functions, edits above
// or below in the same function, and in-place edits of the statement
// itself all keep it valid. Refiners work with location indices of the
// program at hand; value.ScopedPrecision.Format turns them into keys for
// results, and a key that matches no location of the program it is
// applied to is ignored: a stale precision costs refinements, never
// soundness. The running example's precision proves the program with a
// function added above main, or a statement added at the top of main,
// without a refinement (TestPrecisionSurvivesEdits).
//
// LocationScope adds the first form, as Beyer & Löwe's π: L → 2^X;
// FunctionScope the second, a variable tracked anywhere in a function
// being tracked in the whole function. Location scope needs more
// refinements (a loop body is learnt on a second path through it) but
// tracks less: on seed 000's running example it learns y := 1 only
// between the assignment and the test y < 0, and the second loop, driven
// by y and w, covers itself (TRUE after two refinements); in function
// scope y is tracked throughout main and the second loop unrolls until
// the state limit — the behaviour seed 000, section 2.5, shows for
// symbolic execution with CEGAR (figure 14).
//
// Location scope pays for its precision where a variable matters all
// over a loop body: the flags of the SV-COMP locks tasks and the state
// variables of the ECA tasks are each learnt location by location and,
// with RestartPivot, once more in every ARG subtree explored under an
// older precision (test_locks_10: over 3,600 refinements in 19 s without
// a verdict; ECA Problem01_label00: 480 refinements and 580,000 states
// where full precision needs 27,000). AdaptiveScope, the default
// (ScopeWidener), keeps location scope for a variable until
// AdaptiveRefinements refinements have added it at new locations of one
// function and then tracks it in the whole function: the running example
// stays at location scope (y is refined twice) and is proved, while
// test_locks_10 is proved after 1,087 refinements and Problem01_label00
// after 31 (with RestartPivotFrontier; function scope: 1,164 and 6).
//
// Options.Logf shows the two refinements (abridged; L5 is the location
// after y = 1, named by its statement "+3:decl int w"):
//
//	refinement 1: pivot n5 (depth 5), precision main::y@main:+3:decl int w
//	    main::y@main:+3:w = nondet(__VERIFIER_nondet_int)
//	    main::y@main:+4:[x > 0] … main::y@main:+8:[y < 0]
//	refinement 2: pivot n23 (depth 8), precision … main::y@main:+5:x = x - 1 …
//
// and the loop ends Safe with 47 states (L7, "+4:[x > 0]", is the first
// loop's head, L8, "+5:x = x - 1", its body, L12 → L13 the test y < 0,
// L15 and L16 the second loop).
//
// # Restart
//
// RestartPivot keeps the ARG above the pivot and re-explores below it;
// nodes elsewhere keep their older (smaller) precision until a later
// refinement reaches them. RestartRoot discards the ARG (seed 001,
// Algorithm 2). RestartPivotFrontier is RestartPivot that also hands the
// new precision to the waitlist. Each refinement returns the precision
// accumulated over all refinements, so a restart from the root loses
// nothing learnt.
//
// RestartPivotFrontier is the default of value-cegar, by measurement
// (BenchmarkRestart: value CEGAR at adaptive scope on all 92 properties
// of engine/testdata/verdicts and of this package's test programs, each
// task under each strategy in turn in the same run; state limit 20,000,
// 3 s per task, 2 loaded CPUs). One iteration:
//
//	                 states  refinements  decided  time    states and time on the 42
//	                                                        tasks all decide, some refine
//	pivot            39,321     129          83    23.3 s   19,990   3.36 s
//	root             46,115      90          83    22.0 s   24,231   3.19 s
//	pivot+frontier   41,463     119          83    22.3 s   19,138   2.62 s
//
// On the common tasks the frontier variant explores 0.96 times the
// states of RestartPivot in 0.78 times the time; root restarts explore
// 1.21 times the states. At adaptive scope a widened variable is new at
// every waitlist state of its function, and without the frontier update
// each of them costs a refinement of its own: loop-acceleration/array_3-2
// (SV-COMP) takes 4 refinements with the update and over 500 without.
// (An earlier measurement at location scope had favoured plain pivot, by
// 1.2 times the time of the frontier variant on the common tasks.)
// symex-cegar restarts from the root: its constraint-interpolation
// refiner (SymbolicRefiner) returns the root as the pivot, so the
// strategies coincide there; a pivot for it did not help (test_locks_12
// and loops/array-1 stay UNKNOWN at 10 s).
package cegar
