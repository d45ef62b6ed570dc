package pdg_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/pdg"
)

// externTests: a call of a function without a body may write every
// global, every object whose address escaped (at this or an earlier call,
// or through a global) and everything reachable from its arguments
// (DESIGN.md, "What the program does not contain"), so the call is in the
// slice of an assertion reading such an object.
var externTests = []struct{ name, src string }{{
	name: "global written by an external function",
	src: `int g;
void ext(void);
int main() {
  g = 0; // slice: ext may leave g unchanged (a weak update)
  ext(); // slice
  if (g != 0) // slice
    reach_error(); // slice
  return 0;
}
`}, {
	name: "local whose address escaped at an earlier call",
	src: `void ext_keep(int *p);
void ext_later(void);
int main() {
  int v; // slice
  ext_keep(&v); // slice
  v = 0; // slice
  ext_later(); // slice
  if (v != 0) // slice
    reach_error(); // slice
  return 0;
}
`}, {
	name: "local whose address is stored in a global",
	src: `int *gp;
void ext(void);
int main() {
  int local = 0; // slice
  gp = &local; // slice
  ext(); // slice
  if (local != 0) // slice
    reach_error(); // slice
  return 0;
}
`}, {
	name: "static global written through an escaped pointer",
	src: `static int s; // slice: ext_keep may read it
void ext_keep(int *p);
void ext_later(void);
int main() {
  ext_keep(&s); // slice
  s = 0; // slice
  ext_later(); // slice
  if (s != 0) // slice
    reach_error(); // slice
  return 0;
}
`}, {
	name: "a local whose address never escapes is not written",
	src: `int g;
void ext(void);
int main() {
  int x = 1; // slice
  ext();
  g = 2;
  if (x != 1) // slice
    reach_error(); // slice
  return 0;
}
`}}

func TestExternSlices(t *testing.T) {
	for _, tc := range externTests {
		t.Run(tc.name, func(t *testing.T) {
			src := prelude + tc.src
			p := translate(t, src)
			g := pdg.Build(p)
			got := sliceOf(t, g, p, "").Lines()["t.c"]
			want := wantLines(src)
			if !slices.Equal(got, want) {
				var b strings.Builder
				for i, l := range strings.Split(src, "\n") {
					mark := "  "
					if slices.Contains(got, i+1) {
						mark = "> "
					}
					fmt.Fprintf(&b, "%s%3d %s\n", mark, i+1, l)
				}
				t.Errorf("slice lines %v, want %v\n%s", got, want, b.String())
			}
		})
	}
}

// The slice hash follows the PDG: it changes when a call of an unmodelled
// function that may write what the assertion reads is removed or
// reordered, and when the function is declared pure (the call then
// leaves the slice); edits that touch nothing the call may write keep it.
func TestExternSliceHash(t *testing.T) {
	const base = `int g;
void ext_keep(int *p);
void ext_later(void);
int main() {
  int v;
  int u = 3;
  ext_keep(&v);
  v = 0;
  ext_later();
  u = u + 1;
  if (v != 0)
    reach_error();
  return u;
}
`
	h := hashOf(t, prelude+base)
	for name, src := range map[string]string{
		"later call removed":          strings.Replace(base, "  ext_later();\n", "", 1),
		"escape removed":              strings.Replace(base, "  ext_keep(&v);\n", "", 1),
		"later call before the write": strings.Replace(base, "  v = 0;\n  ext_later();\n", "  ext_later();\n  v = 0;\n", 1),
	} {
		if hashOf(t, prelude+src) == h {
			t.Errorf("%s: slice hash unchanged", name)
		}
	}
	if got := hashOf(t, prelude+strings.Replace(base, "u + 1", "u + 2", 1)); got != h {
		t.Errorf("edit to u (never escaped) changed the slice hash")
	}
	p := translate(t, prelude+base)
	p.AssumePure = map[string]bool{"ext_later": true}
	if sliceOf(t, pdg.Build(p), p, "").Hash("LP64", "main") == h {
		t.Errorf("declaring ext_later pure left the slice hash unchanged")
	}
}
