package engine_test

import (
	"context"
	"github.com/reverify/reverify/results"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// TestNoListAbstraction: the doubly linked list of lists_dll.c is proved
// with list abstraction (engine/analysis/smg) within 3000
// states; with Config.NoListAbstraction the loop that builds it never
// converges and the same state limit leaves every property UNKNOWN.
func TestNoListAbstraction(t *testing.T) {
	const file = "testdata/verdicts/lists_dll.c"
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 2 {
		t.Fatalf("%d properties, want 2", len(props))
	}
	for _, off := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cfg := engine.Config{MemoryLimit: testMemory, Name: "value", Timeout: 2 * time.Minute, Solver: z3.Factory, MaxStates: 3000, NoListAbstraction: off}
		rs, err := engine.Verify(ctx, prog, props, cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		want := results.True
		if off {
			want = results.Unknown
		}
		for _, r := range rs {
			if r.Verdict != want {
				t.Errorf("NoListAbstraction=%v: %s: %s (%s), want %s", off, r.Property.ID, r.Verdict, r.Reason, want)
			}
		}
	}
}
