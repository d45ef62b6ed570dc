package engine

import (
	"time"

	"github.com/reverify/reverify/engine/analysis/predicate"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/features"
	"github.com/reverify/reverify/engine/memsafety"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
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
		doc:    "bounded model checking over merged paths (large blocks) with unwinding assertions, bounds 1, 2, 4, … or --unwind, per-loop floors from --unwindset (CBMC's loop ids) and constant trip counts of callee loops: TRUE when no execution runs beyond the bound, or (without --unwind) by k-induction over the same merged encoding, or by IC3/PDR (Z3's Spacer) over Horn clauses of the loop-free segments between the entry function's loop heads (engine/bmc)",
		direct: runBMC,
		multi:  runBMCAll,
	})
	// default: the arms and the order of their first turns follow the
	// program's class (engine/features; defaultArms).
	register("default", configuration{
		doc:   "value (at most 500,000 states, lists not abstracted), value-cegar, predicate-cegar, k-induction, symex-cegar and bmc as a portfolio: the first TRUE or FALSE wins; with fewer cores than arms (under --clock cpu: always, one slot) they take turns in time slices, in an order, with shares and with caps on their time chosen by the program's loops (engine/features): counting loops start with value alone for 0.15 s and symex-cegar alone for 0.1 s, then value with twice the share, bmc, predicate-cegar (four times the share) after 0.3 s, k-induction after 0.5 s, symex-cegar after 2 s and value-cegar after 4 s, bmc, predicate-cegar and k-induction for at most 4 s each; counting loops over arrays (no input-bounded loop) start with value alone for 0.6 s, then value with eight times the share, bmc after 0.05 s, predicate-cegar (twice) after 0.3 s and k-induction after 0.5 s (these three for at most 1 s each), symex-cegar after 2 s and value-cegar after 4 s; a loop whose bound is an input or a large constant with affine equalities at its head starts with k-induction alone until its attempt at k = 1 ends (at most 2 s) and bmc alone for 0.05 s, then k-induction with four times bmc's share (the same share once k = 1 failed), predicate-cegar after 1 s, value and symex-cegar after 2 s and value-cegar after 4 s, the last three for at most 1 s each; without such equalities it starts with k-induction alone until its attempt at k = 1 ends (at most 2 s) and predicate-cegar alone for 0.7 s, then predicate-cegar (eight times the share, for at most 6 s), bmc (four times) and k-induction (eight times until k = 1 failed, then once), value after 0.1 s, symex-cegar after 0.5 s and value-cegar after 4 s, the last three for at most 1 s each; other programs bmc beside value from the start and the others from 1–2 s of the arms' time (CPU time under --clock cpu); when the property passes its memory limit the arm whose turns raised the memory most stops first, down to the last one; with 4 or more properties value first runs once over all of them, for at most a quarter of their limits together spread over the workers (one limit at least), each property charged its part of that time (multi-property verification)",
		arms:  defaultArms(features.Counting),
		order: defaultArms,
	})
}

// plan is how conf decides the properties props of one Verify call
// under cfg, every configuration alike, as one group strategy (the
// values of engine/strategy; each property's result goes out once):
//
//  1. the memory-safety properties together (memsafety.Step: per group a
//     sequence of runs under one property's limits);
//  2. with Config.ShareDeadline, the others in rounds sharing the
//     deadline beside the multi-property run (roundsStep); otherwise
//  3. the multi-property run of conf's first arm over all the others
//     (sharedStep: value analysis under its state budget for `default`,
//     at most sharedShare of their limits), and
//  4. each property it left open alone, Config.Workers at a time, under
//     its own limits (Limit of propertyStrategy: the reduced program
//     with reduceShare of the limit when Config.Reduce asks for it,
//     then conf's strategy, for `default` the portfolio of
//     defaultArms(class of the program's features)), after the shared
//     run's outcome with what it left of the limit (afterMulti).
func (conf configuration) plan(prog *cfa.Program, props []*spec.Property, cfg Config) strategy.Group {
	memory := func(i int, _ *Result) bool { return len(props[i].Memory) > 0 }
	other := func(i int, _ *Result) bool { return len(props[i].Memory) == 0 }
	steps := []strategy.GroupStep{{G: memsafety.Step(prog, props, cfg.memsafety()), Take: memory}}
	if cfg.ShareDeadline {
		steps = append(steps, strategy.GroupStep{G: roundsStep(prog, props, cfg, conf), Take: other})
	} else {
		after := make([]*afterMulti, len(props))
		one := func(i int) strategy.Strategy {
			if a := after[i]; a != nil {
				return a.strategy(prog, props[i], cfg)
			}
			return propertyLimits(prog, props[i], cfg, conf)
		}
		steps = append(steps,
			strategy.GroupStep{G: sharedStep(prog, props, cfg, conf, after), Take: other},
			strategy.GroupStep{G: strategy.Each("", cfg.Workers, one), Take: func(i int, last *Result) bool { return other(i, nil) && last == nil }})
	}
	return strategy.GroupSequence(cfg.Name, nil, 0, nil, 0, steps...)
}

// defaultArms are `default`'s arms for programs of class c, in the
// order of expected payoff (doc/perf/2026-12-01-default-shares.md and
// 2026-12-03-default-caps.md: which arm decides which SV-COMP task, and
// in how much CPU time alone).
// Every class has the same arms, value first in the list (the shared
// multi-property run stands for it): full-precision value analysis
// decides finite-state programs, lists of a bounded length and FALSE
// properties fastest and gives up within its state budget elsewhere. An
// arm's start is in the arms' executed time together, which passes as
// fast as they run (in CPU time under a CPU limit, where the arms hold
// one slot and the weights divide the budget: strategy.PortfolioOn), so
// the leading arm has the first tenths of a second to itself and
// decides the easy properties at the cost of one analysis.
//   - Loop-free, finite-state and heap programs: bmc beside value from
//     the start (k-induction over merged paths proves lock-step loops at
//     k = 1), value-cegar and symex-cegar from 1 s, predicate-cegar and
//     k-induction from 2 s.
//   - Counting loops bounded by small constants: value alone for 0.15 s
//     and with twice the share after (it decides most of them, TRUE or
//     FALSE, within 0.03–0.17 s of its own time: before, with 0.05 s
//     alone, the other arms' turns made a FALSE that value confirms in
//     0.2 s cost 0.4–1 s, doc/perf/2026-12-04-work-limits.md; with 0.3 s
//     alone symex-cegar's diamonds paid 2.5 times their time,
//     doc/perf/2026-12-04-milestones.md), symex-cegar
//     alone for the next 0.1 s (the loops
//     whose branches follow an input's parity, SV-COMP's diamond_*,
//     which value enumerates to its state budget and symex-cegar proves
//     in hundredths: 8–11 times the best arm's time when it started
//     only at 2 s; its first Z3 context alone costs 10–45 ms of CPU
//     time, most of it page faults, depending on the machine), then bmc (it
//     unrolls them whole), predicate-cegar from 0.3 s with four times
//     the share (it proves the counting loops whose bound value cannot
//     enumerate; seconds alone), k-induction from 0.5 s, symex-cegar's
//     turns from 2 s and value-cegar, which decides none of the tasks the
//     others leave, from 4 s. bmc, predicate-cegar and k-induction stop
//     after 4 s each, so that the enumerations get the rest (a long
//     enumeration needs seconds of value alone, which a ninth of the
//     limit did not give it).
//   - Counting loops over arrays of constant length (features.Arrays):
//     value alone for 0.6 s and with eight times the share after, as
//     the enumerations are the only arms that decide properties of the
//     arrays' contents; bmc, predicate-cegar (twice the share) and
//     k-induction from 0.05, 0.3 and 0.5 s for 1 s each, symex-cegar
//     from 2 s, value-cegar from 4 s. Under the counting schedule value
//     took 4 times its time alone (SV-COMP's array_2-2: 2.4 s for 0.57 s).
//   - A loop whose bound is an input or a large constant needs an
//     invariant: k-induction alone until its attempt at k = 1 ends, for
//     at most 2 s (with its affine and sign candidates it is the fastest
//     arm on half of these loops, doc/perf/2026-12-03-affine-candidates.md;
//     36 of its 38 proofs on 76 SV-COMP loop tasks come at k = 1,
//     some after 1–1.6 s of candidate checks, and where k = 1 fails it
//     fails mostly within 0.3 s (three of 30 after 0.9–1.5 s of wall
//     time on a loaded machine): the attempt's end, timeslice.Milestone,
//     is the probe's natural end, doc/perf/2026-12-04-milestones.md),
//     then predicate-cegar alone for 0.7 s (it proves in 0.4–0.65 s
//     alone the loops that k-induction does not prove at all: a loop
//     exit on an input, a phase change, a parity; with a share of the
//     turns instead it took 3–5 times that,
//     doc/perf/2026-12-04-arrays-class.md), then predicate-cegar with
//     eight times the share for at most 6 s (its longer proofs: nested6
//     in 4.2 s alone), bmc with four times (its k-induction over merged
//     paths proves a 1-inductive invariant at once, its IC3/PDR proves
//     nested6 in 1.4 s alone, and its unwinding proves benchmark20 of
//     loop-zilu in 6.5 s alone: with its IC3/PDR and large checks in
//     solver processes held to its share, twice the share lost it),
//     k-induction with its weight lowered to 1 once k = 1 failed
//     (eight before it), value from 0.1 s, symex-cegar from 0.5 s and
//     value-cegar from 4 s. The three enumerations stop after 1 s each:
//     on these loops they decide only within the first second (an early
//     FALSE, a small input range) and otherwise run to the limit, which
//     took bmc's share on the tasks it proves in 7–12 s (heapsort,
//     gauss_sum).
//   - Such a loop with affine equalities at its head (features.Affine:
//     variables that move together, a bound that is a copy of another):
//     k-induction, which takes the equalities as candidates, decides 13
//     of the 17 SV-COMP loop tasks of this class first. k-induction
//     alone until its attempt at k = 1 ends (at most 2 s), bmc alone for
//     0.05 s (the loops it unwinds whole in hundredths), then
//     k-induction with four times bmc's share (bmc's share once k = 1
//     failed), predicate-cegar from 1 s, value and symex-cegar from 2 s
//     and value-cegar from 4 s, the last three for 1 s each
//     (doc/perf/2026-12-03-affine-class.md,
//     doc/perf/2026-12-04-kinduction-probe.md).
func defaultArms(c features.Class) []arm {
	value := arm{name: "value", maxStates: valueArmStates, concrete: true}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	switch c {
	case features.LoopFree, features.FiniteState, features.Heap:
		return []arm{value, {name: "bmc"}, {name: "value-cegar", after: ms(1000)}, {name: "symex-cegar", after: ms(1000)},
			{name: "predicate-cegar", after: ms(2000)}, {name: "k-induction", after: ms(2000)}}
	case features.Affine:
		value.after, value.cap = ms(2000), ms(1000)
		return []arm{value, {name: "k-induction", weight: 8, probe: ms(2000), demoted: 2}, {name: "bmc", weight: 2, probe: ms(50)},
			{name: "predicate-cegar", weight: 4, after: ms(1000)}, {name: "symex-cegar", after: ms(2000), cap: ms(1000)},
			{name: "value-cegar", after: ms(4000), cap: ms(1000)}}
	case features.Invariant:
		value.after, value.cap = ms(100), ms(1000)
		return []arm{value, {name: "bmc", weight: 4}, {name: "k-induction", weight: 8, probe: ms(2000), demoted: 1},
			{name: "predicate-cegar", weight: 8, after: ms(50), probe: ms(700), cap: ms(6000)},
			{name: "symex-cegar", after: ms(500), cap: ms(1000)}, {name: "value-cegar", after: ms(4000), cap: ms(1000)}}
	case features.Arrays:
		value.weight, value.probe = 8, ms(600)
		return []arm{value, {name: "symex-cegar", after: ms(2000)}, {name: "bmc", after: ms(50), cap: ms(1000)},
			{name: "predicate-cegar", weight: 2, after: ms(300), cap: ms(1000)}, {name: "k-induction", after: ms(500), cap: ms(1000)},
			{name: "value-cegar", after: ms(4000)}}
	}
	value.weight, value.probe = 2, ms(150)
	return []arm{value, {name: "symex-cegar", probe: ms(100), after: ms(2000)}, {name: "bmc", after: ms(50), cap: ms(4000)},
		{name: "predicate-cegar", weight: 4, after: ms(300), cap: ms(4000)}, {name: "k-induction", after: ms(500), cap: ms(4000)},
		{name: "value-cegar", after: ms(4000)}}
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
// (cegar.ScopeWidener.WidenLoopFree; doc/perf/2026-11-25-reachsafety.md: 70 of 133
// SV-COMP tasks against 68 for symex). Function scope, the scope of seed
// 000's CPAchecker, loses the programs whose proof needs a variable only
// after a loop that assigns it (testdata/verdicts/symex_unbounded.c, the
// running example).
const (
	valueScope = cegar.AdaptiveScope
	symexScope = cegar.AdaptiveScope
)
