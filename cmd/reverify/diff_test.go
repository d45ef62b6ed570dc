package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// diffRepo builds a git repository with a base and a head commit.
func diffRepo(t *testing.T, base, head map[string]string) (dir, b, h string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir = t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(files map[string]string) string {
		for p, c := range files {
			full := filepath.Join(dir, p)
			os.MkdirAll(filepath.Dir(full), 0o755)
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", "c")
		return git("rev-parse", "HEAD")
	}
	git("init", "-q", "-b", "main")
	return dir, commit(base), commit(head)
}

const diffMain = `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
#define LIMIT 10

int clamp(int x) {
  if (x > LIMIT)
    return LIMIT;
  return x;
}

int unrelated(int y) { return y * 3; }

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
  return unrelated(1);
}
`

// TestDiffAndIncrementalCheck runs `reverify diff` and `reverify check
// --base` on a repository whose head breaks one assertion.
func TestDiffAndIncrementalCheck(t *testing.T) {
	base := map[string]string{"src/m.c": diffMain, ".reverify.yml": "sources: [src/*.c]\nconfig: value\ntimeout: 30s\n"}
	head := map[string]string{"src/m.c": strings.Replace(diffMain, "    return LIMIT;", "    return LIMIT + 1;", 1)}
	dir, b, h := diffRepo(t, base, head)
	cache := filepath.Join(t.TempDir(), "cache")

	// Fill the cache from the base (head = base: nothing changed, every
	// property misses the empty cache).
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--repo", dir, "--base", b, "--head", b, "--cache", cache}, &stdout, &stderr); code != 0 {
		t.Fatalf("base check: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "2 properties: 2 re-verified, 0 from the cache") {
		t.Errorf("base check output:\n%s", stdout.String())
	}

	stdout.Reset()
	stderr.Reset()
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if code := run([]string{"diff", "--repo", dir, "--base", b, "--head", h, "--cache", cache, "--json", planFile}, &stdout, &stderr); code != 0 {
		t.Fatalf("diff: exit %d\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"function clamp changed (src/m.c:5-9)  [diff src/m.c:7]",
		"2 properties: 1 re-verified, 1 from the cache",
		"RECHECK src/m.c:15:3  check_clamp:v<=LIMIT",
		"because `clamp` changed, 1 call away",
		"reuse   src/m.c:20:3  check_const:k==4  TRUE",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff output lacks %q:\n%s", want, out)
		}
	}
	if data, err := os.ReadFile(planFile); err != nil || !strings.Contains(string(data), `"reverify": 1`) {
		t.Errorf("plan JSON: %v\n%s", err, data)
	}

	stdout.Reset()
	stderr.Reset()
	outDir := t.TempDir()
	code := run([]string{"check", "--repo", dir, "--base", b, "--head", h, "--cache", cache, "--output", outDir}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("incremental check: exit %d, want 1 (a FALSE verdict)\n%s%s", code, stdout.String(), stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(outDir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]results.PropertyReport{}
	for _, p := range rep.Properties {
		got[p.ID] = p
	}
	c, k := got["check_clamp:v<=LIMIT"], got["check_const:k==4"]
	if c.Verdict != results.False || c.CacheHit || len(c.Reverified) == 0 || c.SliceHash == "" || c.Witness == "" {
		t.Errorf("check_clamp: %+v", c)
	}
	if k.Verdict != results.True || !k.CacheHit || len(k.Reverified) != 0 || k.SliceHash == "" {
		t.Errorf("check_const: %+v", k)
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "*.json")); len(entries) != 3 {
		t.Errorf("cache holds %d entries, want 3 (two base slices and the changed one)", len(entries))
	}
}

// TestDiffErrors checks one-line errors for bad revisions and configs.
func TestDiffErrors(t *testing.T) {
	base := map[string]string{"m.c": diffMain}
	dir, b, _ := diffRepo(t, base, map[string]string{".reverify.yml": "timeout: soon\n"})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "--repo", dir}, "no base revision"},
		{[]string{"diff", "--repo", dir, "--base", "nosuchrev"}, "nosuchrev: not a commit"},
		{[]string{"diff", "--repo", dir, "--base", b, "--head", "HEAD"}, `.reverify.yml at HEAD:1: timeout: invalid duration "soon"`},
		{[]string{"check", "--repo", dir, "x.c"}, "need --base"},
		{[]string{"check", "--base", b, "x.c"}, "not from arguments"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") > 0 {
			t.Errorf("%v: stderr %q, want one line containing %q", tt.args, stderr.String(), tt.want)
		}
	}
}
