package engine

import (
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

func init() {
	register("value", configuration{
		doc: "explicit-value analysis, full precision (seed 001, section 3.8.1)",
		analysis: func(prog *cfa.Program, cfg Config, _ []string) ([]cpa.CPA, error) {
			return []cpa.CPA{value.New(prog, value.Options{})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
	})
	register("value-cegar", valueCEGAR(cegar.RestartPivot, cegar.ValueOptions{}))
	register("symex", configuration{
		doc: "symbolic execution, full precision, no CEGAR (seed 000, sections 2.3 and 2.6.6)",
		analysis: func(prog *cfa.Program, cfg Config, _ []string) ([]cpa.CPA, error) {
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
		analysis: func(prog *cfa.Program, cfg Config, init []string) ([]cpa.CPA, error) {
			prec, err := symexPrecision(init)
			if err != nil {
				return nil, err
			}
			c, err := symbolic.New(prog, symbolic.Options{Solver: cfg.Solver, Precision: prec})
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{c}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, _ Config) (cegar.Refiner, error) {
			return newSymexRefiner(comp)
		},
		restart: cegar.RestartRoot,
	})
	// default: value-cegar decides most tasks fastest and its precision
	// can be reused on the next pull request; what it leaves UNKNOWN
	// (refinement limits on lock-step flags, loops whose exit needs
	// relations between inputs) symbolic execution with CEGAR often
	// decides. See the README's Performance section for the numbers.
	register("default", sequence("value-cegar for half the time limit, then symex-cegar on what it leaves UNKNOWN (a sequential combination)",
		step{"value-cegar", 0.5}, step{"symex-cegar", 1}))
}

// valueCEGAR is the explicit-value analysis under CEGAR with value
// interpolation, starting from the empty precision (or the property's
// Config.InitialPrecision).
func valueCEGAR(restart cegar.Restart, vo cegar.ValueOptions) configuration {
	return configuration{
		doc: "explicit-value analysis with CEGAR and value interpolation over infeasible sliced prefixes (seed 001, sections 3.8.2–3.8.5)",
		analysis: func(prog *cfa.Program, cfg Config, init []string) ([]cpa.CPA, error) {
			prec, err := value.ParseScopedPrecision(init)
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{value.New(prog, value.Options{Precision: prec})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, _ Config) (cegar.Refiner, error) {
			return cegar.NewValueRefiner(prog, comp, vo)
		},
		restart: restart,
	}
}
