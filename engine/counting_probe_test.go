package engine_test

import (
	"strings"
	"testing"
	"time"

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
	r := verifyUnderCPU(t, "testdata/verdicts/sequence_diamond.c", 1, 1500*time.Millisecond)[0]
	if r.Verdict != results.True || !strings.HasPrefix(r.Decider, "symex-cegar") {
		t.Fatalf("%s by %q (%s), want TRUE by symex-cegar", r.Verdict, r.Decider, r.Reason)
	}
	if !strings.HasPrefix(r.Selection, "counting") {
		t.Errorf("selection %q, want the counting class", r.Selection)
	}
}
