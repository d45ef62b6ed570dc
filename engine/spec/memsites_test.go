package spec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/spec"
)

// TestMemorySites lists the per-site memory properties of a program:
// accesses through pointers and array subscripts (read, written, in a
// condition: the two branch edges are one site), library calls that
// access memory, frees; none for plain variables, address computations
// or nondet calls; sites of a function the entry never calls are not
// reachable; valid-memtrack is whole-program and last.
func TestMemorySites(t *testing.T) {
	src := `#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
struct s { int a[4]; int n; };
int g[4];
void unused(int *p) { *p = 1; }
int main(void) {
	int x = __VERIFIER_nondet_int();
	struct s v;
	v.n = x;
	int *q = &g[1];
	char *p = malloc(8);
	if (!p) return 0;
	if (p[0] == 'a') x = 1;
	memset(p, 0, 8);
	v.a[2] = *q + g[x & 3];
	free(p);
	return v.n;
}`
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "dir/t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range spec.MemorySites(prog, "main", spec.MemSafetySubs) {
		got = append(got, fmt.Sprintf("%s %v %d", p.ID, p.Reachable, len(p.Sites)))
	}
	want := []string{
		"unused:valid-deref@t.c:6:23 false 1",
		"main:valid-deref@t.c:14:6 true 2",
		"main:valid-deref@t.c:15:2 true 1",
		"main:valid-deref@t.c:16:2 true 1",
		"main:valid-free@t.c:17:2 true 1",
		"valid-memtrack true 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("MemorySites:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
