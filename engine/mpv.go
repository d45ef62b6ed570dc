package engine

import (
	"context"
	"time"

	"github.com/reverify/reverify/engine/features"
	"github.com/reverify/reverify/engine/multiprop"
	"github.com/reverify/reverify/engine/strategy"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/scope"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Multi-property modes (Config.MultiProperty).
const (
	// MultiAuto (""): `default` verifies the properties of an entry in
	// one run of its first arm (value analysis under its state budget)
	// when at least mpvMinProperties need an analysis, and runs its
	// per-property portfolio only on those that run leaves UNKNOWN; plain
	// configurations verify one property at a time.
	MultiAuto = ""
	// MultiOn: as MultiAuto, and plain configurations (no refinement:
	// value, symex) verify all properties in one run too.
	MultiOn = "on"
	// MultiOff: one property at a time, each from scratch.
	MultiOff = "off"
)

// mpvMinProperties is the number of properties from which `default`
// starts with one multi-property run (MultiAuto): with fewer, the shared
// run saves little over the per-property portfolio it precedes.
const mpvMinProperties = 4

// multiPlan returns the plain configuration that verifies the properties
// of one entry in one run under cfg, with its state budget, and the
// configuration that then decides each property the run leaves
// UNKNOWN (a portfolio without that arm; ok2 false: nothing, the run's
// UNKNOWN is final). ok is false when the properties are verified one at
// a time.
func multiPlan(conf configuration, cfg Config, n int) (multi configuration, maxStates int, rest configuration, ok, ok2 bool) {
	if cfg.MultiProperty == MultiOff || n < 2 {
		return configuration{}, 0, configuration{}, false, false
	}
	if len(conf.arms) == 0 {
		if conf.multi != nil {
			return conf, cfg.MaxStates, configuration{}, true, false
		}
		if cfg.MultiProperty != MultiOn || conf.refiner != nil {
			return configuration{}, 0, configuration{}, false, false
		}
		return conf, cfg.MaxStates, configuration{}, true, false
	}
	first := conf.arms[0]
	sub := configs[first.name]
	if sub.refiner != nil || len(sub.arms) > 0 || (cfg.MultiProperty == MultiAuto && n < mpvMinProperties) {
		return configuration{}, 0, configuration{}, false, false
	}
	maxStates = cfg.MaxStates
	if first.maxStates > 0 && first.maxStates < maxStates {
		maxStates = first.maxStates
	}
	rest = conf
	rest.arms = conf.arms[1:]
	if order := conf.order; order != nil { // the run stood for the first arm of every class
		rest.order = func(c features.Class) []arm { return order(c)[1:] }
	}
	return sub, maxStates, rest, true, len(rest.arms) > 0
}

// verifyMulti decides the properties props of prog in one run of the
// plain configuration conf under cfg (engine/multiprop.Run, with conf's
// analyses and options); emit, when not nil, receives each result as
// soon as it is decided. Results are in the order of props.
func verifyMulti(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, emit func(int, *Result)) []*Result {
	opts := multiprop.Options{
		Name: cfg.Name, Entry: cfg.Entry, MaxStates: cfg.MaxStates, MaxDepth: cfg.MaxDepth,
		Solver: cfg.Solver, AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow,
		KeepARG: cfg.KeepARG, Limits: cfg.limits(), Checks: cfg.checks,
		Analysis:  func() ([]cpa.CPA, error) { return conf.analysis(prog, cfg, Precision{}) },
		Algorithm: conf.opts,
	}
	if conf.multi != nil {
		opts.Direct = func(ctx context.Context, rs []*Result, decide func(int, results.Verdict, string)) {
			conf.multi(ctx, prog, props, cfg, rs, decide)
		}
	}
	if cfg.Scope {
		opts.Scope = func(prop *spec.Property, arg *cpa.ARG, violated bool) *results.Scope {
			return scope.Of(prog, prop, arg, violated, propertySlice(prog, prop, cfg.sdgs))
		}
	}
	return multiprop.Run(ctx, prog, props, opts, emit)
}

// sharedShare is the part of its properties' limits that the
// multi-property run may use: it works for all n of them at once, and
// each property is charged its n-th part of the run's time (on the
// clock the limit is measured on). What the run leaves undecided gets
// the rest of its limit, at least (1−sharedShare)·limit, in the
// per-property portfolio: the shared run never takes a property's whole
// limit. How long it may run is sharedLimit.
const sharedShare = 0.25

// sharedLimit is the time limit of the multi-property run over n
// properties of the limit limit each, verified workers at a time
// afterwards: n·sharedShare·limit spread over the workers (the run is
// one analysis, so it takes a quarter of the time the properties alone
// may take on the workers at most), and at least one limit, or all of
// n·sharedShare·limit when that is less. Before, one limit was also the
// most: with 19 assertions at 5 s each on one worker,
// testdata/examples/bitalloc's shared run needed about 8 s and was cut
// at 5 s; the portfolios then decided 16 of the 19 (`value` alone: 18,
// all of them with this limit).
func sharedLimit(limit time.Duration, n, workers int) time.Duration {
	all := time.Duration(sharedShare*float64(limit)) * time.Duration(n)
	return min(all, max(limit, all/time.Duration(max(1, workers))))
}

// afterMulti is what remains to do for a property that the
// multi-property run left UNKNOWN: the rest of the portfolio, after the
// shared run's outcome.
type afterMulti struct {
	conf   configuration
	arm    string  // the shared run's arm
	shared *Result // its UNKNOWN for this property, Seconds its time
	charge float64 // the property's part of that time (seconds)
}

// strategy decides prop as the sequence of the shared run's outcome
// and the rest of the portfolio under the property's limits: the rest
// gets what the shared run left of the limit (strategy.Sequence).
func (a *afterMulti) strategy(prog *cfa.Program, prop *spec.Property, cfg Config) strategy.Strategy {
	clock := strategy.Clock(cfg.Clock)
	shared := strategy.Func(a.arm+" (all properties in one run)", func(context.Context) *Result { return a.shared })
	seq := strategy.Sequence(cfg.Name, clock, cfg.Timeout,
		strategy.Step{S: outcome{shared, a.charge}, Share: sharedShare},
		strategy.Step{S: propertyStrategy(prog, prop, cfg, a.conf)})
	return strategy.Func(cfg.Name, func(ctx context.Context) *Result {
		r := strategy.Limit(seq, clock, 0, cfg.mem, cfg.MemoryLimit).Run(ctx)
		r.Property, r.Config = prop, cfg.Name
		return r
	})
}

// outcome is a step whose work was done before (the shared run): it
// reports the time that work took.
type outcome struct {
	strategy.Strategy
	seconds float64
}

func (o outcome) Run(ctx context.Context) *Result {
	r := *o.Strategy.Run(ctx)
	r.Seconds = o.seconds
	return &r
}

// sharedStep is the multi-property run of conf's plan (multiPlan) on
// the properties it is given that need an analysis, for at most
// sharedShare of the property limit (each property charged its part),
// as one step of a plan: every property it decides, and every UNKNOWN
// when no per-property arm is left (hasRest false), is emitted; a
// property it leaves open gets, in after, what remains to do for it in
// the per-property step (a property the run's time cut gets the whole
// configuration again; one its state budget cut, the rest of the
// portfolio).
func sharedStep(prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, after []*afterMulti) strategy.Group {
	return strategy.GroupFunc("", func(ctx context.Context, idx []int, emit func(int, *Result)) {
		var runnable []int
		if prog.Func(cfg.Entry).UnmodelledParam() == "" {
			for _, i := range idx {
				if p := props[i]; p.Reachable && len(p.ErrorEdges) > 0 {
					runnable = append(runnable, i)
				}
			}
		}
		multi, maxStates, rest, ok, hasRest := multiPlan(conf, cfg, len(runnable))
		if !ok {
			return
		}
		mcfg := cfg
		mcfg.MaxStates = maxStates
		if len(conf.arms) > 0 && conf.arms[0].concrete {
			mcfg.NoListAbstraction = true // as the arm runs alone
		}
		if hasRest && cfg.Timeout > 0 {
			mcfg.Timeout = sharedLimit(cfg.Timeout, len(runnable), cfg.Workers)
		}
		if multi.multi != nil && !hasRest && cfg.Timeout > 0 {
			// the run is all its properties' analysis: their limits
			// together, each charged its part
			mcfg.Timeout = cfg.Timeout * time.Duration(len(runnable))
		}
		armName := cfg.Name
		if len(conf.arms) > 0 {
			armName = conf.arms[0].name
		}
		sub := make([]*spec.Property, len(runnable))
		for j, i := range runnable {
			sub[j] = props[i]
		}
		res := verifyMulti(ctx, prog, sub, mcfg, multi, func(j int, r *Result) {
			if decided(r.Verdict) || !hasRest {
				if len(conf.arms) > 0 {
					r.Reason = armName + ": " + r.Reason
					r.Decider = armName + " (all properties in one run)"
				}
				emit(runnable[j], r)
			}
		})
		shapes := map[*cpa.ARG]*cpa.Shape{}
		for j, r := range res {
			if !hasRest || decided(r.Verdict) {
				continue
			}
			if r.ARG != nil && cfg.KeepShape {
				// The run's ARG, which every property it left open
				// shares, is freed now: held until the last of them is
				// decided alone, it would count against each one's
				// memory limit in turn (the watch measures the process).
				if shapes[r.ARG] == nil {
					shapes[r.ARG] = cpa.ShapeOf(r.ARG)
				}
				r.Shape, r.ARG = shapes[r.ARG], nil
			}
			a := &afterMulti{conf: rest, arm: armName, shared: r, charge: r.Seconds / float64(len(runnable))}
			if r.Cause.TimedOut() || r.Cause != nil && r.Cause.Kind == results.CauseBudget {
				// The run was cut by its time (its limit, or its share
				// of the caller's budget), not by its state budget:
				// alone on the property, its arm may still decide it
				// (the whole portfolio runs).
				a.conf = conf
			}
			after[runnable[j]] = a
		}
	})
}
