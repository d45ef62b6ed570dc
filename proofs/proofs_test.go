package proofs

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// writeArchive writes the files of a txtar archive (a comment, then
// sections "-- name --") under dir and returns the comment.
func writeArchive(t *testing.T, data, dir string) {
	t.Helper()
	var name string
	var b strings.Builder
	flush := func() {
		if name == "" {
			return
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		l := strings.TrimRight(line, "\n")
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(l, " --") && len(l) > 6 {
			flush()
			name = strings.TrimSpace(l[3 : len(l)-3])
			b.Reset()
			continue
		}
		b.WriteString(line)
	}
	flush()
}

// show prints a proof with paths relative to root.
func show(p *Proof, root string) string {
	rel := func(s string) string { return strings.ReplaceAll(s, root, "$ROOT") }
	var b strings.Builder
	fmt.Fprintf(&b, "proof %s\n  dir %s\n  entry %s\n  harness %s\n", p.Name, rel(p.Dir), p.Entry, rel(p.HarnessFile))
	project := map[string]bool{}
	for _, s := range p.ProjectSources {
		project[s] = true
	}
	for _, s := range p.Sources {
		if project[s] {
			fmt.Fprintf(&b, "  source %s (project)\n", rel(s))
		} else {
			fmt.Fprintf(&b, "  source %s\n", rel(s))
		}
	}
	var names []string
	for n := range p.Defines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  define %s=%s\n", n, p.Defines[n])
	}
	for _, d := range p.Includes {
		fmt.Fprintf(&b, "  include %s\n", rel(d))
	}
	fmt.Fprintf(&b, "  unwindset %v\n  remove-function-body %q\n  malloc-may-fail %v\n", p.Unwindset, p.RemoveFunctionBody, p.MallocMayFail)
	subs, notChecked, note := MemoryChecks(p.Checks)
	fmt.Fprintf(&b, "  checks %q\n  memory %q\n  not checked %q\n  memory note %q\n", p.Checks, subs, notChecked, note)
	for _, u := range p.Unresolved {
		fmt.Fprintf(&b, "  unresolved %s\n", rel(u))
	}
	return b.String()
}

// TestStarterKit reads the fake proof tree of testdata/starterkit.txtar
// and compares every proof, resolved, with starterkit.golden (-update
// rewrites it).
func TestStarterKit(t *testing.T) {
	data, err := os.ReadFile("testdata/starterkit.txtar")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeArchive(t, string(data), root)
	ps, err := Find(filepath.Join(root, "project/cbmc/proofs"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(show(p, root))
	}
	got := b.String()
	golden := "testdata/starterkit.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestReadErrors: a directory without a Makefile, and a Makefile without
// HARNESS_ENTRY or with an unbalanced conditional, are errors.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir); err == nil {
		t.Error("no Makefile: no error")
	}
	for _, mk := range []string{"X = 1\n", "HARNESS_ENTRY = h\nifeq (a,a)\n", "HARNESS_ENTRY = h\nendif\n"} {
		if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
			t.Fatal(err)
		}
		if p, err := Read(dir); err == nil {
			t.Errorf("%q: no error (%+v)", mk, p)
		}
	}
}

// TestExpand covers the make functions the reader evaluates.
func TestExpand(t *testing.T) {
	m := newMakefile("/p/q")
	m.assign("A", "=", "x.c y.c z.h")
	m.assign("B", ":=", "$(A:.c=.o)")
	m.assign("C", "=", "$(B)")
	m.assign("A", "+=", "w.c")
	for _, c := range []struct{ in, want string }{
		{"$(A)", "x.c y.c z.h w.c"},
		{"$(B)", "x.o y.o z.h"},
		{"$(patsubst %.c,%.o,$(A))", "x.o y.o z.h w.o"},
		{"$(filter %.c,$(A))", "x.c y.c w.c"},
		{"$(filter-out %.c,$(A))", "z.h"},
		{"$(abspath ../r/./s)", "/p/r/s"},
		{"$(dir /a/b/c.c d.c)", "/a/b/ ./"},
		{"$(notdir /a/b/c.c)", "c.c"},
		{"$(addprefix -I,a b)", "-Ia -Ib"},
		{"$(subst .c,.i,$(A))", "x.i y.i z.h w.i"},
		{"$(strip  a   b )", "a b"},
		{"$$(x)", "$(x)"},
		{"${A}", "x.c y.c z.h w.c"},
	} {
		if got := m.expand(c.in, "T"); got != c.want {
			t.Errorf("%s = %q, want %q", c.in, got, c.want)
		}
	}
	if len(m.unresolved) != 0 {
		t.Errorf("unresolved: %v", m.unresolved)
	}
	if got := m.expand("a$(shell ls)b$(UNDEF)", "T"); got != "ab" {
		t.Errorf("got %q", got)
	}
	if !m.unresolved["T: $(shell …) not evaluated"] || !m.unresolved["T: $(UNDEF) is not defined"] {
		t.Errorf("unresolved: %v", m.unresolved)
	}
}

// TestChecks: CBMC 6's check flags as cbmc_parse_options.cpp and
// goto_check_c.h combine them, and what reverify checks for them.
func TestChecks(t *testing.T) {
	for _, c := range []struct {
		flags                    string
		checks, subs, notChecked string
		note                     string
	}{
		{"", "bounds-check pointer-check pointer-primitive-check div-by-zero-check signed-overflow-check undefined-shift-check built-in-assertions",
			"valid-deref valid-free", "--bounds-check (arrays inside an object), --pointer-check (same object of pointer relations and differences), --pointer-primitive-check, --div-by-zero-check, --signed-overflow-check, --undefined-shift-check, built-in-assertions (library preconditions but free's and the memory accessed)", ""},
		// --no-X wins whatever the order; --X after --no-standard-checks
		{"--no-bounds-check --bounds-check --no-standard-checks --pointer-check --memory-cleanup-check --unwind 1",
			"pointer-check memory-cleanup-check built-in-assertions", "valid-deref valid-free valid-memcleanup",
			"--pointer-check (same object of pointer relations and differences), built-in-assertions (library preconditions but free's and the memory accessed)",
			"valid-deref also checks array bounds (--no-bounds-check)"},
		{"--no-pointer-check --float-div-by-zero-check --enum-range-check --no-built-in-assertions --no-signed-overflow-check",
			"bounds-check pointer-primitive-check div-by-zero-check undefined-shift-check float-div-by-zero-check enum-range-check",
			"valid-deref", "--bounds-check (arrays inside an object), --pointer-primitive-check, --div-by-zero-check, --undefined-shift-check, --float-div-by-zero-check, --enum-range-check",
			"valid-deref also checks pointers (--no-pointer-check)"},
		{"--no-standard-checks --no-built-in-assertions", "", "", "", ""},
	} {
		checks := cbmcChecks(strings.Fields(c.flags))
		subs, notChecked, note := MemoryChecks(checks)
		if got := strings.Join(checks, " "); got != c.checks {
			t.Errorf("%q: checks %q, want %q", c.flags, got, c.checks)
		}
		if got := strings.Join(subs, " "); got != c.subs {
			t.Errorf("%q: memory %q, want %q", c.flags, got, c.subs)
		}
		if got := strings.Join(notChecked, ", "); got != c.notChecked {
			t.Errorf("%q: not checked %q, want %q", c.flags, got, c.notChecked)
		}
		if note != c.note {
			t.Errorf("%q: note %q, want %q", c.flags, note, c.note)
		}
	}
}

// TestShellWordsQuotes: a backslash inside double quotes escapes a
// quote, as the shell reads mlkem-native's
// -DMLK_CONFIG_FILE="\"mlkem_native_config_cbmc.h\"".
func TestShellWordsQuotes(t *testing.T) {
	got := shellWords(`-DA="\"x.h\"" -DB=2 -D'C=a b' -DD="\$e"`)
	want := []string{`-DA="x.h"`, "-DB=2", "-DC=a b", "-DD=$e"}
	if len(got) != len(want) {
		t.Fatalf("shellWords = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("word %d = %q, want %q", i, got[i], want[i])
		}
	}
}
