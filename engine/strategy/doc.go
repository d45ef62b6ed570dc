// Package strategy holds how a property is decided, as values that
// compose: a Strategy runs on one property and returns its Result; Func
// wraps an analysis (a CPA run, k-induction, a multi-property run's
// outcome); Limit puts a time limit on a clock and a memory watch around
// a strategy; Portfolio runs arms in parallel, in time slices when there
// are fewer cores than arms; Sequence runs steps one after another, each
// with its share of the time. In the spirit of CPAchecker's sequential
// and parallel algorithm composition (Beyer, Dangl, Wendler, "A Unifying
// View on SMT-Based Software Verification", JAR 2018, section 6;
// CPAchecker's ParallelAlgorithm and RestartAlgorithm) and of
// go/analysis's Analyzer values. The registered configurations
// (engine/analyses.go, engine/registry.go) are expressions over these combinators.
//
// The package owns the budgets: the clock a limit is measured on
// (Clock, WithBudget), the memory watchdog (MemoryWatch), and the one
// recovery of panics (Guard). An UNKNOWN carries its cause as data
// (results.Cause), rendered into the reason once (Render).
package strategy
