package pdg_test

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

// These tests are written in C. Every line whose source must be in the
// slice of the program's property has a comment "// slice"; the slice's lines
// (Slice.Lines) must be exactly those. A program holds one property (an
// assertion site found by engine/spec) unless the test names it.

func translate(t testing.TB, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("check: %v", err)
	}
	return p
}

// sliceOf slices the property with the given ID (the only one when id is
// empty).
func sliceOf(t testing.TB, g *pdg.SDG, p *cfa.Program, id string) *pdg.Slice {
	t.Helper()
	props := spec.Properties(p, "main")
	var prop *spec.Property
	for _, pr := range props {
		if id == "" && len(props) == 1 || pr.ID == id {
			prop = pr
		}
	}
	if prop == nil {
		var ids []string
		for _, pr := range props {
			ids = append(ids, pr.ID)
		}
		t.Fatalf("property %q not among %q", id, ids)
	}
	if prop.Via != nil {
		return g.SliceVia(prop.Via, prop.ErrorEdges)
	}
	return g.Slice(prop.ErrorEdges)
}

func wantLines(src string) []int {
	var out []int
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "// slice") {
			out = append(out, i+1)
		}
	}
	return out
}

const prelude = `extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
`

// The wrappers of SV-COMP, spread over lines that the tests mark.
const assertDef = `void __VERIFIER_assert(int cond) {
  if (!cond) { // slice
    reach_error(); // slice
    abort();
  }
}
`

const assumeDef = `void assume_abort_if_not(int cond) {
  if (!cond) // slice
    abort();
}
`

var cTests = []struct {
	name, prop, src string
}{{
	name: "running example (seed 000, figure 1)",
	src: `int main() {
  int x = __VERIFIER_nondet_int(); // slice
  int y = 1; // slice
  int w = __VERIFIER_nondet_int();
  while (x > 0) // slice
    x--; // slice
  w = w * 2;
  if (x < 0 && y < 0) // slice
    reach_error(); // slice
  else
    while (y < w)
      y++;
  return 0;
}
`}, {
	name: "global written in a callee",
	src: `int g;
int h;
void set(void) {
  g = 1; // slice
  h = 2;
}
int main() {
  g = 0;
  set(); // slice
  if (g != 1) // slice
    reach_error(); // slice
  return h;
}
`}, {
	name: "value returned through a pointer parameter",
	src: `void get(int *p, int *q) {
  *p = 42; // slice
  *q = 7;
}
int main() {
  int x, y; // slice: *p = 42 may not write x (a weak update)
  get(&x, &y); // slice
  if (x != 42) // slice
    reach_error(); // slice
  return y;
}
`}, {
	name: "recursion",
	src: `int fact(int n) {
  if (n <= 1) // slice
    return 1; // slice
  return n * fact(n - 1); // slice
}
int main() {
  int k = 5; // slice
  int z = 9;
  if (fact(k) != 120) // slice
    reach_error(); // slice
  return z;
}
`}, {
	name: "assertion wrapper: the second assertion needs the first to pass",
	prop: "main:y>0",
	src: assertDef + `int main() {
  int x = __VERIFIER_nondet_int(); // slice
  int y = __VERIFIER_nondet_int(); // slice
  int z = __VERIFIER_nondet_int();
  __VERIFIER_assert(x > 0); // slice
  __VERIFIER_assert(y > 0); // slice
  return z;
}
`}, {
	name: "assertion wrapper: the first assertion does not need the second",
	prop: "main:x>0",
	src: assertDef + `int main() {
  int x = __VERIFIER_nondet_int(); // slice
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assert(x > 0); // slice
  __VERIFIER_assert(y > 0);
  return 0;
}
`}, {
	name: "assume_abort_if_not restricts the input",
	src: assumeDef + `int main() {
  int x = __VERIFIER_nondet_int(); // slice
  int y = __VERIFIER_nondet_int();
  assume_abort_if_not(x < 10); // slice
  y = y + 1;
  if (x >= 20) // slice
    reach_error(); // slice
  return y;
}
`}, {
	name: "linked list on the heap",
	src: `struct node { int v; struct node *next; };
int main() {
  struct node *a = malloc(sizeof(struct node)); // slice
  struct node *b = malloc(sizeof(struct node)); // slice: fields are collapsed
  int k = __VERIFIER_nondet_int();
  a->v = 1; // slice
  b->v = k;
  a->next = b; // slice: writes *a
  if (a->v != 1) // slice
    reach_error(); // slice
  return 0;
}
`}, {
	name: "arrays",
	src: assumeDef + `int main() {
  int a[10]; // slice: a[i] = 5 is a weak update
  int i = __VERIFIER_nondet_int(); // slice
  int j = 0;
  assume_abort_if_not(i >= 0 && i < 10); // slice
  a[i] = 5; // slice
  j = j + 1;
  if (a[i] != 5) // slice
    reach_error(); // slice
  return j;
}
`}, {
	name: "loop with break",
	src: `int main() {
  int n = __VERIFIER_nondet_int(); // slice
  int s = 0; // slice
  int c = 0;
  for (int i = 0; i < n; i++) { // slice
    if (i == 5) // slice
      break;
    s = s + i; // slice
    c++;
  }
  if (s > 10) // slice
    reach_error(); // slice
  return c;
}
`}}

func TestCSlices(t *testing.T) { testCSlices(t, false) }

// With every interface collapsed, the slices still hold the expected lines.
func TestCSlicesCollapsed(t *testing.T) {
	defer pdg.SetRestLimit(0)()
	testCSlices(t, true)
}

func testCSlices(t *testing.T, superset bool) {
	for _, tc := range cTests {
		t.Run(tc.name, func(t *testing.T) {
			src := prelude + tc.src
			p := translate(t, src)
			g := pdg.Build(p)
			s := sliceOf(t, g, p, tc.prop)
			got := s.Lines()["t.c"]
			want := wantLines(src)
			if superset {
				want = slices.DeleteFunc(want, func(l int) bool { return slices.Contains(got, l) })
				got = nil
			}
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

func hashOf(t *testing.T, src string) string {
	t.Helper()
	p := translate(t, src)
	g := pdg.Build(p)
	return sliceOf(t, g, p, "").Hash("LP64", "main")
}

// The slice hash of a C program survives edits outside the slice and
// changes with edits inside it.
func TestCSliceHash(t *testing.T) {
	const base = `typedef int T;
int unrelated(int a) { return a * 3; }
int main() {
  T x = 1;
  x *= 2;
  int w = __VERIFIER_nondet_int();
  int u = unrelated(w);
  assume_abort_if_not(w < 100);
  if (x + w < 102) reach_error();
  return u;
}
`
	h := hashOf(t, prelude+assumeDef+base)
	same := map[string]string{
		"white space":                strings.NewReplacer("x *= 2;", "x   *=\t2 ;", "if (x + w < 102)", "if(x+w<102)").Replace(base),
		"comments":                   strings.NewReplacer("x *= 2;", "x *= 2; /* double */", "T x = 1;", "// start\n  T x = /* one */ 1;").Replace(base),
		"lines shifted down":         "\n\n\n" + base,
		"unrelated function changed": strings.Replace(base, "a * 3", "a * 4 + 1", 1),
		"unrelated function added":   strings.Replace(base, "int main", "int other(void) { return 7; }\nint main", 1),
		"irrelevant statement":       strings.Replace(base, "  x *= 2;\n", "  x *= 2;\n  int z = 5;\n", 1),
	}
	for name, src := range same {
		if got := hashOf(t, prelude+assumeDef+src); got != h {
			t.Errorf("%s: hash changed", name)
		}
	}
	differ := map[string]string{
		"statements swapped":           strings.Replace(base, "  T x = 1;\n  x *= 2;\n", "  T x;\n  x *= 2;\n  x = 1;\n", 1),
		"typedef width":                strings.Replace(base, "typedef int T;", "typedef long T;", 1),
		"constant changed":             strings.Replace(base, "x *= 2;", "x *= 3;", 1),
		"assertion changed":            strings.Replace(base, "< 102", "< 103", 1),
		"assume_abort_if_not weakened": strings.Replace(base, "w < 100", "w < 1000", 1),
	}
	for name, src := range differ {
		if got := hashOf(t, prelude+assumeDef+src); got == h {
			t.Errorf("%s: hash did not change", name)
		}
	}
}

// WriteC's programs compile and keep exactly the relevant operations.
func TestCWriteC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("no gcc")
	}
	for _, tc := range cTests {
		t.Run(tc.name, func(t *testing.T) {
			src := prelude + tc.src
			p := translate(t, src)
			g := pdg.Build(p)
			s := sliceOf(t, g, p, tc.prop)
			var b strings.Builder
			if err := s.WriteC(&b, map[string]string{"t.c": src}); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(gcc, "-fsyntax-only", "-w", "-x", "c", "-")
			cmd.Stdin = strings.NewReader(b.String())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("gcc: %v\n%s\n%s", err, out, b.String())
			}
			// The sliced program's slice has the same lines.
			q := translate(t, b.String())
			s2 := sliceOf(t, pdg.Build(q), q, tc.prop)
			if got, want := s2.Lines()["t.c"], s.Lines()["t.c"]; !slices.Equal(got, want) {
				t.Errorf("slice of the sliced program: lines %v, want %v\n%s", got, want, b.String())
			}
			if testing.Verbose() {
				t.Logf("\n%s", b.String())
			}
		})
	}
}

// assert.h's __FILE__ and __LINE__ do not enter the slice hash.
func TestCSliceHashAssertH(t *testing.T) {
	const src = `extern void __assert_fail(const char *, const char *, unsigned int, const char *);
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 5) x = 5;
  assert(x <= 5);
  return 0;
}
`
	h := hashOf(t, src)
	if got := hashOf(t, strings.Replace(src, "int main", "\n\n// moved\nint main", 1)); got != h {
		t.Error("moving the assertion down changed its slice hash")
	}
	if got := hashOf(t, strings.Replace(src, "x <= 5", "x <= 6", 1)); got == h {
		t.Error("changing the assertion kept its slice hash")
	}
}
