package bmc_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/bmc"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/kinduction"
	"github.com/reverify/reverify/engine/smt/z3"
)

// BenchmarkLocks proves test_locks_N (N branches per iteration of an
// unbounded loop, 2^N paths per iteration) by k-induction over merged
// paths (engine/bmc) and by k-induction over enumerated paths
// (engine/kinduction), N = 4 … 16: the merged formula grows linearly in
// N (conjuncts/op), path enumeration exponentially (paths/op). Path
// enumeration stops at N = 12 (4,096 paths per iteration, about a
// minute per proof).
//
//	go test -run - -bench Locks ./engine/bmc
func BenchmarkLocks(b *testing.B) {
	for _, n := range []int{4, 8, 12, 16} {
		src := header + locks(n)
		prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
		if err != nil {
			b.Fatal(err)
		}
		errs := property.ErrorCalls(prog, "reach_error")
		b.Run(fmt.Sprintf("merged/N=%d", n), func(b *testing.B) {
			var r bmc.Result
			for i := 0; i < b.N; i++ {
				r = bmc.Check(context.Background(), prog, bmc.Options{Entry: "main", Solver: z3.Factory, OneShot: z3.OneShotFactory, ErrorEdges: errs, KInduction: true, MaxUnwind: 4})
				if r.Status != bmc.True {
					b.Fatalf("test_locks_%d: %v (%s)", n, r.Status, r.Reason)
				}
			}
			b.ReportMetric(float64(r.Conjuncts), "conjuncts/op")
			b.ReportMetric(float64(r.Nodes), "nodes/op")
		})
		if n > 8 {
			continue
		}
		b.Run(fmt.Sprintf("paths/N=%d", n), func(b *testing.B) {
			var r kinduction.Result
			for i := 0; i < b.N; i++ {
				r = kinduction.Check(context.Background(), prog, kinduction.Options{Entry: "main", Solver: z3.Factory, ErrorEdges: errs, NoInvariants: true, MaxK: 2})
				if r.Status != kinduction.True {
					b.Fatalf("test_locks_%d: %v (%s)", n, r.Status, r.Reason)
				}
			}
			b.ReportMetric(float64(r.Paths), "paths/op")
		})
	}
}
