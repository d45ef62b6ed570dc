package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// cegarPrograms are programs whose proofs need CEGAR: a loop
// counter irrelevant to the assertion (cegar_counter.c: a loop of a
// million iterations before assert(flag == 1)), a flag set before a
// long loop whose bound is an input (cegar_flag.c), and seed 000's
// running example (cegar_running.c). With full precision the analyses
// unroll the loops; under CEGAR they track the flag (or y) only, never
// the counter, and each loop head covers itself.
var cegarPrograms = []struct {
	file string
	// Exact outcomes under each CEGAR configuration.
	valueStates, valueRefinements int
	symexStates, symexRefinements int
}{
	{"testdata/verdicts/cegar_counter.c", 33, 2, 28, 1},
	{"testdata/verdicts/cegar_flag.c", 88, 4, 54, 1},
	{"testdata/verdicts/cegar_running.c", 47, 2, 62, 2},
}

// TestCEGARPrograms: every program of cegarPrograms is TRUE under
// value-cegar and symex-cegar, with the exact state and refinement
// counts, and UNKNOWN at the state limit under the full-precision value
// and symex configurations. BenchmarkCEGARPrograms measures the time.
func TestCEGARPrograms(t *testing.T) {
	for _, p := range cegarPrograms {
		for _, tc := range []struct {
			config              string
			states, refinements int
		}{
			{"value-cegar", p.valueStates, p.valueRefinements},
			{"symex-cegar", p.symexStates, p.symexRefinements},
		} {
			rs := verifyFile(t, p.file, engine.Config{MemoryLimit: testMemory, Name: tc.config, MaxStates: 10_000})
			for _, r := range rs {
				if r.Verdict != results.True || r.States != tc.states || r.Refinements != tc.refinements {
					t.Errorf("%s, %s: %s (%s), %d states, %d refinements; want TRUE, %d, %d",
						p.file, tc.config, r.Verdict, r.Reason, r.States, r.Refinements, tc.states, tc.refinements)
				}
			}
		}
		for _, config := range []string{"value", "symex"} {
			// Symbolic execution of cegar_flag.c slows down as the sum's
			// term grows: a small limit keeps the test short.
			rs := verifyFile(t, p.file, engine.Config{MemoryLimit: testMemory, Name: config, MaxStates: 200})
			for _, r := range rs {
				if r.Verdict != results.Unknown || r.Reason != "state limit 200" {
					t.Errorf("%s, %s: %s (%s), want UNKNOWN (state limit 200)", p.file, config, r.Verdict, r.Reason)
				}
			}
		}
	}
}

// BenchmarkCEGARPrograms reports the time of one verification of each
// program of cegarPrograms (translation excluded) under value-cegar and
// symex-cegar, with the states and refinements per run, to show that
// CEGAR proves them well within a second:
//
//	go test -run '^$' -bench CEGARPrograms ./engine/
func BenchmarkCEGARPrograms(b *testing.B) {
	for _, p := range cegarPrograms {
		prog, err := frontend.Translate(frontend.Options{}, p.file)
		if err != nil {
			b.Fatal(err)
		}
		props := spec.Properties(prog, "main")
		for _, config := range []string{"value-cegar", "symex-cegar"} {
			b.Run(config+"/"+p.file[len("testdata/verdicts/"):], func(b *testing.B) {
				cfg := engine.Config{MemoryLimit: testMemory, Name: config, MaxStates: 10_000, Workers: 1, Timeout: time.Minute, Solver: z3.Factory}
				var states, refinements int
				for i := 0; i < b.N; i++ {
					rs, err := engine.Verify(context.Background(), prog, props, cfg)
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range rs {
						if r.Verdict != results.True {
							b.Fatalf("%s: %s (%s)", r.Property.ID, r.Verdict, r.Reason)
						}
						states += r.States
						refinements += r.Refinements
					}
				}
				b.ReportMetric(float64(states)/float64(b.N), "states/op")
				b.ReportMetric(float64(refinements)/float64(b.N), "refinements/op")
			})
		}
	}
}
