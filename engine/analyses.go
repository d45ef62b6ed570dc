package engine

import (
	"github.com/reverify/reverify/engine/analysis/predicate"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"time"
)

func init() {
	register("value", configuration{
		doc: "explicit-value analysis, full precision (seed 001, section 3.8.1)",
		analysis: func(prog *cfa.Program, cfg Config, _ Precision) ([]cpa.CPA, error) {
			return []cpa.CPA{value.New(prog, value.Options{NoListAbstraction: cfg.NoListAbstraction})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
	})
	register("value-cegar", valueCEGAR(cegar.RestartPivotFrontier, cegar.ValueOptions{}))
	register("symex", configuration{
		doc: "symbolic execution, full precision, no CEGAR (seed 000, sections 2.3 and 2.6.6)",
		analysis: func(prog *cfa.Program, cfg Config, _ Precision) ([]cpa.CPA, error) {
			c, err := symbolic.New(prog, symbolic.Options{Solver: cfg.Solver})
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{c}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
	})
	register("symex-cegar", configuration{
		doc: "symbolic execution with CEGAR: tracked variables and constraints refined by constraint interpolation (seed 000, sections 2.5, 2.6.6)",
		analysis: func(prog *cfa.Program, cfg Config, init Precision) ([]cpa.CPA, error) {
			c, err := symbolic.New(prog, symbolic.Options{Solver: cfg.Solver, Precision: symbolic.Tracking(init.scoped())})
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{c}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			return cegar.NewSymbolicRefiner(comp, cfg.PrecisionScope.or(symexScope))
		},
		restart: cegar.RestartRoot,
	})
	register("predicate-cegar", configuration{
		doc: "predicate abstraction at loop heads (adjustable-block encoding, Cartesian, coverage by implication) with lazy refinement by sequence interpolants from unsat cores and weakest preconditions (seeds 002 and 004, section 2)",
		analysis: func(prog *cfa.Program, cfg Config, _ Precision) ([]cpa.CPA, error) {
			c, err := predicate.New(prog, predicate.Options{Solver: cfg.Solver})
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{c}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			return cegar.NewPredicateRefiner(comp)
		},
		restart: cegar.RestartPivotFrontier,
	})
	register("k-induction", configuration{
		doc:    "k-induction over the loop heads of the entry function, bit-precise, strengthened by candidate invariants checked inductive (engine/kinduction)",
		direct: runKInduction,
	})
	register("bmc", configuration{
		doc:    "bounded model checking over merged paths (large blocks) with unwinding assertions, bounds 1, 2, 4, … or --unwind: TRUE when no execution runs beyond the bound, or (without --unwind) by k-induction over the same merged encoding (engine/bmc)",
		direct: runBMC,
		multi:  runBMCAll,
	})
	// default: full-precision value analysis decides finite-state
	// programs (ECA, lock-step flags, lists of a bounded length) fastest
	// and gives up quickly elsewhere, so it runs first, alone, under a
	// state budget; value-cegar decides most loops and its precision is
	// reused on the next pull request; predicate-cegar and k-induction
	// prove the loops the value analyses cannot express (linear
	// invariants, counting loops) and end at once outside their scope,
	// so they get twice the share; symbolic execution with CEGAR decides
	// relations between inputs. The arms start in that order of
	// expected payoff (doc/perf/2026-11-29-default.md: which arm decides
	// which SV-COMP task, and in how much CPU time alone) and take turns
	// in time slices when the property has fewer cores than arms.
	// Further configurations join by an arm here.
	register("default", portfolio("value (at most 500,000 states, lists not abstracted), value-cegar, predicate-cegar, k-induction, symex-cegar and bmc as a portfolio: the first TRUE or FALSE wins; with fewer cores than arms they take turns in time slices, predicate-cegar and k-induction with twice the share of the others, value-cegar from 0.05 s of the arms' time on, predicate-cegar, k-induction and bmc from 0.1 s, symex-cegar from 0.2 s; with 4 or more properties value first runs once over all of them, for at most a quarter of their limits together and one limit at most, each property charged its part of that time (multi-property verification)",
		arm{name: "value", maxStates: valueArmStates, concrete: true}, arm{name: "value-cegar", after: 50 * time.Millisecond},
		arm{name: "predicate-cegar", weight: 2, after: 100 * time.Millisecond}, arm{name: "k-induction", weight: 2, after: 100 * time.Millisecond},
		arm{name: "symex-cegar", after: 200 * time.Millisecond}, arm{name: "bmc", after: 100 * time.Millisecond}))
}

// valueArmStates is the state budget of full-precision value analysis
// in `default`: the lock-step programs it decides need up to a few
// hundred thousand states (test_locks_10: 234,000), and at about 100,000
// states a second it gives up within a few seconds elsewhere, returning
// its turns to the other arms.
const valueArmStates = 500_000

// valueCEGAR is the explicit-value analysis under CEGAR with value
// interpolation, starting from the empty precision (or the property's
// Config.InitialPrecision).
func valueCEGAR(restart cegar.Restart, vo cegar.ValueOptions) configuration {
	return configuration{
		doc: "explicit-value analysis with CEGAR and value interpolation over infeasible sliced prefixes (seed 001, sections 3.8.2–3.8.5)",
		analysis: func(prog *cfa.Program, cfg Config, init Precision) ([]cpa.CPA, error) {
			return []cpa.CPA{value.New(prog, value.Options{Precision: init.scoped(), NoListAbstraction: cfg.NoListAbstraction})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			o := vo // the closure is shared by concurrent properties
			o.Scope = cfg.PrecisionScope.or(valueScope)
			return cegar.NewValueRefiner(prog, comp, o)
		},
		restart: restart,
	}
}

// The precision scopes of the CEGAR configurations when
// Config.PrecisionScope is the zero value: adaptive for both value and constraint
// interpolation, symex-cegar widening loop-free variables at once
// (cegar.ScopeWidener.WidenLoopFree; README, Performance: 70 of 133
// SV-COMP tasks against 68 for symex). Function scope, the scope of seed
// 000's CPAchecker, loses the programs whose proof needs a variable only
// after a loop that assigns it (testdata/verdicts/symex_unbounded.c, the
// running example).
const (
	valueScope = cegar.AdaptiveScope
	symexScope = cegar.AdaptiveScope
)
