// Package cpa is reverify's configurable program analysis core: the CPA
// interfaces, the composite CPA, the CPA algorithm with its reached set
// and waitlist, and the abstract reachability graph (ARG).
//
// It implements seed 003_63b5314914713559.txt, sections 3–4 (the CPA
// (D, ⇝, merge, stop), Algorithm CPA and CPA+ with precision adjustment,
// composition with strengthening) and seed 000_f76fde50ed4a4828.txt,
// sections 2.3 and 2.6 (composite CPA over location, call stack and data
// analyses; the ARG that pixel trees draw).
//
// # Interfaces
//
// A CPA is Name, Initial, a TransferRelation (successors for one
// cfa.Step, append style) and a Domain (LessOrEqual, which gives the
// default stop-sep). Everything else is optional and found by type
// assertion: Joiner (merge-join), Merger and Stopper (operator
// overrides), PrecisionAdjuster, Strengthener. Component states may be
// Targetable, Explainer (typed explanations for UNKNOWN: cpa.Explanation), Truncated (a path the
// analysis cannot follow; the run then ends Incomplete), Locator,
// ReturnSiter (the call stack), Partitioned (reached-set partition keys),
// Featured (an index that makes stop fast on large partitions) and
// InvariantReporter (what a state knows as C conditions, for the loop
// invariants of correctness witnesses).
//
// # Use
//
//	loc, _ := location.New(prog, "main")
//	comp, _ := cpa.NewComposite(loc, callstack.New(0),
//		property.New(spec), value.New(prog, value.Options{}))
//	alg := cpa.NewAlgorithm(comp, cpa.Options{Order: cpa.RPO, MaxStates: 1e6})
//	status, target, err := alg.Run(ctx)
//	// Target: check target.Path(); if spurious: alg.Remove(target), Run again.
//	// Safe: the reached set is complete (consult alg.Explanations()).
//	// Incomplete: alg.Reason() ("state limit N", "recursion depth 64
//	// exceeded", "cancelled: …"); Run resumes.
//
// # Invariants
//
//   - States and precisions are immutable once produced; transfer
//     relations share structure instead of copying.
//   - Every successor computed becomes an ARG node, also when stop covers
//     it (CoveredBy) or merge absorbs it (MergedInto); node IDs are dense
//     and every parent's ID is smaller than its child's, so Path follows
//     first parents back to the root in Depth steps.
//   - The reached set is partitioned by the Partitioned component keys
//     (location and call stack); merge and stop only look inside the
//     partition of the new state. Target states are never merged, never
//     used to cover and never expanded; truncated states are never
//     expanded.
//   - A run is resumable: cancellation happens between expansions (the
//     state being expanded goes back on the waitlist), a target found is
//     returned before the next expansion, further targets among the same
//     successors are returned by the next Run.
//   - Safe is returned only if the waitlist is empty, no truncated state
//     was produced and no target remains in the reached set.
//
// # ARG text form
//
// ARG.WriteText prints a summary and one line per node (golden tests,
// debugging); for `x = 0; while (x < 3) x++; if (x == 3) reach_error();`
// under BFS and merge-sep it ends
//
//	arg: 18 nodes, 0 covered, 0 merged, 1 target, depth 17
//	n0 __reverify_init:L0 root
//	n1 __reverify_init:L2 <- n0 decl int x
//	n2 __reverify_init:L1 <- n1 skip
//	n3 main:L0 <- n2 enter main
//	n4 main:L2 <- n3 x = 0
//	…
//	n15 main:L5 <- n14 [!(x < 3)]
//	n16 main:L7 <- n15 [x == 3]
//	n17 main:L10 <- n16 reach_error()  target
//
// and with merge-join a loop head reads "n19 main:L12 <- n14 while + n17"
// (two parents) while the replaced states say "merged into n19".
//
// # Statistics
//
// Stats counts expansions, transfers, reached, covered and merged states
// and targets, and accumulates the time spent in transfer (with
// strengthening and precision adjustment), merge and stop with a few
// clock readings per expansion. The benchmark BenchmarkLoop reports
// states/s and bytes allocated per state.
package cpa
