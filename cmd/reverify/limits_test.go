package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadLimits: limits that cannot mean what they say are rejected with
// one line naming the flag and its value, exit code 2, before any
// verification (they were accepted silently).
func TestBadLimits(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.c")
	os.WriteFile(src, []byte("#include <assert.h>\nint main(void) { int x = 1; assert(x == 1); return 0; }\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", src, "--timeout", "0s"}, "reverify check: --timeout 0s: the time limit must be positive"},
		{[]string{"check", src, "--timeout", "-1s"}, "reverify check: --timeout -1s: the time limit must be positive"},
		{[]string{"check", src, "--max-states", "-5"}, "reverify check: --max-states -5: must not be negative"},
		{[]string{"check", src, "--time-budget", "-2s"}, "reverify check: --time-budget -2s: must not be negative"},
		{[]string{"check", src, "--memory", "0"}, `reverify check: --memory: bad size "0"`},
		{[]string{"check", src, "--memory", "-1GiB"}, `reverify check: --memory: bad size "-1GiB"`},
		{[]string{"diff", "--base", "HEAD", "--timeout", "0s"}, "reverify diff: --timeout 0s: the time limit must be positive"},
		{[]string{"diff", "--base", "HEAD", "--max-states", "-1"}, "reverify diff: --max-states -1: must not be negative"},
		{[]string{"validate", src, "--witness", "w.yml", "--timeout", "-3s"}, "reverify validate: --timeout -3s: the time limit must be positive"},
		{[]string{"bench", src, "--jobs", "0"}, "reverify bench: --jobs must be at least 1"},
		{[]string{"bench", src, "--timeout", "0s"}, "reverify bench: --timeout must be positive"},
		{[]string{"bench", src, "--memory", "0"}, `reverify bench: --memory: bad size "0"`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit code %d, want 2", tt.args, code)
		}
		if got := strings.TrimSpace(stderr.String()); !strings.HasPrefix(got, tt.want) || strings.Contains(got, "\n") {
			t.Errorf("%v: stderr %q, want one line starting %q", tt.args, got, tt.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", src, "--timeout", "30s", "--max-states", "0", "--memory", "512MiB"}, &stdout, &stderr); code != 0 {
		t.Errorf("valid limits: exit code %d; stderr %s", code, stderr.String())
	}
}

// TestEntryParamAssertion: an assertion on main's argc is verified, not
// dropped as "no assertion found".
func TestEntryParamAssertion(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "argc.c")
	os.WriteFile(src, []byte("#include <assert.h>\nint main(int argc, char **argv) { assert(argc == 5); return 0; }\n"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", src}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit code %d, want 1; stdout %s stderr %s", code, stdout.String(), stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "FALSE") || !strings.Contains(stdout.String(), "input param argc = ") || strings.Contains(stderr.String(), "no assertion") {
		t.Errorf("stdout %q, stderr %q: want FALSE with the input argc", stdout.String(), stderr.String())
	}
}
