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

// TestCheckWork: a check bounded by Z3's resource limit answers Unknown
// (ErrUnknown, not a context error) when it reaches the limit, and the
// solver and its context stay usable: later checks on the same stack,
// unbounded ones included, decide correctly, also on a solver that
// reuses the pooled context. An interrupted solver is never trusted again
// (TestInterruptedSolverNotTrusted); a resource limit needs no interrupt.
func TestCheckWork(t *testing.T) {
	b := smt.NewBuilder()
	x := b.Var("x", smt.BVSort(64))
	y := b.Var("y", smt.BVSort(64))
	for i := range 5 {
		s := z3.New(b)
		s.Push()
		s.Assert(hard(b))
		r, err := smt.CheckBounded(context.Background(), s, 20_000, time.Minute)
		if r != smt.Unknown || !errors.Is(err, z3.ErrUnknown) || !errors.Is(err, smt.ErrWorkLimit) {
			t.Fatalf("round %d: bounded hard check = %v, %v; want unknown, ErrUnknown and ErrWorkLimit", i, r, err)
		}
		s.Pop()
		s.Push()
		s.Assert(b.Eq(x, b.BV(3, 64)))
		if r, err := s.Check(context.Background()); r != smt.Sat || err != nil {
			t.Fatalf("round %d: x == 3 after a bounded check = %v, %v; want sat", i, r, err)
		}
		if lo, _ := s.Model().Eval(x); lo != 3 {
			t.Fatalf("round %d: model x = %d; want 3", i, lo)
		}
		s.Assert(b.Not(b.Eq(x, b.BV(3, 64))))
		if r, err := s.Check(context.Background()); r != smt.Unsat || err != nil {
			t.Fatalf("round %d: x == 3 && x != 3 = %v, %v; want unsat", i, r, err)
		}
		s.Pop()
		// the limit does not stay with the solver: a check that needs far
		// more than 20,000 units decides (x*y == 2^32+... with small
		// factors: Z3 needs well over the bound above)
		s.Assert(b.And(b.Eq(b.Mul(x, y), b.BV(4295098369, 64)), b.Ugt(x, b.BV(1, 64)), b.Ugt(y, b.BV(1, 64)), b.Ult(x, b.BV(1<<20, 64)), b.Ult(y, b.BV(1<<20, 64))))
		if r, err := s.Check(context.Background()); r != smt.Sat || err != nil {
			t.Fatalf("round %d: unbounded check after a bounded one = %v, %v; want sat", i, r, err)
		}
		s.Close() // back to the pool: the next round reuses its context
	}
}
