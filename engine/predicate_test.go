package engine_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// TestPredicatePrecision: predicate-cegar proves seed 000's running
// example and the buffer scan of testdata/verdicts/predicate_scan.c, and
// the results carry the predicates it learnt (results.json's
// precision): y < 0 at the first loop head of the running example, i <=
// max at the scan's loop head.
func TestPredicatePrecision(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		{runningFile, 21, "main@L7: (bvslt |main::y| #x00000000)"},
		{"testdata/verdicts/predicate_scan.c", 22, "(bvule |main::i| |main::max|)"},
	} {
		var res *engine.Result
		for _, r := range verifyFile(t, tc.file, engine.Config{MemoryLimit: testMemory, Name: "predicate-cegar", MaxStates: 20000}) {
			if r.Property.Pos.Line == tc.line {
				res = r
			}
		}
		if res == nil {
			t.Fatalf("%s: no property on line %d", tc.file, tc.line)
		}
		if res.Verdict != results.True || res.Refinements == 0 {
			t.Errorf("%s:%d: %s (%s) after %d refinements, want TRUE after refinement", tc.file, tc.line, res.Verdict, res.Reason, res.Refinements)
		}
		found := false
		for _, p := range res.Precision {
			found = found || strings.HasSuffix(p, tc.want)
		}
		if !found {
			t.Errorf("%s:%d: precision %q has no %q", tc.file, tc.line, res.Precision, tc.want)
		}
	}
}
