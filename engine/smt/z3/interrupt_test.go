package z3_test

import (
	"context"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// TestInterruptedSolverNotTrusted: once a check was interrupted, the
// solver answers Unknown with an error to every later check instead of
// trusting an assertion stack the interrupt may have left inconsistent
// (k-induction, which interrupts branch checks after 20 ms, answered a
// wrong TRUE about once in 30 runs under load before this); a fresh
// solver decides the same stack.
func TestInterruptedSolverNotTrusted(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(64))
	y := b.Var("y", smt.BVSort(64))
	hard := []*smt.Term{ // factor a 64-bit number: far more than 1 ms
		b.Eq(b.Mul(x, y), b.BV(0xD3A1_5E7B_9C4F_2A61, 64)),
		b.Ugt(x, b.BV(1, 64)), b.Ugt(y, b.BV(1, 64)),
	}
	s := z3.New(b)
	defer s.Close()
	s.Push()
	for _, h := range hard {
		s.Assert(h)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	r, err := s.Check(ctx)
	cancel()
	if r != smt.Unknown || err == nil {
		t.Fatalf("interrupted check = %v, %v; want unknown with an error", r, err)
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
