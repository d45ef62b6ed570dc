package arrayelim_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/arrayelim"
	"github.com/reverify/reverify/engine/smt/z3"
)

func TestEliminateShapes(t *testing.T) {
	b := smt.NewBuilder()
	as := smt.ArraySort(8, 8)
	a, c := b.Var("a", as), b.Var("c", smt.BoolSort)
	i, j, x := b.Var("i", smt.BVSort(8)), b.Var("j", smt.BVSort(8)), b.Var("x", smt.BVSort(8))
	one, two := b.BV(1, 8), b.BV(2, 8)
	// a[1] := x; then under c a[2] := 7: read at j, at 1 and at i
	m := b.Store(a, one, x)
	m2 := b.Ite(c, b.Store(m, two, b.BV(7, 8)), m)
	q := []*smt.Term{
		b.Eq(b.Select(m2, j), b.BV(5, 8)),
		b.Eq(b.Select(m2, one), x),
		b.Ult(b.Select(a, i), b.Select(m2, i)),
	}
	out, ok := arrayelim.New(b).Eliminate(q)
	if !ok {
		t.Fatal("Eliminate declined")
	}
	var got []string
	for _, o := range out {
		got = append(got, o.String())
	}
	want := []string{
		// the store at 2 counts only under c, the one at 1 always
		"(= (ite c (ite (= j #x02) #x07 (ite (= j #x01) x elem!0)) (ite (= j #x01) x elem!0)) #x05)",
		// a read at the constant 1 sees x on both branches: the
		// assertion is true and left out
		"(bvult elem!1 (ite c (ite (= i #x02) #x07 (ite (= i #x01) x elem!1)) (ite (= i #x01) x elem!1)))",
		// the two reads of a at j and i: Ackermann's constraint
		"(=> (= i j) (= elem!0 elem!1))",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEliminateDeclinesExtensionality(t *testing.T) {
	b := smt.NewBuilder()
	as := smt.ArraySort(8, 8)
	a, a2 := b.Var("a", as), b.Var("a2", as)
	i := b.Var("i", smt.BVSort(8))
	q := []*smt.Term{b.Eq(b.Store(a, i, b.BV(1, 8)), a2)}
	if out, ok := arrayelim.New(b).Eliminate(q); ok {
		t.Fatalf("Eliminate rewrote an equality of arrays: %v", out)
	}
	// an array-free query comes back unchanged
	x := b.Var("x", smt.BVSort(8))
	q = []*smt.Term{b.Ult(x, b.BV(3, 8))}
	if out, ok := arrayelim.New(b).Eliminate(q); !ok || len(out) != 1 || out[0] != q[0] {
		t.Fatalf("array-free query: got %v, %v", out, ok)
	}
}

func TestEliminateMaxTerms(t *testing.T) {
	b := smt.NewBuilder()
	a := b.Var("a", smt.ArraySort(8, 8))
	m := a
	for k := 0; k < 50; k++ {
		m = b.Store(m, b.Var(fmt.Sprintf("i%d", k), smt.BVSort(8)), b.BV(uint64(k), 8))
	}
	var q []*smt.Term
	for k := 0; k < 50; k++ {
		q = append(q, b.Ult(b.Select(m, b.Var(fmt.Sprintf("j%d", k), smt.BVSort(8))), b.BV(60, 8)))
	}
	e := arrayelim.New(b)
	e.MaxTerms = 100
	if _, ok := e.Eliminate(q); ok {
		t.Fatal("Eliminate went beyond MaxTerms")
	}
	e = arrayelim.New(b)
	e.MaxPairs = 10 // 50 reads of a at symbolic indexes: 1,225 pairs
	out, ok := e.Eliminate(q)
	if !ok {
		t.Fatal("Eliminate declined")
	}
	links := 0
	for _, o := range out {
		if o.Op == smt.Eq && o.Args[1].Op == smt.Select {
			links++
		}
	}
	if links != 50 {
		t.Errorf("%d reads linked to selects, want 50", links)
	}
}

// TestEliminateEquisatisfiable decides random queries over arrays with
// Z3 before and after the elimination: the answers must agree, and in a
// model of the result each assertion's rewrite holds.
func TestEliminateEquisatisfiable(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewSource(1))
	sat := 0
	for k := 0; k < n; k++ {
		b := smt.NewBuilder()
		g := &gen{b: b, rng: rng}
		var q []*smt.Term
		for m := 1 + rng.Intn(4); m > 0; m-- {
			q = append(q, g.formula(3))
		}
		e := arrayelim.New(b)
		if rng.Intn(2) == 0 {
			e.MaxPairs = 1 // the reads tied to selects, not by Ackermann's constraints
		}
		out, ok := e.Eliminate(q)
		if !ok {
			t.Fatalf("query %d: Eliminate declined", k)
		}
		want := check(t, b, q)
		s := z3.New(b)
		for _, o := range out {
			s.Assert(o)
		}
		got, err := s.Check(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("query %d: %v before, %v after elimination\nbefore: %v\nafter: %v", k, want, got, q, out)
		}
		if got == smt.Sat {
			sat++
			mod := s.Model()
			for _, a := range q {
				if v, _ := mod.Eval(e.Rewrite(a)); v != 1 {
					t.Fatalf("query %d: %v does not hold in the model", k, a)
				}
			}
		}
		s.Close()
	}
	if sat == 0 || sat == n {
		t.Errorf("%d of %d queries satisfiable: the generator does not exercise both answers", sat, n)
	}
}

func check(t *testing.T, b *smt.Builder, q []*smt.Term) smt.Result {
	s := z3.New(b)
	defer s.Close()
	for _, a := range q {
		s.Assert(a)
	}
	r, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gen builds random terms over two array variables, three index
// variables and two element variables (4-bit indexes and elements, so
// collisions are frequent).
type gen struct {
	b   *smt.Builder
	rng *rand.Rand
}

func (g *gen) index() *smt.Term {
	switch g.rng.Intn(4) {
	case 0:
		return g.b.BV(uint64(g.rng.Intn(4)), 4)
	case 1:
		return g.b.Add(g.b.Var("i", smt.BVSort(4)), g.b.BV(uint64(1+g.rng.Intn(2)), 4))
	}
	return g.b.Var([]string{"i", "j", "k"}[g.rng.Intn(3)], smt.BVSort(4))
}

func (g *gen) array(depth int) *smt.Term {
	as := smt.ArraySort(4, 4)
	if depth == 0 {
		switch g.rng.Intn(5) {
		case 0:
			return g.b.ConstArray(as, g.b.BV(uint64(g.rng.Intn(3)), 4))
		case 1, 2:
			return g.b.Var("a", as)
		}
		return g.b.Var("b", as)
	}
	switch g.rng.Intn(3) {
	case 0:
		return g.b.Ite(g.formula(0), g.array(depth-1), g.array(depth-1))
	}
	return g.b.Store(g.array(depth-1), g.index(), g.value(depth-1))
}

func (g *gen) value(depth int) *smt.Term {
	if depth == 0 || g.rng.Intn(3) == 0 {
		switch g.rng.Intn(3) {
		case 0:
			return g.b.BV(uint64(g.rng.Intn(16)), 4)
		case 1:
			return g.b.Var([]string{"x", "y"}[g.rng.Intn(2)], smt.BVSort(4))
		}
		return g.b.Select(g.array(0), g.index())
	}
	if g.rng.Intn(2) == 0 {
		return g.b.Add(g.value(depth-1), g.value(depth-1))
	}
	return g.b.Select(g.array(depth), g.index())
}

func (g *gen) formula(depth int) *smt.Term {
	if depth > 0 && g.rng.Intn(3) == 0 {
		return g.b.Or(g.formula(depth-1), g.b.Not(g.formula(depth-1)))
	}
	switch g.rng.Intn(8) {
	case 0:
		return g.b.Eq(g.index(), g.index())
	case 1:
		// reads of one array at equal indexes differ: unsatisfiable
		// (functional consistency, what Ackermann's constraints keep)
		a, p, q := g.array(1), g.index(), g.index()
		return g.b.And(g.b.Eq(p, q), g.b.Not(g.b.Eq(g.b.Select(a, p), g.b.Select(a, q))))
	}
	v, w := g.value(depth), g.value(depth)
	switch g.rng.Intn(3) {
	case 0:
		return g.b.Eq(v, w)
	case 1:
		return g.b.Not(g.b.Eq(v, w))
	}
	return g.b.Ult(v, w)
}
