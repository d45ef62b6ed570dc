package smt_test

import (
	"math/rand"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/smt"
)

// TestSignedOverflowTwin checks that the symbolic overflow conditions
// fold, on constant operands, to exactly what csem computes concretely.
func TestSignedOverflowTwin(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	types := []*cfa.Type{cfa.IntT, cfa.LLType, cfa.UIntType, cfa.ShortType}
	edges := []uint64{0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff, 46341, 3037000500}
	pick := func() uint64 {
		if rng.Intn(2) == 0 {
			return edges[rng.Intn(len(edges))]
		}
		return rng.Uint64()
	}
	b := smt.NewBuilder()
	for i := 0; i < 4000; i++ {
		ty := types[i%len(types)]
		w := ty.Width()
		x, y := cfa.Truncate(pick(), w), cfa.Truncate(pick(), w)
		for _, op := range []cfa.BinaryOp{cfa.Add, cfa.Sub, cfa.Mul} {
			want := csem.SignedOverflow(op, x, y, ty, ty, ty)
			got := smt.CSignedOverflow(b, op, b.BV(x, w), b.BV(y, w), ty)
			if got.Op != smt.True && got.Op != smt.False {
				t.Fatalf("%s %#x %s %#x: condition did not fold: %s", ty, x, op, y, got)
			}
			if (got.Op == smt.True) != want {
				t.Errorf("%s %#x %s %#x: symbolic overflow %v, concrete %v", ty, x, op, y, got.Op == smt.True, want)
			}
		}
		want := csem.NegOverflow(x, ty, ty)
		if got := smt.CNegOverflow(b, b.BV(x, w), ty); (got.Op == smt.True) != want {
			t.Errorf("-(%s)%#x: symbolic overflow %s, concrete %v", ty, x, got, want)
		}
	}
}
