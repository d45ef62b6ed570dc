package reproduce

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/witnesstest"
)

// TestReproducerReportedAssertion: a reproducer exits with
// ReachedExitCode only when the assertion the counterexample violates
// fails. Each program has two assertions, the counterexample violates
// the second (x == 42); run with inputs that fail the first instead (a
// wrong verdict's counterexample), the reproducer names the assertion
// that failed and aborts as assert does. Every way the harness observes
// an error is covered: the C library's __assert_fail at the assertion,
// an assert wrapper whose empty reach_error is entered (the
// -finstrument-functions hook), an external reach_error the harness
// defines, a reach_error that calls __assert_fail, and one that ends in
// abort().
func TestReproducerReportedAssertion(t *testing.T) {
	// x == 42 is exactly when x + 2147483606 overflows an int
	const cbmcTwo = `int main(void) {
  int x = __VERIFIER_nondet_int();
  __CPROVER_assume(x != 7);
  __CPROVER_assert(x != 3, "x is not 3");
  __CPROVER_assert(!__CPROVER_overflow_plus(x, 2147483606) || x < 42, "no overflow");
  return 0;
}
`
	const nondet = "extern int __VERIFIER_nondet_int(void);\n"
	const wrapper = "void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error(); abort();} } }\n"
	const twoWrapped = `int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assert(x != 3);
  __VERIFIER_assert(x != 42);
  return 0;
}
`
	for _, tc := range []struct {
		name, src string
		dm        cfa.DataModel
	}{
		{"assert", "#include <assert.h>\n" + nondet + `int main(void) {
  int x = __VERIFIER_nondet_int();
  assert(x != 3);
  assert(x != 42);
  return 0;
}
`, cfa.LP64},
		{"wrapper-hook", "extern void abort(void);\nvoid reach_error(void) {}\n" + wrapper + nondet + twoWrapped, cfa.LP64},
		{"wrapper-hook-ilp32", "extern void abort(void);\nvoid reach_error(void) {}\n" + wrapper + nondet + twoWrapped, cfa.ILP32},
		{"extern-reach-error", "extern void reach_error(void);\n" + nondet + `int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 3) reach_error();
  if (x == 42) reach_error();
  return 0;
}
`, cfa.LP64},
		{"reach-error-assert-fail", `extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "u.c", 3, "reach_error"); }
` + wrapper + nondet + twoWrapped, cfa.LP64},
		{"reach-error-abort", "extern void abort(void);\nvoid reach_error(void) { abort(); }\n" + wrapper + nondet + twoWrapped, cfa.LP64},
		// CBMC's dialect, which gcc lacks: the reproducer force-includes
		// itself as its GNU C prelude and defines the functions
		{"cbmc", nondet + cbmcTwo, cfa.LP64},
		{"cbmc-ilp32", nondet + cbmcTwo, cfa.ILP32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needGCC(t, tc.dm)
			p := witnesstest.Translate(t, tc.dm, "u.c", tc.src)
			path, inputs, reached := witnesstest.Execute(t, p, "main", []uint64{42}, witnesstest.ExecOpts{})
			if !reached {
				t.Fatal("no violation")
			}
			v := &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": tc.src}, DataModel: tc.dm}}
			src, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(src, `static const char rv_reported[] = "main:`) {
				t.Errorf("the harness does not name the reported assertion:\n%s", src)
			}
			code, stderr := runSource(t, tc.dm, tc.src, src)
			if code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) {
				t.Fatalf("counterexample: exit %d, stderr %q\n--- harness:\n%s", code, stderr, src)
			}
			w := *v
			w.Inputs = append(w.Inputs[:0:0], v.Inputs...)
			w.Inputs[0].Bits = 3
			src, err = Reproducer(&w)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr = runSource(t, tc.dm, tc.src, src)
			if code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) || !strings.Contains(stderr, "not the reported assertion (main:") {
				t.Errorf("another assertion fails: exit %d, stderr %q", code, stderr)
			}
		})
	}
}

// TestReproducerCBMCPrimitives: a program in CBMC's dialect that calls a
// primitive gcc cannot compute (here __CPROVER_same_object, in a
// function the counterexample does not call: the program still needs it
// to link), or holds a quantifier of a shape the front end does not
// lower, gets no reproducer, and the error names the primitive, instead
// of a reproduce.sh that does not link. __CPROVER_r_ok is computed
// (TestReproducerCBMCMemoryQueries).
func TestReproducerCBMCPrimitives(t *testing.T) {
	const main = `int main(void) {
  int x = __VERIFIER_nondet_int();
  __CPROVER_assert(x != 42, "x is not 42");
  return 0;
}
`
	for _, tc := range []struct{ name, src, err string }{
		{"same_object", "int a[4];\nint same(int *p) { return __CPROVER_same_object(a, p); }\n", "__CPROVER_same_object names CBMC's objects"},
		{"havoc_object", "int a[4];\nvoid h(void) { __CPROVER_havoc_object(a); }\n", "__CPROVER_havoc_object"},
		{"quantifier", "int a[4];\nint all(int n) { return __CPROVER_forall { int i; (i >= 1 || i < n) ==> a[i] == 0 }; }\n", "__CPROVER_forall at u.c:3"},
		{"r_ok", "int a[4];\nint readable(void) { return __CPROVER_r_ok(a, sizeof a); }\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "extern int __VERIFIER_nondet_int(void);\n" + tc.src + main
			p := witnesstest.Translate(t, cfa.LP64, "u.c", src)
			path, inputs, reached := witnesstest.Execute(t, p, "main", []uint64{42}, witnesstest.ExecOpts{})
			if !reached {
				t.Fatal("no violation")
			}
			v := &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": src}, DataModel: cfa.LP64}}
			repro, err := Reproducer(v)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err = %v, want a reproducer", err)
			case tc.err == "" && !strings.Contains(repro, buildFlagPrefix+"-fsanitize=address"):
				t.Errorf("the reproducer of a program calling __CPROVER_r_ok is not built with AddressSanitizer:\n%s", repro)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want one naming %q", err, tc.err)
			}
		})
	}
}

// TestReproducerCBMCMemoryQueries: the reproducer of a program in CBMC's
// dialect computes __CPROVER_r_ok and __CPROVER_w_ok with
// AddressSanitizer and the quantifier lowered as the front end lowers
// it (testdata/cbmc_memquery.c). Each counterexample's reproducer exits
// 77 at its assertion (a precondition whose w_ok fails past a global;
// an assertion whose forall fails); run with inputs where that
// assertion holds (w_ok and r_ok 1, the forall true), it does not.
func TestReproducerCBMCMemoryQueries(t *testing.T) {
	needGCC(t, cfa.LP64)
	needASan(t)
	src := readTestdata(t, "cbmc_memquery.c")
	for _, tc := range []struct {
		name      string
		bad, good []uint64 // n, m
		reported  string
	}{
		{"precondition w_ok", []uint64{9, 0}, []uint64{8, 0}, "n bytes are writable"},
		{"assertion forall", []uint64{3, 5}, []uint64{3, 3}, "m bytes are zeroed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// each of n and m is declared (an input), then read
			v := smtViolation(t, cfa.LP64, src, []uint64{0, tc.bad[0], 0, tc.bad[1]})
			harness, err := Reproducer(v)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr := runSource(t, cfa.LP64, src, harness)
			if code != ReachedExitCode || !strings.Contains(stderr, ReachedMarker) || !strings.Contains(stderr, tc.reported) {
				t.Fatalf("counterexample %v: exit %d, stderr %q, want %d at %q\n--- harness:\n%s", tc.bad, code, stderr, ReachedExitCode, tc.reported, harness)
			}
			w := *v
			w.Inputs = append(w.Inputs[:0:0], v.Inputs...)
			k := 0
			for i := range w.Inputs {
				if w.Inputs[i].Source == "__VERIFIER_nondet_int" && k < len(tc.good) {
					w.Inputs[i].Bits = tc.good[k]
					k++
				}
			}
			if k != len(tc.good) {
				t.Fatalf("counterexample inputs %+v: want %d of __VERIFIER_nondet_int", v.Inputs, len(tc.good))
			}
			harness, err = Reproducer(&w)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr = runSource(t, cfa.LP64, src, harness)
			if code == ReachedExitCode || strings.Contains(stderr, ReachedMarker) {
				t.Errorf("inputs %v, where %q holds: exit %d, stderr %q", tc.good, tc.reported, code, stderr)
			}
		})
	}
}
