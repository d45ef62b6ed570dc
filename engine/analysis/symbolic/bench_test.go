package symbolic_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
)

// loopProgram: i counts to n while a and s follow (the loop of
// engine/cpa's BenchmarkLoop). With symbolic set, a and x start as
// nondeterministic inputs: a and s become terms that grow each
// iteration, and the branch on x in the loop is decided by the first
// iteration's constraint. Without, a = 7 and x = 1. The error is
// unreachable either way.
func loopProgram(t testing.TB, n int64, symbolic bool) *cfa.Program {
	b := cfatest.New()
	b.Func("main")
	i := b.Local("i", cfa.IntT)
	a := b.Local("a", cfa.IntT)
	x := b.Local("x", cfa.IntT)
	s := b.Local("s", cfa.UIntType)
	b.Assign(b.V(i), b.I(0))
	if symbolic {
		b.Havoc(b.V(a))
		b.Havoc(b.V(x))
	} else {
		b.Assign(b.V(a), b.I(7))
		b.Assign(b.V(x), b.I(1))
	}
	b.Assign(b.V(s), b.C(cfa.UIntType, 0))
	b.While(b.Lt(b.V(i), b.I(n)), func() {
		b.Assign(b.V(s), b.Add(b.V(s), b.Cast(b.V(a), cfa.UIntType)))
		b.If(b.Bin(cfa.Gt, b.V(x), b.I(0)), func() {
			b.Assign(b.V(s), b.Add(b.V(s), b.C(cfa.UIntType, 1)))
		}, nil)
		b.Assign(b.V(a), b.Bin(cfa.Xor, b.V(a), b.V(i)))
		b.Assign(b.V(i), b.Add(b.V(i), b.I(1)))
	})
	b.If(b.Lt(b.V(i), b.I(0)), func() { b.Error() }, nil)
	return b.Finish(t)
}

// BenchmarkLoop measures states per second and bytes allocated per state
// of symbolic execution against the explicit-value analysis (both under
// full precision, BFS) on a loop of 10,000 iterations with concrete
// data, and of symbolic execution with symbolic data (where the value
// analysis, not knowing x, would explore both branches of every
// iteration with different sums: exponentially many states).
//
//	go test -bench Loop -run - ./engine/analysis/symbolic/
func BenchmarkLoop(b *testing.B) {
	for _, data := range []string{"concrete", "symbolic"} {
		prog := loopProgram(b, 10000, data == "symbolic")
		for _, analysis := range []string{"value", "symex"} {
			if analysis == "value" && data == "symbolic" {
				continue
			}
			b.Run(analysis+"/"+data, func(b *testing.B) {
				b.ReportAllocs()
				var states int
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				for b.Loop() {
					var comp *cpa.Composite
					if analysis == "value" {
						comp = cpatest.Compose(b, prog, cpatest.Config{}).Composite
					} else {
						comp, _ = compose(b, prog, symbolic.Options{})
					}
					alg := cpa.NewAlgorithm(comp, cpa.Options{Order: cpa.BFS})
					st, _, err := alg.Run(context.Background())
					if err != nil || st != cpa.Safe {
						b.Fatal(st, err, alg.Reason())
					}
					states += alg.Stats().Reached
				}
				runtime.ReadMemStats(&m1)
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(states), "B/state")
			})
		}
	}
}
