package multiprop

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/invariants"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

// Options are the settings of one multi-property run.
type Options struct {
	// Name is the results' Config.
	Name string
	// Entry is the entry function.
	Entry string
	// MaxStates bounds the reached set (0: no bound), MaxDepth the call
	// stack (callstack.New).
	MaxStates, MaxDepth int
	// Solver creates the SMT solvers of the counterexample checks;
	// required. AssumeNoSignedOverflow is their signed-overflow
	// semantics (smt.EncodeOptions).
	Solver                 smt.Factory
	AssumeNoSignedOverflow bool
	// KeepARG keeps the run's ARG in each result.
	KeepARG bool
	// Limits are the limits of the whole run.
	strategy.Limits
	// Checks caches the counterexample checks (nil: none).
	Checks *cexcheck.CheckCache
	// Analysis returns the data-analysis components added to
	// location × callstack × property.Multi; Algorithm are the CPA
	// algorithm's options (MaxStates is set from above).
	Analysis  func() ([]cpa.CPA, error)
	Algorithm cpa.Options
	// Direct, when not nil, decides the properties by itself instead of
	// a CPA run (bmc over one unrolling per bound): each result it fills
	// in rs is passed to decide.
	Direct func(ctx context.Context, rs []*strategy.Result, decide func(int, results.Verdict, string))
	// Scope, when not nil, gives the property scope of a decided
	// property from the run's ARG (violated: FALSE).
	Scope func(prop *spec.Property, arg *cpa.ARG, violated bool) *results.Scope
}

// Run decides the properties props (all reachable, with error
// edges, under an entry without unmodelled parameters) of prog in one run
// of the plain analysis of opts (no refiner): multi-property
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
// runs; only a limit may be reached sooner (engine's
// TestMultiMatchesPerProperty).
//
// Results are in the order of props, with Config cfg.Name; States and
// ARG (cfg.KeepARG) are the shared run's when the property was decided;
// Seconds is the time from the start of the run until the property was
// decided; an UNKNOWN carries its cause (the run's limit, the state
// limit, a panic, else an incomplete run). emit, when not nil, receives
// each result as soon as it is decided. cfg.Timeout bounds the whole
// run; a property it leaves to the per-property arms gets what is left
// of its limit there (the engine's plan), so the limit holds for the
// property as a whole.
func Run(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Options, emit func(int, *strategy.Result)) (rs []*strategy.Result) {
	clock := cfg.Clock
	start := clock.Now()
	rs = make([]*strategy.Result, len(props))
	for i, p := range props {
		rs[i] = &strategy.Result{Property: p, Config: cfg.Name}
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
			if cfg.Scope != nil && (v == results.True || v == results.False) {
				r.Scope = cfg.Scope(r.Property, alg.ARG(), v == results.False)
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
	ctx, untrack := cfg.Watch.Track(ctx)
	defer untrack()
	strategy.Guard(func() {
		if cfg.Direct != nil {
			cfg.Direct(ctx, rs, decide)
			return
		}
		run(ctx, prog, props, cfg, rs, &alg, decide, &open)
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
func multiCause(ctx, parent context.Context, cfg Options, alg *cpa.Algorithm, internal bool) *results.Cause {
	switch {
	case parent.Err() != nil:
		return &results.Cause{Kind: results.CauseBudget}
	case errors.Is(context.Cause(ctx), strategy.ErrMemoryLimit):
		return &results.Cause{Kind: results.CauseMemory, Limit: strategy.HumanBytes(cfg.MemoryLimit)}
	case ctx.Err() != nil:
		return &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(cfg.Timeout, cfg.Clock.IsCPU())}
	case alg != nil && alg.StateLimited():
		return &results.Cause{Kind: results.CauseStates, Limit: fmt.Sprint(cfg.MaxStates)}
	case internal:
		return &results.Cause{Kind: results.CauseInternal}
	}
	return &results.Cause{Kind: results.CauseIncomplete}
}

// run is Run's CPA run, inside its limits and Guard.
func run(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Options, rs []*strategy.Result, algp **cpa.Algorithm, decide func(int, results.Verdict, string), openp *int) {
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
	data, err := cfg.Analysis()
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
	opts := cfg.Algorithm
	opts.MaxStates = cfg.MaxStates
	alg := cpa.NewAlgorithm(comp, opts)
	*algp = alg
	sem := smt.EncodeOptions{AssumeNoSignedOverflow: cfg.AssumeNoSignedOverflow}
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
						reason += " (" + plural(n) + " excluded)"
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
		chk, _ := cfg.Checks.Check(ctx, prog, path, cfg.Solver, sem)
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

// plural formats "1 infeasible error path", "2 infeasible error paths".
func plural(n int) string {
	if n == 1 {
		return "1 infeasible error path"
	}
	return fmt.Sprintf("%d infeasible error paths", n)
}
