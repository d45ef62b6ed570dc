package engine

import (
	"context"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
)

// verifyRounds verifies props under Config.ShareDeadline: the time to
// ctx's deadline (the proof's limit) is shared among the properties by
// strategy.Rounds, each property decided by conf one at a time
// (verifyOne) in rounds of growing budgets, beside the multi-property
// run of conf's first arm (multiPlan, verifyMulti) on one worker.
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
	if unmodelledEntryParam(prog.Func(cfg.Entry)) == "" {
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
