package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCFACommand prints a program's CFA through the facade (engine.Load,
// engine.WriteCFA) as text and as DOT.
func TestCFACommand(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.c")
	if err := os.WriteFile(src, []byte("int main(void) {\n  int x = 1;\n  if (x > 0) x = 2;\n  return x;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var text, dot, stderr bytes.Buffer
	if code := run([]string{"cfa", src}, &text, &stderr); code != 0 {
		t.Fatalf("cfa: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(text.String(), "x > 0") || !strings.Contains(text.String(), "return x") {
		t.Errorf("text form lacks the branch or the return:\n%s", text.String())
	}
	if code := run([]string{"cfa", "--dot", src}, &dot, &stderr); code != 0 {
		t.Fatalf("cfa --dot: exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(dot.String(), "digraph") {
		t.Errorf("--dot does not print a digraph:\n%s", dot.String())
	}
}

// TestHostCompiler resolves the front end's host compiler as cc/v4 picks
// it ($CC, else cc, else gcc) and its cache directory, which
// REVERIFY_NO_CC_CACHE turns off.
func TestHostCompiler(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		if cc, err = exec.LookPath("gcc"); err != nil {
			t.Skip("no C compiler")
		}
	}
	real, err := filepath.EvalSymlinks(cc)
	if err != nil {
		t.Fatal(err)
	}
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	env := map[string]string{"CC": "no-such-compiler-xyz"}
	h := hostCompiler(func(k string) string { return env[k] })
	if h.CC != "no-such-compiler-xyz" || h.Path != real || h.CacheDir != filepath.Join(cacheHome, "reverify") {
		t.Errorf("$CC missing: %+v, want path %s and cache under %s", h, real, cacheHome)
	}
	env["REVERIFY_NO_CC_CACHE"] = "1"
	if h := hostCompiler(func(k string) string { return env[k] }); h.CacheDir != "" {
		t.Errorf("REVERIFY_NO_CC_CACHE set: cache dir %q", h.CacheDir)
	}
}
