package z3_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// TestInterruptedSolverNotTrusted: once a check was interrupted, the
// solver answers Unknown with an error to every later check instead of
// trusting an assertion stack the interrupt may have left inconsistent
// (k-induction, which interrupted branch checks after 20 ms, answered a
// wrong TRUE about once in 30 runs under load before this); a fresh
// solver decides the same stack.
func TestInterruptedSolverNotTrusted(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(64))
	s := z3.New(b)
	defer s.Close()
	s.Push()
	s.Assert(hard(b)) // factoring: far more than 30 ms
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(30 * time.Millisecond); cancel() }() // interrupt the running check
	r, err := s.Check(ctx)
	if r != smt.Unknown || !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted check = %v, %v; want unknown, context.Canceled", r, err)
	}
	s.Pop()
	s.Assert(b.Eq(x, b.BV(3, 64)))
	if r, err := s.Check(context.Background()); r != smt.Unknown || err == nil {
		t.Errorf("check after an interrupted one = %v, %v; want unknown with an error", r, err)
	}
	f := z3.New(b)
	defer f.Close()
	f.Assert(b.Eq(x, b.BV(3, 64)))
	if r, err := f.Check(context.Background()); r != smt.Sat || err != nil {
		t.Errorf("fresh solver = %v, %v; want sat", r, err)
	}
}
