package engine_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// TestValidateWitnessFacade: the violation witness of a FALSE result
// reads back as an LP64 violation witness, the facade confirms it by
// replay and gives a reproducer that reaches the error; the same witness
// on a program where the error is unreachable is rejected with a reason
// and has no reproducer.
func TestValidateWitnessFacade(t *testing.T) {
	const src = `extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x == 42) {
		reach_error();
	}
	return 0;
}
`
	file := cfatest.SourceFile(t, "p.c", src)
	prog, err := engine.Load(engine.SourceOptions{DataModel: engine.LP64}, file)
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Timeout: time.Minute, Solver: z3.Factory}
	rs, err := engine.Verify(context.Background(), prog, []*engine.Property{engine.UnreachCall(prog, "main")}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0].Verdict != results.False {
		t.Fatalf("verdict %s (%s), want FALSE", rs[0].Verdict, rs[0].Reason)
	}
	var b bytes.Buffer
	v := &witness.Violation{Program: prog, Path: rs[0].Counterexample, Inputs: rs[0].Inputs, Task: witness.Task{Files: []string{file}, DataModel: prog.DataModel}}
	if err := witness.WriteViolationYAML(&b, v); err != nil {
		t.Fatal(err)
	}
	w, err := engine.ReadWitness(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !w.IsViolation() || w.DataModel() != "LP64" {
		t.Errorf("IsViolation %v, DataModel %q; want a violation witness for LP64", w.IsViolation(), w.DataModel())
	}
	c, err := engine.ValidateWitness(context.Background(), prog, w, "main", z3.Factory, engine.SourceOptions{DataModel: engine.LP64})
	if err != nil || !c.Confirmed {
		t.Fatalf("ValidateWitness: %+v, %v; want confirmed", c, err)
	}
	repro, err := c.Reproducer()
	if err != nil || !strings.Contains(repro, "42") {
		t.Errorf("Reproducer: %v; want a harness feeding 42:\n%s", err, repro)
	}

	// The same file with the error made unreachable, and the same path
	// in a witness that carries the new file's hash: the waypoints still
	// match, the path does not reach the error.
	safeSrc := strings.Replace(src, "x == 42", "x == 42 && x != 42", 1)
	if err := os.WriteFile(file, []byte(safeSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	safe, err := engine.Load(engine.SourceOptions{DataModel: engine.LP64}, file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(safeSrc))
	v.Task.Hashes = map[string]string{file: hex.EncodeToString(sum[:])}
	v.Task.Contents = map[string]string{file: src}
	b.Reset()
	if err := witness.WriteViolationYAML(&b, v); err != nil {
		t.Fatal(err)
	}
	if w, err = engine.ReadWitness(&b); err != nil {
		t.Fatal(err)
	}
	c, err = engine.ValidateWitness(context.Background(), safe, w, "main", z3.Factory, engine.SourceOptions{DataModel: engine.LP64})
	if err != nil {
		t.Fatalf("ValidateWitness on the safe program: %v", err)
	}
	if c.Confirmed || c.Reason == "" {
		t.Errorf("ValidateWitness on the safe program: %+v; want rejected with a reason", c)
	}
	if _, err := c.Reproducer(); err == nil {
		t.Error("Reproducer of a rejected witness: no error")
	}
}

// TestValidateByContracts: a correctness witness whose invariant sits in
// a callee's loop, where a replay segment starts with the callers'
// locals unconstrained, is confirmed with the invariant as a loop
// contract (the loop's frame keeps main's zero); a witness whose
// invariant says nothing is confirmed only when bmc proves the program
// as it is (it unrolls a bounded loop, not a loop of n iterations), and
// one whose invariant holds but does not suffice only when bmc proves
// the program without it; a program bmc proves alone does not confirm
// a witness whose invariant is wrong;
// a wrong invariant fails the contract's entry obligation, and a
// program whose error is reachable is never confirmed, whatever the
// invariant.
func TestValidateByContracts(t *testing.T) {
	const safe = `extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned count(unsigned n) {
	unsigned i = 0;
	while (i < n) {
		i++;
	}
	return i;
}
int main(void) {
	unsigned zero = count(0);
	unsigned a = count(__VERIFIER_nondet_uint());
	if (zero != 0) reach_error();
	return (int)a;
}
`
	// a loop bmc unrolls: at most 8 shifts
	const bounded = `extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned count(unsigned m) {
	if (m == 0) return 0;
	while (m < 256u) {
		m = m << 1;
	}
	return m;
}
int main(void) {
	unsigned zero = count(0);
	unsigned a = count(__VERIFIER_nondet_uint());
	if (zero != 0) reach_error();
	return (int)a;
}
`
	// the same loop whose result must be below 512: from m != 0 alone,
	// the contract cannot tell
	boundedResult := strings.Replace(strings.Replace(bounded, "if (m == 0) return 0;", "if (m == 0 || m >= 256u) return 0;", 1),
		"if (zero != 0)", "if (zero != 0 || a >= 512u)", 1)
	unsafe := strings.Replace(safe, "if (zero != 0)", "if (zero != 0 || a == 512u)", 1)
	for _, tc := range []struct {
		name, src, inv string
		reason         string // confirmed with this in the reason; "" for rejected
	}{
		{"callee loop", safe, "i <= n", "as loop contracts"},
		{"callee loop, invariant 1", safe, "1", ""},
		{"bounded callee loop, invariant 1", bounded, "1", "bmc proved"},
		{"bounded callee loop, invariant that does not suffice", boundedResult, "m != 0", "hold as loop contracts, and bmc proved"},
		{"bounded callee loop, invariant that suffices", boundedResult, "m < 512u", "as loop contracts"},
		{"bounded callee loop, wrong invariant", bounded, "m == 5", ""},
		{"wrong invariant", safe, "i == 5", ""},
		{"reachable error", unsafe, "1", ""},
		{"reachable error, invariant of the loop", unsafe, "i <= n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := cfatest.SourceFile(t, "count.c", tc.src)
			opts := engine.SourceOptions{DataModel: engine.LP64}
			prog, err := engine.Load(opts, file)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(tc.src))
			yml := fmt.Sprintf(`- entry_type: invariant_set
  metadata:
    format_version: "2.0"
    uuid: 6a1f3c2e-0000-4000-8000-000000000001
    creation_time: "2026-12-02T00:00:00Z"
    producer:
      name: test
      version: "1"
    task:
      input_files:
        - %[1]s
      input_file_hashes:
        %[1]s: %[2]s
      specification: G ! call(reach_error())
      data_model: LP64
      language: C
  content:
    - invariant:
        type: loop_invariant
        location:
          file_name: %[1]s
          line: 5
          column: 2
          function: count
        value: "%[3]s"
        format: c_expression
`, file, hex.EncodeToString(sum[:]), tc.inv)
			w, err := engine.ReadWitness(strings.NewReader(yml))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c, err := engine.ValidateWitness(ctx, prog, w, "main", z3.Factory, opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Confirmed != (tc.reason != "") {
				t.Fatalf("confirmed %v (%s), want %v", c.Confirmed, c.Reason, tc.reason != "")
			}
			if c.Confirmed && !strings.Contains(c.Reason, tc.reason) {
				t.Errorf("confirmed by %q, want %q in the reason (the replay cannot confirm it)", c.Reason, tc.reason)
			}
		})
	}
}
