package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/reverify/reverify/report/bench"
)

// TestVerdictSuite runs the verdict suite, testdata/suites/verdicts.txt:
// `reverify bench` on every verdict program of engine/testdata/verdicts
// under each of its configurations, each run a child `reverify check`
// (this test binary, as in TestBenchTasks) with the flags of the
// program's directives, every property compared with its `// want`
// (internal/wants). It fails on every wrong row, naming the program, the
// configuration and the differences. Full tier only: it is the engine's
// full verdict sweep (engine's TestVerdicts keeps its -short share
// in-process).
//
// The CPU limit per run is generous for a loaded two-core machine: the
// verdicts are decided by state limits, and the per-property timeout
// (bench.ProgramTimeout) only stops a runaway.
func TestVerdictSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the full verdict sweep: every verdict program under each of its configurations, in child processes")
	}
	t.Setenv(benchChildEnv, "1")
	list, err := filepath.Abs("../../testdata/suites/verdicts.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := []string{"bench", "@" + list, "--jobs", "2", "--timeout", "10m", "--memory", "6GiB", "--out", out}
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if code != 0 && code != 1 { // 1: a wrong row, listed below
		t.Fatalf("reverify bench: exit %d\n%s", code, stderr.String())
	}
	rows, err := bench.ReadCSVFile(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 100 {
		t.Fatalf("%d rows; want every verdict program under each of its configurations\n%s", len(rows), stderr.String())
	}
	wrong := 0
	for _, r := range rows {
		if r.Expected != bench.ExpectedWants {
			t.Errorf("%s (%s): not a verdict program's row: %+v", r.Task, r.Config, r)
		}
		if r.Status != bench.Correct {
			wrong++
			t.Errorf("%s (%s): %s in %.1f s CPU: %s", bench.TaskName(r.Task), r.Config, r.Verdict, r.CPU, r.Reason)
		}
	}
	if wrong == 0 && code != 0 {
		t.Errorf("reverify bench: exit %d without a wrong row\n%s", code, stderr.String())
	}
	t.Logf("%d runs, %d wrong", len(rows), wrong)
}
