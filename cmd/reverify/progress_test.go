package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// TestProgressModes: how progress shows in GitHub Actions, on a terminal
// and in a log.
func TestProgressModes(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if m := progressMode(&bytes.Buffer{}, env(map[string]string{"GITHUB_ACTIONS": "true"})); m != "action" {
		t.Errorf("GITHUB_ACTIONS=true: %s", m)
	}
	if m := progressMode(&bytes.Buffer{}, env(nil)); m != "plain" {
		t.Errorf("a buffer: %s", m)
	}
	f, err := os.CreateTemp(t.TempDir(), "log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if m := progressMode(f, env(nil)); m != "plain" {
		t.Errorf("a file: %s", m)
	}
}

// TestProgressBar: on a terminal, each property's line is printed when
// it is decided and a bar on stderr counts the verified ones, with the
// verdicts so far and the time left.
func TestProgressBar(t *testing.T) {
	var stdout, stderr bytes.Buffer
	p := newCheckProgress(&stdout, &stderr, "terminal", "", 2)
	prop := func(id string, line int) *engine.Property {
		return &engine.Property{ID: id, Pos: engine.Pos{File: "a.c", Line: line, Col: 3}}
	}
	p.result(&engine.Result{Property: prop("main:x>0", 4), Verdict: results.True, Seconds: 0.5}, true)
	if got := stdout.String(); !strings.HasPrefix(got, "TRUE        a.c:4:3  main:x>0  0.50s") {
		t.Errorf("stdout after the first result: %q", got)
	}
	if bar := stderr.String(); !strings.Contains(bar, "1 TRUE, 0 FALSE, 0 UNKNOWN") || !strings.Contains(bar, "1/2") ||
		!regexp.MustCompile(`\[\d+s:\d+s\]`).MatchString(bar) {
		t.Errorf("bar after the first result: %q; want the tally, 1/2 and [elapsed:left]", bar)
	}
	p.result(&engine.Result{Property: prop("main:y>0", 5), Verdict: results.Unknown, Reason: "timeout"}, true)
	p.result(&engine.Result{Property: prop("main:z>0", 6), Verdict: results.True}, false)
	p.finish()
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[1], "(timeout)") || !strings.HasSuffix(lines[2], "main:z>0  0.00s  0 states  [cached]") {
		t.Errorf("stdout %q: want 3 lines, the last one cached", stdout.String())
	}
}

// TestActionLogGroups: in GitHub Actions, a sharded run prints one line
// per property inside a ::group:: named after the shard, and the
// summary after it.
func TestActionLogGroups(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.c"), []byte(diffMain), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_ACTIONS", "true")
	props := 0
	for _, sh := range []string{"1/2", "2/2"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--base-dir", dir, "--head-dir", dir, "--sources", "*.c", "--cache", t.TempDir(),
			"--config", "value", "--shard", sh}, &stdout, &stderr)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		n := len(lines) - 3
		props += n
		if n < 0 || lines[0] != fmt.Sprintf("::group::shard %s, entry main: %d properties, %d to verify", sh, n, n) ||
			lines[n+1] != "::endgroup::" || !strings.HasPrefix(lines[n+2], "diffslice: ") {
			t.Errorf("shard %s log:\n%s", sh, stdout.String())
			continue
		}
		for _, l := range lines[1 : n+1] {
			if !strings.HasPrefix(l, "TRUE ") {
				t.Errorf("shard %s: property line %q", sh, l)
			}
		}
	}
	if props != 2 {
		t.Errorf("%d property lines in the two shards, want 2", props)
	}
}

// TestTimeoutReasonInCheck: check records the timeout as a cause and
// prints it as a sentence with how far the analysis got.
func TestTimeoutReasonInCheck(t *testing.T) {
	src := filepath.Join(t.TempDir(), "loop.c")
	if err := os.WriteFile(src, []byte(`#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, s = 0;
  while (i < n) { i++; s += 2; }
  assert(s == 2 * i);
  return 0;
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := checkJSON(t, src, "--config", "value", "--timeout", "200ms")
	if len(rep.Properties) != 1 || rep.Properties[0].Cause == nil || rep.Properties[0].Cause.Kind != results.CauseTimeout || rep.Properties[0].Cause.Limit != "200ms" ||
		!strings.HasPrefix(rep.Properties[0].Reason, "timeout after 200ms (") || !strings.HasSuffix(rep.Properties[0].Reason, " states)") {
		t.Errorf("results.json: %+v", rep.Properties)
	}
}
