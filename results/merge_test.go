package results_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

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
	if want := "h:d=TRUE f:a=FALSE f:b=TRUE g:c=UNKNOWN"; strings.Join(got, " ") != want {
		t.Errorf("merged %s, want %s", strings.Join(got, " "), want)
	}
	if m.Entry != "main test" || strings.Join(m.Files, ",") != "main.c,test.c" || fmt.Sprint(m.Summary) != "map[FALSE:1 TRUE:2 UNKNOWN:1]" {
		t.Errorf("merged report: entry %q, files %v, summary %v", m.Entry, m.Files, m.Summary)
	}
	other := mk("main")
	other.Config = "symex"
	if _, err := results.Merge([]*results.Report{mk("main"), other}); err == nil || !strings.Contains(err.Error(), `configuration "symex" differs`) {
		t.Errorf("mismatched configurations: %v", err)
	}
}

// writeShard writes dir/results.json with one FALSE property whose
// witness path is recorded as the shard job saw it (below job/), and the
// witness file itself below dir.
func writeShard(t *testing.T, dir string, schema int, id string, line int) {
	t.Helper()
	art := filepath.Join(dir, "out", fmt.Sprintf("%s-L%d", id, line))
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(art, "witness.yml"), []byte(id), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &results.Report{Schema: schema, Engine: "0.1.0", Config: "value", DataModel: "LP64", Entry: "main", Files: []string{"a.c"},
		Properties: []results.PropertyReport{{ID: id, File: "a.c", Line: line, Verdict: results.False,
			Witness: fmt.Sprintf("/home/runner/work/job/out/%s-L%d/witness.yml", id, line)}},
		Summary: map[string]int{"FALSE": 1}}
	f, err := os.Create(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := r.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
}

// TestMergeDirs: shard directories found by ExpandDirs (a directory
// pattern stands for its subdirectories with results.json) merge into
// one report whose artifact paths point at the copies in the output
// directory; a shard of another schema is an error naming it.
func TestMergeDirs(t *testing.T) {
	root := t.TempDir()
	writeShard(t, filepath.Join(root, "shards", "s1"), results.SchemaVersion, "f", 3)
	writeShard(t, filepath.Join(root, "shards", "s2"), results.SchemaVersion, "g", 7)
	dirs, err := results.ExpandDirs([]string{filepath.Join(root, "shards")})
	if err != nil || len(dirs) != 2 {
		t.Fatalf("ExpandDirs = %v, %v", dirs, err)
	}
	out := filepath.Join(root, "merged")
	m, err := results.MergeDirs(dirs, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Properties) != 2 || m.Summary["FALSE"] != 2 {
		t.Fatalf("merged %d properties, summary %v", len(m.Properties), m.Summary)
	}
	for _, p := range m.Properties {
		want := filepath.Join(out, "out", fmt.Sprintf("%s-L%d", p.ID, p.Line), "witness.yml")
		if p.Witness != want {
			t.Errorf("%s: witness %s, want %s", p.ID, p.Witness, want)
		}
		if b, err := os.ReadFile(p.Witness); err != nil || string(b) != p.ID {
			t.Errorf("%s: copied witness %q, %v", p.ID, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "results.json")); err == nil {
		t.Errorf("a shard's results.json was copied into the output")
	}
	writeShard(t, filepath.Join(root, "old"), results.SchemaVersion+1, "h", 1)
	if _, err := results.MergeDirs(append(dirs, filepath.Join(root, "old")), filepath.Join(root, "m2")); err == nil || !strings.Contains(err.Error(), "old: results.json has schema") {
		t.Errorf("schema mismatch: %v", err)
	}
	if _, err := results.ExpandDirs([]string{filepath.Join(root, "nope")}); err == nil || !strings.Contains(err.Error(), "no such shard directory") {
		t.Errorf("missing directory: %v", err)
	}
}
