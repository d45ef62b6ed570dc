package pdg

import (
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// runningExample rebuilds the running example of seed 000 (figures 1, 4b,
// 8a): the first loop decrements x, the branch at l12 calls error() when
// x < 0 && y < 0, otherwise a second loop controlled by y and w runs.
//
//	l2  x = nondet()          l12 [x < 0 && y < 0] → l13, else → l15
//	l3  y = 1                 l13 error() → l19
//	l4  w = nondet()          l15 [y < w] → l16, else → l18
//	l5  [x > 0] → l6, else l9 l16 y = y + 1 → l15
//	l6  x = x - 1 → l5        l18 return 0 → l19
//	l9  w = w + 1; l10 skip; l11 w = w * 2
func runningExample(t *testing.T) (*tp, *tfn) {
	p := newTP(t)
	m := p.fn("main", "int", "l2", "l19", "")
	m.locals("int x y w")
	m.e("l2 l3 x = ?")
	m.e("l3 l4 y = 1")
	m.e("l4 l5 w = ?")
	m.br("l5 l6 l9 x > 0")
	m.e("l6 l5 x = x - 1")
	m.e("l9 l10 w = w + 1")
	m.e("l10 l11 skip")
	m.e("l11 l12 w = w * 2")
	m.br("l12 l13 l15 x < 0 && y < 0")
	m.e("l13 l19 call error()")
	m.br("l15 l16 l18 y < w")
	m.e("l16 l15 y = y + 1")
	m.e("l18 l19 return 0")
	p.done()
	return p, m
}

func text(t *testing.T, write func(*strings.Builder) error) string {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func checkText(t *testing.T, what, got, want string) {
	t.Helper()
	want = strings.TrimLeft(want, "\n")
	if got != want {
		t.Errorf("%s:\n--- got\n%s--- want\n%s", what, got, want)
	}
}

// Figure 9: the post-dominator tree of the running example. l19 (the
// exit) post-dominates everything; l18 post-dominates l15 and l16, l15
// post-dominates l16; l13 post-dominates nothing; l2 is a leaf.
func TestFigure9PostDominatorTree(t *testing.T) {
	p, m := runningExample(t)
	g := Build(p.p)
	got := text(t, func(b *strings.Builder) error { return g.WritePostDom(b, m.f, p.locName) })
	checkText(t, "post-dominator tree", got, `
end
  l19
    l12
      l11
        l10
          l9
            l5
              l4
                l3
                  l2
              l6
    l13
    l18
      l15
        l16
`)
}

// Figure 8b and 11: the slice for the criterion (l13, error(), l19) keeps
// x's definitions and loop, y := 1 and the branch at l12; w and the second
// loop are irrelevant.
func TestFigure8Slice(t *testing.T) {
	p, m := runningExample(t)
	g := Build(p.p)
	s := g.Slice([]*cfa.Edge{m.edge("l13 l19")})
	want := []string{
		"main:l12->l13+", "main:l12->l15-", "main:l13->l19",
		"main:l2->l3", "main:l3->l4", "main:l5->l6+", "main:l5->l9-", "main:l6->l5",
	}
	if got := p.edgeNames(s.Edges()); !slices.Equal(got, want) {
		t.Errorf("slice:\n got %v\nwant %v", got, want)
	}
	// The two edges of the branch at l5 are dependences of x = x - 1
	// (figure 11, dark blue).
	cd := g.ControlDeps(m.edge("l6 l5"))
	if len(cd) != 2 || g.Node(cd[0]).Edge != m.edge("l5 l6") || g.Node(cd[1]).Edge != m.edge("l5 l9") {
		t.Errorf("control deps of x = x - 1: %v", cd)
	}
}

// Figure 10: g2 = (l1, b := a + 1, l2) is flow dependent on
// g1 = (l0, a := 0, l1); both are control dependent on the entry.
func TestFigure10PDG(t *testing.T) {
	p := newTP(t)
	m := p.fn("main", "void", "l0", "l2", "")
	m.locals("int a b")
	m.e("l0 l1 a = 0")
	m.e("l1 l2 b = a + 1")
	p.done()
	g := Build(p.p)
	got := text(t, func(b *strings.Builder) error { return g.WriteText(b, p.locName) })
	checkText(t, "PDG", got, `
func main
  l0->l1 a = 0  control: entry
  l1->l2 b = a + 1  flow: l0->l1  control: entry
  entry
`)
}

// Figure 11: the full dependence graph of the running example.
func TestFigure11PDG(t *testing.T) {
	p, _ := runningExample(t)
	g := Build(p.p)
	got := text(t, func(b *strings.Builder) error { return g.WriteText(b, p.locName) })
	checkText(t, "PDG", got, `
func main
  l2->l3 x = nondet(__VERIFIER_nondet_int)  control: entry
  l3->l4 y = 1  control: entry
  l4->l5 w = nondet(__VERIFIER_nondet_int)  control: entry
  l5->l6+ [x > 0]  flow: l2->l3 l6->l5  control: l5->l6+ l5->l9- entry
  l5->l9- [!(x > 0)]  flow: l2->l3 l6->l5  control: l5->l6+ l5->l9- entry
  l6->l5 x = x - 1  flow: l2->l3 l6->l5  control: l5->l6+ l5->l9-
  l9->l10 w = w + 1  flow: l4->l5  control: entry
  l10->l11 skip  control: entry
  l11->l12 w = w * 2  flow: l9->l10  control: entry
  l12->l13+ [(x < 0) && (y < 0)]  flow: l2->l3 l3->l4 l6->l5  control: entry
  l12->l15- [!((x < 0) && (y < 0))]  flow: l2->l3 l3->l4 l6->l5  control: entry
  l13->l19 error()  control: l12->l13+ l12->l15-
  l15->l16+ [y < w]  flow: l3->l4 l11->l12 l16->l15  control: l12->l13+ l12->l15- l15->l16+ l15->l18-
  l15->l18- [!(y < w)]  flow: l3->l4 l11->l12 l16->l15  control: l12->l13+ l12->l15- l15->l16+ l15->l18-
  l16->l15 y = y + 1  flow: l3->l4 l16->l15  control: l15->l16+ l15->l18-
  l18->l19 return 0  control: l12->l13+ l12->l15-
  entry
  out return  flow: l18->l19  control: entry
`)
}

// figure19 rebuilds the CFA of seed 000's figure 19 (all operations
// no-ops, branches on a global c): l1 branches to l2 and l3, l3 to l4 and
// l5; l2 leads to l8, l4 to l7, l5 to lloop; lloop and l7 form a loop
// (l7 → lloop), l7 and l8 both lead on (l7 → l8, l8 → lloop), l8 exits to
// l9.
func figure19(t *testing.T) (*tp, *tfn) {
	p := newTP(t)
	p.globals("int c")
	m := p.fn("main", "void", "l0", "l9", "")
	m.e("l0 l1 skip")
	m.br("l1 l2 l3 c == 1")
	m.e("l2 l8 skip")
	m.br("l3 l4 l5 c == 2")
	m.e("l4 l7 skip")
	m.e("l5 lloop skip")
	m.e("lloop l7 skip")
	m.br("l7 l8 lloop c == 3")
	m.br("l8 lloop l9 c == 4")
	p.done()
	return p, m
}

// algorithm3 is seed 000's Algorithm 3, Doms(A), with a reverse-postorder
// waitlist: the sets D(l) of dominators (strict: l ∉ D(l)), as sorted
// location indices. Unreachable locations keep D(l) = L.
func algorithm3(f *cfa.Function) [][]int {
	n := len(f.Locs)
	D := make([][]bool, n)
	for i := range D {
		D[i] = make([]bool, n)
		for j := range D[i] {
			D[i][j] = i != f.Entry.Index
		}
	}
	rpo := graph.ReversePostOrder(f, f.Entry.Index)
	rank := make([]int, n)
	for i, l := range rpo {
		rank[l] = i
	}
	wait := map[int]bool{f.Entry.Index: true}
	for len(wait) > 0 {
		l := -1
		for x := range wait {
			if l < 0 || rank[x] < rank[l] {
				l = x
			}
		}
		delete(wait, l)
		for _, s := range f.Succs(l) {
			changed := false
			for j := range n {
				nw := D[s][j] && (D[l][j] || j == l)
				if nw != D[s][j] {
					D[s][j] = nw
					changed = true
				}
			}
			if changed {
				wait[s] = true
			}
		}
	}
	out := make([][]int, n)
	for i := range D {
		for j, ok := range D[i] {
			if ok {
				out[i] = append(out[i], j)
			}
		}
	}
	return out
}

// Figure 19: the dominators computed by Algorithm 3 equal those of the
// Cooper–Harvey–Kennedy dominator tree that Build uses.
func TestFigure19Dominators(t *testing.T) {
	p, m := figure19(t)
	f := m.f
	dom := graph.Dominators(f, f.Entry.Index)
	got := text(t, func(b *strings.Builder) error {
		return WriteDomTree(b, dom, func(n int) string { return p.locName(f.Locs[n]) })
	})
	checkText(t, "dominator tree", got, `
l0
  l1
    l2
    l3
      l4
      l5
    l8
      l9
    l7
    lloop
`)
	want := map[string]string{
		"l0": "", "l1": "l0", "l2": "l0 l1", "l3": "l0 l1", "l4": "l0 l1 l3", "l5": "l0 l1 l3",
		"l7": "l0 l1", "l8": "l0 l1", "lloop": "l0 l1", "l9": "l0 l1 l8",
	}
	alg3 := algorithm3(f)
	for i, l := range f.Locs {
		var names, chk []string
		for _, d := range alg3[i] {
			names = append(names, p.locName(f.Locs[d]))
		}
		for d := range f.Locs {
			if dom.StrictlyDominates(d, i) {
				chk = append(chk, p.locName(f.Locs[d]))
			}
		}
		slices.Sort(names)
		slices.Sort(chk)
		if w := want[p.locName(l)]; strings.Join(names, " ") != w || strings.Join(chk, " ") != w {
			t.Errorf("D(%s): Algorithm 3 %v, CHK %v, want %q", p.locName(l), names, chk, w)
		}
	}
}

// Algorithm 3 and the CHK algorithm agree on random CFAs, forward and on
// the reverse (post-dominators).
func TestAlgorithm3AgreesWithCHK(t *testing.T) {
	for seed := range 200 {
		p := randomProgram(t, uint64(seed), 1, 12)
		f := p.Funcs[0]
		alg3 := algorithm3(f)
		dom := graph.Dominators(f, f.Entry.Index)
		for i := range f.Locs {
			if !dom.Reachable(i) {
				continue
			}
			var chk []int
			for d := range f.Locs {
				if dom.StrictlyDominates(d, i) {
					chk = append(chk, d)
				}
			}
			if !slices.Equal(chk, alg3[i]) {
				t.Fatalf("seed %d: D(L%d): Algorithm 3 %v, CHK %v\n%s", seed, i, alg3[i], chk, p.Text())
			}
		}
	}
}

// Figure 20: control dependences are computed only for the nearest
// branch; l4 and l5 depend on l3, which depends on l1.
func TestFigure20ControlDependences(t *testing.T) {
	p := newTP(t)
	p.globals("int c")
	m := p.fn("main", "void", "l0", "l8", "")
	m.e("l0 l1 skip")
	m.br("l1 l2 l3 c == 1")
	m.br("l3 l4 l5 c == 2")
	m.e("l4 l6 skip")
	m.e("l5 l6 skip")
	m.e("l2 l7 skip")
	m.e("l6 l7 skip")
	m.e("l7 l8 skip")
	p.done()
	g := Build(p.p)
	got := text(t, func(b *strings.Builder) error { return g.WriteControlDeps(b, m.f, p.locName) })
	checkText(t, "control dependences", got, `
l2: l1
l3: l1
l4: l3
l5: l3
l6: l1
`)
	got = text(t, func(b *strings.Builder) error { return g.WritePostDom(b, m.f, p.locName) })
	checkText(t, "post-dominator tree", got, `
end
  l8
    l7
      l1
        l0
      l2
      l6
        l3
        l4
        l5
`)
}

// Figure 21: target-location slicing keeps only the error call; target-path
// slicing (all assume edges of the path l0 l1 l3 l4 l5 as criteria) keeps
// x := 0 and the assume edge [x < 0], so the infeasible path is not found
// again (the other edge of the branch is no dependence of the criteria).
func TestFigure21TargetPathSlicing(t *testing.T) {
	p := newTP(t)
	m := p.fn("main", "void", "l0", "l5", "")
	m.locals("int x")
	m.e("l0 l1 x = 0")
	m.br("l1 l3 l2 x < 0")
	m.e("l2 l4 skip")
	m.e("l3 l4 skip")
	m.e("l4 l5 call error()")
	p.done()
	g := Build(p.p)
	errEdge := m.edge("l4 l5")
	if got, want := p.edgeNames(g.Slice([]*cfa.Edge{errEdge}).Edges()), []string{"main:l4->l5"}; !slices.Equal(got, want) {
		t.Errorf("target-location slice %v, want %v", got, want)
	}
	got := p.edgeNames(g.Slice([]*cfa.Edge{errEdge, m.edge("l1 l3")}).Edges())
	want := []string{"main:l0->l1", "main:l1->l3+", "main:l4->l5"}
	if !slices.Equal(got, want) {
		t.Errorf("target-path slice %v, want %v", got, want)
	}
}
