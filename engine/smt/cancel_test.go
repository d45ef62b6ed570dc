package smt_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// countdownCtx is a context that reports itself cancelled from the n-th
// call of Err on: it stops the encoder in the middle of a path
// deterministically, whatever the machine's speed.
type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestEncodeStopsAtDeadline: EncodePathContext checks its context before
// every step of a long path (a 23,000-step path encoded for 54 s
// past a 10 s limit) and returns an error that wraps the context's, with
// the step it stopped at; the same path encodes in full without a
// deadline.
func TestEncodeStopsAtDeadline(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	a := m.Local("a", &cfa.Type{Kind: cfa.Array, Elem: intT, Len: 64, Size: 256})
	a.AddrTaken = true
	i := m.Local("i", intT)
	m.Op(&cfa.Decl{Var: a})
	m.Op(&cfa.Decl{Var: i})
	const n = 5000
	for k := 0; k < n; k++ {
		m.Op(havoc(ref(i)))
		m.Op(assign(index(ref(a), bin(cfa.And, ref(i), c(63, intT), intT)), c(int64(k), intT)))
	}
	ctx := &countdownCtx{Context: context.Background()}
	ctx.left.Store(1000)
	_, err := smt.EncodePathContext(ctx, smt.NewBuilder(), p, path, smt.EncodeOptions{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want one wrapping context.DeadlineExceeded", err)
	}
	if !strings.Contains(err.Error(), "interrupted at step 1000 of 10002") {
		t.Errorf("err = %v, want it to name step 1000 of 10002", err)
	}
	f, err := smt.EncodePathContext(context.Background(), smt.NewBuilder(), p, path, smt.EncodeOptions{})
	if err != nil || f.Steps != len(path) {
		t.Fatalf("without a deadline: %v", err)
	}
}
