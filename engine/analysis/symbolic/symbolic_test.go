package symbolic_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

const prelude = `
typedef unsigned long size_t;
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);
extern long __VERIFIER_nondet_long(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
extern void *malloc(size_t);
extern void *alloca(size_t);
extern void *memset(void *, int, size_t);
extern int abs(int);
extern int ext(int);
void check(int c) { if (!c) reach_error(); }
`

func translate(t testing.TB, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: prelude + src}})
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	return p
}

// compose builds [location, callstack, property, symbolic] for prog.
func compose(t testing.TB, prog *cfa.Program, opts symbolic.Options) (*cpa.Composite, *symbolic.CPA) {
	t.Helper()
	if opts.Solver == nil {
		opts.Solver = z3.Factory
	}
	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	prop := property.New(property.Spec{Name: "unreach-call", ErrorEdges: property.ErrorCalls(prog, "reach_error")})
	sym, err := symbolic.New(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cpa.NewComposite(loc, callstack.New(0), prop, sym)
	if err != nil {
		t.Fatal(err)
	}
	return c, sym
}

// run runs the CPA algorithm to the first target or the end.
func run(t testing.TB, prog *cfa.Program, opts symbolic.Options, aopts cpa.Options) (*cpa.Algorithm, cpa.Status, *cpa.Node, *symbolic.CPA) {
	t.Helper()
	c, sym := compose(t, prog, opts)
	if aopts.MaxStates == 0 {
		aopts.MaxStates = 100000
	}
	alg := cpa.NewAlgorithm(c, aopts)
	st, n, err := alg.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return alg, st, n, sym
}

// TestSemantics: each program checks with check(cond), which calls
// reach_error when cond is false. Symbolic execution proves a check
// (Safe) exactly when no input violates it, with bit-precise C
// semantics, and finds a violation (Target) otherwise; every target
// found here is feasible, since constraints prune infeasible branches.
func TestSemantics(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string // body of main
		want cpa.Status
	}{
		{"relation implies", `int x = __VERIFIER_nondet_int(); if (x > 100) check(x > 50);`, cpa.Safe},
		{"relation fails", `int x = __VERIFIER_nondet_int(); if (x > 50) check(x > 100);`, cpa.Target},
		{"int promotion: no wrap", `unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar(); if (a + b > 510) reach_error();`, cpa.Safe},
		{"int promotion: exceeds 255", `unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar(); if (a + b > 300) reach_error();`, cpa.Target},
		{"uchar wrap", `unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar(); check((unsigned char)(a + b) >= a);`, cpa.Target},
		{"inputs related", `int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); if (x == y + 1 && y == 5) check(x == 6);`, cpa.Safe},
		{"inputs related, wrong", `int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(); if (x == y + 1 && y == 5) check(x == 7);`, cpa.Target},
		{"signed overflow wraps", `int y = __VERIFIER_nondet_int(); int z = y + 1; check(z > y);`, cpa.Target},
		{"no overflow below bound", `int y = __VERIFIER_nondet_int(); if (y < 1000) { int z = y + 1; check(z > y); }`, cpa.Safe},
		{"unsigned wrap to zero", `unsigned u = __VERIFIER_nondet_uint(); if (u + 1 == 0) check(u == 4294967295u);`, cpa.Safe},
		{"signed division truncates", `int q = __VERIFIER_nondet_int(); if (q < 0 && q > -100) { check(q / 2 >= q); check(q % 2 <= 0); check(-q % 3 >= 0); }`, cpa.Safe},
		{"remainder sign", `int q = __VERIFIER_nondet_int(); if (q < 0) check(q % 2 == 0 || q % 2 == 1);`, cpa.Target},
		{"division by symbolic", `int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(); if (b > 0 && a >= 0) check(a / b <= a);`, cpa.Safe},
		{"shift right bounds", `unsigned s = __VERIFIER_nondet_uint(); check((s >> 31) <= 1); check((s >> 28) < 16);`, cpa.Safe},
		{"shift loses bits", `unsigned s = __VERIFIER_nondet_uint(); check(((s << 1) >> 1) == s);`, cpa.Target},
		{"arithmetic shift", `int s = __VERIFIER_nondet_int(); if (s < 0) check((s >> 3) < 0);`, cpa.Safe},
		{"char sign extension", `char c = __VERIFIER_nondet_char(); int i = c; check(i >= -128 && i <= 127);`, cpa.Safe},
		{"truncation", `int i = __VERIFIER_nondet_int(); if (i == 300) { unsigned char c = i; check(c == 44); }`, cpa.Safe},
		{"truncation, symbolic", `int i = __VERIFIER_nondet_int(); unsigned char c = i; check(c != 44);`, cpa.Target},
		{"bool is 0 or 1", `_Bool b = __VERIFIER_nondet_bool(); check(b == 0 || b == 1); int k = __VERIFIER_nondet_int(); _Bool c = k; check(c <= 1); if (k == 7) check(c == 1);`, cpa.Safe},
		{"bool can be 1", `_Bool b = __VERIFIER_nondet_bool(); check(b == 0);`, cpa.Target},
		{"uninitialised local is symbolic", `int x; if (x > 10) check(x != 5);`, cpa.Safe},
		{"uninitialised local can be anything", `int x; check(x != 5);`, cpa.Target},
		{"volatile reads differ", `volatile int v = 1; int a = v; int b = v; check(a == b);`, cpa.Target},
		{"unmodelled result is symbolic", `int r = ext(1); if (r > 0) check(r != 0);`, cpa.Safe},
		{"assume", `int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0 && x < 10); check(x * x < 100); check(x != 0);`, cpa.Safe},
		{"assume, violated", `int x = __VERIFIER_nondet_int(); __VERIFIER_assume(x > 0 && x < 10); check(x * x < 81);`, cpa.Target},
		{"symbolic index read", `int a[4] = {1, 2, 3, 4}; int k = __VERIFIER_nondet_int(); if (k >= 0 && k < 4) check(a[k] == k + 1);`, cpa.Safe},
		{"symbolic index read out of range", `int a[4] = {1, 2, 3, 4}; int k = __VERIFIER_nondet_int(); if (k >= 0 && k <= 4) check(a[k] >= 1);`, cpa.Target},
		{"symbolic index write", `int a[4] = {1, 2, 3, 4}; int k = __VERIFIER_nondet_int(); if (k >= 0 && k < 4) { a[k] = 10; check(a[k] == 10); check(a[0] + a[1] + a[2] + a[3] == 19 - k); }`, cpa.Safe},
		{"symbolic index write changes an element", `int a[4] = {1, 2, 3, 4}; int k = __VERIFIER_nondet_int(); if (k >= 0 && k < 4) { a[k] = 10; check(a[2] == 3); }`, cpa.Target},
		{"symbolic index, large array", `int a[1000]; int k = __VERIFIER_nondet_int(); a[3] = 5; a[k] = 1; check(a[3] == 5);`, cpa.Target},
		{"struct fields", `struct S { int x; char c; } s; s.x = __VERIFIER_nondet_int(); s.c = 3; if (s.x > 0) check(s.x + s.c > 3);`, cpa.Target},
		{"struct fields bounded", `struct S { int x; char c; } s; s.x = __VERIFIER_nondet_int(); s.c = 3; if (s.x > 0 && s.x < 100) check(s.x + s.c > 3);`, cpa.Safe},
		{"bytes of a symbolic int", `int x = __VERIFIER_nondet_int(); unsigned char *p = (unsigned char *)&x; if (x == 0x11223344) check(p[0] == 0x44 && p[3] == 0x11);`, cpa.Safe},
		{"partial overwrite", `int x = __VERIFIER_nondet_int(); unsigned char *p = (unsigned char *)&x; p[0] = 0; check((x & 0xff) == 0); if (x > 0) check(x >= 256);`, cpa.Safe},
		{"bit-fields", `struct B { unsigned a : 3; unsigned b : 5; } s; s.a = __VERIFIER_nondet_uint(); s.b = 31; check(s.a < 8); check(s.b == 31);`, cpa.Safe},
		{"bit-field wraps", `struct B { unsigned a : 3; } s; unsigned v = __VERIFIER_nondet_uint(); s.a = v; if (v == 9) check(s.a == 1);`, cpa.Safe},
		{"through pointers", `int x = __VERIFIER_nondet_int(); int *p = &x; *p = *p + 1; if (x == 1) check(*p == 1);`, cpa.Safe},
		{"heap", `int *p = malloc(8); p[0] = __VERIFIER_nondet_int(); p[1] = p[0] * 2; if (p[0] == 21) check(p[1] == 42);`, cpa.Safe},
		{"alloca and variable-length arrays", `int *p = alloca(8); p[1] = __VERIFIER_nondet_int(); if (p[1] == 3) check(p[1] + 1 == 4); int n = __VERIFIER_nondet_int(); if (n > 0 && n < 4) { int a[n]; a[0] = n; check(a[0] < 4); }`, cpa.Safe},
		{"abs", `int x = __VERIFIER_nondet_int(); if (x > -5 && x < 5) check(abs(x) < 5); int m = abs(x); if (x == -2147483647 - 1) check(m < 0);`, cpa.Safe},
		{"symbolic bounded loop", `int n = __VERIFIER_nondet_int(); if (n >= 0 && n <= 5) { int i = 0; while (i < n) i++; check(i == n); }`, cpa.Safe},
		{"symbolic loop sum", `unsigned k = __VERIFIER_nondet_uint(); if (k < 10) { int s = 0; for (unsigned j = 0; j < k; j++) s += 2; check(s == 2 * k); check(s != 18); }`, cpa.Target},
		{"calls bind symbolic arguments", `int x = __VERIFIER_nondet_int(); if (x > 0 && x < 1000) check(x + 1 > x);`, cpa.Safe},
		{"memset with symbolic byte", `unsigned char buf[4]; int c = __VERIFIER_nondet_int(); memset(buf, c, 4); if ((c & 0xff) == 7) check(buf[2] == 7); check(buf[3] == buf[0]);`, cpa.Safe},
		{"logical operators in values", `int x = __VERIFIER_nondet_int(); int y = __VERIFIER_nondet_int(); _Bool b = x > 0 && y > 0; if (b) check(x + y != 0 || x == -y);`, cpa.Safe},
		{"negation", `int x = __VERIFIER_nondet_int(); if (x > 0) check(-x < 0); if (x < 0) check(-x > 0);`, cpa.Target},
		{"bitwise not", `unsigned x = __VERIFIER_nondet_uint(); check((x ^ ~x) == 0xffffffffu); check((x & ~x) == 0);`, cpa.Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog := translate(t, "int main() {\n"+tc.body+"\nreturn 0; }")
			alg, st, n, _ := run(t, prog, symbolic.Options{}, cpa.Options{})
			if st != tc.want {
				msg := ""
				if n != nil {
					msg = "\ntarget state: " + n.State.String()
				}
				t.Fatalf("status %v, want %v (reason %q)%s", st, tc.want, alg.Reason(), msg)
			}
			if st == cpa.Target && !throughUB[tc.name] {
				checkFeasible(t, prog, n)
			}
		})
	}
}

// throughUB are the cases whose target is reachable only through
// undefined behaviour (the path check then answers Unknown).
var throughUB = map[string]bool{"symbolic index read out of range": true}

// checkFeasible checks bit-precisely that the path to n is a real
// execution: symbolic execution has no spurious targets.
func checkFeasible(t *testing.T, prog *cfa.Program, n *cpa.Node) {
	t.Helper()
	r, err := smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, prog, n.Path())
	if err != nil {
		t.Fatalf("CheckPath: %v", err)
	}
	if r.Status != smt.Sat {
		t.Errorf("target path is %v (%s), want a feasible path", r.Status, r.Reason)
	}
}

// TestPunning: a symbolic integer read back as a pointer is unknown, not
// a non-function (which would make the call through it infeasible).
func TestPunning(t *testing.T) {
	prog := translate(t, `
void f(void) { reach_error(); }
union U { unsigned long n; void (*fp)(void); };
int main() { union U u; u.fp = f; unsigned long k = __VERIFIER_nondet_long(); if (k > 7) { u.n = k; u.fp(); } return 0; }`)
	_, st, _, _ := run(t, prog, symbolic.Options{}, cpa.Options{})
	if st != cpa.Target {
		t.Errorf("%v, want target (the call through the unknown u.fp may reach f)", st)
	}
}
