// Package invariants turns a proof into the loop invariants of
// correctness witnesses (results.Invariant; seed 001, section 3.6: the
// reached set as a proof). From a reached set (Loops): per loop head,
// the disjunction over its reached states of the conjunction of the
// facts their data components report (cpa.InvariantReporter), or, past
// maxInvariantStates states, their join in the domain of intervals.
// From a k-induction proof (Proved): the conjunction of the candidates
// it proved at each loop head. Facts wraps conditions as facts.
package invariants
