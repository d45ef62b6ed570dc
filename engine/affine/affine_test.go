package affine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/affine"
	"github.com/reverify/reverify/engine/frontend"
)

// equalities translates src and returns the equalities at main's loop
// heads in source order, one string per loop head ("a == b; c == d").
func equalities(t *testing.T, src string) []string {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: "extern int __VERIFIER_nondet_int(void);\n" + src}})
	if err != nil {
		t.Fatal(err)
	}
	f := prog.Func("main")
	eqs := affine.LoopEqualities(f)
	var out []string
	for _, l := range f.Locs {
		if xs, ok := eqs[l]; ok {
			var s []string
			for _, x := range xs {
				s = append(s, x.String())
			}
			slices.Sort(s)
			out = append(out, strings.Join(s, "; "))
		}
	}
	return out
}

// TestLoopEqualities: the equalities at the loop heads of programs
// whose proofs need them (SV-COMP's jm2006, hhk2008, bhmr2007 and
// cggmp2005_variant), with what must not be among them.
func TestLoopEqualities(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"jm2006", `int main(void) {
	int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
	int x = i, y = j;
	while (x != 0) { x--; y--; }
	return y;
}`, []string{"(i + y) == (j + x)"}},
		{"hhk2008", `int main(void) {
	int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
	int res = a, cnt = b;
	while (cnt > 0) { cnt = cnt - 1; res = res + 1; }
	return res;
}`, []string{"(res + cnt) == (a + b)"}},
		// both branches add 3 to a + b: the join keeps a + b == 3·i
		{"bhmr2007", `int main(void) {
	int n = __VERIFIER_nondet_int(), i = 0, a = 0, b = 0;
	while (i < n) {
		if (__VERIFIER_nondet_int()) { a = a + 1; b = b + 2; } else { a = a + 2; b = b + 1; }
		i++;
	}
	return a + b;
}`, []string{"(a + b) == (3 * i)"}},
		{"cggmp2005_variant", `int main(void) {
	int lo = 0, mid = __VERIFIER_nondet_int(), hi;
	hi = 2 * mid;
	while (mid > 0) { lo = lo + 1; hi = hi - 1; mid = mid - 1; }
	return lo - hi;
}`, []string{"hi == (lo + (2 * mid))"}},
		// the second loop's head is reached only after the first loop's
		// head has grown: its hull must grow too (k == i at the first)
		{"sequence", `int main(void) {
	int n = __VERIFIER_nondet_int(), i = 0, k = 0;
	while (i < n) { i++; k++; }
	int j = 0;
	while (j < n) { j++; k--; }
	return k;
}`, []string{"k == i", "(k + j) == i"}},
		// a call may write any global: g == x does not survive f()
		{"call", `int g;
void f(void);
int main(void) {
	int x = 0, y = 0;
	g = 0;
	while (__VERIFIER_nondet_int()) { x = x + 1; y = y + 1; g = g + 1; f(); }
	return x;
}`, []string{"y == x"}},
		// a product of variables is not affine: y is arbitrary after it
		{"product", `int main(void) {
	int x = 0, y = 0;
	while (__VERIFIER_nondet_int()) { x = x + 1; y = x * x; }
	return y;
}`, nil},
		// a constant that no iteration changes
		{"constant", `int main(void) {
	int k = 5, x = 0;
	while (__VERIFIER_nondet_int()) { x = x + k; }
	return x;
}`, []string{"k == 5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := equalities(t, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("equalities %q, want %q", got, c.want)
			}
		})
	}
}

// TestWorkLimit: a loop that increments 10 variables independently
// many times exceeds the work bound and gets no equalities, while the
// same loop with a short body keeps d == c.
func TestWorkLimit(t *testing.T) {
	gen := func(rounds int) string {
		var b strings.Builder
		b.WriteString("int main(void) {\n\tint c = 0, d = 0;\n")
		for i := range 10 {
			fmt.Fprintf(&b, "\tint x%d = 0;\n", i)
		}
		b.WriteString("\twhile (__VERIFIER_nondet_int()) {\n\t\tc = c + 1;\n\t\td = d + 1;\n")
		for range rounds {
			for i := range 10 {
				fmt.Fprintf(&b, "\t\tif (c > x%d) x%d = x%d + 1;\n", i, i, i)
			}
		}
		b.WriteString("\t}\n\treturn c;\n}\n")
		return b.String()
	}
	if got := equalities(t, gen(1)); !slices.Equal(got, []string{"d == c"}) {
		t.Errorf("short body: %q, want [d == c]", got)
	}
	if got := equalities(t, gen(100)); got != nil {
		t.Errorf("long body: %q, want none (work bound)", got)
	}
}
