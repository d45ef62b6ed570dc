package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// runningExample is seed 000's running example, which value-cegar
// proves after two refinements.
const runningExample = "../../engine/testdata/verdicts/cegar_running.c"

// checkJSON runs reverify check with args plus --json and returns the
// report.
func checkJSON(t *testing.T, args ...string) *results.Report {
	t.Helper()
	out := filepath.Join(t.TempDir(), "results.json")
	var stdout, stderr bytes.Buffer
	if code := run(append(append([]string{"check"}, args...), "--json", out), &stdout, &stderr); code != 0 {
		t.Fatalf("check %v: exit code %d; stderr:\n%s", args, code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Properties) != 1 {
		t.Fatalf("%d properties, want 1", len(rep.Properties))
	}
	return &rep
}

// TestInitialPrecisionFlag: a second run of value-cegar seeded with the
// first run's results.json (--initial-precision) needs no refinement
// and ends with the same precision.
func TestInitialPrecisionFlag(t *testing.T) {
	first := checkJSON(t, runningExample, "--config", "value-cegar")
	p := first.Properties[0]
	if p.Verdict != results.True || p.Refinements != 2 || len(p.Precision) == 0 {
		t.Fatalf("first run: %s, %d refinements, precision %q; want TRUE after 2 refinements", p.Verdict, p.Refinements, p.Precision)
	}
	prev := filepath.Join(t.TempDir(), "first.json")
	data, _ := json.Marshal(first)
	if err := os.WriteFile(prev, data, 0o644); err != nil {
		t.Fatal(err)
	}
	second := checkJSON(t, runningExample, "--config", "value-cegar", "--initial-precision", prev)
	q := second.Properties[0]
	if q.Verdict != results.True || q.Refinements != 0 || strings.Join(q.Precision, "\n") != strings.Join(p.Precision, "\n") {
		t.Errorf("seeded run: %s, %d refinements, precision %q; want TRUE after 0 refinements, precision %q", q.Verdict, q.Refinements, q.Precision, p.Precision)
	}
	if q.States >= p.States {
		t.Errorf("seeded run explored %d states, the first %d", q.States, p.States)
	}
}

// TestInitialPrecisionBadFile: a file that is not a usable results.json
// is a one-line error naming the file (and where in it) and exit code 2.
func TestInitialPrecisionBadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing.json"), "missing.json: no such file or directory"},
		{write("truncated.json", "{\n  \"schema\": 1,\n  \"properties\": [\n"), "truncated.json:4:1: not JSON: unexpected end of JSON input"},
		{write("syntax.json", "{\"schema\": 1,\n \"properties\": [}]}"), "syntax.json:2:17: not JSON: invalid character '}'"},
		{write("type.json", `{"schema": 1, "properties": [{"id": "main:x", "precision": "main::x"}]}`), "type.json:1:68: not a results.json"},
		{write("other.json", `{"name": "reverify"}`), `other.json: not a results.json (no "schema" or "properties")`},
		{write("newer.json", `{"schema": 99, "properties": []}`), "newer.json: results.json schema 99 is newer"},
		{write("entry.json", `{"schema": 1, "properties": [{"id": "main:reach_error", "precision": ["main::y@main:+3:decl int w", "y@"]}]}`),
			`entry.json: property main:reach_error: bad precision entry "y@"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", runningExample, "--config", "value-cegar", "--initial-precision", tc.path}, &stdout, &stderr)
		msg := stderr.String()
		if code != 2 || !strings.Contains(msg, "reverify check: --initial-precision: ") || !strings.Contains(msg, tc.want) ||
			strings.Count(msg, "\n") != 1 || stdout.Len() != 0 {
			t.Errorf("%s: exit code %d, stdout %q, stderr %q; want 2 and one line containing %q", filepath.Base(tc.path), code, stdout.String(), msg, tc.want)
		}
	}
	var stdout, stderr bytes.Buffer
	// With --base the flag is read too (TestCheckFlagsReachEngine).
	if code := run([]string{"check", "--base", "HEAD~1", "--initial-precision", filepath.Join(dir, "missing.json")}, &stdout, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "--initial-precision: open ") {
		t.Errorf("with --base: exit code %d, stderr %q", code, stderr.String())
	}
	// Entries that name nothing in the program are not errors: the run
	// learns the precision again.
	stale := write("stale.json", `{"schema": 1, "properties": [{"id": "nosuch", "precision": ["f::z@f:+1:z = 2"]}, {"id": "x", "precision": ["main::y@main:L5"]}]}`)
	rep := checkJSON(t, runningExample, "--config", "value-cegar", "--initial-precision", stale)
	if p := rep.Properties[0]; p.Verdict != results.True || p.Refinements != 2 {
		t.Errorf("stale precision: %s after %d refinements, want TRUE after 2", p.Verdict, p.Refinements)
	}
}
