package engine

import (
	"strings"
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
			return newSymexRefiner(comp, cfg)
		},
		cegar.RestartRoot))
	register("value-slicing-cegar", slicingConfig(
		"explicit-value analysis with CEGAR under the slicing CPA: slicing refinement first, then value interpolation (seed 000, section 3.3; seed 001, sections 3.8.2–3.8.5)",
		func(prog *cfa.Program, cfg Config, init []string) (cpa.CPA, error) {
			prec, err := value.ParseScopedPrecision(init)
			if err != nil {
				return nil, err
			}
			return value.New(prog, value.Options{Precision: prec, NoListAbstraction: cfg.NoListAbstraction}), nil
		},
		func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			scope, err := precisionScope(cfg, valueScope)
			if err != nil {
				return nil, err
			}
			return cegar.NewValueRefiner(prog, comp, cegar.ValueOptions{Scope: scope})
		},
		cegar.RestartPivot))
}

// symexAnalysis returns symbolic execution with full precision, or (for
// CEGAR) with the initial precision of Config.InitialPrecision.
func symexAnalysis(refinable bool) func(prog *cfa.Program, cfg Config, init []string) (cpa.CPA, error) {
	return func(prog *cfa.Program, cfg Config, init []string) (cpa.CPA, error) {
		opts := symbolic.Options{Solver: cfg.Solver}
		if refinable {
			prec, err := symexPrecision(init)
			if err != nil {
				return nil, err
			}
			opts.Precision = prec
		}
		return symbolic.New(prog, opts)
	}
}

// slicingConfig is a configuration whose data analysis is wrapped in the
// slicing CPA (starting from the empty slice) and refined by slicing
// refinement with Config.SlicingCriterion, delegating to the refiner
// that delegate returns (nil: none) when the slice stops growing.
func slicingConfig(doc string,
	wrapped func(prog *cfa.Program, cfg Config, init []string) (cpa.CPA, error),
	delegate func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error),
	restart cegar.Restart) configuration {
	return configuration{
		doc: doc,
		analysis: func(prog *cfa.Program, cfg Config, init []string) ([]cpa.CPA, error) {
			var own []string // the wrapped analysis's entries; slice entries are not reused
			for _, e := range init {
				if !strings.HasPrefix(e, cegar.SliceEntryPrefix) {
					own = append(own, e)
				}
			}
			w, err := wrapped(prog, cfg, own)
			if err != nil {
				return nil, err
			}
			return []cpa.CPA{slicing.New(prog, programSDG(prog), w, slicing.Options{})}, nil
		},
		opts: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep},
		refiner: func(prog *cfa.Program, comp *cpa.Composite, cfg Config) (cegar.Refiner, error) {
			crit, err := cegar.ParseSlicingCriterion(cfg.SlicingCriterion)
			if err != nil {
				return nil, err
			}
			opts := cegar.SlicingOptions{Criterion: crit, Solver: cfg.Solver,
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
var lazySlicingCheck = true

// sdgs caches the system dependence graphs of the last programs verified
// (every property of a Verify call shares its program's graph).
var sdgs struct {
	sync.Mutex
	entries []*sdgEntry
}

type sdgEntry struct {
	prog *cfa.Program
	once sync.Once
	g    *pdg.SDG
}

// programSDG returns pdg.Build(prog), built once per program (the last
// four programs are kept).
func programSDG(prog *cfa.Program) *pdg.SDG {
	sdgs.Lock()
	var e *sdgEntry
	for _, x := range sdgs.entries {
		if x.prog == prog {
			e = x
			break
		}
	}
	if e == nil {
		e = &sdgEntry{prog: prog}
		sdgs.entries = append(sdgs.entries, e)
		if len(sdgs.entries) > 4 {
			sdgs.entries = sdgs.entries[1:]
		}
	}
	sdgs.Unlock()
	e.once.Do(func() { e.g = pdg.Build(prog) })
	return e.g
}
