package pdg

import (
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// sliceTest is a program built with the DSL, the criteria (edges "fn FROM
// TO"), and the expected slice (edge names as tp.edgeName prints them).
type sliceTest struct {
	name     string
	build    func(p *tp)
	criteria []string
	via      string // "fn FROM TO" of a call: SliceVia
	want     []string
}

func (st sliceTest) run(t *testing.T) {
	p := newTP(t)
	st.build(p)
	p.done()
	g := Build(p.p)
	edge := func(spec string) *cfa.Edge {
		fn, rest, _ := strings.Cut(spec, " ")
		return p.fns[fn].edge(rest)
	}
	var crit []*cfa.Edge
	for _, c := range st.criteria {
		crit = append(crit, edge(c))
	}
	var s *Slice
	if st.via != "" {
		s = g.SliceVia(edge(st.via), crit)
	} else {
		s = g.Slice(crit)
	}
	got := p.edgeNames(s.Edges())
	want := slices.Clone(st.want)
	slices.Sort(want)
	if restLimit < 10 {
		// Collapsed interfaces: only soundness is expected.
		if missing := slices.DeleteFunc(want, func(x string) bool { return slices.Contains(got, x) }); len(missing) > 0 {
			t.Errorf("collapsed slice misses %q (got %q)", missing, got)
		}
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("slice:\n got %q\nwant %q\nSDG:\n%s", got, want, text(t, func(b *strings.Builder) error { return g.WriteText(b, p.locName) }))
	}
}

func TestInterproceduralSlices(t *testing.T) {
	tests := []sliceTest{{
		name: "global written in callee",
		build: func(p *tp) {
			p.globals("int g h")
			set := p.fn("set", "void", "s0", "s9", "")
			set.e("s0 s1 g = 1")
			set.e("s1 s9 h = 2")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x")
			m.e("l0 l1 g = 0")
			m.e("l1 l2 call set()")
			m.e("l2 l3 x = g")
			m.br("l3 l4 l5 x == 1")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l1->l2", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5", "set:s0->s1"},
	}, {
		name: "global read in callee",
		build: func(p *tp) {
			p.globals("int g")
			get := p.fn("get", "int", "s0", "s9", "")
			get.e("s0 s9 return g")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 g = 5")
			m.e("l1 l2 y = 7")
			m.e("l2 l3 call x = get()")
			m.br("l3 l4 l5 x == y")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"get:s0->s9", "main:l0->l1", "main:l1->l2", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "global initialised by Init",
		build: func(p *tp) {
			p.globals("int g")
			in := &tfn{tp: p, f: p.p.Init, locs: map[string]*cfa.Location{"i0": p.p.Init.Entry, "i9": p.p.Init.Exit}, names: map[*cfa.Location]string{p.p.Init.Entry: "i0", p.p.Init.Exit: "i9"}, vars: map[string]*cfa.Var{}}
			p.fns["__reverify_init"] = in
			in.e("i0 i9 g = 3")
			m := p.fn("main", "int", "l0", "l9", "")
			m.br("l0 l1 l2 g == 3")
			m.e("l1 l2 call reach_error()")
			m.e("l2 l9 return 0")
		},
		criteria: []string{"main l1 l2"},
		want:     []string{"__reverify_init:i0->i9", "main:l0->l1+", "main:l0->l2-", "main:l1->l2"},
	}, {
		name: "value returned through a pointer parameter",
		build: func(p *tp) {
			get := p.fn("get", "void", "s0", "s9", "int* p, int* q")
			get.e("s0 s1 *p = 42")
			get.e("s1 s9 *q = 7")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 decl x")
			m.e("l1 l2 call get(&x, &y)")
			m.br("l2 l3 l4 x == 42")
			m.e("l3 l4 call reach_error()")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"main l3 l4"},
		want:     []string{"get:s0->s1", "main:l0->l1", "main:l1->l2", "main:l2->l3+", "main:l2->l4-", "main:l3->l4"},
	}, {
		name: "context sensitivity: the other call's argument is irrelevant",
		build: func(p *tp) {
			id := p.fn("id", "int", "s0", "s9", "int a")
			id.e("s0 s9 return a")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y u v")
			m.e("l0 l1 u = 1")
			m.e("l1 l2 v = 2")
			m.e("l2 l3 call x = id(u)")
			m.e("l3 l4 call y = id(v)")
			m.br("l4 l5 l6 x == 1")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return y")
		},
		criteria: []string{"main l5 l6"},
		want:     []string{"id:s0->s9", "main:l0->l1", "main:l2->l3", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "recursion",
		build: func(p *tp) {
			f := p.fn("fact", "int", "s0", "s9", "int n")
			f.locals("int r")
			f.br("s0 s1 s2 n <= 1")
			f.e("s1 s9 return 1")
			f.e("s2 s3 call r = fact(n - 1)")
			f.e("s3 s9 return n * r")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x k z")
			m.e("l0 l1 k = 5")
			m.e("l1 l2 z = 9")
			m.e("l2 l3 call x = fact(k)")
			m.br("l3 l4 l5 x == 120")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return z")
		},
		criteria: []string{"main l4 l5"},
		want: []string{"fact:s0->s1+", "fact:s0->s2-", "fact:s1->s9", "fact:s2->s3", "fact:s3->s9",
			"main:l0->l1", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "a call that may not return controls what follows",
		build: func(p *tp) {
			c := p.fn("check", "void", "s0", "s9", "int v")
			c.br("s0 s1 s9 v < 0")
			c.e("s1 s2 call abort()")
			c.term("s2")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.e("l1 l2 call check(x)")
			m.e("l2 l3 y = ?")
			m.br("l3 l4 l5 y > x")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"check:s0->s1+", "check:s0->s9-", "main:l0->l1", "main:l1->l2", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "a call that always returns does not",
		build: func(p *tp) {
			c := p.fn("log", "void", "s0", "s9", "int v")
			c.br("s0 s1 s9 v < 0")
			c.e("s1 s9 call printf(\"neg\")")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.e("l1 l2 call log(x)")
			m.e("l2 l3 y = ?")
			m.br("l3 l4 l5 y > 0")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "assume_abort_if_not",
		build: func(p *tp) {
			a := p.fn("assume_abort_if_not", "void", "s0", "s9", "int cond")
			a.br("s0 s9 s1 cond")
			a.e("s1 s2 call abort()")
			a.term("s2")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x")
			m.e("l0 l1 x = ?")
			m.e("l1 l2 call assume_abort_if_not(x < 10)")
			m.br("l2 l4 l3 x < 20")
			m.e("l3 l4 call reach_error()")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"main l3 l4"},
		want: []string{"assume_abort_if_not:s0->s1-", "assume_abort_if_not:s0->s9+",
			"main:l0->l1", "main:l1->l2", "main:l2->l3-", "main:l2->l4+", "main:l3->l4"},
	}, {
		name: "a failed __VERIFIER_assume ends the execution",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.br("l1 l2 l8 x > 0")
			m.term("l8")
			m.e("l2 l3 y = ?")
			m.br("l3 l4 l5 y > 0")
			m.e("l4 l5 call reach_error()")
			m.e("l5 l9 return 0")
		},
		criteria: []string{"main l4 l5"},
		want:     []string{"main:l0->l1", "main:l1->l2+", "main:l1->l8-", "main:l2->l3", "main:l3->l4+", "main:l3->l5-", "main:l4->l5"},
	}, {
		name: "code after a non-terminating loop",
		build: func(p *tp) {
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.br("l1 l2 l3 x > 0")
			m.e("l2 l2 y = 1") // while (x > 0) y = 1; — forever once entered
			m.e("l3 l4 y = 2")
			m.br("l4 l5 l6 y > 1")
			m.e("l5 l6 call reach_error()")
			m.e("l6 l9 return 0")
		},
		criteria: []string{"main l5 l6"},
		want:     []string{"main:l0->l1", "main:l1->l2+", "main:l1->l3-", "main:l3->l4", "main:l4->l5+", "main:l4->l6-", "main:l5->l6"},
	}, {
		name: "assertion wrapper: SliceVia keeps only its own call's context",
		build: func(p *tp) {
			a := p.fn("__VERIFIER_assert", "void", "s0", "s9", "int cond")
			a.br("s0 s9 s1 cond")
			a.e("s1 s2 call reach_error()")
			a.e("s2 s3 call abort()")
			a.term("s3")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.e("l1 l2 y = ?")
			m.e("l2 l3 call __VERIFIER_assert(x > 0)")
			m.e("l3 l4 call __VERIFIER_assert(y > 0)")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"__VERIFIER_assert s1 s2"},
		via:      "main l2 l3",
		want: []string{"__VERIFIER_assert:s0->s1-", "__VERIFIER_assert:s0->s9+", "__VERIFIER_assert:s1->s2",
			"main:l0->l1", "main:l2->l3"},
	}, {
		name: "assertion wrapper: the second assertion depends on the first passing",
		build: func(p *tp) {
			a := p.fn("__VERIFIER_assert", "void", "s0", "s9", "int cond")
			a.br("s0 s9 s1 cond")
			a.e("s1 s2 call reach_error()")
			a.e("s2 s3 call abort()")
			a.term("s3")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int x y")
			m.e("l0 l1 x = ?")
			m.e("l1 l2 y = ?")
			m.e("l2 l3 call __VERIFIER_assert(x > 0)")
			m.e("l3 l4 call __VERIFIER_assert(y > 0)")
			m.e("l4 l9 return 0")
		},
		criteria: []string{"__VERIFIER_assert s1 s2"},
		via:      "main l3 l4",
		want: []string{"__VERIFIER_assert:s0->s1-", "__VERIFIER_assert:s0->s9+", "__VERIFIER_assert:s1->s2",
			"main:l0->l1", "main:l1->l2", "main:l2->l3", "main:l3->l4"},
	}, {
		name: "function pointer call",
		build: func(p *tp) {
			p.globals("int g")
			f := p.fn("f", "void", "s0", "s9", "")
			f.e("s0 s9 g = 1")
			h := p.fn("h", "void", "t0", "t9", "")
			h.e("t0 t9 g = 2")
			u := p.fn("unused", "void", "u0", "u9", "")
			u.e("u0 u9 g = 3")
			m := p.fn("main", "int", "l0", "l9", "")
			m.locals("int c; void* fp")
			m.e("l0 l1 c = ?")
			m.br("l1 l2 l3 c")
			m.e("l2 l4 fp = f")
			m.e("l3 l4 fp = h")
			m.e("l4 l5 g = 0")
			m.e("l5 l6 call (*fp)()")
			m.br("l6 l7 l8 g == 2")
			m.e("l7 l8 call reach_error()")
			m.e("l8 l9 return 0")
		},
		criteria: []string{"main l7 l8"},
		want: []string{"f:s0->s9", "h:t0->t9", "main:l0->l1", "main:l1->l2+", "main:l1->l3-", "main:l2->l4", "main:l3->l4",
			"main:l5->l6", "main:l6->l7+", "main:l6->l8-", "main:l7->l8"},
	}}
	for _, st := range tests {
		t.Run(st.name, st.run)
	}
}

// The expected slices stay contained when every function's interface is
// collapsed into the rest.
func TestSlicesWithCollapsedInterfaces(t *testing.T) {
	defer func(l int) { restLimit = l }(restLimit)
	restLimit = 0
	t.Run("interprocedural", TestInterproceduralSlices)
	t.Run("pointers", TestPointerSlices)
}

// The text form of an SDG with a call: formal and actual nodes, parameter
// and summary dependences.
func TestSDGText(t *testing.T) {
	p := newTP(t)
	p.globals("int g h")
	set := p.fn("set", "void", "s0", "s9", "int v")
	set.e("s0 s1 g = v")
	set.e("s1 s9 h = 2")
	m := p.fn("main", "int", "l0", "l9", "")
	m.locals("int x")
	m.e("l0 l1 g = 0")
	m.e("l1 l2 call set(5)")
	m.e("l2 l3 x = g")
	m.br("l3 l4 l5 x == 1")
	m.e("l4 l5 call reach_error()")
	m.e("l5 l9 return 0")
	p.done()
	g := Build(p.p)
	got := text(t, func(b *strings.Builder) error { return g.WriteText(b, p.locName) })
	checkText(t, "SDG", got, `
func set
  s0->s1 g = v  flow: in v  control: entry
  s1->s9 h = 2  control: entry
  entry  call: main:l1->l2
  in v  control: entry  param-in: main:l1->l2 in param0
  in g  control: entry  param-in: main:l1->l2 in g
  in h  control: entry  param-in: main:l1->l2 in h
  out g  flow: s0->s1  control: entry
  out h  flow: s1->s9  control: entry
func main
  l0->l1 g = 0  control: entry
  l1->l2 set(5)  control: entry
  l2->l3 x = g  flow: l1->l2 out g  control: entry
  l3->l4+ [x == 1]  flow: l2->l3  control: entry
  l3->l5- [!(x == 1)]  flow: l2->l3  control: entry
  l4->l5 reach_error()  control: l3->l4+ l3->l5-
  l5->l9 return 0  control: l3->l4+ l3->l5- l4->l5
  entry
  in g  control: entry
  in h  control: entry
  out return  flow: l5->l9  control: entry
  out returns  control: l3->l4+ l3->l5- l4->l5
  out g  flow: l1->l2 out g  control: entry
  out h  flow: l1->l2 out h  control: entry
  l1->l2 in param0  control: l1->l2
  l1->l2 in g  flow: l0->l1  control: l1->l2
  l1->l2 in h  flow: in h  control: l1->l2
  l1->l2 out g  control: l1->l2  param-out: set:out g  summary: l1->l2 in param0
  l1->l2 out h  control: l1->l2  param-out: set:out h
`)
	dot := text(t, func(b *strings.Builder) error { return g.WriteDOT(b, m.f, p.locName) })
	for _, want := range []string{
		"digraph \"main\" {",
		"n0 [shape=box, label=\"l0->l1: g = 0\"];",
		"n7 -> n0 [style=dashed];", // entry → g = 0, control
		"n14 -> n17 [style=bold];", // actual-in v → actual-out g, summary
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	// Deps and Succs agree, summary dependences included.
	for n := range g.NumNodes() {
		ds, ss := g.Deps(NodeID(n)), g.Succs(n)
		if len(ds) != len(ss) {
			t.Fatalf("node %d: %d deps, %d succs", n, len(ds), len(ss))
		}
		for i := range ds {
			if int(ds[i].On) != ss[i] {
				t.Fatalf("node %d: deps %v, succs %v", n, ds, ss)
			}
		}
	}
}
