package z3

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/smtlib"
)

// counter builds the system of "x := 0; while (x < 10) x := x + 1;
// assert(!bad(x))" over 32-bit x: Inv(0); Inv(x) ∧ x <s 10 ⇒ Inv(x+1);
// Inv(x) ∧ bad(x) ⇒ false.
func counter(b *smt.Builder, bad func(x *smt.Term) *smt.Term) *smt.HornSystem {
	inv := &smt.Relation{Name: "inv", Args: []smt.Sort{smt.BVSort(32)}}
	x := b.Var("x", smt.BVSort(32))
	return &smt.HornSystem{
		Relations: []*smt.Relation{inv},
		Clauses: []smt.Clause{
			{Head: &smt.Atom{Rel: inv, Args: []*smt.Term{b.BV(0, 32)}}},
			{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x}}}, Constraint: b.Slt(x, b.BV(10, 32)), Head: &smt.Atom{Rel: inv, Args: []*smt.Term{b.Add(x, b.BV(1, 32))}}},
			{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x}}}, Constraint: bad(x)},
		},
	}
}

func TestSolveHorn(t *testing.T) {
	b := smt.NewBuilder()
	for _, c := range []struct {
		name string
		bad  func(x *smt.Term) *smt.Term
		want smt.Result
	}{
		{"x > 10", func(x *smt.Term) *smt.Term { return b.Slt(b.BV(10, 32), x) }, smt.Sat},
		{"x < 0", func(x *smt.Term) *smt.Term { return b.Slt(x, b.BV(0, 32)) }, smt.Sat},
		{"x == 10", func(x *smt.Term) *smt.Term { return b.Eq(x, b.BV(10, 32)) }, smt.Unsat},
		{"x == 3", func(x *smt.Term) *smt.Term { return b.Eq(x, b.BV(3, 32)) }, smt.Unsat},
	} {
		h := counter(b, c.bad)
		r, sol, err := InProcess{}.SolveHorn(context.Background(), b, h)
		if r != c.want {
			t.Errorf("bad %s: %v (%v), want %v\n%s", c.name, r, err, c.want, smtlib.Horn(h))
		}
		if r != smt.Sat {
			continue
		}
		// the solution holds in every reachable state (0..10) and
		// excludes the bad ones
		inv := h.Relations[0]
		arg := smt.HornArgs(b, inv)[0]
		at := func(v int64) *smt.Term {
			return smt.Substitute(b, sol[inv], map[*smt.Term]*smt.Term{arg: b.BV(uint64(v), 32)})
		}
		if sol[inv] == nil {
			t.Errorf("bad %s: no solution read", c.name)
			continue
		}
		for v := int64(0); v <= 10; v++ {
			if at(v).Op != smt.True {
				t.Errorf("bad %s: the solution %s excludes the reachable x = %d", c.name, sol[inv], v)
			}
		}
		if c.name == "x > 10" && at(11).Op != smt.False {
			t.Errorf("the solution %s does not exclude x = 11", sol[inv])
		}
	}
}

// TestSolveHornShared checks the let-bound text of a term used twice.
func TestSolveHornShared(t *testing.T) {
	b := smt.NewBuilder()
	inv := &smt.Relation{Name: "inv", Args: []smt.Sort{smt.BVSort(8), smt.BVSort(8)}}
	x, y := b.Var("x", smt.BVSort(8)), b.Var("y", smt.BVSort(8))
	s := b.Add(x, y)
	h := &smt.HornSystem{Relations: []*smt.Relation{inv}, Clauses: []smt.Clause{
		{Head: &smt.Atom{Rel: inv, Args: []*smt.Term{b.BV(1, 8), b.BV(1, 8)}}},
		{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x, y}}}, Head: &smt.Atom{Rel: inv, Args: []*smt.Term{s, s}}},
		{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x, y}}}, Constraint: b.Not(b.Eq(x, y))},
	}}
	text := smtlib.Horn(h)
	if !strings.Contains(text, "(let ((s0 (bvadd x0 x1)))") {
		t.Errorf("the shared sum is not let-bound:\n%s", text)
	}
	if r, _, err := (InProcess{}).SolveHorn(context.Background(), b, h); r != smt.Sat {
		t.Errorf("%v (%v), want sat", r, err)
	}
}

// TestSolveHornInterrupted: a done context stops Spacer with Unknown.
func TestSolveHornInterrupted(t *testing.T) {
	b := smt.NewBuilder()
	// x := 0; while (*) x := x * 3 + 1 over 64 bits, bad = a value far away:
	// hard enough not to finish in 100 ms.
	inv := &smt.Relation{Name: "inv", Args: []smt.Sort{smt.BVSort(64), smt.BVSort(64)}}
	x, n := b.Var("x", smt.BVSort(64)), b.Var("n", smt.BVSort(64))
	h := &smt.HornSystem{Relations: []*smt.Relation{inv}, Clauses: []smt.Clause{
		{Head: &smt.Atom{Rel: inv, Args: []*smt.Term{b.BV(0, 64), b.BV(0, 64)}}},
		{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x, n}}}, Head: &smt.Atom{Rel: inv, Args: []*smt.Term{b.Add(b.Mul(x, x), b.Add(x, b.BV(1, 64))), b.Add(n, b.BV(1, 64))}}},
		{Body: []smt.Atom{{Rel: inv, Args: []*smt.Term{x, n}}}, Constraint: b.And(b.Eq(x, b.BV(0x123456789, 64)), b.Ult(n, b.BV(1000, 64)))},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, _, err := InProcess{}.SolveHorn(ctx, b, h)
	if r == smt.Unknown && err == nil {
		t.Errorf("unknown without a reason")
	}
	if r == smt.Unknown && time.Since(start) > 5*time.Second {
		t.Errorf("interrupt took %v", time.Since(start))
	}
}
