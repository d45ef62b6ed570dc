// Package ctxsolver keeps the one SMT solver an analysis uses for a run
// (engine/analysis/symbolic, engine/analysis/predicate): opened on first
// use, interrupted when the run's context is cancelled and closed when it
// ends, so that a run's solver lives exactly as long as the run (an
// interrupted solver is never used again, see engine/smt/z3). Solver is
// that handle; the owner's lock guards it and the owner's caches.
package ctxsolver
