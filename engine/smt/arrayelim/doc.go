// Package arrayelim removes the arrays from a quantifier-free query over
// bit-vectors and arrays of bit-vectors before it goes to the solver:
// every read of a store or of an if-then-else of arrays becomes an
// if-then-else over the stored values, and the reads of array variables
// become fresh bit-vector variables tied by Ackermann's constraints
// (Kroening, Strichman, "Decision Procedures", 2nd ed., sections 7.3 and
// 3.3.1). A query of engine/bmc's merged unrolling keeps every object of
// the path as an SMT array whose versions are store chains and
// if-then-else at join points; Z3 4.8.12's array solver takes tens of
// seconds on such a query that it decides in one or two as bit-vectors
// (doc/perf/2026-12-01-array-elimination.md).
//
// Eliminate is exact: the result is satisfiable exactly when the input
// is, and Rewrite maps a term of the input to one whose value in a model
// of the result is the input term's value. Arrays compared by equality
// (extensionality) are outside the reduction: Eliminate then declines and
// the query is solved as it is; so is a query whose rewrite would grow
// beyond MaxTerms. Solve decides the query of an smt.Merger this way, as
// engine/bmc and the witness validator (engine/witness/validate) ask it.
package arrayelim
