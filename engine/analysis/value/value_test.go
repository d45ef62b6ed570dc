package value_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
)

const prelude = `
typedef unsigned long size_t;
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void *malloc(size_t);
extern void *calloc(size_t, size_t);
extern void free(void *);
extern void *memset(void *, int, size_t);
extern void *memcpy(void *, const void *, size_t);
extern void *memmove(void *, const void *, size_t);
extern size_t strlen(const char *);
extern int strcmp(const char *, const char *);
extern int abs(int);
void check(int c) { if (!c) reach_error(); }
`

func translate(t *testing.T, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: prelude + src}})
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	return p
}

func run(t *testing.T, src string, cfg cpatest.Config) (*cpa.Algorithm, cpa.Status, *cpa.Node) {
	t.Helper()
	return cpatest.Run(t, translate(t, src), cfg, cpa.Options{MaxStates: 100000})
}

// TestSemantics: each program checks values with check(cond), which calls
// reach_error when cond is false. Under explicit-value analysis a check is
// proved (Safe) exactly when the values involved are known and satisfy it;
// an unknown value makes both branches feasible (Target).
func TestSemantics(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string // body of main
		want cpa.Status
	}{
		{"uchar wrap up", `unsigned char u = 255; u++; check(u == 0);`, cpa.Safe},
		{"uchar wrap down", `unsigned char u = 0; u--; check(u == 255);`, cpa.Safe},
		{"uchar add", `unsigned char u = 200, v = 100; unsigned char w = u + v; check(w == 44); check(u + v == 300);`, cpa.Safe},
		{"schar wrap", `signed char c = 127; c++; check(c == -128);`, cpa.Safe},
		{"int to short", `int i = 70000; short s = (short)i; check(s == 4464); i = 40000; s = i; check(s == -25536);`, cpa.Safe},
		{"int wrap (fwrapv)", `int i = 2147483647; i = i + 1; check(i == -2147483647 - 1);`, cpa.Safe},
		{"ullong wrap", `unsigned long long u = 0; u--; check(u == 18446744073709551615ULL); check(u + 2 == 1);`, cpa.Safe},
		{"sign extension", `signed char c = -1; unsigned int u = c; check(u == 4294967295u); long l = c; check(l == -1);`, cpa.Safe},
		{"zero extension", `unsigned char uc = 200; int i = uc; check(i == 200); unsigned short us = 65535; long l = us; check(l == 65535);`, cpa.Safe},
		{"bool cast", `_Bool b = 5; check(b == 1); int x = b + b; check(x == 2); b = 0.0 == 1; b = 256; check(b);`, cpa.Safe},
		{"shifts", `int x = -16; check((x >> 2) == -4); unsigned u = 0x80000000u; check((u >> 31) == 1); int n = 4; check((1 << n) == 16); check((x << 1) == -32); unsigned char c = 1; check((c << 9) == 512);`, cpa.Safe},
		{"shift too far is unknown", `int s = 33; int z = 1 << s; check(z != 5);`, cpa.Target},
		{"negative shift is unknown", `int s = -1; int z = 8 >> s; check(z != 5);`, cpa.Target},
		{"division truncates", `int a = -7, b = 2, c = 7, d = -2; check(a / b == -3); check(a % b == -1); check(c / d == -3); check(c % d == 1); check(a / d == 3); check(a % d == -1);`, cpa.Safe},
		{"unsigned division", `unsigned a = 4294967295u, b = 2; check(a / b == 2147483647u); int m = -1; check((unsigned)m % 10u == 5u);`, cpa.Safe},
		{"division by zero is unknown", `int z = 0; int q = 5 / z; check(q != 1);`, cpa.Target},
		{"INT_MIN / -1 is unknown", `int a = -2147483647 - 1, b = -1; int q = a / b; check(q != 1);`, cpa.Target},
		{"bitwise", `unsigned a = 0xf0f0, b = 0x0ff0; check((a & b) == 0x00f0); check((a | b) == 0xfff0); check((a ^ b) == 0xff00); check(~a == 0xffff0f0fu); int m = 5; check(-m == -5); check(!m == 0);`, cpa.Safe},
		{"arrays", `int a[5]; int i; for (i = 0; i < 5; i++) a[i] = i * i; check(a[3] == 9); check(a[4] + a[2] == 20);`, cpa.Safe},
		{"array initialiser", `int a[3] = {1, 2, 3}; check(a[0] + a[1] + a[2] == 6);`, cpa.Safe},
		{"unknown index write", `int a[3] = {1, 2, 3}; int k = 4; a[__VERIFIER_nondet_int()] = 7; check(k == 4); check(a[0] == 1);`, cpa.Target},
		{"unknown index write keeps others", `int a[3] = {1, 2, 3}; int k = 4; a[__VERIFIER_nondet_int()] = 7; check(k == 4);`, cpa.Safe},
		{"struct through pointer", `struct S { int x; char c; int y; } s; struct S *p = &s; p->x = 1; p->c = 'a'; p->y = p->x + 2; check(s.y == 3); check(s.c == 97); check(p->x == 1);`, cpa.Safe},
		{"struct copy", `struct S { int x; int y; } s, t; s.x = 1; s.y = 2; t = s; s.x = 5; check(t.x == 1 && t.y == 2 && s.x == 5);`, cpa.Safe},
		{"pointer arithmetic", `int a[4] = {1, 2, 3, 4}; int *p = a; p = p + 2; check(*p == 3); check(p[1] == 4); check(p - a == 2); p--; check(*p == 2);`, cpa.Safe},
		{"pointer to pointer", `int x = 1; int *p = &x; int **pp = &p; **pp = 7; check(x == 7); check(*p == 7);`, cpa.Safe},
		{"pointer comparison", `int a, b; int *p = &a, *q = &b; check(p != q); check(p == &a); check(p != 0);`, cpa.Safe},
		{"write through unknown pointer havocs", `int a = 1, b = 2; int *arr[2]; arr[0] = &a; arr[1] = &b; int *p = arr[__VERIFIER_nondet_int()]; *p = 5; check(a == 1);`, cpa.Target},
		{"write through unknown pointer keeps non-addressable", `int a = 1, c = 3; int *arr[1]; arr[0] = &a; int *p = arr[__VERIFIER_nondet_int()]; *p = 5; check(c == 3);`, cpa.Safe},
		{"byte access", `int x = 0x11223344; unsigned char *p = (unsigned char *)&x; check(p[0] == 0x44); check(p[3] == 0x11); p[1] = 0; check(x == 0x11220044);`, cpa.Safe},
		{"nested calls and globals", ``, cpa.Safe}, // see fileTests
		{"uninitialised local is unknown", `int x; check(x != 3);`, cpa.Target},
		{"nondet is unknown", `int x = __VERIFIER_nondet_int(); check(x != 3);`, cpa.Target},
		{"equality refines", `int x = __VERIFIER_nondet_int(); if (x == 5) check(x == 5); if (!(x != 6)) check(x == 6); if (5 == x) check(x + 1 == 6);`, cpa.Safe},
		{"refine through cast", `unsigned char c = __VERIFIER_nondet_int(); if (c == 300) reach_error(); if (c == 7) check(c + 1 == 8);`, cpa.Safe},
		{"not-zero refines bool", `_Bool b = __VERIFIER_nondet_int(); if (b) check(b == 1); if (!b) check(b == 0);`, cpa.Safe},
		{"relational does not refine", `int x = __VERIFIER_nondet_int(); if (x < 0) { if (x == 0) reach_error(); }`, cpa.Target},
		{"memset", `int a[4]; memset(a, 0, sizeof a); check(a[2] == 0); memset(a, 1, 16); check(a[0] == 0x01010101); unsigned char *p = (unsigned char *)a; check(p[5] == 1);`, cpa.Safe},
		{"memcpy", `int a[2] = {5, 6}; int b[2]; memcpy(b, a, sizeof a); check(b[0] == 5 && b[1] == 6); int *ps[1]; int *qs[1]; ps[0] = &a[1]; memcpy(qs, ps, sizeof ps); check(*qs[0] == 6);`, cpa.Safe},
		{"memmove overlapping", `int a[3] = {1, 2, 3}; memmove(&a[1], &a[0], 2 * sizeof(int)); check(a[0] == 1 && a[1] == 1 && a[2] == 2);`, cpa.Safe},
		{"strlen strcmp", `char *s = "hello"; check(strlen(s) == 5); check(strcmp(s, "hello") == 0); char buf[4]; buf[0] = 'h'; buf[1] = 'i'; buf[2] = 0; check(strlen(buf) == 2);`, cpa.Safe},
		{"strcmp different is unknown", `check(strcmp("a", "b") != 7);`, cpa.Target},
		{"abs", `check(abs(-3) == 3); check(abs(4) == 4); int m = -2147483647 - 1; check(abs(m) == m);`, cpa.Safe},
		{"malloc calloc free", `int *p = malloc(8); p[1] = 4; check(p[1] == 4); int *q = calloc(2, 4); check(q[1] == 0); check(p != q); free(p); check(q[0] == 0);`, cpa.Safe},
		{"volatile reads are unknown", `volatile int v = 1; check(v == 1);`, cpa.Target},
		{"recursion", ``, cpa.Safe},        // see fileTests
		{"function pointer", ``, cpa.Safe}, // see fileTests
	} {
		if tc.body == "" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			alg, st, n := run(t, "int main() {\n"+tc.body+"\nreturn 0; }", cpatest.Config{})
			if st != tc.want {
				msg := ""
				if n != nil {
					msg = "\npath state: " + n.State.String()
				}
				t.Errorf("status %v, want %v (reason %q)%s", st, tc.want, alg.Reason(), msg)
			}
		})
	}
}

// TestPrograms checks whole programs (functions besides main).
func TestPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      cpa.Status
		explain   string // a reason the target state must carry
	}{
		{"nested calls and globals", `
int g;
int add(int a, int b) { g++; return a + b; }
int twice(int a) { return add(a, a); }
int main() { int r = twice(add(1, 2)); check(r == 6); check(g == 2); return 0; }`, cpa.Safe, ""},
		{"recursion keeps frames apart", `
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
int main() { check(fact(5) == 120); return 0; }`, cpa.Safe, ""},
		{"locals through pointers into callers", `
void set(int *p, int v) { *p = v; }
int main() { int x = 0; set(&x, 9); check(x == 9); return 0; }`, cpa.Safe, ""},
		{"struct return", `
struct P { int a; int b; };
struct P mk(int a) { struct P p; p.a = a; p.b = a + 1; return p; }
int main() { struct P q = mk(4); check(q.a == 4 && q.b == 5); return 0; }`, cpa.Safe, ""},
		{"function pointer", `
int inc(int x) { return x + 1; }
int dec(int x) { return x - 1; }
int main() { int (*fp)(int) = inc; check(fp(1) == 2); fp = dec; check(fp(1) == 0); return 0; }`, cpa.Safe, ""},
		{"global initialisers", `
int g = 3; int h; int arr[3] = {1, 2};
int main() { check(g == 3 && h == 0 && arr[1] == 2 && arr[2] == 0); return 0; }`, cpa.Safe, ""},
		{"unmodelled function havocs globals", `
extern void ext(int *);
int g = 1;
int main() { int l = 2; int k = 3; ext(&l); if (g == 1 || l == 2) check(k == 3); else reach_error(); return 0; }`, cpa.Target, "unmodelled ext"},
		{"unmodelled function keeps unreachable locals", `
extern void ext(int *);
int main() { int l = 2; int k = 3; ext(&l); check(k == 3); return 0; }`, cpa.Safe, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			alg, st, n := run(t, tc.src, cpatest.Config{})
			if st != tc.want {
				msg := ""
				if n != nil {
					msg = "\ntarget state: " + n.State.String()
				}
				t.Fatalf("status %v, want %v (reason %q)%s", st, tc.want, alg.Reason(), msg)
			}
			if tc.explain != "" {
				if got := cpa.JoinExplanations(n.State.Explain(), "; "); !strings.Contains(got, tc.explain) {
					t.Errorf("target explains %q, want %q", got, tc.explain)
				}
			}
		})
	}
}

// TestStateValues inspects the value state directly.
func TestStateValues(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	uc := b.Local("uc", cfa.UCharType)
	s := b.Local("s", cfa.ShortType)
	p := b.Local("p", cfa.PointerTo(cfa.IntT, 64))
	arr := b.Local("arr", cfa.ArrayOf(cfa.IntT, 4))
	arr.AddrTaken = true
	b.Assign(b.V(uc), b.C(cfa.UCharType, 250))
	b.Assign(b.V(uc), b.Cast(b.Add(b.Cast(b.V(uc), cfa.IntT), b.I(10)), cfa.UCharType))
	b.Assign(b.V(s), b.Cast(b.I(-70000), cfa.ShortType))
	b.Assign(b.Index(b.V(arr), b.I(2)), b.I(42))
	b.Assign(b.V(p), b.Addr(b.Index(b.V(arr), b.I(2))))
	b.Op(&cfa.Noop{Label: "end"})
	prog := b.Finish(t)
	alg, st, _ := cpatest.Run(t, prog, cpatest.Config{}, cpa.Options{})
	if st != cpa.Safe {
		t.Fatal(st)
	}
	end := cpatest.ValueAfter(t, alg, "main", "end")
	if v, ok := end.Int(uc); !ok || v != 4 {
		t.Errorf("uc = %d, %v; want 4", v, ok)
	}
	if v, ok := end.Int(s); !ok || v != -4464 {
		t.Errorf("s = %d, %v; want -4464", v, ok)
	}
	if obj, off, ok := end.Pointer(p); !ok || obj != "arr" || off != 8 {
		t.Errorf("p = &%s+%d, %v; want &arr+8", obj, off, ok)
	}
	if got, want := end.String(), "{uc=4, s=-4464, p=&arr+8, arr[8]=42}"; got != want {
		t.Errorf("state %s, want %s", got, want)
	}
}

func TestUnsupported(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	x := b.Local("x", cfa.IntT)
	b.Assign(b.V(x), b.I(1))
	b.Op(&cfa.Unsupported{Construct: "inline assembly"})
	b.If(b.Eq(b.V(x), b.I(1)), func() { b.Error() }, nil)
	prog := b.Finish(t)
	alg, st, n := cpatest.Run(t, prog, cpatest.Config{}, cpa.Options{})
	if st != cpa.Target {
		t.Fatal(st)
	}
	want := cpa.Explanation{Kind: cpa.Unsupported, Text: "inline assembly", At: "t.c:3:1"}
	if got := n.State.Explain(); len(got) != 1 || got[0] != want || got[0].String() != "unsupported: inline assembly at t.c:3:1" {
		t.Errorf("explain %v, want %v", got, want)
	}
	if got := alg.Explanations(); len(got) != 1 || got[0] != want {
		t.Errorf("explanations %q", got)
	}
}

func TestMallocMayFail(t *testing.T) {
	src := `int main() { int *p = malloc(4); if (p == 0) reach_error(); return 0; }`
	for _, may := range []bool{false, true} {
		_, st, _ := run(t, src, cpatest.Config{Value: value.Options{MallocMayFail: may}})
		want := map[bool]cpa.Status{false: cpa.Safe, true: cpa.Target}[may]
		if st != want {
			t.Errorf("MallocMayFail=%v: %v, want %v", may, st, want)
		}
	}
}

// TestPrecision: with an empty precision nothing is tracked, so the check
// fails; tracking x (by qualified name) proves it.
func TestPrecision(t *testing.T) {
	src := `int main() { int x = 1; int y = 2; if (x != 1) reach_error(); return 0; }`
	for _, tc := range []struct {
		prec value.Precision
		want cpa.Status
	}{
		{value.NewVarPrecision(), cpa.Target},
		{value.NewVarPrecision("main::y"), cpa.Target},
		{value.NewVarPrecision("main::x"), cpa.Safe},
		{value.NewVarPrecision().WithVars("main::x"), cpa.Safe},
		{value.FullPrecision{}, cpa.Safe},
	} {
		_, st, _ := run(t, src, cpatest.Config{Value: value.Options{Precision: tc.prec}})
		if st != tc.want {
			t.Errorf("precision %v: %v, want %v", tc.prec, st, tc.want)
		}
	}
}
