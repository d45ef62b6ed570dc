package pixeltree

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/reverify/reverify/engine/graph"
)

const (
	O = Ordinary
	C = Covered
	T = Target
	M = Merged
	H = Highlighted
	U = Unexpanded
)

func checkRows(t *testing.T, p *Picture, want [][]Kind) {
	t.Helper()
	if !reflect.DeepEqual(p.Rows, want) {
		t.Fatalf("rows = %v, want %v", p.Rows, want)
	}
	states, width := 0, 0
	for _, r := range want {
		states += len(r)
		width = max(width, len(r))
	}
	if p.States != states || p.Width != width {
		t.Errorf("States, Width = %d, %d; want %d, %d", p.States, p.Width, states, width)
	}
}

// offsets returns, per row of the unscaled grid, the first and last
// occupied column.
func offsets(p *Picture) [][2]int {
	g := p.sample(-1, -1)
	var out [][2]int
	for r := range g.rows {
		lo, hi := -1, -1
		for c := range g.cols {
			if g.cell(r, c) != 0 {
				if lo < 0 {
					lo = c
				}
				hi = c
			}
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}

func TestLayoutChain(t *testing.T) {
	p := Layout(chain(5), Options{})
	checkRows(t, p, [][]Kind{{O}, {O}, {O}, {O}, {O}})
	if p.Cut {
		t.Error("chain cut without MaxDepth")
	}
	if got := offsets(p); !reflect.DeepEqual(got, [][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}) {
		t.Errorf("offsets = %v", got)
	}
}

func TestLayoutBinary(t *testing.T) {
	p := Layout(binary(3, map[int]Kind{5: Target, 6: Covered}), Options{})
	checkRows(t, p, [][]Kind{{O}, {O, O}, {O, O, T, C}})
	// Centred on the widest row (4): offsets (4-L)/2.
	if got, want := offsets(p), [][2]int{{1, 1}, {1, 2}, {0, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("offsets = %v, want %v", got, want)
	}
	p = Layout(binary(4, nil), Options{})
	if got, want := offsets(p), [][2]int{{3, 3}, {3, 4}, {2, 5}, {0, 7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("offsets = %v, want %v", got, want)
	}
	if p.Count(Ordinary) != 15 || p.Count(Target) != 0 {
		t.Errorf("counts %d %d", p.Count(Ordinary), p.Count(Target))
	}
}

// A DAG where node 3 is reachable at depth 1 (0→3) and depth 3
// (0→1→2→3), plus a self loop and a back edge to the root: every node is
// drawn once, at its BFS depth, in BFS visiting order.
func TestLayoutDAG(t *testing.T) {
	tr := adjTree{
		succs: [][]int{0: {1, 3}, 1: {2}, 2: {3, 2}, 3: {4, 0}, 4: {}, 5: {0}},
		kinds: map[int]Kind{2: Covered, 3: Merged, 4: Target, 5: Target},
	}
	p := Layout(tr, Options{})
	checkRows(t, p, [][]Kind{{O}, {O, M}, {C, T}})
	if p.Count(Target) != 1 || p.Count(Covered) != 1 || p.Count(Merged) != 1 || p.Count(Ordinary) != 2 {
		t.Errorf("counts: node 5 is unreachable and must not be drawn")
	}
	// From another root.
	p = Layout(tr, Options{Root: 5})
	checkRows(t, p, [][]Kind{{T}, {O}, {O, M}, {C, T}})
}

func TestLayoutCut(t *testing.T) {
	for _, tc := range []struct {
		tree     Tree
		maxDepth int
		rows     int
		cut      bool
	}{
		{chain(10), 3, 4, true},
		{chain(5), 4, 5, false},
		{chain(5), 3, 4, true},
		{chain(5), 0, 5, false},
		{chain(5), -1, 5, false},
		{binary(3, nil), 2, 3, false},
		{binary(3, nil), 1, 2, true},
		// The only edge beyond the cut leads back to a drawn node.
		{adjTree{succs: [][]int{{1}, {0}}}, 1, 2, false},
	} {
		p := Layout(tc.tree, Options{MaxDepth: tc.maxDepth})
		if len(p.Rows) != tc.rows || p.Cut != tc.cut {
			t.Errorf("MaxDepth %d: %d rows, cut %v; want %d, %v", tc.maxDepth, len(p.Rows), p.Cut, tc.rows, tc.cut)
		}
	}
	p := Layout(binary(4, map[int]Kind{7: Target}), Options{MaxDepth: 2})
	checkRows(t, p, [][]Kind{{O}, {O, O}, {O, O, O, O}})
	if !p.Cut || p.Count(Target) != 0 {
		t.Errorf("cut %v, targets %d", p.Cut, p.Count(Target))
	}
}

func TestLayoutEmptyAndSingle(t *testing.T) {
	p := Layout(FromFunc(0, nil, nil), Options{})
	if len(p.Rows) != 0 || p.States != 0 || p.Cut {
		t.Errorf("empty: %+v", p)
	}
	p = Layout(FromFunc(3, nil, func(n int) Kind { return Kind(n + 2) }), Options{Root: 1})
	checkRows(t, p, [][]Kind{{M}})
}

func TestLayoutPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"root":      func() { Layout(chain(2), Options{Root: 2}) },
		"successor": func() { Layout(adjTree{succs: [][]int{{5}}}, Options{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s out of range: no panic", name)
				}
			}()
			f()
		}()
	}
}

func TestUndefinedKind(t *testing.T) {
	p := Layout(FromFunc(1, nil, func(int) Kind { return 200 }), Options{})
	checkRows(t, p, [][]Kind{{O}})
	if Kind(200).String() != "Kind(200)" || Covered.String() != "covered" {
		t.Error("Kind.String")
	}
	if Kind(200).Color() != Ordinary.Color() {
		t.Error("Kind.Color of an undefined kind")
	}
}

func TestHighlight(t *testing.T) {
	tr := Highlight(binary(3, map[int]Kind{5: Target, 6: Covered}), []int{0, 2, 5})
	p := Layout(tr, Options{})
	checkRows(t, p, [][]Kind{{H}, {O, H}, {O, O, T, C}})
}

// Rows agree with graph.BFS: row d is the BFS order restricted to depth d.
func TestLayoutMatchesBFS(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for iter := range 200 {
		n := 1 + r.IntN(60)
		g := graph.NewAdjacency(n)
		for range r.IntN(3 * n) {
			g.AddEdge(r.IntN(n), r.IntN(n))
		}
		kind := func(v int) Kind { return Kind(v % numKinds) }
		root := r.IntN(n)
		order, depth := graph.BFS(g, root)
		var want [][]Kind
		for _, v := range order {
			d := depth[v]
			if d == len(want) {
				want = append(want, nil)
			}
			want[d] = append(want[d], kind(v))
		}
		p := Layout(FromFunc(n, g.Succs, kind), Options{Root: root})
		if !reflect.DeepEqual(p.Rows, want) {
			t.Fatalf("iter %d: rows %v, want %v", iter, p.Rows, want)
		}
		if md := 1 + r.IntN(4); md < len(want) {
			p = Layout(FromFunc(n, g.Succs, kind), Options{Root: root, MaxDepth: md})
			if !reflect.DeepEqual(p.Rows, want[:md+1]) || p.Cut != (md+1 < len(want)) {
				t.Fatalf("iter %d, MaxDepth %d: rows %v cut %v, want %v", iter, md, p.Rows, p.Cut, want[:md+1])
			}
		}
	}
}

// Deep graphs must not overflow anything: a chain of a million states.
func TestLayoutLongChain(t *testing.T) {
	const n = 1_000_000
	p := Layout(FromFunc(n, func(v int) []int {
		if v+1 < n {
			return []int{v + 1}
		}
		return nil
	}, nil), Options{})
	if len(p.Rows) != n || p.Width != 1 {
		t.Fatalf("%d rows, width %d", len(p.Rows), p.Width)
	}
	img := p.Image()
	if b := img.Bounds(); b.Dx() != DefaultUnit || b.Dy() != DefaultMaxHeight {
		t.Errorf("image %v, want %dx%d (height capped)", b, DefaultUnit, DefaultMaxHeight)
	}
}
