package contract

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestRewrite: the clauses after declarators are blanked with every
// newline kept, the loop clauses become declarations at the start of the
// body, and the contracts come back with their positions; golden file
// testdata/rewrite.golden (-update).
func TestRewrite(t *testing.T) {
	src := `#include "cbmc.h"
int f(int *x, int n) // the declarator
__CPROVER_requires(n > 0 && /* positive */ n < 10)
__CPROVER_assigns(*x)
__CPROVER_ensures(__CPROVER_return_value == n ==> *x == 0)
{
  for (int i = 0; i < n; i++)
  __loop__(invariant(0 <= i && i <= n)
           decreases(n - i))
  {
    x[0] = 0;
  }
  return n;
}
void g(char *p)
__contract__(requires(memory_no_alias(p, 4)) assigns(object_whole(p)));
`
	al := FindAliases(`#define __contract__(x) x
#define __loop__(x) x
#define requires(...) __CPROVER_requires(__VA_ARGS__)
#define assigns(...) __CPROVER_assigns(__VA_ARGS__)
#define invariant(...) __CPROVER_loop_invariant(__VA_ARGS__)
#define decreases(...) __CPROVER_decreases(__VA_ARGS__)
#define memory_no_alias(...) __CPROVER_is_fresh(__VA_ARGS__)
#define object_whole(...) __CPROVER_object_whole(__VA_ARGS__)
`)
	out, fns, err := Rewrite("a.c", src, al)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != strings.Count(src, "\n") {
		t.Errorf("the rewrite moved lines: %d newlines, want %d", strings.Count(out, "\n"), strings.Count(src, "\n"))
	}
	var b strings.Builder
	b.WriteString(out)
	b.WriteString("----\n")
	for _, f := range fns {
		b.WriteString(f.Name + " (" + f.Params + ") returns " + retType(f.Ret) + " at line " + itoa(f.Line))
		if f.Def {
			b.WriteString(", a definition\n")
		} else {
			b.WriteString(", a declaration\n")
		}
		for _, c := range f.Clauses {
			b.WriteString("  " + c.Kind.String() + " at " + itoa(c.Line) + ":" + itoa(c.Col) + ": " + strings.Join(strings.Fields(c.Text), " ") + "\n")
		}
	}
	golden(t, "rewrite.golden", b.String())
}

// TestRewriteErrors: a clause anywhere else is an error naming it.
func TestRewriteErrors(t *testing.T) {
	for _, src := range []string{
		"int x = 1 __CPROVER_requires(1);",
		"void f(void) { do { } while (0) __CPROVER_loop_invariant(1); }",
		"void f(int n) { while (n) __CPROVER_loop_invariant(1) n--; }",
		"void f(int n) { while (n) __CPROVER_requires(1) { n--; } }",
	} {
		if _, _, err := Rewrite("e.c", src, Aliases{}); err == nil || !strings.HasPrefix(err.Error(), "e.c:1:") {
			t.Errorf("%q: error %v, want one at e.c:1", src, err)
		}
	}
}

// TestImplies: CBMC's ==> as C, weaker than && and ||, right-associative,
// bounded by brackets and commas.
func TestImplies(t *testing.T) {
	for in, want := range map[string]string{
		"a ==> b":                  "(!(a) || (b))",
		"a && b ==> c || d":        "(!(a && b) || (c || d))",
		"f(a ==> b, c)":            "f((!(a) || (b)), c)",
		"a ==> b ==> c":            "(!(a) || ((!(b) || (c))))",
		"(x > 0 ==> y == 1) && z":  "((!(x > 0) || (y == 1))) && z",
		"no implication here == 1": "no implication here == 1",
	} {
		if got := Implies(in); got != want {
			t.Errorf("Implies(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestParams: parameters as local declarations (arrays as pointers,
// const dropped) and their names.
func TestParams(t *testing.T) {
	ps, err := params("const uint8_t *a, int16_t r[256], size_t n, int (*cb)(int), struct s *const p")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.name+"="+strings.Join(strings.Fields(p.decl), " "))
	}
	want := "a=uint8_t *a|r=int16_t (*r)|n=size_t n|cb=int (*cb)(int)|p=struct s * p"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("params = %s", g)
	}
	if _, err := params("int n, ..."); err == nil {
		t.Error("a variadic function has no contract context")
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs:\n%s", name, got)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// FuzzRewrite: Rewrite never panics, and what it returns keeps every
// line where it was.
func FuzzRewrite(f *testing.F) {
	f.Add("int f(int x) __CPROVER_requires(x > 0) { while (x) __CPROVER_loop_invariant(x >= 0) { x--; } return x; }")
	f.Add("void g(char *p) __contract__(requires(p) assigns());")
	f.Add("#define requires(...) __CPROVER_requires(__VA_ARGS__)\nint h(void) requires(1) { return 0; }")
	f.Fuzz(func(t *testing.T, src string) {
		out, _, err := Rewrite("f.c", src, FindAliases(src))
		if err == nil && strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Errorf("lines moved: %q → %q", src, out)
		}
	})
}
