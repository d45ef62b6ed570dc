package engine

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
)

// This file holds the typed values of Config that come from text (flags,
// results.json of an earlier run): each is parsed once, at the edge, by
// the Parse function here, and travels typed from there on.

// PrecisionScope is Config.PrecisionScope: the scope of the entries that
// value and constraint interpolation add in the CEGAR configurations
// (cegar.Scope). The zero value selects each configuration's default
// (valueScope, symexScope in analyses.go); ParsePrecisionScope makes the
// others.
type PrecisionScope struct {
	scope cegar.Scope
	set   bool
}

// ParsePrecisionScope parses "location", "function" or "adaptive"
// (cegar.ParseScope); "" is the zero PrecisionScope (each
// configuration's default). Other text is an error naming the known
// scopes.
func ParsePrecisionScope(s string) (PrecisionScope, error) {
	if s == "" {
		return PrecisionScope{}, nil
	}
	sc, err := cegar.ParseScope(s)
	if err != nil {
		return PrecisionScope{}, err
	}
	return PrecisionScope{scope: sc, set: true}, nil
}

// String returns the scope's name, "" for the default.
func (p PrecisionScope) String() string {
	if !p.set {
		return ""
	}
	return p.scope.String()
}

// or returns the selected scope, def for the zero PrecisionScope.
func (p PrecisionScope) or(def cegar.Scope) cegar.Scope {
	if !p.set {
		return def
	}
	return p.scope
}

// SlicingCriterion is Config.SlicingCriterion: the criteria of slicing
// refinement in the slicing configurations (seed 000, section 3.3); the
// zero value is target-path slicing (cegar.TargetPath).
type SlicingCriterion = cegar.SlicingCriterion

// ParseSlicingCriterion parses "path" ("" too: target-path slicing) or
// "location" (target-location slicing); other text is an error naming
// the known criteria.
func ParseSlicingCriterion(s string) (SlicingCriterion, error) {
	return cegar.ParseSlicingCriterion(s)
}

// Precision is one property's initial precision (Config.InitialPrecision):
// the precision entries of an earlier run's Result.Precision, parsed by
// ParsePrecision. The zero value holds no entries.
//
// An entry prefixed with the name of a configuration and a slash
// ("value-cegar/main::y@main:+8:[y < 0]", as a portfolio reports them;
// schedule.go) belongs to that configuration's arm; an unprefixed one to
// the first arm of a portfolio and to a configuration run alone. Entries
// of the slicing refinement (cegar.SliceEntryPrefix) are not reused: a
// slicing configuration starts from the empty slice.
type Precision struct {
	// byArm holds the value-analysis entries (value.Entry) by the name
	// of the configuration they are prefixed with, "" for unprefixed.
	byArm map[string][]value.Entry
}

// ParsePrecision parses the text form of precision entries
// (value.ParseEntry, optionally behind "configuration/"). Only malformed
// entries are errors; entries naming functions, variables or locations
// that the program does not have track nothing, so a stale precision
// costs refinements, never soundness. Configuration prefixes are
// recognised among the registered names (ConfigNames): another text
// before a slash is part of the entry, as before.
func ParsePrecision(entries []string) (Precision, error) {
	var p Precision
	for _, t := range entries {
		arm, rest := "", t
		if i := strings.Index(t, "/"); i > 0 {
			if _, ok := configs[t[:i]]; ok {
				arm, rest = t[:i], t[i+1:]
			}
		}
		if strings.HasPrefix(rest, cegar.SliceEntryPrefix) {
			continue
		}
		e, err := value.ParseEntry(rest)
		if err != nil {
			return Precision{}, err
		}
		if p.byArm == nil {
			p.byArm = map[string][]value.Entry{}
		}
		p.byArm[arm] = append(p.byArm[arm], e)
	}
	return p, nil
}

// Len returns the number of entries p holds (slicing entries left out).
func (p Precision) Len() int {
	n := 0
	for _, es := range p.byArm {
		n += len(es)
	}
	return n
}

// arm returns the precision the arm name of a portfolio starts from: the
// entries prefixed with name, and for the first arm also the
// unprefixed ones, as unprefixed entries.
func (p Precision) arm(name string, first bool) Precision {
	var es []value.Entry
	es = append(es, p.byArm[name]...)
	if first {
		es = append(es, p.byArm[""]...)
	}
	if len(es) == 0 {
		return Precision{}
	}
	return Precision{byArm: map[string][]value.Entry{"": es}}
}

// scoped returns the unprefixed entries as the value analysis's
// refinable precision (empty when there are none).
func (p Precision) scoped() *value.ScopedPrecision {
	return value.NewScopedPrecision(p.byArm[""]...)
}

// validate reports a Config whose typed values are out of range (made by
// a conversion rather than by the Parse functions).
func (cfg Config) validate() error {
	if !cfg.SlicingCriterion.Valid() {
		return fmt.Errorf("unknown slicing criterion %v", cfg.SlicingCriterion)
	}
	return nil
}
