package memory

import (
	"testing"

	"github.com/reverify/reverify/engine/smt"
)

// TestResidue checks the residues Residue derives from a term's
// structure, which decide whether a write through a symbolic offset is
// an if-then-else over aligned cells (known) or forgets the object.
func TestResidue(t *testing.T) {
	b := smt.NewBuilder()
	i := b.Var("i", smt.BVSort(64))
	j := b.Var("j", smt.BVSort(64))
	four := b.BV(4, 64)
	for _, tt := range []struct {
		name string
		x    *smt.Term
		m    int64
		r    int64
		ok   bool
	}{
		{"i*4 mod 4", b.Mul(i, four), 4, 0, true},
		{"i*4+6 mod 4", b.Add(b.Mul(i, four), b.BV(6, 64)), 4, 2, true},
		{"i*4+6 mod 8", b.Add(b.Mul(i, four), b.BV(6, 64)), 8, 0, false},
		{"i*8+j*4+4 mod 4", b.Add(b.Add(b.Mul(i, b.BV(8, 64)), b.Mul(j, four)), four), 4, 0, true},
		{"i mod 1", i, 1, 0, true},
		{"i mod 2", i, 2, 0, false},
		{"(i*4) & 12 mod 4", b.BAnd(b.Mul(i, four), b.BV(12, 64)), 4, 0, false},
		{"-4 mod 4", b.BV(^uint64(3), 64), 4, 0, true},
		{"-3 mod 4", b.BV(^uint64(2), 64), 4, 1, true},
	} {
		r, ok := Residue(tt.x, tt.m)
		if ok != tt.ok || ok && r != tt.r {
			t.Errorf("%s: got %d, %v; want %d, %v", tt.name, r, ok, tt.r, tt.ok)
		}
	}
}
