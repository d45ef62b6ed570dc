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

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want shard
		err  bool
	}{
		{"", shard{}, false},
		{"1/1", shard{1, 1}, false},
		{" 2/4 ", shard{2, 4}, false},
		{"0/4", shard{}, true},
		{"5/4", shard{}, true},
		{"1/0", shard{}, true},
		{"2", shard{}, true},
		{"a/b", shard{}, true},
	} {
		got, err := parseShard(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("parseShard(%q) = %v, %v", tt.in, got, err)
		}
	}
}

// TestShardPartition: for each N, every property ID lies in exactly one
// of the shards 1/N … N/N, the same one each time, and the shards are
// not grossly unbalanced.
func TestShardPartition(t *testing.T) {
	var ids []string
	for i := 0; i < 400; i++ {
		ids = append(ids, fmt.Sprintf("f%d:x[%d]>=0", i%7, i))
	}
	for _, n := range []int{1, 2, 3, 8} {
		count := make([]int, n)
		for _, id := range ids {
			owners := 0
			for k := 1; k <= n; k++ {
				if (shard{k, n}).owns(id) {
					owners++
					count[k-1]++
				}
			}
			if owners != 1 {
				t.Fatalf("N=%d: %s is in %d shards", n, id, owners)
			}
		}
		for k, c := range count {
			if c < len(ids)/n/2 {
				t.Errorf("N=%d: shard %d has %d of %d properties", n, k+1, c, len(ids))
			}
		}
	}
	// Pinned: the split must not change between versions, or shard
	// caches go cold.
	if !(shard{3, 3}).owns("main:x>0") || !(shard{2, 2}).owns("main:x>0") {
		t.Errorf("main:x>0 moved: shard 1/3 %v, 2/3 %v, 3/3 %v", shard{1, 3}.owns("main:x>0"), shard{2, 3}.owns("main:x>0"), shard{3, 3}.owns("main:x>0"))
	}
}

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

// TestMergeReports: entries combine by property ID, the strongest verdict
// winning; mismatched configurations are an error.
func TestMergeReports(t *testing.T) {
	mk := func(entry string, ps ...results.PropertyReport) *results.Report {
		return &results.Report{Schema: 1, Engine: "0.1.0", Config: "value", DataModel: "LP64", Entry: entry, Files: []string{entry + ".c"}, Properties: ps}
	}
	p := func(id string, line int, v results.Verdict) results.PropertyReport {
		return results.PropertyReport{ID: id, File: "a.c", Line: line, Verdict: v}
	}
	m, err := results.Merge([]*results.Report{
		mk("main", p("f:a", 3, results.True), p("f:b", 5, results.NotChecked), p("g:c", 9, results.Unknown)),
		mk("test", p("f:a", 3, results.False), p("f:b", 5, results.True), p("g:c", 9, results.True), p("h:d", 1, results.True)),
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, q := range m.Properties {
		got = append(got, q.ID+"="+string(q.Verdict))
	}
	sameLines(t, "merged", got, []string{"h:d=TRUE", "f:a=FALSE", "f:b=TRUE", "g:c=UNKNOWN"})
	if m.Entry != "main test" || strings.Join(m.Files, ",") != "main.c,test.c" || fmt.Sprint(m.Summary) != "map[FALSE:1 TRUE:2 UNKNOWN:1]" {
		t.Errorf("merged report: entry %q, files %v, summary %v", m.Entry, m.Files, m.Summary)
	}
	other := mk("main")
	other.Config = "symex"
	if _, err := results.Merge([]*results.Report{mk("main"), other}); err == nil || !strings.Contains(err.Error(), `configuration "symex" differs`) {
		t.Errorf("mismatched configurations: %v", err)
	}
}
