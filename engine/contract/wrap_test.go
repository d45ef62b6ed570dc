package contract

import (
	"strings"
	"testing"
)

// TestWrapRequires: the definition is renamed and followed by a wrapper
// that asserts the one conjunct named, under the clause's line, then
// calls the renamed body; the lines after it keep their numbers.
func TestWrapRequires(t *testing.T) {
	src := "int div_floor(int a, int b)\n__CPROVER_requires(b > 0 && a >= 0)\n{\n  return a / b;\n}\nint after;\n"
	got, err := WrapRequires("f.c", src, "div_floor", "requires clause of div_floor: b > 0")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"int __rv_real_div_floor(int a, int b)",
		"#line 2 \"f.c\"\n  __CPROVER_assert(b > 0, \"requires clause of div_floor: b > 0\");",
		"return __rv_real_div_floor(a, b);",
		"#line 5 \"f.c\"\n\nint after;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "a >= 0\")") {
		t.Errorf("asserts another conjunct:\n%s", got)
	}
	if _, err := WrapRequires("f.c", src, "div_floor", "requires clause of div_floor: b > 1"); err == nil {
		t.Error("a description of no conjunct: no error")
	}
}

// TestWrapRequiresDisjoint: two fresh objects that must not overlap are
// told apart in the compiled program by their address ranges, each of
// its is_fresh size.
func TestWrapRequiresDisjoint(t *testing.T) {
	src := "void add2(int *d, const int *s)\n__CPROVER_requires(__CPROVER_is_fresh(d, 2 * sizeof(int)) && __CPROVER_is_fresh(s, 8))\n{\n  d[0] += s[0];\n}\n"
	desc := disjointDesc("add2", "d", "s")
	if desc != "requires clause of add2: d and s do not overlap" {
		t.Fatalf("description %q", desc)
	}
	got, err := WrapRequires("f.c", src, "add2", desc)
	if err != nil {
		t.Fatal(err)
	}
	want := "#line 2 \"f.c\"\n  __CPROVER_assert(((__UINTPTR_TYPE__)(d) < (__UINTPTR_TYPE__)(s) && (__UINTPTR_TYPE__)(d) + (2 * sizeof(int)) <= (__UINTPTR_TYPE__)(s)) || ((__UINTPTR_TYPE__)(s) < (__UINTPTR_TYPE__)(d) && (__UINTPTR_TYPE__)(s) + (8) <= (__UINTPTR_TYPE__)(d)), \"requires clause of add2: d and s do not overlap\");"
	if !strings.Contains(got, want) {
		t.Errorf("no %q in\n%s", want, got)
	}
}
