package bmc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/bmc"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
)

const header = `extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!(cond)) { reach_error(); abort(); } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
`

func check(t testing.TB, src string, opts bmc.Options) bmc.Result {
	t.Helper()
	return checkCtx(context.Background(), t, src, opts)
}

func checkCtx(ctx context.Context, t testing.TB, src string, opts bmc.Options) bmc.Result {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: header + src}})
	if err != nil {
		t.Fatal(err)
	}
	opts.Entry, opts.Solver, opts.OneShot = "main", z3.Factory, z3.OneShotFactory
	opts.ErrorEdges = property.ErrorCalls(prog, "reach_error")
	return bmc.Check(ctx, prog, opts)
}

// strDecls declares the C library functions of the string cases.
const strDecls = `typedef unsigned long size_t;
int memcmp(const void *, const void *, size_t);
int strncmp(const char *, const char *, size_t);
size_t strlen(const char *);
void *calloc(size_t, size_t);
`

var statusName = map[bmc.Status]string{bmc.True: "TRUE", bmc.False: "FALSE", bmc.Unknown: "UNKNOWN"}

// The programs have known verdicts (// want).
var programs = []struct {
	name, want, src string
}{
	// a call through a pointer that may reach a bodiless function
	// returning a pointer (outside the encoding) is a proof where the
	// pointer is a function with a body: the step's own assumption
	// bounds the failure's guard
	{"call-pointer-extern-unreached-true", "TRUE", `
typedef void *(*alloc_fn)(unsigned long);
static char buf[16];
void *my_alloc(unsigned long n) { return n <= 16 ? buf : 0; }
void *ext_alloc(unsigned long n);
struct ops { alloc_fn alloc; };
struct ops default_ops = { my_alloc };
struct ops outside_ops = { ext_alloc };
int main(void) {
	struct ops *o = __VERIFIER_nondet_int() ? &default_ops : &default_ops;
	char *p = o->alloc(8);
	__VERIFIER_assert(p == buf); // want TRUE
	return 0;
}`},
	{"call-pointer-extern-reached-unknown", "UNKNOWN", `
typedef void *(*alloc_fn)(unsigned long);
static char buf[16];
void *my_alloc(unsigned long n) { return n <= 16 ? buf : 0; }
void *ext_alloc(unsigned long n);
struct ops { alloc_fn alloc; };
struct ops default_ops = { my_alloc };
struct ops outside_ops = { ext_alloc };
int main(void) {
	struct ops *o = __VERIFIER_nondet_int() ? &default_ops : &outside_ops;
	char *p = o->alloc(8);
	__VERIFIER_assert(p == buf); // want UNKNOWN: ext_alloc may return anything
	return 0;
}`},
	// string functions with a size that is not a constant, and through
	// a pointer to one of several objects (engine/smt: compareN,
	// readObject)
	{"memcmp-symbolic-size-true", "TRUE", strDecls + `
int main(void) {
	unsigned char a[8], c[8];
	for (int i = 0; i < 8; i++) { a[i] = __VERIFIER_nondet_uchar(); c[i] = a[i]; }
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 8);
	__VERIFIER_assert(memcmp(a, c, n) == 0); // want TRUE
	return 0;
}`},
	{"memcmp-symbolic-size-false", "FALSE", strDecls + `
int main(void) {
	unsigned char a[8], c[8];
	for (int i = 0; i < 8; i++) { a[i] = __VERIFIER_nondet_uchar(); c[i] = a[i]; }
	c[5] = a[5] + 1;
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 8);
	__VERIFIER_assert(memcmp(a, c, n) == 0); // want FALSE (n >= 6)
	return 0;
}`},
	{"memcmp-sign-false", "FALSE", strDecls + `
int main(void) {
	unsigned char a[4] = {1, 2, 3, 4}, c[4] = {1, 2, 9, 0};
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 4);
	__VERIFIER_assert(memcmp(a, c, n) >= 0); // want FALSE (n >= 3: 3 < 9)
	return 0;
}`},
	{"memcmp-beyond-unknown", "UNKNOWN", strDecls + `
int main(void) {
	unsigned char a[8], c[8];
	for (int i = 0; i < 8; i++) { a[i] = 7; c[i] = 7; }
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 9);
	__VERIFIER_assert(memcmp(a, c, n) == 0); // want UNKNOWN: n = 9 reads beyond both arrays
	return 0;
}`},
	{"strncmp-two-objects-true", "TRUE", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "abc" : "abd";
	unsigned n = __VERIFIER_nondet_uint();
	__VERIFIER_assume(n <= 2);
	__VERIFIER_assert(strncmp(s, "abx", n) == 0); // want TRUE
	return 0;
}`},
	{"strncmp-two-objects-false", "FALSE", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "abc" : "abd";
	__VERIFIER_assert(strncmp(s, "abc", __VERIFIER_nondet_uint()) == 0); // want FALSE
	return 0;
}`},
	{"strlen-two-objects-true", "TRUE", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "ab" : "xyz";
	__VERIFIER_assert(strlen(s) >= 2 && strlen(s) <= 3); // want TRUE
	return 0;
}`},
	// (T *)((uintptr_t)p & mask): p with every bit of the mask, NULL
	// with none (engine/smt maskedPointer); any other mask is outside the
	// encoding
	{"masked-pointer-true", "TRUE", `
typedef unsigned long long uintptr_t;
static uintptr_t mask_of(unsigned i, unsigned bound) { return i < bound ? ~(uintptr_t)0 : 0; }
int main(void) {
	unsigned char b[4] = {1, 2, 3, 4};
	unsigned char *p = b;
	unsigned i = __VERIFIER_nondet_uint();
	p = (unsigned char *)((uintptr_t)p & mask_of(i, 4));
	if (i < 4) __VERIFIER_assert(p == b && p[1] == 2); // want TRUE
	else __VERIFIER_assert(p == 0); // want TRUE
	return 0;
}`},
	{"masked-pointer-false", "FALSE", `
typedef unsigned long long uintptr_t;
static uintptr_t mask_of(unsigned i, unsigned bound) { return i < bound ? ~(uintptr_t)0 : 0; }
int main(void) {
	unsigned char b[4] = {1, 2, 3, 4};
	unsigned char *p = b;
	unsigned i = __VERIFIER_nondet_uint();
	p = (unsigned char *)((uintptr_t)p & mask_of(i, 4));
	__VERIFIER_assert(p != 0); // want FALSE (i >= 4)
	return 0;
}`},
	{"masked-pointer-other-mask-unknown", "UNKNOWN", `
typedef unsigned long long uintptr_t;
int main(void) {
	unsigned char b[4] = {1, 2, 3, 4};
	unsigned char *p = (unsigned char *)((uintptr_t)b & (uintptr_t)__VERIFIER_nondet_uint());
	__VERIFIER_assert(p == b || p == 0); // want UNKNOWN: a mask of some bits makes an address no object of the program has
	return 0;
}`},
	{"strlen-or-null-true", "TRUE", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "ab" : 0;
	if (s) __VERIFIER_assert(strlen(s) == 2); // want TRUE
	return 0;
}`},
	{"strlen-null-unknown", "UNKNOWN", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "ab" : 0;
	__VERIFIER_assert(strlen(s) == 2); // want UNKNOWN: strlen(NULL) is undefined
	return 0;
}`},
	{"strlen-two-objects-false", "FALSE", strDecls + `
int main(void) {
	const char *s = __VERIFIER_nondet_int() ? "ab" : "xyz";
	__VERIFIER_assert(strlen(s) == 2); // want FALSE
	return 0;
}`},
	{"memcmp-long-unknown", "UNKNOWN", strDecls + `
int main(void) {
	unsigned m = __VERIFIER_nondet_uint();
	__VERIFIER_assume(m > 64 && m <= 200);
	unsigned char *p = calloc(m, 1), *q = calloc(m, 1);
	if (!p || !q) return 0;
	q[m - 1] = 1;
	__VERIFIER_assert(memcmp(p, q, m) == 0); // want UNKNOWN: beyond the unrolled 64 bytes (a real violation, never TRUE)
	return 0;
}`},
	{"constant-loop-true", "TRUE", `
int main(void) {
	int a[10];
	for (int i = 0; i < 10; i++) a[i] = i * 2;
	int s = 0;
	for (int i = 0; i < 10; i++) s += a[i];
	__VERIFIER_assert(s == 90); // want TRUE
	return 0;
}`},
	{"constant-loop-false", "FALSE", `
int main(void) {
	int a[10];
	for (int i = 0; i < 10; i++) a[i] = i * 2;
	int s = 0;
	for (int i = 0; i < 10; i++) s += a[i];
	__VERIFIER_assert(s == 91); // want FALSE
	return 0;
}`},
	{"branches-merge-true", "TRUE", `
int main(void) {
	unsigned x = 0;
	for (int i = 0; i < 8; i++) {
		if (__VERIFIER_nondet_int()) x += 1; else x += 2;
	}
	__VERIFIER_assert(x >= 8 && x <= 16); // want TRUE
	return 0;
}`},
	{"branches-merge-false", "FALSE", `
int main(void) {
	unsigned x = 0;
	for (int i = 0; i < 8; i++) {
		if (__VERIFIER_nondet_int()) x += 1; else x += 2;
	}
	__VERIFIER_assert(x != 13); // want FALSE
	return 0;
}`},
	{"unbounded-unknown", "UNKNOWN", `
int main(void) {
	unsigned x = 0;
	while (__VERIFIER_nondet_int()) x++;
	__VERIFIER_assert(x != 0xffffffffu); // want UNKNOWN (needs 2^32 iterations)
	return 0;
}`},
	{"input-bound-true", "TRUE", `
int main(void) {
	unsigned char n = __VERIFIER_nondet_uchar();
	unsigned s = 0;
	if (n > 20) return 0;
	for (unsigned char i = 0; i < n; i++) s += 3;
	__VERIFIER_assert(s <= 60); // want TRUE
	return 0;
}`},
	{"calls-and-pointers-false", "FALSE", `
struct buf { int len; char data[4]; };
static void put(struct buf *b, char c) { if (b->len < 4) b->data[b->len++] = c; }
int main(void) {
	struct buf b = {0};
	int n = __VERIFIER_nondet_int();
	for (int i = 0; i < 6; i++) if (i < n) put(&b, 'a' + i);
	__VERIFIER_assert(b.data[3] != 'd'); // want FALSE
	return 0;
}`},
	{"calls-and-pointers-true", "TRUE", `
struct buf { int len; char data[4]; };
static void put(struct buf *b, char c) { if (b->len < 4) b->data[b->len++] = c; }
int main(void) {
	struct buf b = {0};
	int n = __VERIFIER_nondet_int();
	for (int i = 0; i < 6; i++) if (i < n) put(&b, 'a' + i);
	__VERIFIER_assert(b.len <= 4); // want TRUE
	return 0;
}`},
	{"heap-true", "TRUE", `
#include <stdlib.h>
int main(void) {
	int n = __VERIFIER_nondet_int();
	int *p = malloc(3 * sizeof(int));
	if (!p) return 0;
	for (int i = 0; i < 3; i++) p[i] = n > 0 ? i : -i;
	int s = p[0] + p[1] + p[2];
	__VERIFIER_assert(s == 3 || s == -3); // want TRUE
	free(p);
	return 0;
}`},
	{"recursion-true", "TRUE", `
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
	__VERIFIER_assert(fact(5) == 120); // want TRUE
	return 0;
}`},
	{"nested-false", "FALSE", `
int main(void) {
	int c = 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 3; j++)
			if (__VERIFIER_nondet_int()) c++;
	__VERIFIER_assert(c < 12); // want FALSE
	return 0;
}`},
	{"pointer-call-body-true", "TRUE", `
extern void ext(int *p);
int g;
static void set(int *p) { *p = 1; }
static void set2(int *p) { *p = 1; }
int main(void) {
	void (*h)(int *) = ext; // a function without a body has its address taken
	(void)h;
	void (*f)(int *) = __VERIFIER_nondet_int() ? set : set2;
	f(&g);
	__VERIFIER_assert(g == 1); // want TRUE (f is set or set2, never ext)
	return 0;
}`},
	{"pointer-call-extern-unknown", "UNKNOWN", `
extern void ext(int *p);
int g;
static void set(int *p) { *p = 1; }
int main(void) {
	void (*f)(int *) = __VERIFIER_nondet_int() ? set : ext;
	f(&g);
	__VERIFIER_assert(g == 1); // want UNKNOWN (ext may write anything to g)
	return 0;
}`},
	{"extern-pointer-unknown", "UNKNOWN", `
extern int *get(void);
int main(void) {
	int *p = get();
	__VERIFIER_assert(p == 0 || *p == *p); // want UNKNOWN (pointer from a bodiless function)
	return 0;
}`},
}

func TestVerdicts(t *testing.T) {
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			r := check(t, p.src, bmc.Options{MaxUnwind: 64})
			if got := statusName[r.Status]; got != p.want {
				t.Errorf("%s at bound %d (%s), want %s", got, r.Bound, r.Reason, p.want)
			}
			t.Logf("%s at bound %d: %s (%d nodes, %d conjuncts)", statusName[r.Status], r.Bound, r.Reason, r.Nodes, r.Conjuncts)
			if r.Status == bmc.False && len(r.Path) == 0 {
				t.Errorf("FALSE without a counterexample")
			}
		})
	}
}

// locks is SV-COMP's test_locks_N pattern: N flags set and tested in an
// unbounded loop; every iteration has 2^N paths.
func locks(n int) string {
	var sb strings.Builder
	sb.WriteString("int main(void) {\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "\tint p%d = __VERIFIER_nondet_int(); int lk%d;\n", i, i)
	}
	sb.WriteString("\tint cond;\n\twhile (1) {\n\t\tcond = __VERIFIER_nondet_int();\n\t\tif (cond == 0) goto out;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "\t\tlk%d = 0;\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "\t\tif (p%d != 0) lk%d = 1;\n", i, i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "\t\tif (p%d != 0) { if (lk%d != 1) reach_error(); lk%d = 0; }\n", i, i, i)
	}
	sb.WriteString("\t}\nout:\n\treturn 0;\n}\n")
	return sb.String()
}

// TestLocksBounded: the merged encoding has one block per iteration
// whatever N; the loop is unbounded, so bounded model checking finds no
// error but cannot prove the property (UNKNOWN at the bound).
func TestLocksBounded(t *testing.T) {
	r := check(t, locks(15), bmc.Options{Unwind: 4})
	if r.Status != bmc.Unknown || !strings.Contains(r.Reason, "unwinding assertion") {
		t.Fatalf("test_locks_15 at bound 4: %v (%s), want UNKNOWN by its unwinding assertion", statusName[r.Status], r.Reason)
	}
}

// TestKInduction: the step case over merged paths proves what no bound
// can (unbounded loops), whatever the branches per iteration.
func TestKInduction(t *testing.T) {
	cases := []struct {
		name, src, want string
		k               int
	}{
		{"test_locks_15", locks(15), "TRUE", 1},
		{"swap-k2", `
int main(void) {
	int a = 0, b = 0, t;
	while (__VERIFIER_nondet_int()) {
		__VERIFIER_assert(a == 0); // want TRUE at k = 2
		t = a; a = b; b = t;
	}
	return 0;
}`, "TRUE", 2},
		{"lockstep-needs-invariant", `
int main(void) {
	unsigned int x = 0, y = 0;
	while (__VERIFIER_nondet_int()) { x++; y++; }
	__VERIFIER_assert(x == y); // want UNKNOWN (x == y is not k-inductive without an invariant)
	return 0;
}`, "UNKNOWN", 0},
		{"array-in-loop", `
int main(void) {
	int a[4] = {0};
	while (__VERIFIER_nondet_int()) {
		int i = __VERIFIER_nondet_int();
		if (i < 0 || i >= 4) continue;
		a[i] = 7;
		__VERIFIER_assert(a[i] == 7); // want TRUE
	}
	return 0;
}`, "TRUE", 1},
		{"allocation-in-loop", `
#include <stdlib.h>
const char *s = "x";
char *q = 0;
unsigned c = 0;
int main(void) {
	while (__VERIFIER_nondet_int()) {
		c++;
		if (c == 1) { q = malloc(1); if (!q) return 0; *q = 'y'; }
		if (c == 5) __VERIFIER_assert(*q != 'y'); // want FALSE (fifth iteration, through a block an earlier iteration allocated)
	}
	return 0;
}`, "FALSE", 4},
		{"late-bug", `
int main(void) {
	unsigned int c = 0;
	while (__VERIFIER_nondet_int()) {
		c++;
		__VERIFIER_assert(c != 5); // want FALSE (fifth iteration)
	}
	return 0;
}`, "FALSE", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, c.src, bmc.Options{KInduction: true, MaxUnwind: 8})
			t.Logf("%s at bound %d: %s", statusName[r.Status], r.Bound, r.Reason)
			if got := statusName[r.Status]; got != c.want || (c.k > 0 && r.Bound != c.k) {
				t.Errorf("%s at bound %d, want %s at %d", got, r.Bound, c.want, c.k)
			}
		})
	}
}

// TestCheckAll: one unrolling per bound for several properties; a
// property's error edges are ordinary edges for the others, so that an
// error call that returns (reach_error without abort) does not hide a
// later violation of another property.
func TestCheckAll(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: header + `
void fail_a(void) {}
void fail_b(void) {}
int main(void) {
	int x = __VERIFIER_nondet_int();
	int s = 0;
	for (int i = 0; i < 3; i++) s += i;
	if (x == 1) fail_a();      // A: FALSE
	if (x == 1 && s == 3) fail_b(); // B: FALSE, only after A's error call returned
	if (s != 3) fail_b();      // also B
	if (s == 4) fail_a();      // also A
	return 0;
}
int other(void) { fail_a(); return 0; }`}})
	if err != nil {
		t.Fatal(err)
	}
	specs := []bmc.Spec{{ErrorEdges: property.ErrorCalls(prog, "fail_a")}, {ErrorEdges: property.ErrorCalls(prog, "fail_b")}, {ErrorEdges: property.ErrorCalls(prog, "reach_error")}}
	got := map[int]bmc.Result{}
	left := bmc.CheckAll(context.Background(), prog, specs, bmc.Options{Entry: "main", Solver: z3.Factory, OneShot: z3.OneShotFactory}, func(i int, r bmc.Result) { got[i] = r })
	if len(left) != 0 {
		t.Errorf("undecided: %v", left)
	}
	want := []bmc.Status{bmc.False, bmc.False, bmc.True}
	for i, w := range want {
		if got[i].Status != w {
			t.Errorf("property %d: %s (%s), want %s", i, statusName[got[i].Status], got[i].Reason, statusName[w])
		}
		if w == bmc.False && len(got[i].Path) == 0 {
			t.Errorf("property %d: FALSE without a counterexample", i)
		}
	}
}

// TestFloors: per-loop floors of the unwinding bound (floors.go) decide
// at a bound where the uniform bound alone cannot, and never make a
// proof of an unrolling whose unwinding assertions fail: a loop that
// runs beyond its floor (an unwindset too small, or a trip count that a
// write through a pointer falsifies) still meets its assertion.
func TestFloors(t *testing.T) {
	callee := `
int sum(const unsigned char *a) {
	int s = 0;
	for (int i = 0; i < 40; i++) s += a[i];
	return s;
}
int main(void) {
	unsigned char a[40];
	for (int i = 0; i < 40; i++) a[i] = 1;
	int n = __VERIFIER_nondet_int();
	__VERIFIER_assume(n >= 0 && n <= 20);
	int m = 0;
	while (m < n) m++;
	__VERIFIER_assert(sum(a) + m <= 60); // want TRUE
	return 0;
}`
	// the pointer writes the counter once: 8 more iterations than the CFA says
	lying := `
int g;
void bump(int *p) { if (*p == 3 && !g) { g = 1; *p = -5; } }
int count(void) {
	int c = 0;
	for (int i = 0; i < 8; i++) { bump(&i); c++; }
	return c;
}
int main(void) {
	__VERIFIER_assert(count() <= 8); // want FALSE
	return 0;
}`
	for _, c := range []struct {
		name, src string
		opts      bmc.Options
		want      bmc.Status
	}{
		// main's loops at 40 and 20 iterations, sum's at 40 by its trip count
		{"unwindset", callee, bmc.Options{Unwind: 1, Unwindset: map[string]int{"main.0": 41, "main.1": 21}}, bmc.True},
		// main's loops have no floor (the entry function's loops keep the
		// uniform bound)
		{"no-unwindset", callee, bmc.Options{Unwind: 1}, bmc.Unknown},
		// one iteration short of what main.1's loop may run
		{"unwindset-short", callee, bmc.Options{Unwind: 1, Unwindset: map[string]int{"main.0": 41, "main.1": 20}}, bmc.Unknown},
		{"unwindset-growing", callee, bmc.Options{Unwindset: map[string]int{"main.0": 41, "main.1": 21}}, bmc.True},
		{"trip-count-falsified", lying, bmc.Options{Unwind: 1}, bmc.Unknown},
		{"trip-count-falsified-growing", lying, bmc.Options{}, bmc.False},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, c.src, c.opts)
			if r.Status != c.want {
				t.Fatalf("%s, want %s: %s", statusName[r.Status], statusName[c.want], r.Reason)
			}
			if c.name == "unwindset" && r.Bound != 1 {
				t.Errorf("decided at bound %d, want 1", r.Bound)
			}
		})
	}
}

// TestChecked: an UNKNOWN says how far the bounds got: the largest bound
// checked whole without an error (the bounds 1, 2, 4, 8 of a loop of a
// thousand rounds under MaxUnwind 8), and 0 when an error ends the
// unrolling before any bound is whole.
func TestChecked(t *testing.T) {
	r := check(t, `int main(void) {
	unsigned int i = 0;
	while (i < 1000) i++;
	__VERIFIER_assert(i == 1000);
	return 0;
}`, bmc.Options{MaxUnwind: 8})
	if r.Status != bmc.Unknown || r.Bound != 8 || r.Checked != 8 {
		t.Errorf("%s at bound %d, checked %d (%s); want UNKNOWN at bound 8, checked 8", statusName[r.Status], r.Bound, r.Checked, r.Reason)
	}
	r = check(t, `int main(void) {
	unsigned int i = __VERIFIER_nondet_uint();
	__VERIFIER_assert(i != 7);
	while (i < 1000) i++;
	return 0;
}`, bmc.Options{MaxUnwind: 4})
	if r.Status != bmc.False || r.Checked != 0 {
		t.Errorf("%s, checked %d (%s); want FALSE at the first bound, checked 0", statusName[r.Status], r.Checked, r.Reason)
	}
}

// TestStringBytes: memcmp and strlen on blocks of non-constant size
// unroll as far as the unwinding bound of their loop in CBMC's library
// says (memcmp.0, strlen.0: one more than the bytes), so a harness
// whose blocks hold up to 80 bytes is proved, and not without the bound
// (64 bytes unrolled: the comparison of longer blocks is outside the
// encoding) or with a bound one short; a difference beyond the 64th
// byte is found with it.
func TestStringBytes(t *testing.T) {
	const decls = strDecls + "void *malloc(size_t);\n"
	const src = decls + `int main(void) {
	unsigned long n = __VERIFIER_nondet_ulong();
	__VERIFIER_assume(n >= 1 && n <= 80);
	char *a = calloc(n, 1), *b = calloc(n, 1);
	if (!a || !b) return 0;
	__VERIFIER_assert(memcmp(a, b, n) == 0 && strlen(a) < n);
	return 0;
}`
	const wrong = decls + `int main(void) {
	unsigned long n = __VERIFIER_nondet_ulong();
	__VERIFIER_assume(n >= 1 && n <= 80);
	char *a = calloc(n, 1), *b = calloc(n, 1);
	if (!a || !b) return 0;
	if (n > 70) b[70] = 1;
	__VERIFIER_assert(memcmp(a, b, n) == 0);
	return 0;
}`
	for _, c := range []struct {
		name, src string
		unwind    map[string]int
		want      bmc.Status
	}{
		{"bounded", src, map[string]int{"memcmp.0": 81, "strlen.0": 81}, bmc.True},
		{"default", src, nil, bmc.Unknown},
		{"one-short", src, map[string]int{"memcmp.0": 80, "strlen.0": 80}, bmc.Unknown},
		{"violation", wrong, map[string]int{"memcmp.0": 81}, bmc.False},
		{"violation-default", wrong, nil, bmc.Unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, c.src, bmc.Options{Unwindset: c.unwind})
			if r.Status != c.want {
				t.Fatalf("%s, want %s: %s", statusName[r.Status], statusName[c.want], r.Reason)
			}
		})
	}
}
