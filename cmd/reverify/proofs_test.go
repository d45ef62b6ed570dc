package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
)

// treeWriter returns a function that writes a file of a proof tree
// under root (name relative, directories made).
func treeWriter(t *testing.T, root string) func(name, text string) {
	return func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProofs runs `reverify proofs --checks assertions` on a starter-kit tree: a
// harness in CBMC's dialect with one assertion that holds and one that
// fails because malloc may return NULL, the same harness with
// CBMC_FLAG_MALLOC_MAY_FAIL = --no-malloc-may-fail (both hold), and a
// proof whose source does not exist (reported, not run), and a proof
// with REMOVE_FUNCTION_BODY (a stub replaces one function, another is
// left without a body and pure).
func TestProofs(t *testing.T) {
	root := t.TempDir()
	write := treeWriter(t, root)
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
	code := run([]string{"proofs", "--config", "value", "--checks", "assertions", "--markdown", md, filepath.Join(root, "cbmc/proofs")}, &stdout, &stderr)
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
		"-- may_fail: 2 assertions, 1 TRUE, 1 FALSE, 0 UNKNOWN; 0 memory properties, 0 TRUE, 0 FALSE, 0 UNKNOWN; ",
		// CBMC's default checks are listed, none is checked
		"   not checked: --bounds-check, --pointer-check, --pointer-primitive-check, --div-by-zero-check, --signed-overflow-check, --undefined-shift-check, built-in-assertions\n",
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
	if code := run([]string{"proofs", "--config", "value", "--checks", "assertions", "--schedule", "sequential", filepath.Join(root, "cbmc/proofs")}, &seq, &stderr); code != 1 {
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

// TestProofsChecks runs `reverify proofs` with its default --checks
// makefile on a starter-kit tree whose Makefile.common collects CBMC's
// check flags as the starter kit's does: an off-by-one write in the
// project's function is FALSE at its own valid-deref site (confirmed,
// with its input); the same harness over a correct loop is TRUE at every
// site; with CBMC_FLAG_POINTER_CHECK = --no-pointer-check and
// CBMC_FLAG_BOUNDS_CHECK = --no-bounds-check no valid-deref site is
// checked (free's stays: CBMC's built-in preconditions), and
// --memory-leak-check turns valid-memcleanup on (FALSE: the harness
// frees one of its two blocks). The CBMC checks reverify cannot verify are listed
// exactly; --checks assertions checks no memory property and lists
// them all; a bad --checks value is a one-line usage error.
func TestProofsChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("about 20 s (the memory properties of two proofs run to half their 20 s limit); the full tier runs it, and the fast tier has TestProofs (the command) and proofs.TestChecks (the check flags)")
	}
	root := t.TempDir()
	write := treeWriter(t, root)
	write("src/buf.c", `void fill(char *p, unsigned n) {
	for (unsigned i = 0; i <= n; i++)
		p[i] = 0;
}
void fill_ok(char *p, unsigned n) {
	for (unsigned i = 0; i < n; i++)
		p[i] = 0;
}
`)
	write("cbmc/proofs/Makefile.common", `SRCDIR ?= $(abspath ../../..)
PROOFDIR ?= $(abspath .)
CBMC_FLAG_BOUNDS_CHECK ?= # set to --no-bounds-check to disable
CBMC_FLAG_POINTER_CHECK ?= #set to --no-pointer-check to disable
CBMC_FLAG_UNSIGNED_OVERFLOW_CHECK ?= --unsigned-overflow-check
CHECKFLAGS += $(CBMC_FLAG_BOUNDS_CHECK)
CHECKFLAGS += $(CBMC_FLAG_POINTER_CHECK)
CHECKFLAGS += $(CBMC_FLAG_UNSIGNED_OVERFLOW_CHECK)
`)
	harness := func(fn string) string {
		return `#include <stdlib.h>
void ` + fn + `(char *p, unsigned n);
void harness(void) {
	unsigned n = nondet_unsigned();
	__CPROVER_assume(n > 0 && n < 8);
	char *p = malloc(n);
	if (p) {
		` + fn + `(p, n);
		__CPROVER_assert(p[0] == 0, "zeroed");
		free(p);
	}
}
`
	}
	makefile := func(flags string) string {
		return "HARNESS_ENTRY = harness\n" + flags + "PROOF_SOURCES += $(PROOFDIR)/harness.c\nPROJECT_SOURCES += $(SRCDIR)/src/buf.c\ninclude ../Makefile.common\n"
	}
	write("cbmc/proofs/offbyone/harness.c", harness("fill"))
	write("cbmc/proofs/offbyone/Makefile", makefile(""))
	write("cbmc/proofs/correct/harness.c", harness("fill_ok"))
	write("cbmc/proofs/correct/Makefile", makefile(""))
	// q is freed, p leaks (CBMC's --memory-leak-check fails)
	write("cbmc/proofs/nocheck/harness.c", `#include <stdlib.h>
void fill_ok(char *p, unsigned n);
void harness(void) {
	char *p = malloc(4);
	char *q = malloc(4);
	if (p)
		fill_ok(p, 4);
	__CPROVER_assert(p == NULL || p[3] == 0, "zeroed");
	free(q);
}
`)
	write("cbmc/proofs/nocheck/Makefile", makefile("CBMC_FLAG_POINTER_CHECK = --no-pointer-check\nCBMC_FLAG_BOUNDS_CHECK = --no-bounds-check\nCBMCFLAGS += --memory-leak-check\n"))
	dir := filepath.Join(root, "cbmc/proofs")
	var stdout, stderr bytes.Buffer
	md := filepath.Join(root, "table.md")
	code := run([]string{"proofs", "--config", "default", "--timeout", "20s", "--markdown", md, dir}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Errorf("exit %d, want 1 (a FALSE verdict)\n%s%s", code, out, stderr.String())
	}
	section := func(name string) string {
		_, s, _ := strings.Cut(out, "== "+name+" ")
		s, _, _ = strings.Cut(s, "\n-- ")
		return s
	}
	partial := "--bounds-check (arrays inside an object), --pointer-check (same object of pointer relations and differences), "
	others := "--pointer-primitive-check, --div-by-zero-check, --signed-overflow-check, --undefined-shift-check, --unsigned-overflow-check, "
	builtin := "built-in-assertions (library preconditions but free's and the memory accessed)"
	for _, want := range []string{
		"FALSE       " + filepath.Join(root, "src/buf.c") + ":3:3  fill:valid-deref@buf.c:3:3  ",
		"TRUE        " + filepath.Join(root, "src/buf.c") + ":7:3  fill_ok:valid-deref@buf.c:7:3  ",
		"TRUE        " + filepath.Join(dir, "nocheck/harness.c") + ":9:2  harness:valid-free@harness.c:9:2  ",
		"FALSE       " + filepath.Join(dir, "nocheck/harness.c") + ":10:1  valid-memcleanup  ",
		"   checks: memory properties for CBMC's implicit checks: valid-deref, valid-free\n",
		"   checks: memory properties for CBMC's implicit checks: valid-free, valid-memcleanup\n",
		"   checks: valid-memcleanup also checks at exit and abort (no --memory-cleanup-check)\n",
		"-- offbyone: 1 assertions, 1 TRUE, 0 FALSE, 0 UNKNOWN; 3 memory properties, 2 TRUE, 1 FALSE, 0 UNKNOWN; ",
		"| correct | 1 | 1 | 0 | 0 |",
		"| 3 | 3 | 0 | 0 | " + partial + others + builtin + " |  |",
		"| 2 | 1 | 1 | 0 | " + others + builtin + " |  |",
		"assertions decided: 3 of 3 (100%); memory properties decided: 8 of 8 (100%)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, name := range []string{"offbyone", "correct", "nocheck"} {
		notChecked := "   not checked: " + partial + others + builtin + "\n"
		if name == "nocheck" {
			notChecked = "   not checked: " + others + builtin + "\n"
		}
		if s := section(name); strings.Count(s, notChecked) != 1 {
			t.Errorf("%s: not-checked line %q missing:\n%s", name, notChecked, s)
		}
	}
	if s := section("nocheck"); strings.Contains(s, "valid-deref") {
		t.Errorf("--no-pointer-check --no-bounds-check: valid-deref checked:\n%s", s)
	}
	for _, name := range []string{"offbyone", "nocheck"} {
		if s := section(name); !strings.Contains(s, "confirmed by SMT and concrete replay") {
			t.Errorf("%s: FALSE not confirmed:\n%s", name, s)
		}
	}
	if b, err := os.ReadFile(md); err != nil || !strings.Contains(string(b), "| offbyone | 1 | 1 | 0 | 0 |") || !strings.Contains(string(b), "| 3 | 2 | 1 | 0 | "+partial) {
		t.Errorf("markdown table: %v\n%s", err, b)
	}

	// --checks assertions: today's behaviour, every CBMC check listed
	var asserts bytes.Buffer
	if code := run([]string{"proofs", "--config", "default", "--timeout", "20s", "--checks", "assertions", "--run", "offbyone", dir}, &asserts, &stderr); code != 0 {
		t.Errorf("--checks assertions: exit %d, want 0\n%s", code, asserts.String())
	}
	for _, want := range []string{
		"   not checked: --bounds-check, --pointer-check, --pointer-primitive-check, --div-by-zero-check, --signed-overflow-check, --undefined-shift-check, --unsigned-overflow-check, built-in-assertions\n",
		"-- offbyone: 1 assertions, 1 TRUE, 0 FALSE, 0 UNKNOWN; 0 memory properties, 0 TRUE, 0 FALSE, 0 UNKNOWN; ",
	} {
		if !strings.Contains(asserts.String(), want) {
			t.Errorf("--checks assertions: output lacks %q:\n%s", want, asserts.String())
		}
	}

	stderr.Reset()
	if code := run([]string{"proofs", "--checks", "memory", dir}, &asserts, &stderr); code != 2 || stderr.String() != "reverify proofs: --checks: want makefile or assertions, not \"memory\"\n" {
		t.Errorf("--checks memory: exit %d, stderr %q; want 2 and one line", code, stderr.String())
	}
}

// TestProofsUnwindset: a proof Makefile's UNWINDSET, with the starter
// kit's $(shell echo $$((…))) arithmetic, reaches bounded model checking:
// at --unwind 1 the loop of 10 iterations is unrolled whole where
// UNWINDSET names it (TRUE), not where it does not (UNKNOWN: an
// unwinding assertion fails), nor where the bound is one short; and
// --unwindset adds an entry, winning over the Makefile's.
func TestProofsUnwindset(t *testing.T) {
	root := t.TempDir()
	write := treeWriter(t, root)
	write("src/sum.c", "int sum(const int *a) {\n\tint s = 0;\n\tfor (int i = 0; i < count(); i++) s += a[i];\n\treturn s;\n}\n")
	harness := "int count(void) { return 10; }\nint sum(const int *a);\nvoid harness(void) {\n\tint a[10];\n\tfor (int i = 0; i < 10; i++) a[i] = 1;\n\t__CPROVER_assert(sum(a) == 10, \"ten\");\n}\n"
	write("cbmc/proofs/Makefile.common", "SRCDIR ?= $(abspath ../../..)\nPROOFDIR ?= $(abspath .)\nMAX = 10\n")
	for name, unwindset := range map[string]string{
		"listed": "UNWINDSET += sum.0:$(shell echo $$(($(MAX) + 1))) harness.0:11\n",
		"short":  "UNWINDSET += sum.0:$(shell echo $$(( $(MAX) ))) harness.0:11\n",
		"absent": "UNWINDSET += harness.0:11\n",
	} {
		write("cbmc/proofs/"+name+"/harness.c", harness)
		write("cbmc/proofs/"+name+"/Makefile", "include ../Makefile.common\nHARNESS_ENTRY = harness\n"+unwindset+"PROOF_SOURCES += $(PROOFDIR)/harness.c\nPROJECT_SOURCES += $(SRCDIR)/src/sum.c\n")
	}
	proofs := func(extra ...string) string {
		var stdout, stderr bytes.Buffer
		args := append([]string{"proofs", "--config", "bmc", "--unwind", "1", "--checks", "assertions"}, extra...)
		if code := run(append(args, filepath.Join(root, "cbmc/proofs")), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	out := proofs()
	for _, want := range []string{"| absent | 1 | 0 | 0 | 1 |", "| listed | 1 | 1 | 0 | 0 |", "| short | 1 | 0 | 0 | 1 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "could not resolve") {
		t.Errorf("the Makefiles' UNWINDSET was not resolved:\n%s", out)
	}
	out = proofs("--unwindset", "sum.0:11")
	for _, want := range []string{"| absent | 1 | 1 | 0 | 0 |", "| short | 1 | 1 | 0 | 0 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("--unwindset sum.0:11: output lacks %q:\n%s", want, out)
		}
	}
}

// TestProofsCache runs `reverify proofs --cache` over a starter-kit tree
// of contract proofs as a pull request would, edit after edit: clamp is
// checked against its contract; user is checked against its own with
// clamp's contract in place of clamp's body (USE_FUNCTION_CONTRACTS);
// twice is a plain harness, whose call of clamp uses clamp's contract
// too (the default for a callee with one). A second run over the same
// tree verifies nothing; a comment edit verifies nothing; a change of
// clamp's body (its contract unchanged) re-verifies clamp's check only
// and keeps the verdicts of user and twice, which rest on the contract;
// a change of clamp's ensures clause re-verifies the properties that
// assume it. Every verdict stays what a run without the cache gives.
func TestProofsCache(t *testing.T) {
	root := t.TempDir()
	write := treeWriter(t, root)
	lib := func(body, ensures string) string {
		return `int clamp(int x)
__CPROVER_requires(x >= 0)
__CPROVER_ensures(` + ensures + `)
{
	` + body + `
}

int user(int x)
__CPROVER_requires(x >= 0)
__CPROVER_ensures(__CPROVER_return_value <= 20)
{
	return clamp(x) + clamp(x);
}
`
	}
	const ensures = "__CPROVER_return_value >= 0 && __CPROVER_return_value <= 10"
	write("src/lib.c", lib("return x > 10 ? 10 : x;", ensures))
	write("proofs/Makefile.common", "SRCDIR ?= $(abspath ../..)\nPROOFDIR ?= $(abspath .)\n")
	proof := func(name, harness, makefile string) {
		write("proofs/"+name+"/harness.c", harness)
		write("proofs/"+name+"/Makefile", "HARNESS_ENTRY = harness\n"+makefile+"PROOF_SOURCES += $(PROOFDIR)/harness.c\nPROJECT_SOURCES += $(SRCDIR)/src/lib.c\ninclude ../Makefile.common\n")
	}
	proof("clamp", "int clamp(int x);\nvoid harness(void) { int x; clamp(x); }\n", "CHECK_FUNCTION_CONTRACTS = clamp\n")
	proof("user", "int user(int x);\nvoid harness(void) { int x; user(x); }\n", "CHECK_FUNCTION_CONTRACTS = user\nUSE_FUNCTION_CONTRACTS = clamp\n")
	proof("twice", "int clamp(int x);\nvoid harness(void) {\n\tint x;\n\t__CPROVER_assume(x >= 0);\n\t__CPROVER_assert(clamp(x) <= 10, \"bounded\");\n}\n", "")
	cache := filepath.Join(root, "cache")
	run1 := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"proofs", "--config", "value", "--checks", "assertions"}, append(args, filepath.Join(root, "proofs"))...), &stdout, &stderr)
		if code != 0 {
			t.Fatalf("exit %d, want 0\n%s%s", code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	table := func(s string) string {
		_, t, _ := strings.Cut(s, "| proof |")
		t, _, _ = strings.Cut(t, "from the cache")
		return stripTimes(t)
	}
	step := func(what string, wantSummary string, wantProofs ...string) {
		t.Helper()
		out := run1("--cache", cache)
		if !strings.Contains(out, wantSummary) {
			t.Errorf("%s: summary lacks %q:\n%s", what, wantSummary, out)
		}
		for _, w := range wantProofs {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", what, w, out)
			}
		}
		if plain := run1(); table(plain) != table(out) {
			t.Errorf("%s: verdicts with the cache\n%s\nwant as without\n%s", what, table(out), table(plain))
		}
	}
	step("first run", "from the cache: 0 of 5 properties; proofs re-verified: 3 of 3",
		"| clamp | 1 | 1 | 0 | 0 |", "| twice | 2 | 2 | 0 | 0 |", "| user | 2 | 2 | 0 | 0 |")
	step("same tree", "from the cache: 5 of 5 properties; proofs re-verified: 0 of 3")
	write("src/lib.c", "/* clamps */\n"+lib("return x > 10 ? 10 : x; // saturate", ensures))
	step("comment edit", "from the cache: 5 of 5 properties; proofs re-verified: 0 of 3")
	write("src/lib.c", lib("if (x > 10)\n\t\treturn 10;\n\treturn x;", ensures))
	step("body change", "from the cache: 4 of 5 properties; proofs re-verified: 1 of 3",
		"== clamp  (entry harness", "   cache: 1 properties: 1 re-verified, 0 from the cache\n")
	write("src/lib.c", lib("if (x > 10)\n\t\treturn 10;\n\treturn x;", "__CPROVER_return_value >= 0 && __CPROVER_return_value <= 10 && __CPROVER_return_value <= x"))
	step("contract change", "from the cache: 0 of 5 properties; proofs re-verified: 3 of 3")
}

// TestProofsCacheBudget: an UNKNOWN that the proof's time limit ended is
// kept in the cache with that limit: a second run under the same limit
// reuses it (the proof is not re-tried on every run), a run under a
// larger --proof-timeout re-tries it.
func TestProofsCacheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs of a proof to its time limit")
	}
	root := t.TempDir()
	write := treeWriter(t, root)
	write("proofs/Makefile.common", "PROOFDIR ?= $(abspath .)\n")
	write("proofs/slow/harness.c", `void harness(void) {
	unsigned s = 0;
	for (unsigned i = 0; i < 1000000000u; i++)
		s += i & 1;
	__CPROVER_assert(s != 7, "never seven");
}
`)
	write("proofs/slow/Makefile", "HARNESS_ENTRY = harness\nPROOF_SOURCES += $(PROOFDIR)/harness.c\ninclude ../Makefile.common\n")
	cache := filepath.Join(root, "cache")
	run1 := func(limit, want string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		run([]string{"proofs", "--config", "value", "--checks", "assertions", "--max-states", "100000000", "--proof-timeout", limit, "--cache", cache, filepath.Join(root, "proofs")}, &stdout, &stderr)
		out := stdout.String()
		if !strings.Contains(out, want) || !strings.Contains(out, "| slow | 1 | 0 | 0 | 1 |") {
			t.Errorf("--proof-timeout %s: want %q and one UNKNOWN:\n%s%s", limit, want, out, stderr.String())
		}
	}
	run1("1s", "from the cache: 0 of 1 properties; proofs re-verified: 1 of 1")
	run1("1s", "from the cache: 1 of 1 properties; proofs re-verified: 0 of 1")
	run1("2s", "from the cache: 0 of 1 properties; proofs re-verified: 1 of 1")
}

// TestProofTimeoutCountsLoading: a proof's --proof-timeout counts from
// its start, so the time its sources take to read and translate comes
// out of it. With loading that takes the whole limit, the proof's one
// property (decided in milliseconds otherwise) is UNKNOWN at the limit;
// with the same loading under a larger limit it is TRUE.
func TestProofTimeoutCountsLoading(t *testing.T) {
	root := t.TempDir()
	write := treeWriter(t, root)
	write("proofs/Makefile.common", "PROOFDIR ?= $(abspath .)\n")
	write("proofs/quick/harness.c", "void harness(void) { int x = 3; __CPROVER_assert(x == 3, \"three\"); }\n")
	write("proofs/quick/Makefile", "HARNESS_ENTRY = harness\nPROOF_SOURCES += $(PROOFDIR)/harness.c\ninclude ../Makefile.common\n")
	defer func(l func(engine.SourceOptions, ...string) (*engine.Program, error)) { loadProof = l }(loadProof)
	loadProof = func(o engine.SourceOptions, files ...string) (*engine.Program, error) {
		time.Sleep(600 * time.Millisecond)
		return engine.Load(o, files...)
	}
	for _, tc := range []struct{ limit, want string }{
		{"500ms", "| quick | 1 | 0 | 0 | 1 |"},
		{"30s", "| quick | 1 | 1 | 0 | 0 |"},
	} {
		var stdout, stderr bytes.Buffer
		run([]string{"proofs", "--config", "value", "--checks", "assertions", "--proof-timeout", tc.limit, filepath.Join(root, "proofs")}, &stdout, &stderr)
		if !strings.Contains(stdout.String(), tc.want) {
			t.Errorf("--proof-timeout %s: want %q:\n%s%s", tc.limit, tc.want, stdout.String(), stderr.String())
		}
	}
}
