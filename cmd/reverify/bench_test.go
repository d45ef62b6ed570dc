package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/bench"
)

// benchChildEnv makes the test binary act as the reverify binary: `reverify
// bench` re-executes os.Executable() for every run (the limit wrapper and
// `check`), which under `go test` is this test binary.
const benchChildEnv = "REVERIFY_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(benchChildEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestBenchTasks runs `reverify bench` on the SV-COMP-style tasks of
// report/bench/testdata/tasks (each with its expected verdict) under the
// default configuration and value-cegar at a short CPU limit: no wrong
// verdict, the overflow-only task (labelled TRUE, FALSE under
// wrap-around) is never counted as correct or plain wrong, and the CSV,
// the Markdown table and the PNG plot exist and parse. A second run with
// the same arguments resumes: it runs nothing and keeps the rows.
func TestBenchTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	t.Setenv(benchChildEnv, "1")
	tasks, err := filepath.Abs("../../report/bench/testdata/tasks")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := []string{"bench", tasks, "--timeout", "2s", "--config", "default,value-cegar", "--jobs", "2", "--out", out}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("reverify bench: exit %d\n%s", code, stderr.String())
	}
	rows, err := bench.ReadCSVFile(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ymls, _ := filepath.Glob(filepath.Join(tasks, "*.yml"))
	if len(ymls) < 15 || len(rows) != 2*len(ymls) {
		t.Fatalf("%d tasks, %d rows; want ≥ 15 tasks and 2 rows each", len(ymls), len(rows))
	}
	correct := 0
	for _, r := range rows {
		switch {
		case r.Status == bench.Wrong:
			t.Errorf("%s (%s): wrong verdict %s, expected %s: %s", r.Task, r.Config, r.Verdict, r.Expected, r.Reason)
		case strings.HasSuffix(r.Task, "overflow_only.yml") && r.Verdict == bench.VerdictFalse:
			if r.Status != bench.Overflow || !strings.HasSuffix(r.OverflowAt, "overflow_only.c:11:7") {
				t.Errorf("overflow_only (%s): status %s, overflow at %q; want overflow at overflow_only.c:11:7", r.Config, r.Status, r.OverflowAt)
			}
		case r.Status == bench.Correct:
			correct++
		}
		if r.Expected == "" || r.CPU <= 0 || r.Wall <= 0 || r.MemMiB <= 0 {
			t.Errorf("%s (%s): missing measurement: %+v", r.Task, r.Config, r)
		}
	}
	if correct == 0 {
		t.Error("no correct result at all")
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| default | ", "| value-cegar | ", "### Wrong verdicts (0)", "quantile.png"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md)
		}
	}
	f, err := os.Open(filepath.Join(out, "quantile.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("quantile.png: %v", err)
	}

	// Resume: everything is in the CSV already.
	stderr.Reset()
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("resumed reverify bench: exit %d\n%s", code, stderr.String())
	}
	again, err := bench.ReadCSVFile(filepath.Join(out, "results.csv"))
	if err != nil || len(again) != len(rows) {
		t.Errorf("after resuming: %d rows (%v), want the same %d", len(again), err, len(rows))
	}
}

func TestBenchUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "no tasks"},
		{[]string{"bench", dir}, "no .yml task definitions"},
		{[]string{"bench", "--config", "nope", dir}, `unknown configuration "nope"`},
		{[]string{"bench", "--memory", "lots", dir}, "--memory"},
		{[]string{"bench", "--peer", "klee", dir}, `unknown peer "klee"`},
		{[]string{"bench", "--signed-overflow", "saturate", dir}, "signed-overflow mode"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}
