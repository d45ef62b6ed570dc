package engine

import (
	"runtime"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/features"

	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// arm is one configuration of a portfolio (strategy.Portfolio), with an
// optional state budget of its own: a cheap analysis that either decides
// a property within a few hundred thousand states or not at all
// (full-precision value analysis) gets a state budget instead of a share
// of the time limit.
type arm struct {
	name string
	// maxStates bounds each of the arm's runs (0: Config.MaxStates);
	// Config.MaxStates still applies when it is smaller.
	maxStates int
	// weight is the arm's share of the time when the arms take turns
	// (strategy.Arm.Weight; 0 counts as 1).
	weight int
	// after is the time the arms before it execute before its first
	// turn when they take turns (strategy.Arm.After).
	after time.Duration
	// probe is how long the arm runs first, before the arms take turns
	// (strategy.Arm.Probe).
	probe time.Duration
	// demoted is the arm's weight once its first attempt ended without
	// a verdict, which also ends its probe (strategy.Arm.Demoted; 0:
	// unchanged).
	demoted int
	// cap is the most time the arm executes (strategy.Arm.Cap; 0: no
	// cap).
	cap time.Duration
	// concrete runs the arm without the abstraction of linked lists
	// (Config.NoListAbstraction): an arm under a state budget that
	// decides finite-state programs by enumeration, lists of a bounded
	// length included, where the abstraction's spurious error paths
	// cost a counterexample check each.
	concrete bool
}

// portfolio is a configuration whose strategy runs the named
// configurations as the arms of a strategy.Portfolio, in the order
// given: with fewer cores than arms, the earlier arms take the first
// turns. Adding a configuration to `default` is adding an arm to its
// list in analyses.go; TestConfigArms validates the list.
func portfolio(doc string, arms ...arm) configuration {
	return configuration{doc: doc, arms: arms}
}

// slots is the number of a portfolio's arms that run at a time: the
// cores per property verified at once (Config.Workers properties in
// parallel), at least 1; Config.Slots overrides it. Under a CPU-time
// limit (a clock) the portfolio's arms hold one slot whatever this says
// (strategy.PortfolioOn): an arm inside a long solver call in this
// process keeps its core until the call returns (one in a solver process
// is stopped), and the slot passes to the next arm at
// the quantum's end (modulus-2 of SV-COMP: value's counterexample check
// runs 20 s in Z3, and k-induction, which proves the task alone in 6 s,
// runs beside it).
func (cfg Config) slots() int {
	if cfg.Slots > 0 {
		return cfg.Slots
	}
	return max(1, runtime.NumCPU()/max(cfg.Workers, 1))
}

func decided(v results.Verdict) bool { return strategy.Decided(v) }

// featureCache holds the features (engine/features) of the programs of
// one Verify call, computed once per program and entry; a nil cache
// computes them each time.
type featureCache struct {
	mu sync.Mutex
	m  map[featureKey]features.Features
}

type featureKey struct {
	prog  *cfa.Program
	entry string
}

func (c *featureCache) of(prog *cfa.Program, entry string) features.Features {
	if entry == "" {
		entry = "main"
	}
	if c == nil {
		return features.Of(prog, entry)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k := featureKey{prog, entry}
	f, ok := c.m[k]
	if !ok {
		if c.m == nil {
			c.m = map[featureKey]features.Features{}
		}
		f = features.Of(prog, entry)
		c.m[k] = f
	}
	return f
}
