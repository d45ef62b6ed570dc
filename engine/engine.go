package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/memsafety"
	"github.com/reverify/reverify/engine/reduce"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// Config selects the analysis and its limits.
type Config struct {
	// Name is the configuration (see Configs); "" means "default".
	Name  string
	Entry string // entry function; "" means "main"
	// Timeout bounds each property's analysis (0: none), measured on
	// Clock.
	Timeout time.Duration
	// Clock, when not nil, is the clock Timeout is measured on, e.g. the
	// process's CPU time (cmd injects it for runs with one property at a
	// time, so that a limit means the same on a loaded machine as on an
	// idle one, and covers all the arms of a portfolio); nil means wall
	// time.
	Clock func() time.Duration
	// MemoryLimit bounds each property's memory in bytes (0:
	// DefaultMemoryLimit): a breach answers UNKNOWN "memory limit"
	// (strategy.MemoryWatch says how it is measured).
	MemoryLimit uint64
	mem         *strategy.MemoryWatch
	sdgs        *sdgCache // the SDGs of this Verify call (slicing.go)
	// checks are the counterexample checks of this Verify call, shared
	// by its runs (cexcheck.CheckCache; the rounds of ShareDeadline meet
	// the same error paths again).
	checks *cexcheck.CheckCache
	// features are the programs' features of this Verify call (the
	// selection of `default`'s arm order; schedule.go).
	features *featureCache
	// MaxStates bounds each run's reached set (0: 1,000,000).
	MaxStates int
	// MaxDepth bounds the call stack (0: 64).
	MaxDepth int
	// Unwind, when positive, is the one unwinding bound of bounded model
	// checking (`bmc`; CBMC's --unwind, a proof Makefile's UNWIND);
	// otherwise bmc tries growing bounds.
	Unwind int
	// Unwindset are per-loop unwinding bounds of bounded model checking
	// in CBMC's form (--unwindset, the starter kit's UNWINDSET): loop id
	// "function.N" → CBMC's bound; each listed loop is unrolled at least
	// that far at every bound (engine/bmc.Options.Unwindset).
	Unwindset map[string]int
	// Workers is the number of properties verified in parallel (0: the
	// number of CPUs). A portfolio configuration (`default`) runs each
	// property's arms in goroutines of their own besides, as many at a time as Slots (strategy.Portfolio).
	Workers int
	// Slots is the number of a portfolio's arms that run at a time for
	// one property (0: the CPUs divided by Workers, at least 1); with
	// fewer slots than arms the arms take turns (strategy.Portfolio).
	Slots int
	// Solver creates SMT solvers; required (cmd injects engine/smt/z3).
	Solver smt.Factory
	// OneShot creates the solvers of single large checks, such as the
	// queries of bmc's unrollings (engine/smt/z3.OneShotFactory; cmd
	// injects package solverproc's, which runs large ones in solver
	// processes); nil means Solver.
	OneShot smt.Factory
	// Horn decides the Horn clauses of bmc's unbounded engine
	// (engine/bmc: IC3/PDR over the segments between loop heads); nil
	// leaves that engine out. cmd injects package solverproc's solver
	// process.
	Horn smt.HornSolver
	// ReleaseNative, when not nil, returns the C heap's free pages to the
	// system (cmd injects z3.TrimHeap): the memory watch calls it after
	// its collections, so that memory Z3 freed stops counting against the
	// next property.
	ReleaseNative func()
	// KeepARG keeps each property's final ARG in its Result, and the
	// evidence witnesses need that costs extra time (k-induction's
	// invariants of a proof that needed none).
	KeepARG bool
	// KeepShape, with KeepARG, replaces each final result's ARG by its
	// shape (Result.Shape, cpa.Shape; Result.ShapePath for a FALSE): a
	// picture of the exploration needs no more, and the results of many
	// properties would otherwise hold every reached state until the run
	// ends, outside any property's memory limit.
	KeepShape bool
	// Scope computes each decided property's property scope
	// (Result.Scope, engine/scope) from its final ARG.
	Scope bool
	// MaxRefinements bounds the refinements of CEGAR configurations
	// (0: cegar.DefaultMaxRefinements).
	MaxRefinements int
	// InitialPrecision is, by property ID, the precision a CEGAR
	// configuration starts from instead of the empty one: the
	// Result.Precision of an earlier run, parsed by ParsePrecision.
	// Entries naming functions, variables or locations that no longer
	// exist are ignored.
	InitialPrecision map[string]Precision
	// SlicingCriterion selects the criteria of slicing refinement in the
	// slicing configurations (ParseSlicingCriterion): the zero value
	// cegar.TargetPath (target-path slicing) or cegar.TargetLocation
	// (target-location slicing; seed 000, section 3.3).
	SlicingCriterion SlicingCriterion
	// PrecisionScope is the scope of the entries that value and
	// constraint interpolation add in the CEGAR configurations
	// (ParsePrecisionScope: location, function or adaptive); the zero
	// value is each configuration's default (adaptive for both).
	PrecisionScope PrecisionScope
	// SignedOverflow is the semantics of signed +, -, * and unary -:
	// WrapOverflow ("" too: two's complement wrap-around, gcc -fwrapv)
	// or AssumeNoOverflow (a path on which such an operation overflows
	// is cut, as the SV-COMP rules allow: their expected verdicts assume
	// programs free of undefined behaviour, C11 6.5p5).
	SignedOverflow OverflowMode
	// OnResult, when not nil, is called with each property's result as
	// soon as it is decided (for progress output), one call at a time,
	// from the goroutine that verified it; results arrive in the order
	// they are decided, not in the order of props.
	OnResult func(*Result)
	// AssumePure names functions without a body that the user declares
	// side-effect-free (`--assume-pure`, `.reverify.yml` assume.pure): a
	// call writes nothing and returns an arbitrary value (cfa.ExternPure).
	// Verify records them in the program (cfa.Program.AssumePure) and in
	// the Assumptions of every result of a program that calls one.
	AssumePure []string
	// NoListAbstraction switches off the abstraction of linked lists
	// into list segments at loop heads in the value analyses (`value`,
	// `value-cegar`, the slicing configurations and so `default`;
	// `--no-list-abstraction`; value.Options.NoListAbstraction).
	NoListAbstraction bool
	// MultiProperty selects multi-property verification (mpv.go,
	// engine/multiprop): ""
	// (MultiAuto: `default` starts with one run over all properties of
	// the entry when there are at least 4), "on" (plain configurations
	// such as value too) or "off" (one property at a time).
	MultiProperty string
	// Reduce selects the size-reduction passes applied to the program
	// per property before the analyses (engine/reduce, seed 002):
	// "none" ("" too), "slice", "full", "thin" or "value". A TRUE on the
	// reduced program is the verdict; a FALSE is lifted to a path of the
	// original program and checked there; anything else is decided again
	// on the original program, so counterexamples, witnesses and
	// reproducers always refer to the original (reduce.go).
	Reduce string
	// ShareDeadline shares the time to ctx's deadline (a proof's limit)
	// among the properties of a Verify call: the multi-property run
	// works on one worker while the others verify the properties one at
	// a time in rounds of growing time budgets, cheap ones decided
	// first, each within Timeout in total (verifyRounds in rounds.go).
	// false: the multi-property run first, then each property gets
	// Timeout in turn, in the order given.
	ShareDeadline bool
}

// OverflowMode is the semantics of signed integer overflow.
type OverflowMode string

// Overflow modes (the values of the --signed-overflow flag).
const (
	WrapOverflow     OverflowMode = "wrap"
	AssumeNoOverflow OverflowMode = "assume-none"
)

// ParseOverflowMode parses "wrap" or "assume-none".
func ParseOverflowMode(s string) (OverflowMode, error) {
	switch m := OverflowMode(s); m {
	case WrapOverflow, AssumeNoOverflow:
		return m, nil
	}
	return "", fmt.Errorf("unknown signed-overflow mode %q (known: wrap, assume-none)", s)
}

func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = "default"
	}
	if c.Entry == "" {
		c.Entry = "main"
	}
	if c.MaxStates == 0 {
		c.MaxStates = 1_000_000
	}
	if c.MemoryLimit == 0 {
		c.MemoryLimit = DefaultMemoryLimit
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = 64
	}
	if c.Workers <= 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.SignedOverflow == "" {
		c.SignedOverflow = WrapOverflow
	}
	return c
}

// Verify decides every property of prog and returns one result per
// property, in the order given. It returns an error only for a bad
// configuration (unknown name, missing entry function, no solver);
// everything that goes wrong while analysing one property becomes that
// property's UNKNOWN with the reason.
func Verify(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config) ([]*Result, error) {
	cfg = cfg.withDefaults()
	conf, ok := configs[cfg.Name]
	if !ok {
		return nil, fmt.Errorf("unknown configuration %q (known: %s)", cfg.Name, strings.Join(ConfigNames(), ", "))
	}
	if prog.Func(cfg.Entry) == nil {
		return nil, fmt.Errorf("entry function %q has no body", cfg.Entry)
	}
	if cfg.Solver == nil {
		return nil, fmt.Errorf("engine.Verify: no SMT solver factory")
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if _, err := ParseOverflowMode(string(cfg.SignedOverflow)); err != nil {
		return nil, err
	}
	if m := cfg.MultiProperty; m != MultiAuto && m != MultiOn && m != MultiOff {
		return nil, fmt.Errorf("unknown multi-property mode %q (known: on, off, or empty for auto)", m)
	}
	if _, err := reduce.ParseLevel(cfg.Reduce); err != nil {
		return nil, err
	}
	SetAssumePure(prog, cfg.AssumePure)
	assumptions := Assumptions(prog)
	cfg.mem = strategy.StartMemoryWatch(cfg.MemoryLimit, cfg.Workers, cfg.ReleaseNative)
	cfg.sdgs = &sdgCache{}
	cfg.checks = cexcheck.NewCheckCache(prog)
	cfg.features = &featureCache{}
	defer cfg.mem.Close()
	rs := make([]*Result, len(props))
	var onResult sync.Mutex
	shapes := shapeCache{}
	final := func(i int, r *Result) {
		r.Property = props[i]
		if cfg.KeepShape {
			shapes.keep(r)
		}
		if r.Config == "" {
			r.Config = cfg.Name
		}
		rs[i] = r
		r.Assumptions = assumptions
		if cfg.OnResult != nil {
			onResult.Lock()
			cfg.OnResult(r)
			onResult.Unlock()
		}
	}
	all := make([]int, len(props))
	for i := range props {
		all[i] = i
	}
	conf.plan(prog, props, cfg).Run(ctx, all, final)
	return rs, nil
}

// SetAssumePure records the functions declared side-effect-free in prog
// (cfa.Program.AssumePure) before any analysis or PDG of it is built; nil
// or empty names leave prog unchanged.
func SetAssumePure(prog *cfa.Program, names []string) {
	if len(names) == 0 {
		return
	}
	set := map[string]bool{}
	for n := range prog.AssumePure {
		set[n] = true
	}
	for _, n := range names {
		set[n] = true
	}
	prog.AssumePure = set
}

// Assumptions lists what every verdict on prog assumes: "pure f" for each
// function declared side-effect-free that prog calls (sorted).
func Assumptions(prog *cfa.Program) []string {
	var out []string
	for _, n := range prog.CallsExtern(cfa.ExternPure) {
		if cfa.MemoryQueries[n] != 0 || cfa.Uninterpreted(n) {
			continue // CBMC's primitives and uninterpreted functions: pure by definition
		}
		out = append(out, "pure "+n)
	}
	return out
}

// propertyLimits is verifyOne as a strategy: the per-property step of
// conf's plan.
func propertyLimits(prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration) strategy.Strategy {
	return strategy.Func(cfg.Name, func(ctx context.Context) *Result { return verifyOne(ctx, prog, prop, cfg, conf) })
}

// verifyOne runs the configuration on one property under its time and
// memory limits (strategy.Limit on cfg's clock).
func verifyOne(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration) *Result {
	if r := settled(prog, prop, cfg); r != nil {
		return r
	}
	return strategy.Limit(propertyStrategy(prog, prop, cfg, conf), strategy.Clock(cfg.Clock), cfg.Timeout, cfg.mem, cfg.MemoryLimit).Run(ctx)
}

// settled answers the properties that need no analysis (nil: prop
// needs one): NOT_CHECKED without a call path from the entry, TRUE
// without an error call, UNKNOWN under an entry whose parameters are
// not modelled.
func settled(prog *cfa.Program, prop *spec.Property, cfg Config) *Result {
	res := &Result{Property: prop, Config: cfg.Name}
	switch {
	case !prop.Reachable:
		res.Verdict, res.Cause = results.NotChecked, &results.Cause{Kind: results.CauseNotReachable}
		res.Reason = fmt.Sprintf("no call path from %s reaches %s", cfg.Entry, prop.Func)
	case len(prop.ErrorEdges) == 0 && len(prop.Memory) == 0:
		res.Verdict, res.Reason = results.True, "no error call: the property holds trivially"
	default:
		why := prog.Func(cfg.Entry).UnmodelledParam()
		if why == "" {
			return nil
		}
		res.SetUnknown(&results.Cause{Kind: results.CauseUnsupported}, why)
	}
	return res
}

// propertyStrategy is how one reachability property is decided under
// cfg, before its limits: conf's strategy, after the program reduced for
// the property (Config.Reduce, reducedStrategy) with reduceShare of the
// limit when a reduction is asked for. (Memory-safety properties are
// the plan's memory step: engine/memsafety.)
func propertyStrategy(prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration) strategy.Strategy {
	s := conf.strategy(cfg.Name, prog, prop, cfg)
	if level, _ := reduce.ParseLevel(cfg.Reduce); level != reduce.None {
		s = strategy.Sequence(cfg.Name, strategy.Clock(cfg.Clock), cfg.Timeout,
			strategy.Step{S: reducedStrategy(prog, prop, cfg, conf), Share: reduceShare},
			strategy.Step{S: s})
	}
	return s
}

// memsafety returns the options of the memory-safety step under cfg.
func (cfg Config) memsafety() memsafety.Options {
	return memsafety.Options{
		Entry: cfg.Entry, MaxStates: cfg.MaxStates, MaxDepth: cfg.MaxDepth,
		NoListAbstraction: cfg.NoListAbstraction, Solver: cfg.Solver,
		AssumeNoSignedOverflow: cfg.SignedOverflow == AssumeNoOverflow,
		KeepARG:                cfg.KeepARG, Limits: cfg.limits(),
	}
}

// limits are the limits of one property under cfg.
func (cfg Config) limits() strategy.Limits {
	return strategy.Limits{Clock: strategy.Clock(cfg.Clock), Timeout: cfg.Timeout, Watch: cfg.mem, MemoryLimit: cfg.MemoryLimit}
}

// maxRefinements is the CEGAR refinement limit in force.
func (cfg Config) maxRefinements() int {
	if cfg.MaxRefinements > 0 {
		return cfg.MaxRefinements
	}
	return cegar.DefaultMaxRefinements
}

// components returns the location, callstack and property CPAs that every
// configuration starts with.
func components(prog *cfa.Program, prop *spec.Property, cfg Config) ([]cpa.CPA, error) {
	loc, err := location.New(prog, cfg.Entry)
	if err != nil {
		return nil, err
	}
	return []cpa.CPA{loc, callstack.New(cfg.MaxDepth), property.New(property.Spec{Name: prop.ID, ErrorEdges: prop.ErrorEdges, Via: prop.Via})}, nil
}
