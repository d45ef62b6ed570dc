package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/spec"
)

// configuration is a named analysis: the data-analysis components added
// to location × callstack × property, the algorithm's options, and how
// runs are driven (plain, or a CEGAR loop).
type configuration struct {
	doc      string
	analysis func(prog *cfa.Program, cfg Config) []cpa.CPA
	opts     cpa.Options
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

// run drives the CPA algorithm for one property until a verdict: a Safe
// reached set is TRUE (unless an unsupported construct was reached), a
// target is checked bit-precisely (feasible: FALSE; infeasible: removed
// and the run continues; undecided: UNKNOWN), an incomplete run is
// UNKNOWN with its reason.
func (conf configuration) run(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	comps, err := components(prog, prop, cfg)
	if err != nil {
		res.Verdict, res.Reason = Unknown, err.Error()
		return
	}
	comps = append(comps, conf.analysis(prog, cfg)...)
	composite, err := cpa.NewComposite(comps...)
	if err != nil {
		res.Verdict, res.Reason = Unknown, err.Error()
		return
	}
	opts := conf.opts
	opts.MaxStates = cfg.MaxStates
	alg := cpa.NewAlgorithm(composite, opts)
	defer func() {
		res.States = alg.Stats().Reached
		if cfg.KeepARG {
			res.ARG = alg.ARG()
		}
	}()
	var spurious int
	for {
		status, target, err := alg.Run(ctx)
		if err != nil {
			res.Verdict, res.Reason = Unknown, err.Error()
			return
		}
		switch status {
		case cpa.Safe:
			blockTrue, _ := splitExplanations(alg.Explanations())
			if len(blockTrue) > 0 {
				res.Verdict, res.Reason = Unknown, strings.Join(blockTrue, "; ")
				return
			}
			res.Verdict, res.Reason = True, "reached set is a fixed point without error states"
			if spurious > 0 {
				res.Reason += fmt.Sprintf(" (%d infeasible error paths excluded)", spurious)
			}
			return
		case cpa.Incomplete:
			reasons := []string{alg.Reason()}
			blockTrue, _ := splitExplanations(alg.Explanations())
			res.Verdict, res.Reason = Unknown, strings.Join(append(reasons, blockTrue...), "; ")
			return
		case cpa.Unsafe:
			res.Verdict, res.Reason = Unknown, "error states remain that were not checked"
			return
		}
		// A target state: check its path bit-precisely.
		path := target.Path()
		_, blockFalse := splitExplanations(explain(target))
		cex := checkCounterexample(ctx, prog, path, cfg)
		switch cex.status {
		case feasible:
			if len(blockFalse) > 0 {
				res.Verdict = Unknown
				res.Reason = "error path depends on " + strings.Join(blockFalse, ", ")
				res.Unmodelled = unmodelledNames(blockFalse)
				return
			}
			res.Verdict, res.Reason = False, "error path confirmed by SMT and concrete replay"
			res.Counterexample, res.Inputs = path, cex.inputs
			return
		case infeasible:
			// The analysis over-approximated (unknown values took both
			// branches); this path is spurious: exclude it and go on.
			spurious++
			alg.Remove(target)
		default:
			res.Verdict, res.Reason = Unknown, "counterexample check: "+cex.reason
			return
		}
	}
}

// explain returns the reasons carried by an ARG node's state.
func explain(n *cpa.Node) []string {
	if e, ok := any(n.State).(cpa.Explainer); ok {
		return e.Explain()
	}
	return nil
}
