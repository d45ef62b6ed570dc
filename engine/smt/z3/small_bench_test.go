package z3_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// BenchmarkSmallCheck: one push, assert and check of a trivial formula
// on an incremental solver, the shape of the many small checks of the
// analyses (the fixed cost per Check).
func BenchmarkSmallCheck(b *testing.B) {
	bl := smt.NewBuilder()
	x := bl.Var("x", smt.BVSort(32))
	s := z3.New(bl)
	defer s.Close()
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		s.Push()
		s.Assert(bl.Eq(x, bl.BV(uint64(i), 32)))
		if r, _ := s.Check(ctx); r != smt.Sat {
			b.Fatal(r)
		}
		s.Pop()
	}
}
