package main

import (
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
	stdout, props := checkViolations(t, args...)
	if !strings.Contains(stdout, "functions:") {
		t.Errorf("no function summary:\n%s", stdout)
	}
	n := 0
	for _, p := range props {
		if p.Verdict != "FALSE" {
			continue
		}
		n++
		if p.Reproducer == "" {
			t.Errorf("%s: FALSE without a reproducer", p.ID)
			continue
		}
		if code, res := runReproducer(t, p.Reproducer); code != 77 || !strings.Contains(res, filepath.Base(p.File)) {
			t.Errorf("%s (%s:%d): reproducer exits %d\n%s", p.ID, p.File, p.Line, code, res)
		}
	}
	if n != 15 {
		t.Errorf("%d FALSE, want 15", n)
	}
}
