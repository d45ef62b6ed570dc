package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const llvmProgram = `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < 0 || n > 100)
		return 0;
	assert(n != 37);
	assert(n <= 100);
	return 0;
}
`

// TestCheckLLVM runs check on the same program three ways: as C with
// the built-in front end, as C through clang (--frontend clang) and as
// the textual IR clang makes of it. Each gives the same verdicts at the
// same C lines, and the FALSE's reproducer exits 77 (built with gcc
// from the C file, or with clang from the .ll file).
func TestCheckLLVM(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	dir := t.TempDir()
	c := filepath.Join(dir, "p.c")
	ll := filepath.Join(dir, "p.ll")
	if err := os.WriteFile(c, []byte(llvmProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("clang", "-O0", "-g", "-Xclang", "-disable-O0-optnone", "-S", "-emit-llvm", "-o", ll, c).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v %s", err, out)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"cc", []string{c}},
		{"clang", []string{"--frontend", "clang", c}},
		{"ll", []string{ll}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+tc.name)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"check", "--config", "value", "--timeout", "60s", "--output", out}, tc.args...), &stdout, &stderr)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (a violation)\n%s%s", code, stdout.String(), stderr.String())
			}
			for _, want := range []string{"FALSE       " + c + ":7:2", "TRUE        " + c + ":8:2", "input __VERIFIER_nondet_int = 37"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("missing %q in\n%s", want, stdout.String())
				}
			}
			scripts, _ := filepath.Glob(filepath.Join(out, "*", "reproduce.sh"))
			if len(scripts) != 1 {
				t.Fatalf("reproducers %v, want one", scripts)
			}
			err := exec.Command("sh", scripts[0]).Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 77 {
				t.Errorf("reproducer: %v, want exit 77", err)
			}
		})
	}
}
