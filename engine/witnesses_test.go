package engine_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	c, err := engine.ValidateWitness(context.Background(), prog, w, "main", z3.Factory)
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
	c, err = engine.ValidateWitness(context.Background(), safe, w, "main", z3.Factory)
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
