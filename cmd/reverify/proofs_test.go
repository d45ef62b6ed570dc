package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestProofs runs `reverify proofs` on a starter-kit tree: a
// harness in CBMC's dialect with one assertion that holds and one that
// fails because malloc may return NULL, the same harness with
// CBMC_FLAG_MALLOC_MAY_FAIL = --no-malloc-may-fail (both hold), and a
// proof whose source does not exist (reported, not run), and a proof
// with REMOVE_FUNCTION_BODY (a stub replaces one function, another is
// left without a body and pure).
func TestProofs(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/buf.c", `#include <stdlib.h>
char *buf_new(unsigned n) {
	char *p = malloc(n);
	if (p && n > 0)
		p[0] = 7;
	return p;
}
`)
	harness := `#include <stdlib.h>
char *buf_new(unsigned n);
void harness(void) {
	unsigned n = nondet_unsigned();
	__CPROVER_assume(n > 0 && n < 8);
	char *p = buf_new(n);
	__CPROVER_assert(p != NULL, "allocated");
	if (p)
		__CPROVER_assert(p[0] == 7, "first byte");
}
`
	write("cbmc/proofs/Makefile.common", "SRCDIR ?= $(abspath ../../..)\nPROOFDIR ?= $(abspath .)\n")
	write("cbmc/proofs/may_fail/harness.c", harness)
	write("cbmc/proofs/may_fail/Makefile", "HARNESS_ENTRY = harness\nPROOF_SOURCES += $(PROOFDIR)/harness.c\nPROJECT_SOURCES += $(SRCDIR)/src/buf.c\ninclude ../Makefile.common\n")
	write("cbmc/proofs/never_fails/harness.c", harness)
	write("cbmc/proofs/never_fails/Makefile", "HARNESS_ENTRY = harness\nCBMC_FLAG_MALLOC_MAY_FAIL = --no-malloc-may-fail\nPROOF_SOURCES += $(PROOFDIR)/harness.c\nPROJECT_SOURCES += $(SRCDIR)/src/buf.c\ninclude ../Makefile.common\n")
	write("cbmc/proofs/broken/Makefile", "HARNESS_ENTRY = harness\nPROOF_SOURCES += $(PROOFDIR)/gone.c\ninclude ../Makefile.common\n")
	// REMOVE_FUNCTION_BODY: the project's lib_get is replaced by the
	// proof's stub (7, not 5); lib_touch, removed without a stub, writes
	// nothing (CBMC's meaning), so g stays 1
	write("src/lib.c", "int g;\nint lib_get(void) { return 5; }\nvoid lib_touch(void) { g = 2; }\n")
	write("cbmc/proofs/removed/stub.c", "int lib_get(void) { return 7; }\n")
	write("cbmc/proofs/removed/harness.c", `extern int g;
int lib_get(void);
void lib_touch(void);
void harness(void) {
	__CPROVER_assert(lib_get() == 7, "stub");
	g = 1;
	lib_touch();
	__CPROVER_assert(g == 1, "untouched");
}
`)
	write("cbmc/proofs/removed/Makefile", "HARNESS_ENTRY = harness\nREMOVE_FUNCTION_BODY += lib_get lib_touch\nPROOF_SOURCES += $(PROOFDIR)/harness.c $(PROOFDIR)/stub.c\nPROJECT_SOURCES += $(SRCDIR)/src/lib.c\ninclude ../Makefile.common\n")
	var stdout, stderr bytes.Buffer
	md := filepath.Join(root, "table.md")
	code := run([]string{"proofs", "--config", "value", "--markdown", md, filepath.Join(root, "cbmc/proofs")}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Errorf("exit %d, want 1 (a FALSE verdict)\n%s%s", code, out, stderr.String())
	}
	for _, want := range []string{
		"== may_fail  (entry harness",
		"FALSE       " + filepath.Join(root, "cbmc/proofs/may_fail/harness.c") + ":7:2  harness:allocated",
		"TRUE        " + filepath.Join(root, "cbmc/proofs/may_fail/harness.c") + ":9:3  harness:firstbyte",
		"TRUE        " + filepath.Join(root, "cbmc/proofs/never_fails/harness.c") + ":7:2  harness:allocated",
		"could not resolve PROOF_SOURCES: " + filepath.Join(root, "cbmc/proofs/broken/gone.c") + " does not exist",
		"| broken | 0 | 0 | 0 | 0 |",
		"| may_fail | 2 | 1 | 1 | 0 |",
		"| never_fails | 2 | 2 | 0 | 0 |",
		"| removed | 2 | 2 | 0 | 0 |",
		"REMOVE_FUNCTION_BODY: the project's bodies removed, the proof's stubs kept: lib_get",
		"REMOVE_FUNCTION_BODY: without a body, assumed pure (no side effects, any result, as CBMC): lib_touch",
		"properties decided: 6 of 6 (100%); proofs with every property decided: 3 of 4 (75%)",
		"-- may_fail: 2 properties, 1 TRUE, 1 FALSE, 0 UNKNOWN, ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "| may_fail | 2 | 1 | 1 | 0 |") {
		t.Errorf("markdown table: %v\n%s", err, b)
	}
	if code := run([]string{"proofs", root + "/nothing"}, &stdout, &stderr); code != 2 {
		t.Errorf("missing directory: exit %d, want 2", code)
	}
	// --schedule sequential (each property its --timeout in turn) gives
	// the same table; an unknown schedule is a usage error
	var seq bytes.Buffer
	if code := run([]string{"proofs", "--config", "value", "--schedule", "sequential", filepath.Join(root, "cbmc/proofs")}, &seq, &stderr); code != 1 {
		t.Errorf("--schedule sequential: exit %d, want 1\n%s", code, seq.String())
	}
	table := func(s string) string { _, t, _ := strings.Cut(s, "| proof |"); return t }
	if a, b := table(out), table(seq.String()); a == "" || stripTimes(a) != stripTimes(b) {
		t.Errorf("--schedule sequential: table\n%s\nwant as with rounds\n%s", b, a)
	}
	stderr.Reset()
	if code := run([]string{"proofs", "--schedule", "soon", filepath.Join(root, "cbmc/proofs")}, &seq, &stderr); code != 2 || !strings.Contains(stderr.String(), "--schedule") {
		t.Errorf("--schedule soon: exit %d, want 2 naming the flag (%s)", code, stderr.String())
	}
}

// timeColumn matches the time column of the proofs table.
var timeColumn = regexp.MustCompile(`\| [0-9]+\.[0-9] \|`)

// stripTimes removes the times of the proofs table.
func stripTimes(s string) string { return timeColumn.ReplaceAllString(s, "| |") }
