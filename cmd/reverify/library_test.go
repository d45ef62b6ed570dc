package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLibraryReproducers runs check on the library test set
// (library/testdata/lib, no main) with --output and runs the reproducer
// of every FALSE with gcc: each is a unit test that builds the API
// function's arguments from the counterexample and must end in the
// reported assertion (exit 77), so no FALSE of library mode is a
// false alarm of the model (the contexts' C is the C that runs).
func TestLibraryReproducers(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies 47 assertions and compiles a reproducer per violation")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	dir := filepath.Join("..", "..", "library", "testdata", "lib")
	files, _ := filepath.Glob(filepath.Join(dir, "*.c"))
	out := t.TempDir()
	args := append([]string{"check", "--timeout", "60s", "--output", out, "-I", filepath.Join(dir, "include")}, files...)
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 1 {
		t.Fatalf("check exits %d, want 1 (violations)\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "functions:") {
		t.Errorf("no function summary:\n%s", stdout.String())
	}
	var report struct {
		Properties []struct {
			ID, Verdict, Reproducer, File string
			Line                          int
		} `json:"properties"`
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range report.Properties {
		if p.Verdict != "FALSE" {
			continue
		}
		n++
		if p.Reproducer == "" {
			t.Errorf("%s: FALSE without a reproducer", p.ID)
			continue
		}
		cmd := exec.Command("sh", filepath.Join(filepath.Dir(p.Reproducer), "reproduce.sh"))
		res, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 77 || !strings.Contains(string(res), filepath.Base(p.File)) {
			t.Errorf("%s (%s:%d): reproducer: %v\n%s", p.ID, p.File, p.Line, err, res)
		}
	}
	if n != 15 {
		t.Errorf("%d FALSE, want 15", n)
	}
}
