package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/features"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/engine/timeslice"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/invariants"
	"github.com/reverify/reverify/engine/scope"
	"github.com/reverify/reverify/engine/smt"
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

// verifyMulti decides the properties props (all reachable, with error
// edges, under an entry without unmodelled parameters) of prog in one run
// of the plain configuration conf (no refiner): multi-property
// verification, seed 004 chapter 2 (CPAchecker's MPV). The run uses
// property.Multi over all properties; at each target the error path is
// checked (SMT and concrete replay, cexcheck.CheckPathOpts) for every
// property the target violates: feasible makes them FALSE, exactly as a
// run of one property (unmodelled functions on the path: UNKNOWN), and
// they are split off (Multi.Deactivate, their later targets dropped);
// infeasible excludes the path (cpa.Algorithm.ExcludeTarget), as a run of
// one property does; undecided makes them UNKNOWN and splits them off.
// The run continues until no property is left or it ends: a fixed point
// makes every remaining property TRUE, unless a construct that forbids
// TRUE was reached (then UNKNOWN with it, as for one property); an early
// end (state limit, timeout, truncated path, error) makes every
// remaining property UNKNOWN with its reason. The run explores what the
// runs of the single properties together explore (and the continuations
// after error calls), so its TRUE and FALSE are those of the per-property
// runs; only a limit may be reached sooner (TestMultiMatchesPerProperty).
//
// Results are in the order of props, with Config cfg.Name; States and
// ARG (Config.KeepARG) are the shared run's when the property was
// decided; Seconds is the time from the
// start of the run until the property was decided. emit, when not nil,
// receives each result as soon as it is decided. cfg.Timeout bounds the
// whole run; a property it leaves to the per-property arms gets what is
// left of its limit there (Verify), so the limit holds for the property
// as a whole.
func verifyMulti(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, emit func(int, *Result)) (rs []*Result) {
	clock := strategy.Clock(cfg.Clock)
	start := clock.Now()
	rs = make([]*Result, len(props))
	for i, p := range props {
		rs[i] = &Result{Property: p, Config: cfg.Name}
	}
	open := len(props)
	parent := ctx
	var alg *cpa.Algorithm
	panicked := false // the run ended in a panic (Guard): an internal error
	// decide gives property i its verdict; an UNKNOWN by a limit reads
	// as for one property ("timeout after 30s (value)").
	decide := func(i int, v results.Verdict, reason string) {
		r := rs[i]
		r.Verdict, r.Reason, r.Seconds = v, reason, clock.Since(start).Seconds()
		if v == results.Unknown {
			detail := reason
			if ctx.Err() != nil {
				detail = "" // the limit says it: "cancelled: …" adds nothing
			}
			r.SetUnknown(multiCause(ctx, parent, cfg, alg, panicked), detail)
		}
		if alg != nil {
			r.States = alg.Stats().Reached
			if cfg.KeepARG {
				r.ARG = alg.ARG()
			}
			if cfg.Scope && (v == results.True || v == results.False) {
				r.Scope = scope.Of(prog, r.Property, alg.ARG(), v == results.False, propertySlice(prog, r.Property, cfg.sdgs))
			}
		}
		open--
		if emit != nil {
			emit(i, r)
		}
	}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = strategy.WithBudget(ctx, clock, cfg.Timeout)
		defer cancel()
	}
	ctx, untrack := cfg.mem.Track(ctx)
	defer untrack()
	strategy.Guard(func() {
		if conf.multi != nil {
			conf.multi(ctx, prog, props, cfg, rs, decide)
			return
		}
		runMulti(ctx, prog, props, cfg, conf, rs, &alg, decide, &open)
	}, func(msg string) {
		panicked = true
		for i, r := range rs {
			if r.Verdict == "" {
				decide(i, results.Unknown, msg)
			}
		}
	})
	return rs
}

// multiCause is the cause of a property the multi-property run left
// UNKNOWN: the run's limit (ctx ended: timeout on cfg's clock or
// memory), the state limit, a panic (internal), else the run's own end.
func multiCause(ctx, parent context.Context, cfg Config, alg *cpa.Algorithm, internal bool) *results.Cause {
	switch {
	case parent.Err() != nil:
		return &results.Cause{Kind: results.CauseBudget}
	case errors.Is(context.Cause(ctx), strategy.ErrMemoryLimit):
		return &results.Cause{Kind: results.CauseMemory, Limit: strategy.HumanBytes(cfg.MemoryLimit)}
	case ctx.Err() != nil:
		return &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(cfg.Timeout, cfg.Clock != nil)}
	case alg != nil && alg.StateLimited():
		return &results.Cause{Kind: results.CauseStates, Limit: fmt.Sprint(cfg.MaxStates)}
	case internal:
		return &results.Cause{Kind: results.CauseInternal}
	}
	return &results.Cause{Kind: results.CauseIncomplete}
}

// runMulti is verifyMulti's run, inside its limits and Guard.
func runMulti(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, rs []*Result, algp **cpa.Algorithm, decide func(int, results.Verdict, string), openp *int) {
	// finish gives every open property v with reason.
	finish := func(v results.Verdict, reason string) {
		for i, r := range rs {
			if r.Verdict == "" {
				decide(i, v, reason)
			}
		}
	}
	specs := make([]property.Spec, len(props))
	for i, p := range props {
		specs[i] = property.Spec{Name: p.ID, ErrorEdges: p.ErrorEdges, Via: p.Via}
	}
	multi := property.NewMulti(specs)
	loc, err := location.New(prog, cfg.Entry)
	if err != nil {
		finish(results.Unknown, err.Error())
		return
	}
	data, err := conf.analysis(prog, cfg, Precision{})
	if err != nil {
		finish(results.Unknown, err.Error())
		return
	}
	comp, err := cpa.NewComposite(append([]cpa.CPA{loc, callstack.New(cfg.MaxDepth), multi}, data...)...)
	if err != nil {
		finish(results.Unknown, err.Error())
		return
	}
	pi := comp.Index("property")
	opts := conf.opts
	opts.MaxStates = cfg.MaxStates
	alg := cpa.NewAlgorithm(comp, opts)
	*algp = alg
	sem := smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow}
	excluded := make([]int, len(props))
	for *openp > 0 {
		status, target, err := alg.Run(ctx)
		blockTrue, _ := cpa.SplitExplanations(alg.Explanations())
		switch {
		case err != nil:
			finish(results.Unknown, err.Error())
			return
		case status == cpa.Incomplete:
			finish(results.Unknown, strings.Join(append([]string{alg.Reason()}, cpa.Texts(blockTrue)...), "; "))
			return
		case status == cpa.Unsafe:
			finish(results.Unknown, "error states remain that were not checked")
			return
		case status == cpa.Safe:
			if len(blockTrue) > 0 {
				finish(results.Unknown, cpa.JoinExplanations(blockTrue, "; "))
				return
			}
			invariants := invariants.Loops(prog, alg)
			for i, r := range rs {
				if r.Verdict == "" {
					reason := "reached set is a fixed point without error states"
					if n := excluded[i]; n > 0 {
						reason += " (" + plural(n, "infeasible error path") + " excluded)"
					}
					r.Invariants = invariants
					decide(i, results.True, reason)
				}
			}
			return
		}
		var hit []int
		for _, p := range target.State.Comps[pi].(*property.MultiState).Targets {
			if multi.Active(p) {
				hit = append(hit, p)
			}
		}
		if len(hit) == 0 {
			alg.Remove(target) // a target of properties already decided
			continue
		}
		path := target.Path()
		chk, _ := cfg.checks.Check(ctx, prog, path, cfg.Solver, sem)
		switch {
		case chk.Status == cexcheck.Feasible:
			_, blockFalse := cpa.SplitExplanations(target.Explain())
			for _, p := range hit {
				r := rs[p]
				multi.Deactivate(p)
				if len(blockFalse) > 0 {
					r.Unmodelled = cpa.UnmodelledNames(blockFalse)
					decide(p, results.Unknown, "error path depends on "+cpa.JoinExplanations(blockFalse, ", "))
					continue
				}
				r.SetFalse(ctx, prog, "error path confirmed by SMT and concrete replay", path, chk.Inputs)
				decide(p, results.False, r.Reason)
			}
			alg.Remove(target)
		case timeslice.Expired(ctx) != nil:
			finish(results.Unknown, "cancelled: "+timeslice.Expired(ctx).Error())
			return
		case chk.Status == cexcheck.Infeasible:
			for _, p := range hit {
				excluded[p]++
			}
			alg.ExcludeTarget(target)
		default:
			for _, p := range hit {
				multi.Deactivate(p)
				decide(p, results.Unknown, "counterexample check: "+chk.Reason)
			}
			alg.Remove(target)
		}
	}
	return
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
