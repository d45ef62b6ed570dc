package engine

import (
	"context"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
)

// verifyRounds verifies props under Config.ShareDeadline: the time to
// ctx's deadline (the proof's limit) is shared among the properties by
// strategy.Rounds, each property decided by conf one at a time
// (verifyOne) in rounds of growing budgets, beside the multi-property
// run of conf's first arm (multiPlan, verifyMulti) on one worker, and
// for a portfolio with a bmc arm bmc's multi-property run beside that
// (roundsShared).
func verifyRounds(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, final func(int, *Result)) {
	strategy.Rounds(ctx, strategy.RoundsTask{
		N: len(props), Limit: cfg.Timeout, Workers: cfg.Workers, Clock: strategy.Clock(cfg.Clock),
		Run: func(ctx context.Context, i int, budget time.Duration) *Result {
			pcfg := cfg
			pcfg.Timeout = budget
			return verifyOne(ctx, prog, props[i], pcfg, conf)
		},
		Shared: roundsShared(prog, props, cfg, conf),
		Final: func(i int, r *Result) {
			r.Property, r.Config = props[i], cfg.Name
			final(i, r)
		},
	})
}

// roundsStep is verifyRounds on the properties it is given, as one step
// of a plan.
func roundsStep(prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration) strategy.Group {
	return strategy.GroupFunc("", func(ctx context.Context, idx []int, emit func(int, *Result)) {
		sub := make([]*spec.Property, len(idx))
		for k, i := range idx {
			sub[k] = props[i]
		}
		verifyRounds(ctx, prog, sub, cfg, conf, func(k int, r *Result) { emit(idx[k], r) })
	})
}

// roundsShared is the multi-property run of verifyRounds on the
// properties that need an analysis (nil when multiPlan has none): for at
// most the property limit, on one worker beside the rounds.
func roundsShared(prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration) *strategy.SharedRun {
	var runnable []int
	if prog.Func(cfg.Entry).UnmodelledParam() == "" {
		for i, p := range props {
			if p.Reachable && len(p.ErrorEdges) > 0 && len(p.Memory) == 0 {
				runnable = append(runnable, i)
			}
		}
	}
	multi, maxStates, _, ok, hasRest := multiPlan(conf, cfg, len(runnable))
	if !ok {
		return nil
	}
	mcfg := cfg
	mcfg.MaxStates = maxStates
	if multi.multi != nil && !hasRest && cfg.Timeout > 0 {
		// the run is all its properties' analysis (sharedStep)
		mcfg.Timeout = cfg.Timeout * time.Duration(len(runnable))
	}
	armName := ""
	if len(conf.arms) > 0 {
		armName = conf.arms[0].name
		mcfg.NoListAbstraction = mcfg.NoListAbstraction || conf.arms[0].concrete // as the arm runs alone
	}
	sub := make([]*spec.Property, len(runnable))
	for j, i := range runnable {
		sub[j] = props[i]
	}
	if hasRest && hasArm(conf, "bmc") {
		// beside it, bounded model checking of all properties over one
		// unrolling per bound (engine/bmc.CheckAll)
		bcfg := cfg
		if cfg.Timeout > 0 {
			bcfg.Timeout = cfg.Timeout * time.Duration(len(runnable))
		}
		return &strategy.SharedRun{Props: runnable, HasRest: true, Run: func(ctx context.Context, emit func(int, *Result)) {
			both := sharedPair{emit: emit, n: 2, got: make([][]*Result, len(sub)), done: make([]bool, len(sub))}
			var wg sync.WaitGroup
			for _, run := range []struct {
				arm  string
				conf configuration
				cfg  Config
			}{{armName, multi, mcfg}, {"bmc", configs["bmc"], bcfg}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					verifyMulti(ctx, prog, sub, run.cfg, run.conf, func(j int, r *Result) { both.add(run.arm, j, r) })
				}()
			}
			wg.Wait()
		}}
	}
	return &strategy.SharedRun{Props: runnable, Arm: armName, HasRest: hasRest,
		Run: func(ctx context.Context, emit func(int, *Result)) {
			verifyMulti(ctx, prog, sub, mcfg, multi, func(j int, r *Result) {
				if decided(r.Verdict) && armName != "" {
					r.Decider = armName + " (all properties in one run)"
				}
				emit(j, r)
			})
		}}
}

// hasArm reports whether the portfolio conf has an arm named name.
func hasArm(conf configuration, name string) bool {
	for _, a := range conf.arms {
		if a.name == name {
			return true
		}
	}
	return false
}

// sharedPair joins the results of n multi-property runs over the same
// properties into one stream for emit: a property's first TRUE or FALSE
// goes out at once (its decider the run's arm, "(all properties in one
// run)"), and an UNKNOWN only once every run has left it UNKNOWN, with
// each run's reason after its arm's name.
type sharedPair struct {
	mu   sync.Mutex
	emit func(int, *Result)
	n    int
	got  [][]*Result
	done []bool
}

func (p *sharedPair) add(arm string, j int, r *Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done[j] {
		return
	}
	if decided(r.Verdict) {
		p.done[j] = true
		r.Decider = arm + " (all properties in one run)"
		r.Reason = r.Decider + ": " + r.Reason
		p.emit(j, r)
		return
	}
	r.Reason = arm + " (all properties in one run): " + r.Reason
	p.got[j] = append(p.got[j], r)
	if len(p.got[j]) < p.n {
		return
	}
	p.done[j] = true
	out := p.got[j][0]
	for _, o := range p.got[j][1:] {
		out.Reason += "; " + o.Reason // the first run's cause, both runs' reasons
		out.Detail = out.Reason
		out.States += o.States
		out.Seconds = max(out.Seconds, o.Seconds)
	}
	p.emit(j, out)
}
