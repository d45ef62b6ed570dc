package engine_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// symoffBody computes results r[0..symoffN) from the input i ∈ [0, 16)
// with the operations of engine/analysis/symbolic/symval/offsets.go: pointer ± a
// signed or unsigned symbolic integer, pointer difference and
// comparisons within one object, reads and writes through a symbolic
// offset (int, short and byte accesses), memset and memcpy of a symbolic
// length at a symbolic destination offset.
const symoffBody = `
  int a[16]; unsigned char c[16]; int r[12];
  for (int k = 0; k < 16; k++) { a[k] = k * 3 + 1; c[k] = k + 100; }
  int si = (int)i - 8;
  int *p = a + 8;
  int *q = p + si;
  r[0] = *q;
  r[1] = (int)(q - a);
  r[2] = (q < p) + 2 * (q >= a + 4) + 4 * (q == p) + 8 * (p - 3 <= q);
  unsigned char *cp = c + i;
  r[3] = *cp + cp[-(int)(i / 2)];
  memset(c, 0, i);
  r[4] = c[(i + 3) & 15] + 256 * c[15 - i];
  memcpy(c + i / 2, a + 1, i / 2);
  r[5] = c[(i * 5) & 15] + 256 * c[i / 2];
  *q = 77;
  r[6] = a[(i * 3) & 15] + 1000 * a[8];
  short *sp = (short *)c + (i & 7);
  r[7] = *sp;
  *sp = -2;
  r[8] = c[(i * 7) & 15];
  unsigned char *e = c + 16;
  r[9] = (int)(e - cp);
  q[-1] += 5;
  r[10] = a[(i + 7) & 15];
  r[11] = (e > cp) + 2 * (cp != c);
`

const symoffN = 12

// TestSymbolicOffsetsAgainstGCC checks the symbolic pointer offsets and
// the symbolic-length memset/memcpy of symbolic execution against gcc:
// gcc runs symoffBody for every i ∈ [0, 16) and prints the results;
// reverify's program computes the same with i a nondeterministic input
// (only i < 16 assumed) and asserts r[k] == table_k[i] — symbolic
// execution must prove every assertion (the terms agree with gcc on every
// input), and must refute it, with a replayed counterexample, when one
// table entry is changed. The fast tier (go test -short) checks r0 (a
// read through a symbolic offset) and r4 (memset of a symbolic length),
// each proved and refuted.
func TestSymbolicOffsetsAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	gsrc := "#include <stdio.h>\n#include <string.h>\nint main(void) {\n  for (unsigned i = 0; i < 16; i++) {" +
		symoffBody + fmt.Sprintf("    for (int k = 0; k < %d; k++) printf(\"%%d \", r[k]);\n    printf(\"\\n\");\n  }\n  return 0;\n}\n", symoffN)
	out := strings.Fields(gccOutput(t, dir, gsrc))
	if len(out) != 16*symoffN {
		t.Fatalf("gcc printed %d results, want %d", len(out), 16*symoffN)
	}
	tables := make([][]string, symoffN)
	for i := 0; i < 16; i++ {
		for k := 0; k < symoffN; k++ {
			tables[k] = append(tables[k], out[i*symoffN+k])
		}
	}
	// one program per result: an assertion passed constrains the paths
	// to the next, which would only make the formulas larger
	verify := func(t *testing.T, k int, mutate bool) results.Verdict {
		var src strings.Builder
		src.WriteString("#include <string.h>\nextern void abort(void);\nvoid reach_error(void) {}\n" +
			"void __VERIFIER_assert(int c) { if (!c) { ERROR: {reach_error(); abort();} } }\n" +
			"extern unsigned __VERIFIER_nondet_uint(void);\n")
		vals := append([]string(nil), tables[k]...)
		if mutate {
			vals[5] += "+1"
		}
		fmt.Fprintf(&src, "static const int table[16] = {%s};\n", strings.Join(vals, ", "))
		src.WriteString("int main(void) {\n  unsigned i = __VERIFIER_nondet_uint();\n  if (i >= 16) return 0;\n" + symoffBody)
		fmt.Fprintf(&src, "  __VERIFIER_assert(r[%d] == table[i]);\n  return 0;\n}\n", k)
		prog, err := frontend.TranslateSources(frontend.Options{DataModel: cfa.LP64}, []frontend.Source{{Name: "symoff.c", Content: src.String()}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		rs, err := engine.Verify(ctx, prog, spec.Properties(prog, "main"),
			engine.Config{MemoryLimit: testMemory, Name: "symex", Entry: "main", Timeout: 2 * time.Minute, Solver: z3.Factory})
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 1 {
			t.Fatalf("r%d: %d results, want 1", k, len(rs))
		}
		r := rs[0]
		if r.Verdict == results.False && len(r.Counterexample) == 0 {
			t.Errorf("r%d: FALSE without a counterexample", k)
		}
		if want := results.True; !mutate && r.Verdict != want {
			t.Errorf("r%d: %s (%s), want TRUE", k, r.Verdict, r.Reason)
		}
		return r.Verdict
	}
	checked := make([]int, symoffN) // proved as gcc computed them
	for k := range checked {
		checked[k] = k
	}
	mutated := []int{0, 4, 5, 8} // refuted with one entry changed
	if testing.Short() {
		checked, mutated = []int{0, 4}, []int{0, 4}
	}
	for _, k := range checked {
		verify(t, k, false)
	}
	for _, k := range mutated {
		if got := verify(t, k, true); got != results.False {
			t.Errorf("r%d with a wrong table entry: %s, want FALSE", k, got)
		}
	}
}
