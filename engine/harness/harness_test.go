package harness_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/harness"
)

var update = flag.Bool("update", false, "rewrite testdata/contexts.golden")

// attach translates testdata/lib.c with its contexts attached.
func attach(t *testing.T) (*harness.Attached, []harness.File) {
	t.Helper()
	var files []harness.File
	for _, n := range []string{"lib.c", "lib.h"} {
		b, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, harness.File{Name: n, Content: string(b)})
	}
	load := func(fs []harness.File) (*cfa.Program, error) {
		var srcs []frontend.Source
		for _, f := range fs {
			srcs = append(srcs, frontend.Source{Name: f.Name, Content: f.Content})
		}
		return frontend.TranslateSources(frontend.Options{}, srcs)
	}
	prog, err := load(files)
	if err != nil {
		t.Fatal(err)
	}
	a, err := harness.Attach(prog, files[:1], harness.Options{}, nil, func(fs []harness.File) (*cfa.Program, error) { return load(append(fs, files[1])) })
	if err != nil {
		t.Fatal(err)
	}
	return a, files
}

// TestContexts compares every context of testdata/lib.c (its text, its
// assumptions, or why it has none) with testdata/contexts.golden
// (-update rewrites it), and checks the shapes that matter: a (pointer,
// length) pair sized together, the capacity field setting the buffer's
// size, the length parameter not overwritten, a string NUL-terminated, a
// function pointer among the address-taken functions of its type, the
// never-written global left alone, a written global of a header given
// its value by the unit that includes it, a callback field of a type no
// function has a function without a body, a struct by value and a K&R
// definition refused.
func TestContexts(t *testing.T) {
	a, _ := attach(t)
	var names []string
	for n := range a.Contexts {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		c := a.Contexts[n]
		fmt.Fprintf(&b, "== %s\n", n)
		if c.Limitation != "" {
			fmt.Fprintf(&b, "limitation: %s\n\n", c.Limitation)
			continue
		}
		b.WriteString(c.Text)
		for _, s := range c.Assumptions {
			fmt.Fprintf(&b, "assume: %s\n", s)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "== globals\n%s\n", strings.Join(a.Globals["lib.c"], "\n"))
	got := b.String()
	golden := filepath.Join("testdata", "contexts.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("contexts differ from %s (go test -update to accept):\n%s", golden, got)
	}
	text := func(f string) string { return a.Contexts[f].Text }
	for _, c := range []struct{ fn, want string }{
		{"sum", "n = __reverify_length();\n\txs = malloc(sizeof(*xs) * n);"},
		{"push", "__reverify_set((*b).capacity, __reverify_length());\n\t\t__reverify_set((*b).data, __VERIFIER_nondet_int() ? 0 : malloc(sizeof(*(*b).data) * (*b).capacity));"},
		{"length", "[__rv_n1] = 0;"},
		{"search", "cmp = by_value;"},
		{"first", "int (*v);"},
		{"transmit", "extern __typeof__(*((*t).send)) __rv_callback_transmit_1;\n\t\t__reverify_set((*t).send, __rv_callback_transmit_1);"},
		{"label", "__reverify_set((*s).len, __reverify_length());"},
	} {
		if !strings.Contains(text(c.fn), c.want) {
			t.Errorf("context of %s lacks %q:\n%s", c.fn, c.want, text(c.fn))
		}
	}
	if strings.Count(text("sum"), "n = ") != 1 {
		t.Errorf("the length parameter of sum is set more than once:\n%s", text("sum"))
	}
	for _, fn := range []string{"by_struct", "knr"} {
		if a.Contexts[fn].Limitation == "" {
			t.Errorf("%s has a context, want a limitation:\n%s", fn, text(fn))
		}
	}
	if g := a.Texts["lib.c"]; strings.Contains(g, "limit = __VERIFIER") || !strings.Contains(g, "calls = __VERIFIER") || !strings.Contains(g, "mode = __VERIFIER") || !strings.Contains(g, "lib_hits = __VERIFIER") {
		t.Errorf("globals: want calls, mode and the header's lib_hits arbitrary and limit untouched:\n%s", g)
	}
}

// TestContextsCompileWithGCC compiles the attached file with gcc, with
// ReproducerMacro defined as a reproducer defines it: a context is C that a
// reproducer links with the program, also where it fills const members
// (label's struct).
func TestContextsCompileWithGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	a, _ := attach(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(src, []byte(a.Texts["lib.c"]), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("gcc", "-fsyntax-only", "-D"+harness.ReproducerMacro, "-Werror=implicit-function-declaration", "-iquote", "testdata", src).CombinedOutput()
	if err != nil {
		t.Fatalf("gcc rejects the contexts: %v\n%s", err, out)
	}
}
