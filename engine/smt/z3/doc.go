// Package z3 implements smt.Solver with Z3 through
// github.com/aclements/go-z3; it is the only package of reverify that
// imports go-z3 (and so the only user of cgo). Terms of an smt.Builder are
// translated once per solver and cached.
//
// Invariants:
//   - Z3 answering unknown (go-z3's ErrSatUnknown: timeout, resource
//     limit, incompleteness) is smt.Unknown with an error wrapping
//     ErrUnknown; a cancelled or expired context is smt.Unknown with an
//     error wrapping the context's error. Never smt.Unsat.
//   - Cancellation: when the context is done, a goroutine interrupts Z3
//     (Context.Interrupt, retried with growing pauses until the check
//     returns, since an interrupt that arrives before Z3 starts is lost,
//     and never after the check returned: a stray interrupt leaves a Z3
//     context cancelled). The deadline is not passed as Z3's timeout
//     parameter (Z3's timer racing with an interrupt can have the same
//     effect); Options.Timeout is. A solver whose check answered unknown
//     is not pooled again, except when its resource limit stopped it.
//   - CheckWork (smt.WorkLimiter) bounds one check by Z3's resource
//     limit (rlimit, set on the context for that check and reset by the
//     next): a count of elementary steps, so a bounded check gives up at
//     the same point on an idle and on a loaded machine, and needs no
//     interrupt, so the solver and its context stay usable after it
//     (TestCheckWork). About 6,000 units are a millisecond of CPU time
//     on hard bit-vector arithmetic here; Z3's preprocessing of a large
//     term is not counted (smt.CheckBounded adds a wall-clock backstop).
//   - Each solver owns a Z3 context (solvers run in parallel). Contexts are
//     expensive (10–45 ms of CPU time: each zeroes 17 MB of fresh
//     pages; doc/perf/2026-12-03-z3-contexts.md), so Close returns them,
//     cleared, to an idle list for reuse (at most 4,096 uses and
//     131,072 declared variables each: go-z3 keeps every symbol name of
//     a context), which keeps up to 3 of each kind across garbage
//     collections (a sync.Pool, emptied by each, and a bound of 64 uses
//     made a run of `default` create 8–15 contexts where up to 7 are
//     open at once). go-z3 frees Z3 objects in finalizers, so memory of
//     dropped contexts returns at a later garbage collection.
//   - Every context starts with one Push: it keeps Z3's combined solver in
//     incremental mode, where a check costs microseconds instead of the
//     milliseconds of setting up a tactic for each check. Options.OneShot
//     (OneShotFactory) skips it, for single hard checks where bit-blasting
//     with preprocessing pays off.
//   - go-z3 lacks Z3_solver_check_assumptions, so CheckAssuming checks the
//     assumptions in a temporary level and, on Unsat, shrinks them by
//     deletion (chunks halving down to single assumptions) while the rest
//     stays unsatisfiable; the core returned is minimal unless the context
//     ends first (then a larger, still unsatisfiable subset).
//   - Z3 errors (go-z3 panics) become the error of the next Check, which
//     answers Unknown.
//   - smt.Normalizer: after Normalize, each assertion is rewritten by Z3's
//     simplifier with som (sums of monomials) before it is asserted, an
//     equivalence that turns polynomial identities into syntactic ones.
//   - TrimHeap (glibc's malloc_trim) returns the pages Z3 freed to the
//     system; the engine's memory watch, which measures the resident
//     set, calls it (injected as engine.Config.ReleaseNative) before it
//     judges.
package z3
