// Package multiprop decides the reachability properties of one entry
// function together, in one run of a plain analysis (no refiner):
// multi-property verification after seed 004, chapter 2 (CPAchecker's
// MPV). The run composes location × callstack × property.Multi with the
// analysis's components; each target's error path is checked for every
// property it violates (SMT and concrete replay), a feasible one makes
// them FALSE (strategy.Result.SetFalse) and splits them off, an
// infeasible one is excluded, and a fixed point makes the rest TRUE with
// the reached set's loop invariants (engine/invariants). Run is the one
// entry; the engine's plan gives it a share of its properties' limits
// and the per-property portfolio what it leaves open.
package multiprop
