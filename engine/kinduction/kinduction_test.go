package kinduction_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/kinduction"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/timeslice"
)

const header = `extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { reach_error(); abort(); } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
`

// check runs Check on the SV-COMP property of src: no call of
// reach_error is reachable.
func check(t testing.TB, src string, opts kinduction.Options) kinduction.Result {
	t.Helper()
	return checkCtx(t, context.Background(), src, opts)
}

func checkCtx(t testing.TB, ctx context.Context, src string, opts kinduction.Options) kinduction.Result {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: header + src}})
	if err != nil {
		t.Fatal(err)
	}
	opts.Entry, opts.Solver = "main", z3.Factory
	opts.ErrorEdges = property.ErrorCalls(prog, "reach_error")
	return kinduction.Check(ctx, prog, opts)
}

// milestones counts the milestones reported to it (timeslice.Milestones).
type milestones struct{ n *int }

func (milestones) Wait(context.Context) {}
func (m milestones) Milestone()         { *m.n++ }

// TestMilestone: k-induction reports its milestone once, when k = 1
// with its invariants decided nothing, and not when it proves at k = 1.
func TestMilestone(t *testing.T) {
	for _, c := range []struct {
		name string
		opts kinduction.Options
		want int
	}{
		{"proved at k=1", kinduction.Options{MaxK: 3}, 0},
		{"undecided up to k=3", kinduction.Options{NoInvariants: true, MaxK: 3}, 1},
	} {
		n := 0
		checkCtx(t, timeslice.With(context.Background(), milestones{&n}), lockstep, c.opts)
		if n != c.want {
			t.Errorf("%s: %d milestones, want %d", c.name, n, c.want)
		}
	}
}

// lockstep needs the invariant x == y at the loop head: plain k-induction
// fails at every k (from x != y the loop may run k times and then exit),
// and the candidate x == y (the assertion's argument) is inductive.
const lockstep = `int main(void) {
	unsigned int x = 0;
	unsigned int y = 0;
	while (__VERIFIER_nondet_int()) { x++; y++; }
	__VERIFIER_assert(x == y);
	return 0;
}`

func TestInvariants(t *testing.T) {
	plain := check(t, lockstep, kinduction.Options{NoInvariants: true, MaxK: 3})
	if plain.Status != kinduction.Unknown || len(plain.Invariants) != 0 {
		t.Errorf("without invariants: %v at k=%d (%s) %v, want UNKNOWN", plain.Status, plain.K, plain.Reason, plain.Invariants)
	}
	strong := check(t, lockstep, kinduction.Options{MaxK: 3})
	if strong.Status != kinduction.True || strong.K != 1 {
		t.Fatalf("with invariants: %v at k=%d (%s), want TRUE at k=1", strong.Status, strong.K, strong.Reason)
	}
	if got := strings.Join(strong.Invariants, "; "); !strings.Contains(got, "x == y") {
		t.Errorf("invariants %q do not contain x == y", got)
	}
}

// TestNotInductive: x counts up without bound under a nondeterministic
// loop condition and the assertion holds only for the first 100
// iterations; the step never holds and the base case would need k=101,
// beyond MaxK: UNKNOWN with the reason, never TRUE.
func TestNotInductive(t *testing.T) {
	r := check(t, `int main(void) {
	int x = 0;
	while (__VERIFIER_nondet_int()) { x++; __VERIFIER_assert(x <= 100); }
	return 0;
}`, kinduction.Options{MaxK: 4})
	if r.Status != kinduction.Unknown || r.Reason != "step case not inductive up to k=4" {
		t.Errorf("got %v (%s), want UNKNOWN: step case not inductive up to k=4", r.Status, r.Reason)
	}
}

// TestPathLimit: more paths than MaxPaths is UNKNOWN with that reason.
func TestPathLimit(t *testing.T) {
	r := check(t, `int main(void) {
	int x = 0;
	while (__VERIFIER_nondet_int()) {
		if (__VERIFIER_nondet_int()) x++;
		if (__VERIFIER_nondet_int()) x--;
		__VERIFIER_assert(x < 1000);
	}
	return 0;
}`, kinduction.Options{MaxPaths: 10})
	if r.Status != kinduction.Unknown || !strings.Contains(r.Reason, "more than 10 paths") {
		t.Errorf("got %v (%s), want UNKNOWN naming the path limit", r.Status, r.Reason)
	}
}

// TestCounterexample: FALSE carries a path ending in the error call.
func TestCounterexample(t *testing.T) {
	r := check(t, `int main(void) {
	unsigned int i = 0;
	while (i < 5) { i++; }
	__VERIFIER_assert(i != 5);
	return 0;
}`, kinduction.Options{})
	if r.Status != kinduction.False || r.K != 6 {
		t.Fatalf("got %v at k=%d (%s), want FALSE at k=6", r.Status, r.K, r.Reason)
	}
	last := r.Path[len(r.Path)-1]
	if c, ok := last.Edge.Op.(*cfa.Call); !ok || c.Fn != "reach_error" {
		t.Errorf("path ends with %v, want the reach_error call", last.Edge)
	}
}

// BenchmarkCounting is one k-induction run on the counting loop of
// engine/testdata/verdicts/kind_counting.c (proved at k=1).
func BenchmarkCounting(b *testing.B) {
	src := `int main(void) {
	unsigned int n = __VERIFIER_nondet_uint();
	unsigned int x = 0;
	unsigned int y = n;
	while (y > 0) { x++; y--; __VERIFIER_assert(x + y == n); }
	return 0;
}`
	for i := 0; i < b.N; i++ {
		if r := check(b, src, kinduction.Options{}); r.Status != kinduction.True {
			b.Fatalf("%v: %s", r.Status, r.Reason)
		}
	}
}

// BenchmarkLocks is one k-induction run on SV-COMP's test_locks_N shape
// with N = 4 flags (1-inductive; 2^4 paths per iteration).
func BenchmarkLocks(b *testing.B) {
	var src strings.Builder
	src.WriteString("int main(void) {\n")
	const n = 4
	for i := 0; i < n; i++ {
		fmt.Fprintf(&src, "int p%d = __VERIFIER_nondet_int(); int lk%d;\n", i, i)
	}
	src.WriteString("while (__VERIFIER_nondet_int()) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&src, "lk%d = 0;\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&src, "if (p%d != 0) lk%d = 1;\n", i, i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&src, "if (p%d != 0) { __VERIFIER_assert(lk%d == 1); lk%d = 0; }\n", i, i, i)
	}
	src.WriteString("}\nreturn 0;\n}\n")
	for i := 0; i < b.N; i++ {
		if r := check(b, src.String(), kinduction.Options{}); r.Status != kinduction.True {
			b.Fatalf("%v: %s", r.Status, r.Reason)
		}
	}
}

// TestAffineInvariants: x - y == i - j (SV-COMP's jm2006) is no
// comparison of the program; the affine equality at the loop head
// (engine/affine) is the candidate that makes the step hold.
func TestAffineInvariants(t *testing.T) {
	const src = `int main(void) {
	int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
	int x = i, y = j;
	while (x != 0) { x--; y--; }
	if (i == j) __VERIFIER_assert(y == 0);
	return 0;
}`
	provedWith(t, src, "(i + y) == (j + x)")
}

// TestSignInvariants: j - i <= 2n needs i >= 0 (else 3 * i may wrap),
// which the program never compares; the sign candidate of the signed
// counter i is kept by the Houdini search and makes the step hold.
func TestSignInvariants(t *testing.T) {
	r := check(t, `int main(void) {
	int n = __VERIFIER_nondet_int();
	if (!(0 < n && n < 1000)) return 0;
	for (int i = 0; i < n; i++)
		for (int j = 2 * i; j < 3 * i; j++)
			__VERIFIER_assert(j - i <= 2 * n);
	return 0;
}`, kinduction.Options{MaxK: 3})
	if r.Status != kinduction.True {
		t.Fatalf("%v (%s), want TRUE", r.Status, r.Reason)
	}
	if got := strings.Join(r.Invariants, "; "); !strings.Contains(got, "i >= 0") {
		t.Errorf("invariants %q do not contain i >= 0", got)
	}
}

// TestUnreadPointer: main's argv (char **) is outside the scalar scope,
// but a variable no operation reads cannot change a path's feasibility:
// unread, the program is in scope and proved; read (its address
// compared), the same loop is UNKNOWN with the scope reason, never TRUE
// (argv may be NULL when a caller passes it so, and the assertion then
// fails).
func TestUnreadPointer(t *testing.T) {
	const loop = `
	unsigned int x = 0, y = 0;
	while (__VERIFIER_nondet_int()) { x++; y++; }
	__VERIFIER_assert(x == y);
	return 0;
}`
	r := check(t, "int main(int argc, char **argv) {"+loop, kinduction.Options{MaxK: 3})
	if r.Status != kinduction.True {
		t.Errorf("argv unread: %v (%s), want TRUE", r.Status, r.Reason)
	}
	r = check(t, "int main(int argc, char **argv) {\n\tif (argv == 0) reach_error();"+loop, kinduction.Options{MaxK: 3})
	if r.Status != kinduction.Unknown || !strings.Contains(r.Reason, "variable argv") || !strings.Contains(r.Reason, "is not a scalar integer") {
		t.Errorf("argv read: %v (%s), want UNKNOWN: argv is not a scalar integer", r.Status, r.Reason)
	}
}

// TestCongruenceInvariants: i == 1000000 after a loop that steps i by 2
// from 0 below 1000000 (SV-COMP's count_by_2) needs i % 2 == 0 beside
// i <= 1000000 (else i could step from 999999 past the bound); the
// counter's congruence is a candidate and the step holds at k = 1. A
// counter that starts odd gets i % 2 == 1 and the assertion fails.
func TestCongruenceInvariants(t *testing.T) {
	const src = `int main(void) {
	int i;
	for (i = START; i < 1000000; i += 2) ;
	__VERIFIER_assert(i == 1000000);
	return 0;
}`
	provedWith(t, strings.Replace(src, "START", "0", 1), "(i % 2) == 0")
	if r := check(t, strings.Replace(src, "START", "1", 1), kinduction.Options{MaxK: 3}); r.Status == kinduction.True {
		t.Errorf("odd start: %v (%s), want not TRUE (i ends at 1000001)", r.Status, r.Reason)
	}
}

// TestRelaxationInvariants: after a loop that sums 1..n (SV-COMP's
// gauss_sum), 2 * sum == n * (n + 1) follows from the invariant
// 2 * sum == (i - 1) * i and i <= n + 1, neither a comparison of the
// program: they are the postcondition with n relaxed to the counter's
// value at the exit (i - 1) and the guard i <= n relaxed by one. A
// postcondition off by one (n * (n - 1)) is not proved.
func TestRelaxationInvariants(t *testing.T) {
	const src = `int main(void) {
	int n = __VERIFIER_nondet_int();
	if (!(1 <= n && n <= 1000)) return 0;
	int sum = 0, i;
	for (i = 1; i <= n; i++) sum = sum + i;
	__VERIFIER_assert(2 * sum == n * (n OP 1));
	return 0;
}`
	provedWith(t, strings.Replace(src, "OP", "+", 1), "i <= (n + 1)", "(2 * sum) == ((i - 1) * ((i - 1) + 1))")
	if r := check(t, strings.Replace(src, "OP", "-", 1), kinduction.Options{MaxK: 3}); r.Status == kinduction.True {
		t.Errorf("n * (n - 1): %v (%s), want not TRUE", r.Status, r.Reason)
	}
}

// provedWith checks that src is UNKNOWN without candidate invariants and
// TRUE with them at MaxK 3, the kept invariants containing each of want.
func provedWith(t *testing.T, src string, want ...string) {
	t.Helper()
	if plain := check(t, src, kinduction.Options{NoInvariants: true, MaxK: 3}); plain.Status != kinduction.Unknown {
		t.Errorf("without invariants: %v (%s), want UNKNOWN", plain.Status, plain.Reason)
	}
	r := check(t, src, kinduction.Options{MaxK: 3})
	if r.Status != kinduction.True {
		t.Fatalf("with invariants: %v (%s), want TRUE", r.Status, r.Reason)
	}
	got := strings.Join(r.Invariants, "; ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("invariants %q do not contain %s", got, w)
		}
	}
}
