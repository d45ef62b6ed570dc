package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// TestSlicingRunningExample runs the four symbolic-execution
// configurations of seed 000 (section 4) and value-slicing-cegar on the
// running example (figure 1) with a state limit of 300. Full-precision
// symbolic execution unrolls both loops; under slicing (one refinement:
// the target-path slice holds x's loop, y := 1 and the branch, not w or
// the second loop) it still unrolls the first loop, whose bound x is
// symbolic; slicing plus constraint interpolation proves the program:
// the second loop is a no-op and x is never tracked in the first.
//
// Unlike CPAchecker's symex-cegar of the seed (figure 14, whose
// precision tracks y in all of main and so unrolls the second loop),
// reverify's symex-cegar tracks variables per location and proves the
// running example by itself; it is only checked not to answer FALSE.
func TestSlicingRunningExample(t *testing.T) {
	// The slice learnt: x = nondet (L2->L3), y = 1 (L4->L5), the first
	// loop (L7), the test x < 0 && y < 0 (L11, L12) and the error call
	// (L13); not w's three assignments nor the second loop.
	wantSlice := []string{"slice main:L11->L12", "slice main:L11->L15", "slice main:L12->L13", "slice main:L12->L15",
		"slice main:L13->L14", "slice main:L2->L3", "slice main:L4->L5", "slice main:L7->L8", "slice main:L7->L9", "slice main:L8->L7"}
	for _, tt := range []struct {
		config      string
		verdict     results.Verdict
		reason      string
		states      int // 0: not checked
		refinements int // -1: not checked
		slice       bool
	}{
		{"symex", results.Unknown, "state limit 300", 0, 0, false},
		{"symex-cegar", "", "", 0, -1, false},
		{"symex-slicing", results.Unknown, "state limit 300", 0, 1, true},
		{"symex-slicing-cegar", results.True, "3 refinements", 81, 3, true},
		{"value-slicing-cegar", results.True, "3 refinements", 62, 3, true},
	} {
		t.Run(tt.config, func(t *testing.T) {
			t.Parallel()
			rs := verifyFile(t, "testdata/verdicts/cegar_running.c", engine.Config{MemoryLimit: testMemory, Name: tt.config, MaxStates: 300, Timeout: 2 * time.Minute})
			r := rs[0]
			t.Logf("%s: %s (%s), %d states, %d refinements, %.2fs", tt.config, r.Verdict, r.Reason, r.States, r.Refinements, r.Seconds)
			if tt.verdict == "" {
				if r.Verdict == results.False {
					t.Errorf("%s: FALSE on a correct program", tt.config)
				}
				return
			}
			if r.Verdict != tt.verdict || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("got %s (%s), want %s %q", r.Verdict, r.Reason, tt.verdict, tt.reason)
			}
			if tt.states > 0 && r.States != tt.states {
				t.Errorf("%d states, want %d", r.States, tt.states)
			}
			if tt.refinements >= 0 && r.Refinements != tt.refinements {
				t.Errorf("%d refinements, want %d", r.Refinements, tt.refinements)
			}
			if tt.slice {
				var got []string
				for _, e := range r.Precision {
					if strings.HasPrefix(e, "slice ") {
						got = append(got, e)
					}
				}
				if !slices.Equal(got, wantSlice) {
					t.Errorf("slice %q, want %q", got, wantSlice)
				}
			}
		})
	}
}

// TestSlicingFigure21 shows the difference between target-path and
// target-location slicing on figure 21 of seed 000 (section 3.3):
// symex-slicing with target-path criteria finds the feasible error path
// (through the two increments of x), with
// target-location criteria the slice of the error call does not exclude
// the infeasible path through x < 0, which comes back, and the run ends
// UNKNOWN without progress. Both check paths on the full program, so
// neither reports the infeasible path as a counterexample. The engine
// checks paths lazily (cegar.SlicingOptions.LazyCheck), so the feasible
// path's own slice is added once before it is checked: two
// refinements, where the seed's check-first order takes one
// (engine/cegar's TestFigure21Run shows both).
func TestSlicingFigure21(t *testing.T) {
	file := "testdata/verdicts/slicing_fig21.c"
	for _, tt := range []struct {
		criterion   string
		verdict     results.Verdict
		reason      string
		refinements int
	}{
		{"", results.False, "confirmed", 2},
		{"path", results.False, "confirmed", 2},
		{"location", results.Unknown, "no progress", 1},
	} {
		crit, err := engine.ParseSlicingCriterion(tt.criterion)
		if err != nil {
			t.Fatal(err)
		}
		r := verifyFile(t, file, engine.Config{MemoryLimit: testMemory, Name: "symex-slicing", SlicingCriterion: crit, MaxStates: 1000})[0]
		if r.Verdict != tt.verdict || !strings.Contains(r.Reason, tt.reason) || r.Refinements != tt.refinements {
			t.Errorf("criterion %q: %s (%s), %d refinements; want %s %q, %d refinements", tt.criterion, r.Verdict, r.Reason, r.Refinements, tt.verdict, tt.reason, tt.refinements)
		}
		if r.Verdict != results.False {
			continue
		}
		var ops []string
		for _, s := range r.Counterexample {
			if s.Kind == cfa.Intra {
				ops = append(ops, s.Edge.Op.String())
			}
		}
		if n := strings.Count(strings.Join(ops, "; "), "x = x + 1"); n != 2 {
			t.Errorf("criterion %q: counterexample %q does not take the long way (%d increments)", tt.criterion, ops, n)
		}
	}
}

// TestSlicingCriterionOption checks that ParseSlicingCriterion rejects
// an unknown slicing criterion, and Verify one out of range.
func TestSlicingCriterionOption(t *testing.T) {
	if _, err := engine.ParseSlicingCriterion("edge"); err == nil || !strings.Contains(err.Error(), `unknown slicing criterion "edge"`) {
		t.Errorf("ParseSlicingCriterion(edge): error %v", err)
	}
	prog, err := frontend.Translate(frontend.Options{}, "testdata/verdicts/slicing_fig21.c")
	if err != nil {
		t.Fatal(err)
	}
	_, err = engine.Verify(context.Background(), prog, spec.Properties(prog, "main"), engine.Config{MemoryLimit: testMemory, Name: "symex-slicing", SlicingCriterion: 7, Solver: z3.Factory})
	if err == nil || !strings.Contains(err.Error(), "unknown slicing criterion SlicingCriterion(7)") {
		t.Errorf("Verify with criterion 7: error %v", err)
	}
}

// groundTruth returns, by line, the verdict a want comment states for
// some configuration (TRUE or FALSE), when it states one: a want of
// UNKNOWN for one configuration and TRUE for another means the property
// holds.
func groundTruth(src string) map[int]results.Verdict {
	out := map[int]results.Verdict{}
	item := regexp.MustCompile(`(?:^|\s)(?:[a-z][a-z0-9-]*:)?(TRUE|FALSE)\b`)
	for i, line := range strings.Split(src, "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if it := item.FindStringSubmatch(m[1]); it != nil {
			out[i+1] = results.Verdict(it[1])
		}
	}
	return out
}

// TestSlicingNoWrongVerdicts runs the slicing configurations on every
// program of testdata/verdicts (with a small state limit and timeout):
// each may answer UNKNOWN, never the opposite of a verdict that the
// program's want comments state for some configuration, and every FALSE
// carries a confirmed counterexample (verifyFile). A file's
// `// signed-overflow: MODE` line selects the C semantics.
func TestSlicingNoWrongVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the three slicing configurations on every verdict program; the full tier runs it, and the fast tier's TestVerdicts runs each configuration")
	}
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, config := range []string{"symex-slicing", "symex-slicing-cegar", "value-slicing-cegar"} {
		for _, file := range files {
			t.Run(config+"/"+filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				src, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				cfg := engine.Config{MemoryLimit: testMemory, Name: config, MaxStates: 1000, Timeout: 3 * time.Second}
				if m := overflowRE.FindStringSubmatch(string(src)); m != nil {
					cfg.SignedOverflow = engine.OverflowMode(m[1])
				}
				truth := groundTruth(string(src))
				for _, r := range verifyFile(t, file, cfg) {
					line := r.Property.Pos.Line
					if w, ok := truth[line]; ok && r.Verdict != w && r.Verdict != results.Unknown {
						t.Errorf("%s:%d: %s: %s says %s (%s), want %s", file, line, r.Property.ID, config, r.Verdict, r.Reason, w)
					}
				}
			})
		}
	}
}
