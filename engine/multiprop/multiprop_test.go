package multiprop_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/multiprop"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// three assertions after a loop: x == 10 holds, y == x holds, x < 10
// fails for every input.
const three = `extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, "t.c", __LINE__, __func__))
int main(void) {
	int x = 0, y = 0;
	int n = __VERIFIER_nondet_int();
	while (x < 10) {
		x++;
		y++;
	}
	assert(x == 10);
	assert(y == x);
	if (n > 5)
		assert(x < 10);
	return 0;
}
`

// run decides the properties of three in one run of the value analysis
// with at most maxStates states; results are in source order.
func run(t *testing.T, maxStates int) ([]*spec.Property, []*strategy.Result) {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: three}})
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 3 {
		t.Fatalf("%d properties, want 3", len(props))
	}
	emitted := 0
	rs := multiprop.Run(context.Background(), prog, props, multiprop.Options{
		Name: "value", Entry: "main", MaxStates: maxStates, MaxDepth: 64, Solver: z3.Factory,
		Analysis: func() ([]cpa.CPA, error) { return []cpa.CPA{value.New(prog, value.Options{})}, nil },
		Scope:    func(*spec.Property, *cpa.ARG, bool) *results.Scope { return &results.Scope{} },
	}, func(int, *strategy.Result) { emitted++ })
	if emitted != len(props) {
		t.Errorf("%d results emitted, want %d", emitted, len(props))
	}
	return props, rs
}

// TestRun: one run decides all three; the FALSE has a counterexample
// whose input n is above 5, and every decided property has a scope.
func TestRun(t *testing.T) {
	_, rs := run(t, 0)
	want := []results.Verdict{results.True, results.True, results.False}
	for i, r := range rs {
		if r.Verdict != want[i] || r.Config != "value" {
			t.Errorf("property %d: %s by %q (%s), want %s by value", i, r.Verdict, r.Config, r.Reason, want[i])
		}
		if r.Scope == nil {
			t.Errorf("property %d: no scope", i)
		}
	}
	f := rs[2]
	n := int64(0)
	for _, in := range f.Inputs {
		if in.Source == "__VERIFIER_nondet_int" {
			n = in.Value
		}
	}
	if len(f.Counterexample) == 0 || n <= 5 {
		t.Errorf("FALSE: %d steps, inputs %+v; want n > 5", len(f.Counterexample), f.Inputs)
	}
	if len(rs[0].Invariants) == 0 {
		t.Errorf("TRUE without loop invariants")
	}
}

// TestStateLimit: a run cut by its state limit leaves every property it
// did not decide UNKNOWN with the state limit as its cause.
func TestStateLimit(t *testing.T) {
	_, rs := run(t, 15)
	for i, r := range rs {
		if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseStates {
			t.Errorf("property %d: %s %+v (%s), want UNKNOWN by the state limit", i, r.Verdict, r.Cause, r.Reason)
		}
	}
}
