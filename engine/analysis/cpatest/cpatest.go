package cpatest

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// Setup is the standard composite for one property.
type Setup struct {
	Composite *cpa.Composite
	Value     *value.CPA
	Property  *property.CPA
}

// Config configures Compose.
type Config struct {
	Entry    string // default "main"
	MaxDepth int
	Value    value.Options
	NoValue  bool
	Via      *cfa.Edge
	Errors   []*cfa.Edge // default: every call to reach_error
}

// Compose builds [location, callstack, property, value] for prog.
func Compose(t testing.TB, prog *cfa.Program, cfg Config) Setup {
	t.Helper()
	if cfg.Entry == "" {
		cfg.Entry = "main"
	}
	loc, err := location.New(prog, cfg.Entry)
	if err != nil {
		t.Fatal(err)
	}
	errs := cfg.Errors
	if errs == nil {
		errs = property.ErrorCalls(prog, "reach_error")
	}
	prop := property.New(property.Spec{Name: "unreach-call", ErrorEdges: errs, Via: cfg.Via})
	comps := []cpa.CPA{loc, callstack.New(cfg.MaxDepth), prop}
	var val *value.CPA
	if !cfg.NoValue {
		val = value.New(prog, cfg.Value)
		comps = append(comps, val)
	}
	c, err := cpa.NewComposite(comps...)
	if err != nil {
		t.Fatal(err)
	}
	return Setup{Composite: c, Value: val, Property: prop}
}

// Run runs the CPA algorithm to the first target or the end.
func Run(t testing.TB, prog *cfa.Program, cfg Config, opts cpa.Options) (*cpa.Algorithm, cpa.Status, *cpa.Node) {
	t.Helper()
	s := Compose(t, prog, cfg)
	alg := cpa.NewAlgorithm(s.Composite, opts)
	st, n, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return alg, st, n
}

// ValueAfter returns the value state (the fourth component, as Compose
// builds it) of the reached state in fn at the location whose one
// incoming edge is the no-op labelled label; the test fails when there
// is none.
func ValueAfter(t testing.TB, alg *cpa.Algorithm, fn, label string) *value.State {
	t.Helper()
	for _, n := range alg.Reached() {
		if l := n.Location(); l.Func.Name == fn && len(l.In) == 1 && l.In[0].Op.String() == label {
			return n.State.Comps[3].(*value.State)
		}
	}
	t.Fatalf("no state in %s after %q", fn, label)
	return nil
}
