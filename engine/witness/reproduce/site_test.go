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
// primitive gcc cannot compute (here __CPROVER_r_ok, in a function the
// counterexample does not call: the program still needs it to link) gets
// no reproducer, and the error names the primitive, instead of a
// reproduce.sh that does not link.
func TestReproducerCBMCPrimitives(t *testing.T) {
	src := `extern int __VERIFIER_nondet_int(void);
int a[4];
int readable(void) { return __CPROVER_r_ok(a, sizeof a); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  __CPROVER_assert(x != 42, "x is not 42");
  return 0;
}
`
	p := witnesstest.Translate(t, cfa.LP64, "u.c", src)
	path, inputs, reached := witnesstest.Execute(t, p, "main", []uint64{42}, witnesstest.ExecOpts{})
	if !reached {
		t.Fatal("no violation")
	}
	v := &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": src}, DataModel: cfa.LP64}}
	_, err := Reproducer(v)
	if err == nil || !strings.Contains(err.Error(), "__CPROVER_r_ok") {
		t.Fatalf("err = %v, want one naming __CPROVER_r_ok", err)
	}
}
