package pdg

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

func TestPointerSlices(t *testing.T) {
	tests := []sliceTest{{
		name: "write through a pointer reaches the pointee",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y; int* p")
			m.e("l0 l1 x = 0")
			m.e("l1 l2 y = 0")
			m.e("l2 l3 p = &x")
			m.e("l3 l4 *p = 5")
			m.br("l4 l5 l6 x == 5")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return y")
		},
		criteria: []string{"main l5 l6"},
		// *p = 5 may write x (a weak update): x = 0 still reaches.
		want: []string{"main:l0->l1", "main:l2->l3", "main:l3->l4", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "a direct write kills, a write through a pointer does not",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x; int* p")
			m.e("l0 l1 p = &x")
			m.e("l1 l2 *p = 1")
			m.e("l2 l3 x = 2")
			m.br("l3 l4 l5 x == 2")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "reading through a pointer",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y; int* p; int* q")
			m.e("l0 l1 x = 1")
			m.e("l1 l2 y = 2")
			m.e("l2 l3 p = &x")
			m.e("l3 l4 q = p")
			m.br("l4 l5 l6 *q == 1")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return y")
		},
		criteria: []string{"main l5 l6"},
		want:     []string{"main:l0->l1", "main:l2->l3", "main:l3->l4", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "heap objects per allocation site",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int* p; int* q")
			m.e("l0 l1 call p = malloc(4)")
			m.e("l1 l2 call q = malloc(4)")
			m.e("l2 l3 *p = 1")
			m.e("l3 l4 *q = 2")
			m.br("l4 l5 l6 *p == 1")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return 0")
		},
		criteria: []string{"main l5 l6"},
		want:     []string{"main:l0->l1", "main:l2->l3", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "array elements and the index",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int[10] a; int i j k")
			m.e("l0 l1 i = ?")
			m.e("l1 l2 j = ?")
			m.e("l2 l3 k = 3")
			m.e("l3 l4 a[i] = k")
			m.br("l4 l5 l6 a[j] == 3")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return 0")
		},
		criteria: []string{"main l5 l6"},
		want:     []string{"main:l0->l1", "main:l1->l2", "main:l2->l3", "main:l3->l4", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "an unresolved pointer may write every address-taken object",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y k; int* p; int* q")
			m.e("l0 l1 q = &x")
			m.e("l1 l2 k = ?")
			m.e("l2 l3 p = (int*)k")
			m.e("l3 l4 *p = 3")
			m.e("l4 l5 y = 4")
			m.br("l5 l6 l7 x + y == 7")
			m.e("l6 l7 call reach_error()")
			m.e("l7 l9 return 0")
		},
		criteria: []string{"main l6 l7"},
		want: []string{"main:l1->l2", "main:l2->l3", "main:l3->l4", "main:l4->l5",
			"main:l5->l6+", "main:l5->l7-", "main:l6->l7"},
	}, {
		name: "an external function writes what its arguments point to",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = 0")
			m.e("l1 l2 y = 0")
			m.e("l2 l3 call scanf(\"%d\", &x)")
			m.br("l3 l4 l5 x == 1")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return y")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l0->l1", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "memcpy copies contents",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int[4] a; int[4] b; int[4] c")
			m.e("l0 l1 b[0] = 7")
			m.e("l1 l2 c[0] = 8")
			m.e("l2 l3 call memcpy(a, b, 16)")
			m.br("l3 l4 l5 a[0] == 7")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l0->l1", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "pointer passed to a callee that stores through it",
		build: func(p *tp) {
			p.strct("node", "int v; node* next")
			set := p.fn("set", "void", "s0", "s9", "node* n, int x")
			set.e("s0 s9 n->v = x")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("node a; node b; int k")
			m.e("l0 l1 k = 5")
			m.e("l1 l2 call set(&a, k)")
			m.e("l2 l3 call set(&b, 6)")
			m.br("l3 l4 l5 a.v == 5")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		// Both calls may write a (the parameter points to a or b).
		want: []string{"main:l0->l1", "main:l1->l2", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5", "set:s0->s9"},
	}, {
		name: "an unsupported construct may write anything",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x")
			m.e("l0 l1 x = 0")
			m.e("l1 l2 unsupported asm")
			m.br("l2 l3 l4 x == 1")
			m.e("l3 l4 call reach_error()")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"main l3 l4"},
		want:     []string{"main:l0->l1", "main:l1->l2", "main:l2->l3+", "main:l2->l4-", "main:l3->l4"},
	}, {
		name: "a local of a recursive function is weakly updated",
		build: func(p *tp) {
			r := p.fn("rec", "void", "s0", "s9", "int* p, int n")
			r.locals("int x")
			r.br("s0 s1 s9 n > 0")
			r.e("s1 s2 x = n")
			r.e("s2 s3 call rec(&x, n - 1)")
			r.e("s3 s9 *p = x")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int y")
			m.e("l0 l1 y = 0")
			m.e("l1 l2 call rec(&y, 3)")
			m.br("l2 l3 l4 y == 1")
			m.e("l3 l4 call reach_error()")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"main l3 l4"},
		want: []string{"main:l0->l1", "main:l1->l2", "main:l2->l3+", "main:l2->l4-", "main:l3->l4",
			"rec:s0->s1+", "rec:s0->s9-", "rec:s1->s2", "rec:s2->s3", "rec:s3->s9"},
	}}
	for _, st := range tests {
		t.Run(st.name, st.run)
	}
}

func TestPointsTo(t *testing.T) {
	p := newTP(t)
	f := p.fn("f", "int", "s0", "s9", "int* a")
	f.e("s0 s9 return *a")
	m := p.fn("main", "int", "l0", "l9", "")
	m.locals("int x y r; int* p; int* q; int* h")
	m.e("l0 l1 p = &x")
	m.e("l1 l2 q = p")
	m.e("l2 l3 q = &y")
	m.e("l3 l4 call h = malloc(4)")
	m.e("l4 l5 call r = f(h)")
	m.e("l5 l9 return *q")
	g := Build(p.done())
	names := func(x cfa.Expr) string {
		var s []string
		for _, o := range g.PointsTo(x) {
			s = append(s, o.String())
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct {
		x    cfa.Expr
		want string
	}{
		{&cfa.VarRef{Var: m.vars["p"]}, "main::x"},
		{&cfa.VarRef{Var: m.vars["q"]}, "main::x main::y"},
		{&cfa.VarRef{Var: m.vars["h"]}, "heap@main:L4"},
		{&cfa.VarRef{Var: f.vars["a"]}, "heap@main:L4"},
		{m.edge("l5 l9").Op.(*cfa.Return).X, "main::x main::y"},
	} {
		if got := names(c.x); got != c.want {
			t.Errorf("PointsTo(%s) = %q, want %q", c.x, got, c.want)
		}
	}
}
