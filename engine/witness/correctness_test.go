package witness_test

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// TestInvariantText renders invariants given as conjunctions of
// "x == c" facts: shared facts are factored out, a disjunct implied by
// another (a superset of its facts) is absorbed, contiguous values of
// one variable become a range.
func TestInvariantText(t *testing.T) {
	i := &cfa.Var{Name: "i", Orig: "i", T: cfa.IntT}
	k := &cfa.Var{Name: "k", Orig: "k", T: cfa.IntT}
	s := &cfa.Var{Name: "s", Orig: "s", T: cfa.UCharType}
	names := map[string]*cfa.Var{"i": i, "k": k, "s": s}
	eq := func(v *cfa.Var, c uint64) results.Fact {
		return results.Fact{Vars: []*cfa.Var{v}, Expr: &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: &cfa.Const{T: v.T, V: c}, T: cfa.IntT}}
	}
	st := func(fs ...results.Fact) []results.Fact { return fs }
	for _, tc := range []struct {
		name   string
		states [][]results.Fact
		want   string
	}{
		{"subsumed disjuncts", [][]results.Fact{
			st(eq(i, 0), eq(k, 0), eq(s, 255)), st(eq(i, 0), eq(k, 0)),
			st(eq(i, 1), eq(k, 1), eq(s, 255)), st(eq(i, 1), eq(k, 1)),
		}, "(i == 0 && k == 0) || (i == 1 && k == 1)"},
		{"subsumed before the subsuming one", [][]results.Fact{
			st(eq(i, 1), eq(k, 1), eq(s, 255)), st(eq(i, 0), eq(k, 0)), st(eq(i, 1), eq(k, 1)),
		}, "(i == 0 && k == 0) || (i == 1 && k == 1)"},
		{"absorbed into the shared facts", [][]results.Fact{
			st(eq(k, 0)), st(eq(k, 0), eq(i, 3)), st(eq(k, 0), eq(i, 4), eq(s, 1)),
		}, "k == 0"},
		{"nothing subsumed", [][]results.Fact{
			st(eq(i, 0), eq(s, 255)), st(eq(i, 0), eq(k, 2)),
		}, "i == 0 && (s == 255 || k == 2)"},
		{"range after absorption", [][]results.Fact{
			st(eq(i, 2)), st(eq(i, 0)), st(eq(i, 1)), st(eq(i, 1), eq(k, 7)),
		}, "0 <= i && i <= 2"},
		{"true disjunct", [][]results.Fact{st(eq(i, 0)), st()}, "1"},
		{"unreachable", nil, "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := witness.InvariantText(results.Invariant{States: tc.states}, names); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
