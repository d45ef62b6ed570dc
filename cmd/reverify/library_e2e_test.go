package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionLibrary runs the Action on a library without main
// (testdata/action/lib-base: a ring buffer whose static helper slot()
// asserts its index, which its callers keep in bounds, and a sum
// function): with no entry configured every function is verified in its
// most general context. The push proves both assertions (slot's through
// its callers, as a violation in slot's own context is not reported); the
// pull request lets ring_push call slot with count 4, a FALSE reported at
// the API function ring_push, with the functions table in the comment, a
// functions list in results.json, and a reproducer that exits 77; a re-run
// on the same head re-verifies nothing that is settled.
func TestActionLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	w := newWorld(t, "lib-", "src/ring.c", "src/ring.c")

	r := w.run("push", map[string]any{"after": w.base, "before": strings.Repeat("0", 40)}, map[string]string{})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "2", "false": "0", "unknown": "0", "reverified": "2", "reused": "0"})
	if !strings.Contains(r.summary, "| <code>slot</code> | verified | 1 | 0 | 0 | 0 | ") || !strings.Contains(r.summary, "| <code>ring&#95;sum</code> (API) | verified | 1 | 0 | 0 | 0 | ") {
		t.Errorf("push: the functions table:\n%s", r.summary)
	}

	w.prFiles(w.head)
	r = w.run("pull_request", prEvent(9, w.base, w.head, "o/r"), map[string]string{})
	r.wantCode(t, 1)
	r.wantOutputs(t, map[string]string{"true": "1", "false": "1", "reverified": "1", "reused": "1"})
	var body string
	for _, rec := range r.records {
		if b, ok := rec.Body["body"].(string); ok && strings.Contains(b, "### Functions") {
			body = b
		}
	}
	for _, want := range []string{"violated when the API function ring&#95;push is called", "| <code>slot</code> | violated | 0 | 1 | 0 | 0 | ", "reproduce.sh"} {
		if !strings.Contains(body, want) {
			t.Errorf("pull request comment lacks %q:\n%s", want, body)
		}
	}
	var report struct {
		Entry     string `json:"entry"`
		Functions []struct {
			Function, Kind string
			API            bool
		} `json:"functions"`
		Properties []struct {
			ID, Verdict, Reproducer string
			Assumptions             []string
		} `json:"properties"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(r.outDir, "results.json"))), &report); err != nil {
		t.Fatal(err)
	}
	if report.Entry != "auto" || len(report.Functions) != 2 || report.Functions[1].Function != "slot" || report.Functions[1].Kind != "violated" || report.Functions[1].API {
		t.Errorf("results.json: entry %q, functions %+v", report.Entry, report.Functions)
	}
	var repro string
	for _, p := range report.Properties {
		if p.Verdict == "FALSE" {
			repro = p.Reproducer
			if len(p.Assumptions) == 0 || !strings.Contains(strings.Join(p.Assumptions, "\n"), "most general context of ring_push") {
				t.Errorf("FALSE %s: assumptions %q", p.ID, p.Assumptions)
			}
		}
	}
	if repro == "" {
		t.Fatalf("no reproducer for the FALSE")
	}
	if _, err := exec.LookPath("gcc"); err == nil {
		script := filepath.Join(filepath.Dir(repro), "reproduce.sh")
		if !filepath.IsAbs(repro) {
			script = filepath.Join(w.ws, script)
		}
		out, err := exec.Command("sh", script).CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 77 || !strings.Contains(string(out), "i < RING_CAP") {
			t.Errorf("reproducer: %v\n%s", err, out)
		}
	}

	r = w.run("pull_request", prEvent(9, w.base, w.head, "o/r"), map[string]string{})
	r.wantCode(t, 1)
	r.wantOutputs(t, map[string]string{"false": "1", "reused": "1"})
}
