package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// TestShardAndMerge verifies the bundled example in two shards and
// merges them: the merged results.json has the properties and verdicts
// of the unsharded run, with artifact paths into the merged directory.
func TestShardAndMerge(t *testing.T) {
	src := "../../testdata/examples/counter.c"
	root := t.TempDir()
	full := filepath.Join(root, "full")
	var stdout, stderr bytes.Buffer
	run([]string{"check", src, "--output", full}, &stdout, &stderr)
	want := readReport(t, filepath.Join(full, "results.json"))
	var dirs []string
	total := 0
	for k := 1; k <= 2; k++ {
		d := filepath.Join(root, "shards", fmt.Sprintf("reverify-%d", k))
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"check", src, "--shard", fmt.Sprintf("%d/2", k), "--output", d}, &stdout, &stderr); code > 1 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr.String())
		}
		total += len(readReport(t, filepath.Join(d, "results.json")).Properties)
		dirs = append(dirs, d)
	}
	if total != len(want.Properties) {
		t.Fatalf("shards hold %d properties, the full run %d", total, len(want.Properties))
	}
	out := filepath.Join(root, "merged")
	stdout.Reset()
	stderr.Reset()
	t.Setenv("GITHUB_EVENT_PATH", "")
	code := run([]string{"merge", "--output", out, "--fail-on", "never", filepath.Join(root, "shards", "*")}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr.String())
	}
	got := readReport(t, filepath.Join(out, "results.json"))
	verdicts := func(r *results.Report) string {
		var s []string
		for _, p := range r.Properties {
			s = append(s, p.ID+"="+string(p.Verdict))
		}
		sort.Strings(s)
		return strings.Join(s, " ")
	}
	if verdicts(got) != verdicts(want) || fmt.Sprint(got.Summary) != fmt.Sprint(want.Summary) {
		t.Errorf("merged %s %v\nfull   %s %v", verdicts(got), got.Summary, verdicts(want), want.Summary)
	}
	for _, p := range got.Properties {
		for _, f := range []string{p.Witness, p.Reproducer, p.PixelTree} {
			if f == "" {
				continue
			}
			if !strings.HasPrefix(f, out) {
				t.Errorf("%s: artifact %s not relocated into %s", p.ID, f, out)
			} else if _, err := os.Stat(f); err != nil {
				t.Errorf("%s: %v", p.ID, err)
			}
		}
	}
	for _, f := range []string{"results.sarif", "summary.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("merge did not write %s: %v", f, err)
		}
	}
	// Merging under fail-on violation fails on the example's violation.
	stdout.Reset()
	if code := run(append([]string{"merge", "--output", filepath.Join(root, "m2")}, dirs...), &stdout, &stderr); code != 1 {
		t.Errorf("merge under fail-on violation: exit %d, want 1", code)
	}
}

func readReport(t *testing.T, path string) *results.Report {
	t.Helper()
	var r results.Report
	if err := json.Unmarshal([]byte(readFile(t, path)), &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &r
}
