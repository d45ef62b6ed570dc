package validate_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// locks returns SV-COMP's test_locks_N shape with n locks: each
// iteration resets the locks, takes lock i when p_i and checks it (in
// a callee, so that segments enter and leave calls) when p_i again. A
// segment of the loop has 2^n paths. bug makes the check of lock 1
// fail when it is taken.
func locks(n int, bug bool) string { return locksUpTo(n, bug, 0) }

// locksUpTo is locks with a loop of bound iterations (a counter i from
// 0; bound 0: while (1) until cond is 0), after which i == bound is
// asserted.
func locksUpTo(n int, bug bool, bound int) string {
	var b strings.Builder
	b.WriteString("extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void) {}\n")
	b.WriteString("int held(int p, int lk) { if (p != 0 && lk != 1) return 0; return 1; }\n")
	b.WriteString("int main(void) {\n  int cond, i = 0;\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  int p%d = __VERIFIER_nondet_int(); int lk%d;\n", i, i)
	}
	if bound > 0 {
		fmt.Fprintf(&b, "  while (i < %d) {\n    cond = 1;\n", bound)
	} else {
		b.WriteString("  while (1) {\n    cond = __VERIFIER_nondet_int();\n    if (cond == 0) break;\n")
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    lk%d = 0;\n", i)
	}
	for i := 1; i <= n; i++ {
		v := 1
		if bug && i == 1 {
			v = 2
		}
		fmt.Fprintf(&b, "    if (p%d != 0) lk%d = %d;\n", i, i, v)
	}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    if (!held(p%d, lk%d)) reach_error();\n    if (p%d != 0) lk%d = 0;\n", i, i, i, i)
	}
	if bound > 0 {
		fmt.Fprintf(&b, "    i++;\n  }\n  if (i != %d) reach_error();\n  return 0;\n}\n", bound)
	} else {
		b.WriteString("  }\n  return 0;\n}\n")
	}
	return b.String()
}

// TestMergedSegments checks the merged encoding of the segments
// between cut points (merged.go) on a loop whose segment has 2^14
// paths, under a path budget of 200 that the path-by-path walk alone
// exhausts: a correct invariant is confirmed (every segment at once),
// a wrong program or a non-inductive invariant is still rejected with
// the walk's reason.
func TestMergedSegments(t *testing.T) {
	const n = 14
	for _, tc := range []struct {
		name      string
		bug       bool
		inv       string
		confirmed bool
		reason    string
	}{
		{"inductive", false, "1", true, "1 loop invariants are inductive"},
		{"error reachable", true, "1", false, "reaches the error call"},
		{"not inductive", false, "cond == 7", false, "violating \"cond == 7\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, file := tempProgram(t, "locks.c", locks(n, tc.bug))
			v, err := validateWith(t.Context(), prog, handWitness(file, n+6, 3, "main", tc.inv), validate.Options{MaxPaths: 200})
			wantValidation(t, v, err, tc.confirmed, tc.reason)
		})
	}
}

// TestMergedHoudini checks Houdini's rounds over merged segments
// (houdiniMerged) on a counter loop whose body has 2^14 paths, under a
// path budget of 200 that the walk alone exhausts: the candidates that
// hold initially and are preserved survive, the others die.
func TestMergedHoudini(t *testing.T) {
	const n = 14
	prog, file := tempProgram(t, "locks.c", locksUpTo(n, false, 1000))
	loc := witness.YAMLLocation{FileName: file, Line: n + 6, Column: 3, Function: "main"}
	got, err := validate.Houdini(t.Context(), prog, loc, []string{"i <= 1000", "i < 1000", "i >= 0", "i == 0", "cond == 1"},
		validate.Options{Solver: z3.Factory, Properties: spec.Properties(prog, "main"), MaxPaths: 200})
	if err != nil {
		t.Fatal(err)
	}
	if want := "i <= 1000, i >= 0"; strings.Join(got, ", ") != want {
		t.Errorf("survivors %q, want %s", got, want)
	}
}

// TestMergedBaseCase checks the merged base case of k-induction: a
// loop of 1,024 iterations that fills an array is unrolled one depth at
// a time as far as its constants run (Fold ends it), so that the
// invariant "1" with a depth past the last iteration is confirmed by
// the base case alone, and rejected on a program whose assertion fails;
// with depth 3 the step case decides.
func TestMergedBaseCase(t *testing.T) {
	const good = `extern void reach_error(void);
int main(void) {
  int A[2048];
  int i;
  for (i = 0; i < 1024; i++) {
    A[i] = i;
  }
  if (A[1023] != WANT) reach_error();
  return 0;
}
`
	for _, tc := range []struct {
		name, want, k, inv string
		confirmed          bool
		reason             string
	}{
		{"bounded", "1023", "1026", "1", true, "every execution ends before its 1026-th loop head visit"},
		{"error reachable", "1022", "1026", "1", false, "reaches the error call"},
		// The step case: an exit in the third segment follows the
		// store to A[1023].
		{"3-inductive", "1023", "3", "1", true, "3-inductive"},
		{"not 3-inductive", "1023", "3", "i < 5", false, "is not inductive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prog, file := tempProgram(t, "fill.c", strings.Replace(good, "WANT", tc.want, 1))
			y := strings.Replace(string(handWitness(file, 5, 3, "main", tc.inv)), "      version: \"1\"\n", "      version: \"1\"\n      description: \"k-induction: "+tc.k+"\"\n", 1)
			ctx, cancel := context.WithTimeout(t.Context(), 8*time.Second)
			defer cancel()
			v, err := validateWith(ctx, prog, []byte(y), validate.Options{})
			wantValidation(t, v, err, tc.confirmed, tc.reason)
		})
	}
}

// TestMergedOutsideEncoding: a store through a pointer read from
// uninitialised memory may write any object (here the global the
// property reads), which the encoding leaves out; the witness must not
// be confirmed while such an access is reachable, and is once the
// pointer is set, by the merged segments and, for a pointer cast from
// an address masked by an unknown value, by the walk (which decides
// where a product of two variables keeps the merged formula out).
func TestMergedOutsideEncoding(t *testing.T) {
	const yml = `- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: 0f8e1d2c-3b4a-4596-8877-665544332211
    creation_time: "2024-05-01T12:00:00Z"
    producer: {name: test, version: "1"}
    task:
      input_files: [t.c]
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content: []
`
	for _, tc := range []struct {
		name, init string
		confirmed  bool
		reason     string
	}{
		{"indeterminate", "", false, "performs an access through a pointer read from indeterminate memory at t.c:7:"},
		{"set", "a[0] = &h;", true, "imply no call of reach_error()"},
		{"masked, walked", "h = h * h; a[0] = (int *)((unsigned long)&h & (unsigned long)g2);", false, "may perform an integer-to-pointer cast of an address masked by other than all or no bits at t.c:6:"},
		{"set, walked", "h = h * h; a[0] = &h;", true, "imply no call of reach_error()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `extern void reach_error(void);
int g, h;
extern int g2;
int main(void) {
  int *a[2];
  ` + tc.init + `
  int *p = a[0]; *p = 5;
  if (g != 0) reach_error();
  return 0;
}
`
			prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
			if err != nil {
				t.Fatal(err)
			}
			v, err := validateWith(t.Context(), prog, []byte(yml), validate.Options{Contents: map[string]string{"t.c": src}})
			wantValidation(t, v, err, tc.confirmed, tc.reason)
		})
	}
}

// TestMergedModelLoop: the atexit model's loop (the handlers run in
// reverse order after main) and the loops of lowered quantifiers have no
// source location a witness can name; the merged encoding unrolls them
// as far as they run, so the witnesses of the TRUE assertions are
// confirmed, and a witness claiming a FALSE one is rejected.
func TestMergedModelLoop(t *testing.T) {
	for _, tc := range []struct {
		file          string
		trues, falses int
	}{
		{"../../testdata/verdicts/atexit_order.c", 2, 1},
		{"../../testdata/verdicts/cbmc_exists.c", 2, 2},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			prog, props, res := verify(t, tc.file, "value")
			seen := map[results.Verdict]int{}
			for _, r := range res {
				seen[r.Verdict]++
				c := correctness(prog, r, task(tc.file, "value"))
				var y bytes.Buffer
				if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
					t.Fatal(err)
				}
				v, err := validateYAML(t, prog, props, y.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				if want := r.Verdict == results.True; v.Confirmed != want {
					t.Errorf("%s (%s): confirmed %v (%s)", r.Property.ID, r.Verdict, v.Confirmed, v.Reason)
				}
			}
			if seen[results.True] != tc.trues || seen[results.False] != tc.falses {
				t.Fatalf("verdicts %v, want %d TRUE and %d FALSE", seen, tc.trues, tc.falses)
			}
		})
	}
}

// TestMergedInputLoops: the loops of the input models (fgets, fread:
// cfa.InputBuilder's While, no source position) are unrolled like the
// model functions' loops, and executions that leave them after
// different numbers of iterations are kept apart (the address-taken
// local declared after fgets is a different memory object in each).
// The walk cannot cut these loops, so the witness was not confirmed;
// with one count of iterations for all loops, the executions leaving
// fgets after one and fread after two iterations met those leaving fgets
// after two and fread after one, and the encoding failed.
func TestMergedInputLoops(t *testing.T) {
	_, file := tempProgram(t, "fg.c", `#include <assert.h>
#include <stdio.h>
int main(void) {
	char buf[4];
	if (!fgets(buf, sizeof buf, stdin))
		return 0;
	int n = 0;
	int *p = &n;
	char d[3];
	size_t m = fread(d, 1, sizeof d, stdin);
	*p = (int)m;
	assert(n <= 3);
	return 0;
}
`)
	prog, props, res := verify(t, file, "value")
	if len(res) != 1 || res[0].Verdict != results.True {
		t.Fatalf("verdicts %v, want one TRUE", res)
	}
	var y bytes.Buffer
	if err := witness.WriteCorrectnessYAML(&y, correctness(prog, res[0], task(file, "value"))); err != nil {
		t.Fatal(err)
	}
	v, err := validateYAML(t, prog, props, y.Bytes())
	wantValidation(t, v, err, true, "0 loop invariants are inductive")
}

// TestIteration: an unrolling history holds one run per loop entered.
func TestIteration(t *testing.T) {
	u := ""
	for _, id := range []int{12, 12, 12, 40, 12, 12} {
		u = validate.Iteration(u, id)
	}
	if want := "12*3.40*1.12*2."; u != want {
		t.Errorf("history %q, want %q", u, want)
	}
	if got := validate.Iteration("112*4.", 12); got != "112*4.12*1." {
		t.Errorf("a head whose ID ends in another's: %q", got)
	}
}

// wantValidation fails t unless err is nil and v is confirmed as
// wanted, with reason in its text.
func wantValidation(t *testing.T, v validate.Validation, err error, confirmed bool, reason string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if v.Confirmed != confirmed || !strings.Contains(v.Reason, reason) {
		t.Errorf("confirmed %v (%s), want %v with %q", v.Confirmed, v.Reason, confirmed, reason)
	}
}

// tempProgram writes src to a file named name in a fresh directory and
// translates it; it returns the program and the file's path.
func tempProgram(t *testing.T, name, src string) (*cfa.Program, string) {
	t.Helper()
	file := cfatest.SourceFile(t, name, src)
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	return prog, file
}

// validateWith validates the YAML witness yml against prog under ctx
// with opts, whose Solver and Properties (main's) it sets.
func validateWith(ctx context.Context, prog *cfa.Program, yml []byte, opts validate.Options) (validate.Validation, error) {
	w, err := witness.ReadWitness(bytes.NewReader(yml))
	if err != nil {
		return validate.Validation{}, err
	}
	opts.Solver, opts.Properties = z3.Factory, spec.Properties(prog, "main")
	return validate.Validate(ctx, prog, w, opts)
}
