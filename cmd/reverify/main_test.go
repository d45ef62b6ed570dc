package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// TestCheckExample runs the README's main job on the bundled example and
// checks the verdict lines, the exit code, results.json and that the
// reproducer of the violated assertion reaches the error when run.
func TestCheckExample(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "../../testdata/examples/counter.c", "--output", out}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (a FALSE verdict); stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var verdicts []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 2 && !strings.HasPrefix(l, " ") {
			verdicts = append(verdicts, f[0]+" "+f[2])
		}
	}
	// One line per property, printed as it is decided: in any order.
	sort.Strings(verdicts)
	want := []string{"FALSE main:w>=a", "TRUE main:i>=0&&i<4", "TRUE main:s>=a"}
	if strings.Join(verdicts, "\n") != strings.Join(want, "\n") {
		t.Errorf("verdicts:\n%s\nwant:\n%s", strings.Join(verdicts, "\n"), strings.Join(want, "\n"))
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Schema != results.SchemaVersion || len(rep.Properties) != 3 || rep.Summary["FALSE"] != 1 || rep.Summary["TRUE"] != 2 {
		t.Errorf("results.json: schema %d, %d properties, summary %v", rep.Schema, len(rep.Properties), rep.Summary)
	}
	var falseProp *results.PropertyReport
	for i := range rep.Properties {
		p := &rep.Properties[i]
		// a pixel tree draws a reached set: every analysis but the
		// formula-based ones has one (which arm of default decides
		// first depends on the machine's load)
		if p.PixelTree == "" && p.Decider != "bmc" && p.Decider != "k-induction" {
			t.Errorf("%s: no pixel tree (decided by %s)", p.ID, p.Decider)
		}
		if p.Verdict == results.False {
			falseProp = p
		}
	}
	if falseProp == nil || falseProp.Witness == "" || falseProp.Reproducer == "" || len(falseProp.Inputs) == 0 {
		t.Fatalf("FALSE property lacks witness, reproducer or inputs: %+v", falseProp)
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed: reproducer not run")
	}
	cmd := exec.Command("sh", filepath.Join(filepath.Dir(falseProp.Reproducer), "reproduce.sh"))
	msg, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 77 {
		t.Errorf("reproducer: %v, want exit code 77; output:\n%s", err, msg)
	}
}

// TestBadInput checks one-line errors and exit code 2 for bad input.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.c")
	os.WriteFile(bad, []byte("int main(void) { return 0 }\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", bad}, "bad.c:1:"},
		{[]string{"check"}, "no input files"},
		{[]string{"check", bad, "--config", "nope"}, `unknown configuration "nope"`},
		{[]string{"check", bad, "--data-model", "LP32"}, `unknown data model "LP32"`},
		{[]string{"check", "--bogus"}, "flag provided but not defined"},
		{[]string{"cfa", filepath.Join(dir, "missing.c")}, "missing.c"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"proofs", "--memory", "lots", dir}, "reverify proofs: --memory:"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit code %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: stderr %q, want it to contain %q", tt.args, stderr.String(), tt.want)
		}
	}
}
