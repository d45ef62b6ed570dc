package cegar_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// TestCheckCache: two plain value runs of the same program sharing a
// CheckCache (two rounds of one property) give the same verdicts; the
// second checks nothing itself, every error path of the first being
// answered by the cache; a run with another cache checks again.
func TestCheckCache(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		status    cegar.Status
	}{
		// x > 100 ∧ ¬(x > 50): infeasible, excluded, then safe
		{"infeasible", `int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 100)
		if (!(x > 50))
			reach_error();
	if (x > 10)
		if (x < 5)
			reach_error();
	return 0;
}`, cegar.Safe},
		// TestExcludeCovered's program: one path excluded, then a real one
		{"feasible", `int main(void) {
	int x = __VERIFIER_nondet_int();
	int y;
	if (x != 5)
		y = 0;
	else
		y = 0;
	if (x == 5)
		reach_error();
	return y;
}`, cegar.Unsafe},
	} {
		prog, _ := composite(t, tc.src, nil)
		// the runs share one program, as the runs of one Verify call do
		cache := cexcheck.NewCheckCache(prog)
		first := runWith(t, prog, cache)
		second := runWith(t, prog, cache)
		if first.Status != tc.status || second.Status != tc.status {
			t.Fatalf("%s: %v then %v, want %v", tc.name, first.Status, second.Status, tc.status)
		}
		if first.Stats.Checks == 0 || first.Stats.CachedChecks != 0 {
			t.Errorf("%s: first run %d checks, %d cached; want some checks, none cached", tc.name, first.Stats.Checks, first.Stats.CachedChecks)
		}
		if second.Stats.Checks != 0 || second.Stats.CachedChecks != first.Stats.Checks {
			t.Errorf("%s: second run %d checks, %d cached; want 0 and %d", tc.name, second.Stats.Checks, second.Stats.CachedChecks, first.Stats.Checks)
		}
		if len(second.Inputs) != len(first.Inputs) {
			t.Errorf("%s: inputs %v then %v", tc.name, first.Inputs, second.Inputs)
		}
		if hits, misses := cache.Stats(); hits != first.Stats.Checks || misses != first.Stats.Checks {
			t.Errorf("%s: cache %d hits, %d misses; want %d each", tc.name, hits, misses, first.Stats.Checks)
		}
		// a cache for another program checks anew
		otherProg, _ := composite(t, tc.src, nil)
		if r := runWith(t, prog, cexcheck.NewCheckCache(otherProg)); r.Stats.Checks != first.Stats.Checks || r.Stats.CachedChecks != 0 {
			t.Errorf("%s: with the cache of another program: %d checks, %d cached; want %d, 0", tc.name, r.Stats.Checks, r.Stats.CachedChecks, first.Stats.Checks)
		}
		if other := runWith(t, prog, cexcheck.NewCheckCache(nil)); other.Stats.Checks != first.Stats.Checks {
			t.Errorf("%s: a run with its own cache made %d checks, want %d", tc.name, other.Stats.Checks, first.Stats.Checks)
		}
	}
}

// runWith runs the plain value analysis (full precision, counterexample
// checks) on prog's unreach-call property with the check cache c.
func runWith(t *testing.T, prog *cfa.Program, c *cexcheck.CheckCache) *cegar.Result {
	t.Helper()
	prop := spec.UnreachCall(prog, "main")
	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	comp, err := cpa.NewComposite(loc, callstack.New(64),
		property.New(property.Spec{Name: prop.ID, ErrorEdges: prop.ErrorEdges, Via: prop.Via}),
		value.New(prog, value.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cegar.Run(ctx, prog, comp, cegar.Options{Solver: z3.Factory, Cache: c, Algorithm: cpa.Options{MaxStates: 10_000}})
}
