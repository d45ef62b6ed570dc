package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const memBugMain = `#include <assert.h>
#include <stdlib.h>
int main(void) {
	int k = 4;
	assert(k == 4);
	char *p = malloc(4);
	if (p == 0)
		return 0;
	p[4] = 1;
	free(p);
	return 0;
}
`

// TestCheckBaseMemory: check --base with --properties assertions,memory
// verifies the memory-safety properties (one per access site, and
// valid-memtrack) on every run, the second one too (the assertion is
// then a cache hit), and never caches them: the overflowing write is
// FALSE at its own site, the free TRUE.
func TestCheckBaseMemory(t *testing.T) {
	dir, b, h := diffRepo(t, map[string]string{"src/m.c": memBugMain, ".reverify.yml": "sources: [src/*.c]\nconfig: value\n"}, map[string]string{"README": "x\n"})
	cache := filepath.Join(t.TempDir(), "cache")
	memID, freeID := "main:valid-deref@m.c:9:2", "main:valid-free@m.c:10:2"
	for i := 1; i <= 2; i++ {
		var stdout, stderr bytes.Buffer
		js := filepath.Join(t.TempDir(), "r.json")
		code := run([]string{"check", "--repo", dir, "--base", b, "--head", h, "--cache", cache, "--properties", "assertions,memory", "--json", js}, &stdout, &stderr)
		if code != 1 {
			t.Fatalf("run %d: exit %d, want 1 (a FALSE)\n%s%s", i, code, stdout.String(), stderr.String())
		}
		got := map[string]string{}
		hit := map[string]bool{}
		for _, p := range readReport(t, js).Properties {
			got[p.ID] = string(p.Verdict) + " " + p.Violated
			hit[p.ID] = p.CacheHit
		}
		if got[memID] != "FALSE valid-deref" || hit[memID] {
			t.Errorf("run %d: %s: %q (cache hit %v), want FALSE valid-deref verified anew", i, memID, got[memID], hit[memID])
		}
		if got[freeID] != "TRUE " || got["valid-memtrack"] != "TRUE " {
			t.Errorf("run %d: %s: %q, valid-memtrack: %q; want TRUE (all: %v)", i, freeID, got[freeID], got["valid-memtrack"], got)
		}
		if !strings.HasPrefix(got["main:k==4"], "TRUE") || hit["main:k==4"] != (i == 2) {
			t.Errorf("run %d: main:k==4: %q (cache hit %v)", i, got["main:k==4"], hit["main:k==4"])
		}
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	for _, e := range entries {
		if data, _ := os.ReadFile(e); bytes.Contains(data, []byte("valid-")) {
			t.Errorf("the cache holds the memory-safety property: %s", e)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--repo", dir, "--base", b, "--head", h, "--properties", "memory"}, &stdout, &stderr); code != 2 {
		t.Errorf("--properties memory with --base: exit %d, want 2\n%s", code, stderr.String())
	}
}
