package z3

import (
	"context"
	"runtime"
	"testing"

	"github.com/reverify/reverify/engine/smt"
)

// TestIdleList: a closed solver's context goes to the next solver of its
// kind, after garbage collections too (a sync.Pool would have dropped
// it), never to a solver of the other kind, and not once it has
// declared maxNames variables; and at most maxIdle closed contexts of a
// kind are kept.
func TestIdleList(t *testing.T) {
	b := smt.NewBuilder()
	s1 := New(b).(*solver)
	in := s1.in
	s1.Close()
	runtime.GC()
	runtime.GC()
	o := NewWithOptions(b, Options{OneShot: true}).(*solver)
	if o.in == in {
		t.Fatal("a one-shot solver got an incremental solver's context")
	}
	s2 := New(b).(*solver)
	if s2.in != in {
		t.Fatal("the closed solver's context was not reused after two garbage collections")
	}
	// the reused context is clean: x == 3 is sat, with model 3
	x := b.Var("x", smt.BVSort(8))
	s2.Assert(b.Eq(x, b.BV(3, 8)))
	if r, err := s2.Check(context.Background()); r != smt.Sat || err != nil {
		t.Fatalf("check on the reused context: %v, %v", r, err)
	}
	if s2.in.names != 1 {
		t.Fatalf("%d names counted for one declared variable, want 1", s2.in.names)
	}
	// a context that has declared maxNames variables is not reused
	s2.in.names = maxNames
	s2.Close()
	if s3 := New(b).(*solver); s3.in == in {
		t.Fatal("a context with maxNames declared variables was reused")
	} else {
		s3.Close()
	}
	o.Close()

	var open []*solver
	for i := 0; i < maxIdle+2; i++ {
		open = append(open, New(b).(*solver))
	}
	for _, s := range open {
		s.Close()
	}
	idle[0].mu.Lock()
	n := len(idle[0].ins)
	idle[0].mu.Unlock()
	if n != maxIdle {
		t.Fatalf("%d idle incremental contexts after closing %d solvers, want %d", n, maxIdle+2, maxIdle)
	}
}
