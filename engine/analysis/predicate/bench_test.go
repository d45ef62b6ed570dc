package predicate_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/analysis/predicate"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt/z3"
)

// BenchmarkAbstraction measures one run of the analysis to its fixed
// point (or first target) on the counting loop with the precision {j <
// n, j == n} at the loop head, under the Boolean abstraction (which
// proves the program: 2 minterms at the loop head) and the Cartesian one
// (which reaches the error: neither literal holds at j = 0), reporting
// the states and the solver calls (feasibility checks and implication
// or minterm queries) per run.
//
//	go test -bench Abstraction -run - ./engine/analysis/predicate/
func BenchmarkAbstraction(b *testing.B) {
	prog := translate(b, counting)
	for _, mode := range []string{"boolean", "cartesian"} {
		b.Run(mode, func(b *testing.B) {
			pc, err := predicate.New(prog, predicate.Options{Solver: z3.Factory, Cartesian: mode == "cartesian"})
			if err != nil {
				b.Fatal(err)
			}
			prec := countingPrecision(b, prog, pc.Builder())
			var states int
			for b.Loop() {
				runWith(b, prog, pc, prec)
				states = lastStates
			}
			st := pc.Stats()
			b.ReportMetric(float64(states), "states/op")
			b.ReportMetric(float64(st.Checks+st.Implications)/float64(b.N), "solver-calls/op")
		})
	}
}

// BenchmarkRefinement measures Interpolate (replay of the error path cut
// at its block boundaries, one unsat core, weakest preconditions) on the
// first error path of seed 000's running example, and the whole
// lazy-abstraction loop of the test helper refine (restarting from the
// root) on the running example and on the counting loop.
//
//	go test -bench Refinement -run - ./engine/analysis/predicate/
func BenchmarkRefinement(b *testing.B) {
	prog := translate(b, runningExample)
	b.Run("interpolate", func(b *testing.B) {
		pc, err := predicate.New(prog, predicate.Options{Solver: z3.Factory})
		if err != nil {
			b.Fatal(err)
		}
		st, n, _ := runWith(b, prog, pc, nil)
		if st != cpa.Target {
			b.Fatalf("status %v, want Target", st)
		}
		path := steps(n)
		for b.Loop() {
			if _, err := pc.Interpolate(context.Background(), path); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(path)), "steps")
	})
	for _, tc := range []struct{ name, src string }{{"loop/running", runningExample}, {"loop/counting", counting}} {
		p := translate(b, tc.src)
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if st, _, err := refine(b, p, predicate.Options{}); err != nil || st != cpa.Safe {
					b.Fatalf("status %v, err %v", st, err)
				}
			}
		})
	}
}
