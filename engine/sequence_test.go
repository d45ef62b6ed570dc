package engine

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reverify/reverify/results"
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
	if got := prefixed([]string{"a", "b"}, "value-cegar"); !reflect.DeepEqual(got, []string{"value-cegar/a", "value-cegar/b"}) {
		t.Errorf("prefixed = %q", got)
	}
}

// TestWithBudgetClock: under an injected clock the context expires with
// DeadlineExceeded once the clock has advanced by the budget, not before
// and not by wall time.
func TestWithBudgetClock(t *testing.T) {
	var now atomic.Int64
	cfg := Config{Clock: func() time.Duration { return time.Duration(now.Load()) }}
	ctx, cancel := withBudget(context.Background(), cfg, time.Second)
	defer cancel()
	time.Sleep(50 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Fatalf("expired before the clock moved: %v", err)
	}
	now.Store(int64(999 * time.Millisecond))
	time.Sleep(50 * time.Millisecond)
	if err := ctx.Err(); err != nil {
		t.Fatalf("expired at 999ms of a 1s budget: %v", err)
	}
	now.Store(int64(time.Second))
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not expired 5s after the clock passed the budget")
	}
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Err = %v, want DeadlineExceeded", err)
	}

	// Cancelling the parent cancels the budget context.
	parent, pcancel := context.WithCancel(context.Background())
	ctx, cancel = withBudget(parent, cfg, time.Hour)
	defer cancel()
	pcancel()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("parent cancellation not propagated")
	}
	if err := ctx.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err = %v, want Canceled", err)
	}
}

// TestMergeArms: the winner's verdict with its prefixed precision and the
// states of all arms; UNKNOWN with every reason and every precision when
// none decides; UNKNOWN naming both when two arms disagree.
func TestMergeArms(t *testing.T) {
	conf := portfolio("test", arm{name: "value"}, arm{name: "value-cegar"}, arm{name: "symex-cegar"})
	unknown := func(reason string, prec ...string) *Result {
		return &Result{Verdict: results.Unknown, Reason: reason, States: 10, Precision: prec}
	}
	res := &Result{Config: "default"}
	conf.mergeArms([]*Result{unknown("state limit 5"), {Verdict: results.True, Reason: "fixed point", States: 3, Precision: []string{"main::x@main"}}, unknown("cancelled: context canceled")}, 1, res)
	if res.Verdict != results.True || res.Reason != "value-cegar: fixed point" || res.States != 23 || res.Config != "default" ||
		!reflect.DeepEqual(res.Precision, []string{"value-cegar/main::x@main"}) {
		t.Errorf("winner: got %+v", res)
	}

	res = &Result{Config: "default"}
	conf.mergeArms([]*Result{unknown("state limit 5"), unknown("timeout", "main::y@main"), unknown("timeout", "main::x@main")}, -1, res)
	wantReason := "value: state limit 5; value-cegar: timeout; symex-cegar: timeout"
	if res.Verdict != results.Unknown || res.Reason != wantReason ||
		!reflect.DeepEqual(res.Precision, []string{"symex-cegar/main::x@main", "value-cegar/main::y@main"}) {
		t.Errorf("no winner: got %s %q %q", res.Verdict, res.Reason, res.Precision)
	}

	res = &Result{Config: "default"}
	conf.mergeArms([]*Result{{Verdict: results.False, Reason: "error path"}, {Verdict: results.True, Reason: "fixed point"}, unknown("x")}, 0, res)
	if res.Verdict != results.Unknown || res.Reason != "configurations disagree: value says FALSE (error path), value-cegar says TRUE (fixed point)" {
		t.Errorf("disagreement: got %s %q", res.Verdict, res.Reason)
	}
}
