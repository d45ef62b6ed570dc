package main

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCheckFunctions: --functions keeps the properties of the functions
// its globs match, with an entry function and in library mode; a bad
// glob, --base and an SV-COMP property are one-line errors (exit 2).
func TestCheckFunctions(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.c")
	lib := filepath.Join(dir, "lib.c")
	os.WriteFile(prog, []byte(`#include <assert.h>
int g = 1;
void parse_len(void) { assert(g != 7); }
void parse_tag(void) { assert(g != 9); }
void crc(void) { assert(g != 3); }
int main(void) { parse_len(); parse_tag(); crc(); return 0; }
`), 0o644)
	os.WriteFile(lib, []byte(`#include <assert.h>
int api_a(int n) { assert(n != 7); return n; }
int api_b(int n) { assert(n != 8); return n; }
`), 0o644)
	ids := func(args ...string) []string {
		out := filepath.Join(t.TempDir(), "out")
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"check", "--output", out}, args...), &stdout, &stderr); code > 1 {
			t.Fatalf("check %v: exit %d: %s", args, code, stderr.String())
		}
		var got []string
		for _, p := range readReport(t, filepath.Join(out, "results.json")).Properties {
			got = append(got, p.ID[:strings.Index(p.ID, ":")]+" "+string(p.Verdict))
		}
		sort.Strings(got)
		return got
	}
	if got, want := strings.Join(ids(prog, "--functions", "parse_*"), ", "), "parse_len TRUE, parse_tag TRUE"; got != want {
		t.Errorf("--functions parse_*: %s, want %s", got, want)
	}
	if got, want := strings.Join(ids(prog, "--functions", "crc, parse_tag"), ", "), "crc TRUE, parse_tag TRUE"; got != want {
		t.Errorf("--functions crc,parse_tag: %s, want %s", got, want)
	}
	if got, want := strings.Join(ids(lib, "--functions", "api_b"), ", "), "api_b FALSE"; got != want {
		t.Errorf("library mode --functions api_b: %s, want %s", got, want)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", prog, "--functions", "parse_["}, `invalid value "parse_[" for flag -functions`},
		{[]string{"check", "--base", "HEAD", "--functions", "f"}, "--functions selects properties of the files given"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
