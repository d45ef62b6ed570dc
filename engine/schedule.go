package engine

import (
	"runtime"
	"time"

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
// parallel), at least 1; Config.Slots overrides it.
func (cfg Config) slots() int {
	if cfg.Slots > 0 {
		return cfg.Slots
	}
	return max(1, runtime.NumCPU()/max(cfg.Workers, 1))
}

func decided(v results.Verdict) bool { return strategy.Decided(v) }
