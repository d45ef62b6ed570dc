package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A preprocessed file (.i) as SV-COMP ships them: reach_error's
// __assert_fail carries the __FILE__ and __LINE__ of the original .c
// file, not the .i's own place.
const preprocessedTask = `extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "task.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  __VERIFIER_assert(x != 42);
  return 0;
}
`

// TestReproducerPreprocessed: the reproducer of a FALSE in a .i file
// exits 77. The failing __assert_fail names another file and line than
// the property's (the original's), so where the call returns to decides
// that it is the reported one.
func TestReproducerPreprocessed(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed")
	}
	if _, err := exec.LookPath("addr2line"); err != nil {
		t.Skip("addr2line is not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "task.i")
	if err := os.WriteFile(src, []byte(preprocessedTask), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--config", "value", "--output", out, src}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	scripts, _ := filepath.Glob(filepath.Join(out, "*", "reproduce.sh"))
	if len(scripts) != 1 {
		t.Fatalf("reproducers %v, want one", scripts)
	}
	cmd := exec.Command("sh", scripts[0])
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 77 {
		t.Errorf("reproducer: %v, want exit 77\n%s", err, errb.String())
	}
}
