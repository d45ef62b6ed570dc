package engine

import (
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/features"
	"github.com/reverify/reverify/engine/strategy"
)

// TestConfigArms validates the registry: every configuration has a doc
// string, and the arms of portfolios name configurations that exist and
// are not portfolios themselves, each at most once.
func TestConfigArms(t *testing.T) {
	for _, name := range ConfigNames() {
		conf := configs[name]
		if conf.doc == "" {
			t.Errorf("%s: no doc string", name)
		}
		if len(conf.arms) == 0 && conf.analysis == nil && conf.direct == nil {
			t.Errorf("%s: neither an analysis, arms nor a direct run", name)
		}
		seen := map[string]bool{}
		for _, a := range conf.arms {
			sub, ok := configs[a.name]
			switch {
			case !ok:
				t.Errorf("%s: arm %q is not a configuration", name, a.name)
			case len(sub.arms) > 0:
				t.Errorf("%s: arm %q is a portfolio itself", name, a.name)
			case seen[a.name]:
				t.Errorf("%s: arm %q twice", name, a.name)
			}
			seen[a.name] = true
			if a.maxStates < 0 {
				t.Errorf("%s: arm %q has state budget %d", name, a.name, a.maxStates)
			}
		}
	}
	if got := configs["default"].arms; len(got) < 2 {
		t.Errorf("default has %d arms, want a portfolio", len(got))
	}
}

// TestStepPrecision: ParsePrecision files prefixed entries under their
// configuration and drops slice entries; Precision.arm gives an arm its
// own entries and the first arm the unprefixed ones too.
func TestStepPrecision(t *testing.T) {
	entries := []string{
		"value-cegar/main::y@main:+8:[y < 0]",
		"symex-cegar/main::x@main",
		"main::z@main:+2:[z / 2 > 1]",
		"g",
		"nosuchconfig/h",
		"slice main:3->4",
		"symex-slicing-cegar/slice main:3->4",
	}
	p, err := ParsePrecision(entries)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 5 {
		t.Errorf("Len = %d, want 5 (slice entries dropped)", p.Len())
	}
	tests := []struct {
		name  string
		first bool
		want  []string
	}{
		{"value-cegar", true, []string{"main::y@main:+8:[y < 0]", "main::z@main:+2:[z / 2 > 1]", "g", "nosuchconfig/h"}},
		{"symex-slicing-cegar", false, nil},
		{"symex-cegar", false, []string{"main::x@main"}},
		{"symex", false, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range p.arm(tt.name, tt.first).byArm[""] {
			got = append(got, e.String())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("arm(%s, first=%v) = %q, want %q", tt.name, tt.first, got, tt.want)
		}
	}
	if got := strategy.Prefixed([]string{"a", "b"}, "value-cegar"); !reflect.DeepEqual(got, []string{"value-cegar/a", "value-cegar/b"}) {
		t.Errorf("prefixed = %q", got)
	}
}

// TestDefaultArms: for every class of program, `default` runs the same
// arms as its registered list, value first (the multi-property run
// stands for it, and mpv.go drops it from every class's order).
func TestDefaultArms(t *testing.T) {
	conf := configs["default"]
	names := func(as []arm) []string {
		var out []string
		for _, a := range as {
			out = append(out, a.name)
		}
		sort.Strings(out)
		return out
	}
	want := names(conf.arms)
	for _, c := range []features.Class{features.LoopFree, features.FiniteState, features.Counting, features.Arrays, features.Invariant, features.Affine, features.Heap} {
		as := conf.order(c)
		if got := names(as); !slices.Equal(got, want) {
			t.Errorf("%s: arms %v, want %v", c, got, want)
		}
		if as[0].name != "value" || as[0].maxStates != valueArmStates || !as[0].concrete {
			t.Errorf("%s: first arm %+v, want value under its state budget without list abstraction", c, as[0])
		}
	}
	// the arm that starts first (the first with a probe, else the least
	// After) is the class's leader
	leader := func(as []arm) string {
		for _, a := range as {
			if a.probe > 0 {
				return a.name
			}
		}
		l := as[0]
		for _, a := range as[1:] {
			if a.after < l.after {
				l = a
			}
		}
		return l.name
	}
	for c, want := range map[features.Class]string{features.Invariant: "k-induction", features.Affine: "k-induction", features.Counting: "value", features.Arrays: "value"} {
		if got := leader(conf.order(c)); got != want {
			t.Errorf("%s: the first arm to start is %s, want %s", c, got, want)
		}
	}
	// on loops that need an invariant, k-induction (the fastest arm on
	// half of them) starts at once beside bmc with the largest share; on
	// those with affine equalities (its candidates) with a larger share
	// than any other arm
	var probes []string
	for _, a := range conf.order(features.Invariant) {
		if a.name == "k-induction" && (a.after != 0 || a.weight < 4) {
			t.Errorf("invariant: k-induction after %v with weight %d, want from the start with weight 4", a.after, a.weight)
		}
		if a.probe > 0 {
			probes = append(probes, a.name)
		}
	}
	// then predicate-cegar alone, which proves the loops k-induction
	// does not within its probe
	if want := []string{"k-induction", "predicate-cegar"}; !slices.Equal(probes, want) {
		t.Errorf("invariant: probes %v, want %v", probes, want)
	}
	// where k-induction leads, it probes until its attempt at k = 1 ends
	// (timeslice.Milestone) and then has a smaller share than before
	for _, c := range []features.Class{features.Invariant, features.Affine} {
		for _, a := range conf.order(c) {
			if a.name == "k-induction" && (a.demoted == 0 || a.demoted >= a.weight || a.probe < time.Second) {
				t.Errorf("%s: k-induction probes %v, weight %d demoted to %d; want a probe of its first attempt and a smaller share after it", c, a.probe, a.weight, a.demoted)
			}
		}
	}
	// once the capped arms are done and k-induction is demoted, bmc has
	// the largest share in the invariant class: what only its unwinding
	// decides, in seconds alone, is not lost to the others' turns
	for _, a := range conf.order(features.Invariant) {
		w := a.weight
		if a.demoted > 0 {
			w = a.demoted
		}
		if a.name != "bmc" && a.cap == 0 && w >= 4 {
			t.Errorf("invariant: %s has weight %d without a cap, as much as bmc's 4 or more", a.name, w)
		}
		if a.name == "bmc" && (a.weight < 4 || a.cap > 0) {
			t.Errorf("invariant: bmc has weight %d and cap %v, want at least 4 and none", a.weight, a.cap)
		}
	}
	// over arrays of constant length, value has the largest share
	for _, a := range conf.order(features.Arrays) {
		if a.name != "value" && a.weight >= conf.order(features.Arrays)[0].weight {
			t.Errorf("arrays: %s has weight %d, not less than value's", a.name, a.weight)
		}
	}
	for _, a := range conf.order(features.Affine) {
		if a.name != "k-induction" && a.weight >= 8 {
			t.Errorf("affine: %s has weight %d, want less than k-induction's 8", a.name, a.weight)
		}
		if a.name == "k-induction" && (a.after != 0 || a.weight != 8 || a.cap != 0) {
			t.Errorf("affine: k-induction after %v with weight %d and cap %v, want from the start with weight 8 and no cap", a.after, a.weight, a.cap)
		}
	}
	// caps: the arms that run to the limit without deciding a class's
	// properties return their share, and some arm of every class runs to
	// the property's limit
	capped := func(c features.Class) []string {
		var out []string
		uncapped := false
		for _, a := range conf.order(c) {
			if a.cap > 0 {
				out = append(out, a.name)
			} else {
				uncapped = true
			}
		}
		if !uncapped {
			t.Errorf("%s: every arm has a cap: the portfolio would end before the limit", c)
		}
		sort.Strings(out)
		return out
	}
	for c, want := range map[features.Class][]string{
		features.Invariant: {"predicate-cegar", "symex-cegar", "value", "value-cegar"},
		features.Affine:    {"symex-cegar", "value", "value-cegar"},
		features.Counting:  {"bmc", "k-induction", "predicate-cegar"},
		features.Arrays:    {"bmc", "k-induction", "predicate-cegar"},
		features.LoopFree:  nil,
	} {
		if got := capped(c); !slices.Equal(got, want) {
			t.Errorf("%s: capped arms %v, want %v", c, got, want)
		}
	}
}
