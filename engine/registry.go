package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
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
	// configurations run in parallel (schedule.go); the fields above are
	// then unused.
	arms []arm
	// direct, when not nil, decides the property by itself instead of a
	// CPA run (k-induction, kinduction.go); the fields above are then
	// unused.
	direct func(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result)
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

// run decides one property with the CEGAR loop of engine/cegar (without
// a refiner for plain configurations): a Safe loop is TRUE (unless an
// unsupported construct was reached), a feasible error path is FALSE
// (unless it passes an unmodelled function), everything else is UNKNOWN
// with the loop's reason.
func (conf configuration) run(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	if len(conf.arms) > 0 {
		conf.runPortfolio(ctx, prog, prop, cfg, res)
		return
	}
	if conf.direct != nil {
		conf.direct(ctx, prog, prop, cfg, res)
		return
	}
	comps, err := components(prog, prop, cfg)
	if err != nil {
		res.Verdict, res.Reason = results.Unknown, err.Error()
		return
	}
	data, err := conf.analysis(prog, cfg, cfg.InitialPrecision[prop.ID])
	if err != nil {
		res.Verdict, res.Reason = results.Unknown, err.Error()
		return
	}
	composite, err := cpa.NewComposite(append(comps, data...)...)
	if err != nil {
		res.Verdict, res.Reason = results.Unknown, err.Error()
		return
	}
	opts := conf.opts
	opts.MaxStates = cfg.MaxStates
	var ref cegar.Refiner
	if conf.refiner != nil {
		if ref, err = conf.refiner(prog, composite, cfg); err != nil {
			res.Verdict, res.Reason = results.Unknown, err.Error()
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
	blockTrue, _ := splitExplanations(out.Algorithm.Explanations())
	switch out.Status {
	case cegar.Safe:
		if len(blockTrue) > 0 {
			res.Verdict, res.Reason = results.Unknown, strings.Join(blockTrue, "; ")
			return
		}
		res.Verdict, res.Reason = results.True, "reached set is a fixed point without error states"
		res.Invariants = loopInvariants(prog, out.Algorithm)
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
	case cegar.Incomplete:
		res.Verdict, res.Reason = results.Unknown, strings.Join(append(append([]string{out.Reason}, blockTrue...), shapeNotes(data)...), "; ")
	case cegar.Unknown:
		res.Verdict, res.Reason = results.Unknown, out.Reason
	case cegar.Unsafe:
		if _, blockFalse := splitExplanations(explain(out.Target)); len(blockFalse) > 0 {
			res.Verdict = results.Unknown
			res.Reason = "error path depends on " + strings.Join(blockFalse, ", ")
			res.Unmodelled = unmodelledNames(blockFalse)
			return
		}
		res.Verdict, res.Reason = results.False, "error path confirmed by SMT and concrete replay"
		res.Counterexample, res.Inputs = out.Path, inputs(out.Path, out.Inputs)
		res.SignedOverflow = signedOverflow(ctx, prog, out.Path, out.Inputs)
		res.FailureValues = failureValues(ctx, prog, out.Path, out.Inputs)
		if res.SignedOverflow != "" {
			res.Reason += "; it overflows a signed integer at " + res.SignedOverflow +
				" (undefined in C: --signed-overflow assume-none cuts such paths)"
		}
	}
}

// plural formats "1 refinement", "2 refinements".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// explain returns the reasons carried by an ARG node's state.
func explain(n *cpa.Node) []string {
	if e, ok := any(n.State).(cpa.Explainer); ok {
		return e.Explain()
	}
	return nil
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
