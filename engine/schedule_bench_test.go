package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// BenchmarkPortfolio verifies programs of testdata/verdicts with
// `default` (the portfolio of schedule.go) and with each of its arms
// alone, all properties of a file per operation: the ratio of default's
// time to the fastest arm's, in one run, is what the portfolio costs
// over knowing the best configuration in advance (doc/perf/2026-11-27-portfolio.md).
//
//	go test -run '^$' -bench Portfolio ./engine/
func BenchmarkPortfolio(b *testing.B) {
	files := []string{"sequence_diamond.c", "cegar_running.c", "cegar_counter.c", "symex_relations.c", "symex_unbounded.c"}
	for _, f := range files {
		prog, err := frontend.Translate(frontend.Options{}, "testdata/verdicts/"+f)
		if err != nil {
			b.Fatal(err)
		}
		props := spec.Properties(prog, "main")
		for _, config := range []string{"default", "value", "value-cegar", "symex-cegar"} {
			b.Run(f+"/"+config, func(b *testing.B) {
				for b.Loop() {
					if _, err := engine.Verify(context.Background(), prog, props, engine.Config{MemoryLimit: testMemory,
						Name: config, Solver: z3.Factory, Timeout: 20 * time.Second, MaxStates: 100_000,
					}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkFixedCost is the cost of a trivial task (one assertion that a
// constant loop decides, testdata/verdicts/loops.c's kind) by phase: C
// front end (preprocessing, parsing, CFA), property extraction, and
// verification with `value` and with `default`.
func BenchmarkFixedCost(b *testing.B) {
	const file = "../report/bench/testdata/tasks/loop_bounded.c"
	b.Run("frontend", func(b *testing.B) {
		for b.Loop() {
			if _, err := frontend.Translate(frontend.Options{}, file); err != nil {
				b.Fatal(err)
			}
		}
	})
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("properties", func(b *testing.B) {
		for b.Loop() {
			spec.UnreachCall(prog, "main")
		}
	})
	props := []*spec.Property{spec.UnreachCall(prog, "main")}
	for _, config := range []string{"value", "value-cegar", "symex-cegar", "default"} {
		b.Run("verify/"+config, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.Verify(context.Background(), prog, props, engine.Config{MemoryLimit: testMemory, Name: config, Solver: z3.Factory}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
