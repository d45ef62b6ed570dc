package cpa_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/reverify/reverify/engine/analysis/analysistest"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// loopProgram: i counts to n while a and s follow; the error is
// unreachable, so the run explores every iteration (about 4 states each).
func loopProgram(t testing.TB, n int64) *cfa.Program {
	b := analysistest.New()
	b.Func("main")
	i := b.Local("i", cfa.IntT)
	a := b.Local("a", cfa.IntT)
	s := b.Local("s", cfa.UIntType)
	b.Assign(b.V(i), b.I(0))
	b.Assign(b.V(a), b.I(7))
	b.Assign(b.V(s), b.C(cfa.UIntType, 0))
	b.While(b.Lt(b.V(i), b.I(n)), func() {
		b.Assign(b.V(s), b.Add(b.V(s), b.Cast(b.V(i), cfa.UIntType)))
		b.Assign(b.V(a), b.Bin(cfa.Xor, b.V(a), b.V(i)))
		b.Assign(b.V(i), b.Add(b.V(i), b.I(1)))
	})
	b.If(b.Lt(b.V(i), b.I(0)), func() { b.Error() }, nil)
	return b.Finish(t)
}

// BenchmarkLoop measures states per second and bytes allocated per state
// of the value analysis under full precision on a loop to 100,000.
func BenchmarkLoop(b *testing.B) {
	prog := loopProgram(b, 100000)
	b.ReportAllocs()
	var states int
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for b.Loop() {
		s := analysistest.Compose(b, prog, analysistest.Config{})
		alg := cpa.NewAlgorithm(s.Composite, cpa.Options{})
		st, _, err := alg.Run(context.Background())
		if err != nil || st != cpa.Safe {
			b.Fatal(st, err)
		}
		states += alg.Stats().Reached
	}
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(states), "B/state")
}
