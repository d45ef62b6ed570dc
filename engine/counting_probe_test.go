package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// TestCountingProbe: on a counting loop whose branches follow an input's
// parity (testdata/verdicts/sequence_diamond.c, SV-COMP's diamond_1-1),
// value analysis enumerates x to its state budget while symex-cegar
// proves the property in hundredths of a second. Under `default` and a
// CPU limit of 1.5 s, less than the 2 s of executed time after which
// symex-cegar takes its turns, the property is proved only because
// symex-cegar probes right after value's first 0.05 s.
func TestCountingProbe(t *testing.T) {
	prog, err := frontend.Translate(frontend.Options{}, "testdata/verdicts/sequence_diamond.c")
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 1 {
		t.Fatalf("%d properties, want 1", len(props))
	}
	rs, err := engine.Verify(context.Background(), prog, props, engine.Config{Timeout: 1500 * time.Millisecond, Solver: z3.Factory,
		Workers: 1, Clock: strategy.ProcessCPU, MemoryLimit: 6 << 30})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Verdict != results.True || !strings.HasPrefix(r.Decider, "symex-cegar") {
		t.Fatalf("%s by %q (%s), want TRUE by symex-cegar", r.Verdict, r.Decider, r.Reason)
	}
	if !strings.HasPrefix(r.Selection, "counting") {
		t.Errorf("selection %q, want the counting class", r.Selection)
	}
}
