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

// clangMain is diffMain with its limit from a header: clamp returns CAP,
// a macro of include/lim.h.
const clangMain = `#include <assert.h>
#include "lim.h"
extern int __VERIFIER_nondet_int(void);

int clamp(int x) {
  if (x > LIMIT)
    return CAP;
  return x;
}

void check_clamp(void) {
  int v = clamp(__VERIFIER_nondet_int());
  assert(v <= LIMIT);
}

void check_const(void) {
  int k = 4;
  assert(k == 4);
}

int main(void) {
  if (__VERIFIER_nondet_int())
    check_clamp();
  else
    check_const();
  return 0;
}
`

// TestIncrementalCheckClang runs `reverify diff` and `check --base` with
// the clang front end (.reverify.yml's frontend: clang). The head changes
// only a macro in a header: clamp's text is the same, its IR is not. The
// change is found in clamp's IR fingerprint (the C front end's rule that
// equal text means only __LINE__ moved must not drop it), the property
// that depends on clamp is re-verified and FALSE, the other is reused
// from the cache, and the positions are the repository's C lines.
func TestIncrementalCheckClang(t *testing.T) {
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	base := map[string]string{
		"src/m.c":       clangMain,
		"include/lim.h": "#define LIMIT 10\n#define CAP LIMIT\n",
		".reverify.yml": "sources: [src/*.c]\ninclude: [include]\nconfig: value\ntimeout: 30s\nfrontend: clang\n",
	}
	head := map[string]string{"include/lim.h": "#define LIMIT 10\n#define CAP (LIMIT + 1)\n"}
	dir, b, h := diffRepo(t, base, head)
	cache := filepath.Join(t.TempDir(), "cache")

	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--repo", dir, "--base", b, "--head", b, "--cache", cache}, &stdout, &stderr); code != 0 {
		t.Fatalf("base check: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"diff", "--repo", dir, "--base", b, "--head", h, "--cache", cache}, &stdout, &stderr); code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"changed definitions (1):\n  function clamp changed (src/m.c:5-9)",
		"2 properties: 1 re-verified, 1 from the cache",
		"RECHECK src/m.c:13:3  check_clamp:v<=LIMIT",
		"because `clamp` changed, 1 call away",
		"reuse   src/m.c:18:3  check_const:k==4  TRUE",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff output lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	stderr.Reset()
	code := run([]string{"check", "--repo", dir, "--base", b, "--head", h, "--cache", cache}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("incremental check: exit %d, want 1 (a FALSE verdict)\n%s%s", code, stdout.String(), stderr.String())
	}
	for _, want := range []string{"FALSE       src/m.c:13:3  check_clamp:v<=LIMIT", "TRUE        src/m.c:18:3  check_const:k==4"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("check output lacks %q:\n%s", want, stdout.String())
		}
	}
}
