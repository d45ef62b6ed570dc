package engine

import (
	"context"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// TestConfigSteps validates the registry: every configuration has a doc
// string, and the steps of sequential combinations name configurations
// that exist and are not sequences themselves, with shares in (0, 1].
func TestConfigSteps(t *testing.T) {
	for _, name := range ConfigNames() {
		conf := configs[name]
		if conf.doc == "" {
			t.Errorf("%s: no doc string", name)
		}
		if len(conf.steps) == 0 && conf.analysis == nil && conf.direct == nil {
			t.Errorf("%s: neither an analysis, steps nor a direct run", name)
		}
		for _, st := range conf.steps {
			sub, ok := configs[st.name]
			switch {
			case !ok:
				t.Errorf("%s: step %q is not a configuration", name, st.name)
			case len(sub.steps) > 0:
				t.Errorf("%s: step %q is a sequence itself", name, st.name)
			}
			if st.share <= 0 || st.share > 1 {
				t.Errorf("%s: step %q has share %v, want (0, 1]", name, st.name, st.share)
			}
		}
	}
	if got := configs["default"].steps; len(got) < 2 {
		t.Errorf("default has %d steps, want a sequential combination", len(got))
	}
}

func TestStepPrecision(t *testing.T) {
	entries := []string{
		"value-cegar/main::y@main:+8:[y < 0]",
		"symex-cegar/main::x@main",
		"main::z@main:+2:[z / 2 > 1]",
		"g",
		"nosuchconfig/h",
	}
	tests := []struct {
		name  string
		first bool
		want  []string
	}{
		{"value-cegar", true, []string{"main::y@main:+8:[y < 0]", "main::z@main:+2:[z / 2 > 1]", "g", "nosuchconfig/h"}},
		{"symex-cegar", false, []string{"main::x@main"}},
		{"symex", false, nil},
	}
	for _, tt := range tests {
		if got := stepPrecision(entries, tt.name, tt.first); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("stepPrecision(%s, first=%v) = %q, want %q", tt.name, tt.first, got, tt.want)
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
