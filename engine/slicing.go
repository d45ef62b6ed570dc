package engine

import (
	"sync"

	"github.com/reverify/reverify/engine/analysis/slicing"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/smt"
)

// The slicing configurations of seed 000, section 4: the slicing CPA
// (engine/analysis/slicing) around symbolic execution or the value
// analysis, with slicing refinement (cegar.SlicingRefiner) first and the
// wrapped analysis's own refiner when the slice stops growing.
func init() {
	register("symex-slicing", slicingConfig(
		"symbolic execution, full precision, under the slicing CPA with slicing refinement (seed 000, sections 3.2–3.3)",
		symexAnalysis(false), nil, cegar.RestartRoot))
	register("symex-slicing-cegar", slicingConfig(
		"symbolic execution with CEGAR under the slicing CPA: slicing refinement first, then constraint interpolation (seed 000, sections 3.2–3.3)",
		symexAnalysis(true),
		func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			return cegar.NewSymbolicRefiner(comp, cfg.PrecisionScope.or(symexScope))
		},
		cegar.RestartRoot))
	register("value-slicing-cegar", slicingConfig(
		"explicit-value analysis with CEGAR under the slicing CPA: slicing refinement first, then value interpolation (seed 000, section 3.3; seed 001, sections 3.8.2–3.8.5)",
		func(prog *cfa.Program, cfg Config, init Precision) (cpa.CPA, error) {
			return value.New(prog, value.Options{Precision: init.scoped(), NoListAbstraction: cfg.NoListAbstraction}), nil
		},
		func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			return cegar.NewValueRefiner(prog, comp, cegar.ValueOptions{Scope: cfg.PrecisionScope.or(valueScope)})
		},
		cegar.RestartPivot))
}

// symexAnalysis returns symbolic execution with full precision, or (for
// CEGAR) with the initial precision of Config.InitialPrecision.
func symexAnalysis(refinable bool) func(prog *cfa.Program, cfg Config, init Precision) (cpa.CPA, error) {
	return func(prog *cfa.Program, cfg Config, init Precision) (cpa.CPA, error) {
		opts := symbolic.Options{Solver: cfg.Solver}
		if refinable {
			opts.Precision = symbolic.Tracking(init.scoped())
		}
		return symbolic.New(prog, opts)
	}
}

// slicingConfig is a configuration whose data analysis is wrapped in the
// slicing CPA (starting from the empty slice) and refined by slicing
// refinement with Config.SlicingCriterion, delegating to the refiner
// that delegate returns (nil: none) when the slice stops growing.
func slicingConfig(doc string,
	wrapped func(prog *cfa.Program, cfg Config, init Precision) (cpa.CPA, error),
	delegate func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error),
	restart cegar.Restart) configuration {
	return configuration{
		doc: doc,
		analysis: func(prog *cfa.Program, cfg Config, init Precision) ([]cpa.CPA, error) {
			// init holds the wrapped analysis's entries: slice entries
			// are not reused (ParsePrecision).
			w, err := wrapped(prog, cfg, init)
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{slicing.New(prog, cfg.sdgs.of(prog), w, slicing.Options{})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			opts := cegar.SlicingOptions{Criterion: cfg.SlicingCriterion, Solver: cfg.Solver,
				Semantics: smt.EncodeOptions{AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow}, LazyCheck: lazySlicingCheck}
			if delegate != nil {
				opts.Delegate = func(unwrapped *cpa.Composite) (cegar.Refiner, error) { return delegate(prog, unwrapped, cfg) }
			}
			return cegar.NewSlicingRefiner(prog, comp, opts)
		},
		restart: restart,
	}
}

// lazySlicingCheck selects cegar.SlicingOptions.LazyCheck (measured by
// BenchmarkConfigs).
const lazySlicingCheck = true

// sdgCache holds the system dependence graphs (pdg.Build) of the programs
// one Verify call analyses: every property of the call shares its
// program's graph, and the slice reduction (reduce.go) and the slicing
// configurations the graph of the program they run on. Verify creates
// it (Config.sdgs) and drops it on return; it keeps the graphs of the
// last four programs (the original and the reduced programs of the
// properties in progress). A nil *sdgCache caches nothing.
type sdgCache struct {
	mu      sync.Mutex
	entries []*sdgEntry
}

type sdgEntry struct {
	prog *cfa.Program
	once sync.Once
	g    *pdg.SDG
}

// of returns pdg.Build(prog), built once per program while it is among
// the last four asked for; safe for concurrent use.
func (c *sdgCache) of(prog *cfa.Program) *pdg.SDG {
	if c == nil {
		return pdg.Build(prog)
	}
	c.mu.Lock()
	var e *sdgEntry
	for _, x := range c.entries {
		if x.prog == prog {
			e = x
			break
		}
	}
	if e == nil {
		e = &sdgEntry{prog: prog}
		c.entries = append(c.entries, e)
		if len(c.entries) > 4 {
			c.entries = c.entries[1:]
		}
	}
	c.mu.Unlock()
	e.once.Do(func() { e.g = pdg.Build(prog) })
	return e.g
}
