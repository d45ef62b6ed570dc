package predicate

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// TestInvariantTranslation checks the bit-precise translation of
// abstraction terms into C conditions (State.Invariant): arithmetic in
// the unsigned type of its width (unsigned int below 32 bits, cast
// back), signed comparisons in the signed type, extensions and low
// extracts as casts, and terms without an exact C spelling left out.
func TestInvariantTranslation(t *testing.T) {
	b := smt.NewBuilder()
	holder := map[*smt.Term]*cfa.Var{}
	sym := func(name string, ty *cfa.Type) *smt.Term {
		s := b.Var("s_"+name, smt.BVSort(ty.Bits))
		holder[s] = &cfa.Var{Name: name, Orig: name, T: ty}
		return s
	}
	x := sym("x", cfa.IntType(32, true))
	u := sym("u", cfa.IntType(32, false))
	c := sym("c", cfa.IntType(8, false))
	s := sym("s", cfa.IntType(8, true))
	l := sym("l", cfa.IntType(64, true))
	free := b.Var("free", smt.BVSort(32)) // held by no variable
	tr := translator{holder: holder}
	for _, tc := range []struct {
		term *smt.Term
		want string // "" when not translated
	}{
		{b.Eq(x, b.BV(5, 32)), "x == 5"},
		{b.Not(b.Eq(x, b.BV(5, 32))), "x != 5"},
		{b.Eq(x, b.BV(0xffffffff, 32)), "x == (-1)"},
		{b.Eq(b.Add(x, u), b.BV(7, 32)), "(((unsigned int)x) + u) == 7U"},
		// c + 1 wraps at 8 bits: computed in unsigned int, cast back
		{b.Eq(b.Add(c, b.BV(1, 8)), b.BV(0, 8)), "((unsigned char)(((unsigned int)c) + 1U)) == 0U"},
		{b.Ult(c, b.BV(200, 8)), "c < 200U"},
		{b.Slt(u, b.BV(0, 32)), "((int)u) < 0"},
		{b.Ult(x, u), "((unsigned int)x) < u"},
		{b.Slt(b.SignExt(s, 32), x), "((int)((unsigned int)s)) < x"},
		{b.Eq(b.ZeroExt(s, 32), u), "u == ((unsigned int)((unsigned char)s))"},
		{b.Eq(b.Extract(l, 31, 0), u), "u == ((unsigned int)l)"},
		{b.Or(b.Eq(x, b.BV(1, 32)), b.Ult(u, b.BV(3, 32))), "(x == 1) || (u < 3U)"},
		{b.Eq(b.UDiv(u, b.BV(2, 32)), b.BV(1, 32)), "(u / 2U) == 1U"},
		{b.Eq(b.UDiv(u, x), b.BV(1, 32)), ""},           // bvudiv u 0 is not C's u / 0
		{b.Eq(b.Extract(l, 39, 8), u), ""},              // not a low part
		{b.Eq(b.Ite(b.Eq(x, u), x, u), u), ""},          // no ?: in the CFA
		{b.Eq(free, x), ""},                             // a symbol no variable holds
		{b.Or(b.Eq(free, x), b.Eq(x, b.BV(1, 32))), ""}, // a disjunction is kept whole or not at all
		{b.Slt(b.Extract(l, 15, 0), b.BV(3, 16)), "((short)((unsigned short)l)) < 3"},
	} {
		got := ""
		if e, ok := tr.boolean(tc.term); ok {
			got = e.String()
		}
		if got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.term, got, tc.want)
		}
	}
}
