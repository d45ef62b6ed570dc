package engine

import (
	"context"
	"fmt"
	"github.com/reverify/reverify/engine/strategy"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/features"
	"github.com/reverify/reverify/engine/invariants"
	"github.com/reverify/reverify/engine/scope"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// configuration is a named analysis: the data-analysis components added
// to location × callstack × property, the algorithm's options, and how
// runs are driven: plain (infeasible error paths are excluded one by one)
// or a CEGAR loop with a refiner (engine/cegar).
type configuration struct {
	doc string
	// analysis returns the data-analysis components; init is the initial
	// precision given for the property (Config.InitialPrecision), which
	// configurations without a refinable precision ignore.
	analysis func(prog *cfa.Program, cfg Config, init Precision) ([]cpa.CPA, error)
	opts     cpa.Options
	// refiner, when not nil, makes the configuration a CEGAR loop with
	// the refiner it returns for the composite.
	refiner func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error)
	restart cegar.Restart
	// arms, when not empty, make the configuration a portfolio of other
	// configurations (strategy.Portfolio; schedule.go); the fields above are
	// then unused.
	arms []arm
	// order, when not nil, gives a portfolio's arms for the class of the
	// program's features (engine/features): the arms of arms, in the
	// order and with the shares expected to pay off first for that class
	// (TestDefaultArms checks they are the same arms).
	order func(features.Class) []arm
	// direct, when not nil, decides the property by itself instead of a
	// CPA run (k-induction, kinduction.go); the fields above are then
	// unused.
	direct func(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result)
	// multi, when not nil, decides the properties of one entry at once
	// for a direct configuration (bmc over one unrolling per bound):
	// each result it fills in rs is passed to decide (verifyMulti).
	multi func(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, rs []*Result, decide func(int, results.Verdict, string))
}

// configs is the registry of named configurations (DESIGN.md,
// "Configurations"). It is validated by TestConfigs.
var configs = map[string]configuration{}

func register(name string, c configuration) {
	if _, dup := configs[name]; dup {
		panic("engine: configuration registered twice: " + name)
	}
	configs[name] = c
}

// ConfigNames returns the known configuration names, sorted.
func ConfigNames() []string {
	names := make([]string, 0, len(configs))
	for n := range configs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ConfigDoc returns the one-line description of a configuration.
func ConfigDoc(name string) string { return configs[name].doc }

// strategy returns how conf decides prop under cfg, named name: one
// analysis (a CPA run with or without CEGAR, or a direct decision such
// as k-induction) or a portfolio of the arms' strategies
// (strategy.Portfolio, with cfg's slots).
func (conf configuration) strategy(name string, prog *cfa.Program, prop *spec.Property, cfg Config) strategy.Strategy {
	if len(conf.arms) > 0 {
		chosen, selection := conf.arms, ""
		if conf.order != nil {
			f := cfg.features.of(prog, cfg.Entry)
			chosen = conf.order(f.Class())
			selection = f.String()
		}
		arms := make([]strategy.Arm, len(chosen))
		for i, a := range chosen {
			armCfg := cfg
			armCfg.InitialPrecision = map[string]Precision{prop.ID: cfg.InitialPrecision[prop.ID].arm(a.name, i == 0)}
			if a.maxStates > 0 && (armCfg.MaxStates <= 0 || a.maxStates < armCfg.MaxStates) {
				armCfg.MaxStates = a.maxStates
			}
			armCfg.NoListAbstraction = cfg.NoListAbstraction || a.concrete
			arms[i] = strategy.Arm{S: configs[a.name].strategy(a.name, prog, prop, armCfg), Weight: a.weight, After: a.after, Probe: a.probe, Demoted: a.demoted, Cap: a.cap}
		}
		var clock strategy.Clock
		if cfg.Clock != nil && cfg.Workers == 1 { // the process runs this property alone
			clock = strategy.Clock(cfg.Clock)
		}
		return strategy.Selected(strategy.PortfolioOn(name, cfg.slots(), clock, arms...), selection)
	}
	return strategy.Func(name, func(ctx context.Context) *Result {
		res := &Result{Property: prop, Config: name}
		if conf.direct != nil {
			conf.direct(ctx, prog, prop, cfg, res)
		} else {
			conf.runCPA(ctx, prog, prop, cfg, res)
		}
		return res
	})
}

// run decides prop with conf's strategy into res (whose Config stays).
func (conf configuration) run(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	name := res.Config
	*res = *conf.strategy(name, prog, prop, cfg).Run(ctx)
	res.Property, res.Config = prop, name
}

// runCPA decides one property with the CEGAR loop of engine/cegar
// (without a refiner for plain configurations): a Safe loop is TRUE
// (unless an unsupported construct was reached), a feasible error path
// is FALSE (unless it passes an unmodelled function), everything else is
// UNKNOWN with the loop's cause (a run that ctx ended gets its cause
// from strategy.Func).
func (conf configuration) runCPA(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	incomplete := &results.Cause{Kind: results.CauseIncomplete}
	comps, err := components(prog, prop, cfg)
	if err != nil {
		res.SetUnknown(incomplete, err.Error())
		return
	}
	data, err := conf.analysis(prog, cfg, cfg.InitialPrecision[prop.ID])
	if err != nil {
		res.SetUnknown(incomplete, err.Error())
		return
	}
	composite, err := cpa.NewComposite(append(comps, data...)...)
	if err != nil {
		res.SetUnknown(incomplete, err.Error())
		return
	}
	opts := conf.opts
	opts.MaxStates = cfg.MaxStates
	var ref cegar.Refiner
	if conf.refiner != nil {
		if ref, err = conf.refiner(prog, composite, cfg); err != nil {
			res.SetUnknown(incomplete, err.Error())
			return
		}
	}
	out := cegar.Run(ctx, prog, composite, cegar.Options{
		Algorithm: opts, Solver: cfg.Solver, Refiner: ref,
		MaxRefinements: cfg.MaxRefinements, Restart: conf.restart, Cache: cfg.checks,
		Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow},
	})
	res.States = out.States
	res.Refinements = out.Stats.Refinements
	res.Precision = out.PrecisionText(ref)
	if cfg.KeepARG {
		res.ARG = out.Algorithm.ARG()
	}
	if cfg.Scope {
		defer func() {
			if res.Verdict == results.True || res.Verdict == results.False {
				res.Scope = scope.Of(prog, prop, out.Algorithm.ARG(), res.Verdict == results.False, propertySlice(prog, prop, cfg.sdgs))
			}
		}()
	}
	blockTrue, _ := cpa.SplitExplanations(out.Algorithm.Explanations())
	switch out.Status {
	case cegar.Safe:
		if len(blockTrue) > 0 {
			res.SetUnknown(limitCause("", nil, 0, 0, blockTrue), cpa.JoinExplanations(blockTrue, "; "))
			return
		}
		res.Verdict, res.Reason = results.True, "reached set is a fixed point without error states"
		res.Invariants = invariants.Loops(prog, out.Algorithm)
		var notes []string
		if n := out.Stats.Refinements; n > 0 {
			notes = append(notes, plural(n, "refinement"))
		}
		if n := out.Stats.Excluded; n > 0 {
			notes = append(notes, plural(n, "infeasible error path")+" excluded")
		}
		if len(notes) > 0 {
			res.Reason += " (" + strings.Join(notes, ", ") + ")"
		}
	case cegar.Incomplete, cegar.Unknown:
		detail := strings.Join(append(append([]string{out.Reason}, cpa.Texts(blockTrue)...), shapeNotes(data)...), "; ")
		res.SetUnknown(limitCause(out.Limit, out.UB, opts.MaxStates, cfg.maxRefinements(), blockTrue), detail)
	case cegar.Unsafe:
		if _, blockFalse := cpa.SplitExplanations(out.Target.Explain()); len(blockFalse) > 0 {
			res.Unmodelled = cpa.UnmodelledNames(blockFalse)
			res.SetUnknown(&results.Cause{Kind: results.CauseUnmodelled, Names: res.Unmodelled}, "error path depends on "+cpa.JoinExplanations(blockFalse, ", "))
			return
		}
		res.SetFalse(ctx, prog, "error path confirmed by SMT and concrete replay", out.Path, out.Inputs)
	}
}

// limitCause is the cause of an analysis that ended on its own before a
// verdict: the limit it hit (a state or refinement limit), else an
// unsupported construct that forbids TRUE (with the position of the
// first one), else an error path that needs undefined behaviour (ub),
// else incomplete.
func limitCause(limit results.CauseKind, ub *smt.UBCond, maxStates, maxRefinements int, blockTrue []cpa.Explanation) *results.Cause {
	switch limit {
	case results.CauseStates:
		return &results.Cause{Kind: limit, Limit: fmt.Sprint(maxStates)}
	case results.CauseRefinements:
		return &results.Cause{Kind: limit, Limit: fmt.Sprint(maxRefinements)}
	}
	if len(blockTrue) > 0 {
		c := &results.Cause{Kind: results.CauseUnsupported}
		for _, e := range blockTrue {
			if e.Kind == cpa.Unsupported && e.At != "" {
				c.At = e.At
				break
			}
		}
		return c
	}
	if limit == results.CauseUndefined && ub != nil {
		return &results.Cause{Kind: limit, At: ub.Pos.String(), Names: []string{ub.Kind}}
	}
	return &results.Cause{Kind: results.CauseIncomplete}
}

// plural formats "1 refinement", "2 refinements".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// shapeNotes collects the heap shapes the analyses could not abstract
// (value.CPA.ShapeNotes): they explain an UNKNOWN of an incomplete run.
func shapeNotes(cpas []cpa.CPA) []string {
	var out []string
	for _, c := range cpas {
		if n, ok := c.(interface{ ShapeNotes() []string }); ok {
			out = append(out, n.ShapeNotes()...)
		}
	}
	return out
}

// ConfigTable is the Markdown table of the registered configurations,
// one row per name with its description, the plain configurations
// sorted by name and the portfolios after them: the table of
// doc/configurations.md, which TestConfigTableDoc keeps equal to it.
func ConfigTable() string {
	var b strings.Builder
	b.WriteString("| name | analysis |\n|---|---|\n")
	names := ConfigNames()
	sort.SliceStable(names, func(i, j int) bool {
		return len(configs[names[i]].arms) == 0 && len(configs[names[j]].arms) > 0
	})
	for _, n := range names {
		fmt.Fprintf(&b, "| `%s` | %s |\n", n, configs[n].doc)
	}
	return b.String()
}
