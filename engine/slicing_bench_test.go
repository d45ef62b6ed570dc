package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// BenchmarkConfigs verifies every program of testdata/verdicts under
// each symbolic-execution and value configuration (state limit 2000,
// 5 s per property, one worker) and reports, besides the time per
// pass over all programs, the verdicts in the shape of seed 000's
// table 2: correct proofs and alarms (against the verdict the want
// comments state for some configuration), wrong verdicts, unknowns.
//
//	go test ./engine -run '^$' -bench Configs -benchtime 1x
func BenchmarkConfigs(b *testing.B) {
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	type task struct {
		prog  *cfa.Program
		props []*spec.Property
		truth map[int]results.Verdict
		mode  engine.OverflowMode
	}
	var tasks []task
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		prog, err := frontend.Translate(frontend.Options{}, f)
		if err != nil {
			b.Fatal(err)
		}
		tk := task{prog: prog, props: spec.Properties(prog, "main"), truth: groundTruth(string(src))}
		if m := overflowRE.FindStringSubmatch(string(src)); m != nil {
			tk.mode = engine.OverflowMode(m[1])
		}
		tasks = append(tasks, tk)
	}
	for _, config := range benchConfigs {
		b.Run(config, func(b *testing.B) {
			var proofs, alarms, wrong, unknown int
			for i := 0; i < b.N; i++ {
				proofs, alarms, wrong, unknown = 0, 0, 0, 0
				for _, tk := range tasks {
					rs, err := engine.Verify(context.Background(), tk.prog, tk.props, engine.Config{MemoryLimit: testMemory, Name: config, MaxStates: 2000,
						Timeout: 5 * time.Second, Workers: 1, Solver: z3.Factory, SignedOverflow: tk.mode})
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range rs {
						w, known := tk.truth[r.Property.Pos.Line]
						switch {
						case r.Verdict != results.True && r.Verdict != results.False:
							unknown++
						case !known:
						case r.Verdict != w:
							wrong++
						case w == results.True:
							proofs++
						default:
							alarms++
						}
					}
				}
			}
			b.ReportMetric(float64(proofs), "proofs")
			b.ReportMetric(float64(alarms), "alarms")
			b.ReportMetric(float64(wrong), "wrong")
			b.ReportMetric(float64(unknown), "unknown")
		})
	}
}

var benchConfigs = []string{"symex", "symex-slicing", "symex-cegar", "symex-slicing-cegar", "value", "value-cegar", "value-slicing-cegar"}
