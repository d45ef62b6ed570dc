package solverproc

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/internal/wants"
	"github.com/reverify/reverify/results"
)

// TestBMCThroughSolverProcesses: bmc over every eighth verdict program
// (engine/testdata/verdicts), once with its one-shot checks in this
// process and once with every one of them in a solver process
// (threshold 0): no property is TRUE one way and FALSE the other (an
// UNKNOWN on one side is logged: the two Z3s may give different
// models, and bmc confirms the one execution its model gives), and
// properties are decided through solver processes, every FALSE a
// counterexample that engine/cexcheck confirmed from the model read
// back.
func TestBMCThroughSolverProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a solver process per check")
	}
	files, _ := filepath.Glob("../engine/testdata/verdicts/*.c")
	if len(files) == 0 {
		t.Fatal("no verdict programs")
	}
	decided := 0
	for i := 0; i < len(files); i += 8 {
		file := files[i]
		t.Run(filepath.Base(file), func(t *testing.T) {
			w, err := wants.Read(file)
			if err != nil {
				t.Fatal(err)
			}
			var fcfg frontend.Options
			if w.MallocMayFail {
				fcfg.Malloc = frontend.MallocMayFail
			}
			prog, err := frontend.Translate(fcfg, file)
			if err != nil {
				t.Fatal(err)
			}
			props := spec.Properties(prog, w.Entry)
			// run verifies the properties with bmc, its one-shot checks
			// made by oneShot
			run := func(oneShot smt.Factory) []results.Verdict {
				cfg := engine.Config{Name: "bmc", Entry: w.Entry, Timeout: 5 * time.Second, Solver: z3.Factory, OneShot: oneShot,
					MemoryLimit: 6 << 30, SignedOverflow: engine.OverflowMode(w.SignedOverflow), AssumePure: w.AssumePure}
				rs, err := engine.Verify(context.Background(), prog, props, cfg)
				if err != nil {
					t.Fatal(err)
				}
				var vs []results.Verdict
				for _, r := range rs {
					vs = append(vs, r.Verdict)
				}
				return vs
			}
			here, there := run(z3.OneShotFactory), run(OneShot(0, 0, z3.OneShotFactory))
			for k := range here {
				switch {
				case here[k] == there[k]:
				case here[k] == results.Unknown || there[k] == results.Unknown:
					// the two Z3s may find different models, and bmc
					// confirms one execution of the model
					t.Logf("%s: %s in this process, %s through solver processes", props[k].ID, here[k], there[k])
				default:
					t.Errorf("%s: %s in this process, %s through solver processes", props[k].ID, here[k], there[k])
				}
				if there[k] == results.True || there[k] == results.False {
					decided++
				}
			}
		})
	}
	t.Logf("%d properties decided through solver processes", decided)
	if decided == 0 {
		t.Error("no property decided through solver processes")
	}
}
