package cpa_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
)

// loopProgram: i counts to n while a and s follow; the error is
// unreachable, so the run explores every iteration (about 4 states each).
func loopProgram(t testing.TB, n int64) *cfa.Program {
	b := cfatest.New()
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
		states += runSafe(b, prog)
	}
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(states), "B/state")
}

// flagsProgram is a lock-step program in the style of the SV-COMP locks
// tasks, written here: n flags p_i, unknown inputs, guard locks lk_i in a
// loop; each lock is taken and released under the same flag, so the
// error is unreachable. Under full precision every combination of p_i
// being 0 or unknown reaches the loop body: the partitions of the reached
// set hold up to 2^n states that share most of their facts.
func flagsProgram(t testing.TB, n int) *cfa.Program {
	b := cfatest.New()
	b.Func("main")
	c := b.Local("c", cfa.IntT)
	p := make([]*cfa.Var, n)
	lk := make([]*cfa.Var, n)
	for i := range n {
		p[i] = b.Local(fmt.Sprintf("p%d", i), cfa.IntT)
		lk[i] = b.Local(fmt.Sprintf("lk%d", i), cfa.IntT)
		b.Havoc(b.V(p[i]))
	}
	b.Havoc(b.V(c))
	b.While(b.Ne(b.V(c), b.I(0)), func() {
		for i := range n {
			b.Assign(b.V(lk[i]), b.I(0))
		}
		for i := range n {
			b.If(b.Ne(b.V(p[i]), b.I(0)), func() { b.Assign(b.V(lk[i]), b.I(1)) }, nil)
		}
		for i := range n {
			b.If(b.Ne(b.V(p[i]), b.I(0)), func() {
				b.If(b.Ne(b.V(lk[i]), b.I(1)), func() { b.Error() }, nil)
				b.Assign(b.V(lk[i]), b.I(0))
			}, nil)
		}
		b.Havoc(b.V(c))
	})
	return b.Finish(t)
}

// BenchmarkFlags measures the value analysis under full precision on
// flagsProgram(6), with the stop index's signature test (signature) and
// without it (baseline: every state filed under a shared feature is
// handed to the stop operator). Compare the two lines' ns/op.
func BenchmarkFlags(b *testing.B) {
	prog := flagsProgram(b, 6)
	for _, on := range []bool{false, true} {
		name := "baseline"
		if on {
			name = "signature"
		}
		b.Run(name, func(b *testing.B) {
			defer cpa.SetSignatureFilter(cpa.SetSignatureFilter(on))
			var states int
			for b.Loop() {
				states += runSafe(b, prog)
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
		})
	}
}

// runSafe runs the value analysis under full precision on prog, which
// must be safe, and returns the size of the reached set.
func runSafe(b *testing.B, prog *cfa.Program) int {
	s := cpatest.Compose(b, prog, cpatest.Config{})
	alg := cpa.NewAlgorithm(s.Composite, cpa.Options{})
	st, _, err := alg.Run(context.Background())
	if err != nil || st != cpa.Safe {
		b.Fatal(st, err)
	}
	return alg.Stats().Reached
}
