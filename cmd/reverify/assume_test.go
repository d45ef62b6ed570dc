package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// TestCheckAssumePure: --assume-pure makes the declared functions write
// nothing (the property becomes TRUE) and results.json lists the
// assumption on every property; a bad name is bad input.
func TestCheckAssumePure(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "p.c")
	os.WriteFile(src, []byte(`#include <assert.h>
int g;
void log_msg(int level);
int main(void) {
  g = 0;
  log_msg(1);
  assert(g == 0);
  return 0;
}
`), 0o644)
	for _, tc := range []struct {
		flags       []string
		verdict     results.Verdict
		assumptions string
	}{
		{nil, results.Unknown, ""},
		{[]string{"--assume-pure", "log_msg, trace"}, results.True, "pure log_msg"},
	} {
		js := filepath.Join(dir, "r.json")
		var stdout, stderr bytes.Buffer
		args := append([]string{"check", src, "--config", "value", "--json", js}, tc.flags...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit code %d; stderr:\n%s", tc.flags, code, stderr.String())
		}
		data, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		var rep results.Report
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Properties) != 1 {
			t.Fatalf("%v: %d properties, want 1", tc.flags, len(rep.Properties))
		}
		p := rep.Properties[0]
		if p.Verdict != tc.verdict || strings.Join(p.Assumptions, ",") != tc.assumptions {
			t.Errorf("%v: %s (%s), assumptions %q; want %s, %q", tc.flags, p.Verdict, p.Reason, p.Assumptions, tc.verdict, tc.assumptions)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", src, "--assume-pure", "log-msg"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `"log-msg" is not a C identifier`) {
		t.Errorf("bad name: exit code %d, stderr %q; want 2 and a message", code, stderr.String())
	}
}
