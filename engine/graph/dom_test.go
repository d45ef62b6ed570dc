package graph

import (
	"slices"
	"testing"
)

// Lengauer & Tarjan 1979, Figure 1 (also Appel, "Modern Compiler
// Implementation", Fig. 19.8 style): R A B C D E F G H I J K L.
const (
	ltR = iota
	ltA
	ltB
	ltC
	ltD
	ltE
	ltF
	ltG
	ltH
	ltI
	ltJ
	ltK
	ltL
)

func lengauerTarjanGraph() *Adjacency {
	return edges(13,
		[2]int{ltR, ltA}, [2]int{ltR, ltB}, [2]int{ltR, ltC},
		[2]int{ltA, ltD},
		[2]int{ltB, ltA}, [2]int{ltB, ltD}, [2]int{ltB, ltE},
		[2]int{ltC, ltF}, [2]int{ltC, ltG},
		[2]int{ltD, ltL},
		[2]int{ltE, ltH},
		[2]int{ltF, ltI},
		[2]int{ltG, ltI}, [2]int{ltG, ltJ},
		[2]int{ltH, ltE}, [2]int{ltH, ltK},
		[2]int{ltI, ltK},
		[2]int{ltJ, ltI},
		[2]int{ltK, ltI}, [2]int{ltK, ltR},
		[2]int{ltL, ltH},
	)
}

func TestDominatorsClassic(t *testing.T) {
	tests := []struct {
		name string
		g    *Adjacency
		root int
		idom []int
	}{
		{
			// Lengauer & Tarjan 1979, Figure 1.
			name: "lengauer-tarjan",
			g:    lengauerTarjanGraph(),
			root: ltR,
			idom: []int{
				ltR: -1, ltA: ltR, ltB: ltR, ltC: ltR, ltD: ltR, ltE: ltR, ltF: ltC,
				ltG: ltC, ltH: ltR, ltI: ltR, ltJ: ltG, ltK: ltR, ltL: ltD,
			},
		},
		{
			// Cooper, Harvey & Kennedy 2001, Figure 4 (irreducible; nodes
			// named by postorder number, entry 6). Node 0 is unreachable.
			name: "cooper-harvey-kennedy",
			g: edges(7,
				[2]int{6, 5}, [2]int{6, 4}, [2]int{5, 1}, [2]int{4, 2}, [2]int{4, 3},
				[2]int{1, 2}, [2]int{2, 1}, [2]int{2, 3}, [2]int{3, 2}, [2]int{0, 1}),
			root: 6,
			idom: []int{-1, 6, 6, 6, 6, 6, -1},
		},
		{
			// Wikipedia "Dominator (graph theory)" example, 0-based.
			name: "wikipedia",
			g: edges(6,
				[2]int{0, 1}, [2]int{1, 2}, [2]int{1, 3}, [2]int{1, 5},
				[2]int{2, 4}, [2]int{3, 4}, [2]int{4, 1}),
			root: 0,
			idom: []int{-1, 0, 1, 1, 1, 1},
		},
		{
			// Loop with if-then-else body: 0 -> 1; 1 -> 2,3; 2,3 -> 4; 4 -> 1,5.
			name: "loop-diamond",
			g: edges(6,
				[2]int{0, 1}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 4}, [2]int{3, 4},
				[2]int{4, 1}, [2]int{4, 5}),
			root: 0,
			idom: []int{-1, 0, 1, 1, 1, 4},
		},
		{
			name: "single node self loop",
			g:    edges(1, [2]int{0, 0}),
			root: 0,
			idom: []int{-1},
		},
		{
			// Root that is not node 0, with an edge back into the root.
			name: "root in the middle",
			g:    edges(4, [2]int{2, 0}, [2]int{0, 3}, [2]int{3, 2}, [2]int{1, 2}),
			root: 2,
			idom: []int{2, -1, -1, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dt := Dominators(tc.g, tc.root)
			if dt.Root != tc.root || dt.Post {
				t.Fatalf("Root, Post = %d, %v", dt.Root, dt.Post)
			}
			if !slices.Equal(dt.Idom, tc.idom) {
				t.Fatalf("Idom = %v, want %v", dt.Idom, tc.idom)
			}
			if ref := refIdom(tc.g, tc.root); !slices.Equal(ref, tc.idom) {
				t.Fatalf("table disagrees with reference: %v", ref)
			}
			checkTree(t, dt, tc.idom)
		})
	}
}

// checkTree checks Children, Reachable, Dominates and PreOrder against the
// idom array.
func checkTree(t *testing.T, dt *DomTree, idom []int) {
	t.Helper()
	n := len(idom)
	for v := range n {
		reach := v == dt.Root || idom[v] >= 0
		if dt.Reachable(v) != reach {
			t.Errorf("Reachable(%d) = %v, want %v", v, dt.Reachable(v), reach)
		}
		var kids []int
		for c := range n {
			if idom[c] == v {
				kids = append(kids, c)
			}
		}
		if got := dt.Children(v); !slices.Equal(got, kids) {
			t.Errorf("Children(%d) = %v, want %v", v, got, kids)
		}
		for w := range n {
			want := refDominates(idom, dt.Root, v, w)
			if got := dt.Dominates(v, w); got != want {
				t.Errorf("Dominates(%d, %d) = %v, want %v", v, w, got, want)
			}
			if got := dt.StrictlyDominates(v, w); got != (want && v != w) {
				t.Errorf("StrictlyDominates(%d, %d) = %v", v, w, got)
			}
		}
	}
	pre := dt.PreOrder()
	if len(pre) == 0 || pre[0] != dt.Root {
		t.Errorf("PreOrder = %v", pre)
	}
	pos := make(map[int]int)
	for i, v := range pre {
		pos[v] = i
		if v != dt.Root {
			if p, ok := pos[idom[v]]; !ok || p >= i {
				t.Errorf("PreOrder %v: %d before its idom", pre, v)
			}
		}
	}
}

func TestPostDominators(t *testing.T) {
	tests := []struct {
		name  string
		g     *Adjacency
		exit  int
		ipdom []int
		cdeps [][]int // post-dominance frontiers = control dependences
	}{
		{
			// if (0) 1 else 2; 3
			name:  "if-then-else diamond",
			g:     edges(4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}),
			exit:  3,
			ipdom: []int{3, 3, 3, -1},
			cdeps: [][]int{{}, {0}, {0}, {}},
		},
		{
			// if (0) 1; 2 — if-then without else.
			name:  "if-then",
			g:     edges(3, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}),
			exit:  2,
			ipdom: []int{2, 2, -1},
			cdeps: [][]int{{}, {0}, {}},
		},
		{
			// 0; while (1) 2; 3
			name:  "while loop",
			g:     edges(4, [2]int{0, 1}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 1}),
			exit:  3,
			ipdom: []int{1, 3, 1, -1},
			cdeps: [][]int{{}, {1}, {1}, {}},
		},
		{
			// 0; do { if (1) 2 else 3 } while (4); 5
			name:  "do-while with diamond",
			g:     edges(6, [2]int{0, 1}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 4}, [2]int{3, 4}, [2]int{4, 1}, [2]int{4, 5}),
			exit:  5,
			ipdom: []int{1, 4, 4, 4, 5, -1},
			cdeps: [][]int{{}, {4}, {1}, {1}, {4}, {}},
		},
		{
			// 0 -> 1 -> 3 (exit); 0 -> 2, 2 -> 2 never reaches the exit.
			// Paths that cannot reach the exit are ignored, so 1
			// post-dominates 0 and is not control dependent on it (a
			// virtual edge 2 -> 3 would turn this into the diamond).
			name:  "infinite loop",
			g:     edges(4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 2}),
			exit:  3,
			ipdom: []int{1, 3, -1, -1},
			cdeps: [][]int{{}, {}, {}, {}},
		},
		{
			// Early return: 0: if (..) goto 3; 1: if (..) goto 3; 2; 3 exit.
			name:  "early exits",
			g:     edges(4, [2]int{0, 3}, [2]int{0, 1}, [2]int{1, 3}, [2]int{1, 2}, [2]int{2, 3}),
			exit:  3,
			ipdom: []int{3, 3, 3, -1},
			cdeps: [][]int{{}, {0}, {1}, {}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pt := PostDominators(tc.g, tc.exit)
			if pt.Root != tc.exit || !pt.Post {
				t.Fatalf("Root, Post = %d, %v", pt.Root, pt.Post)
			}
			if !slices.Equal(pt.Idom, tc.ipdom) {
				t.Fatalf("Idom = %v, want %v", pt.Idom, tc.ipdom)
			}
			checkTree(t, pt, tc.ipdom)
			if got := pt.Frontier(tc.g); !equal2(got, tc.cdeps) {
				t.Errorf("Frontier = %v, want %v", got, tc.cdeps)
			}
			if got := ControlDependence(tc.g, tc.exit); !equal2(got, tc.cdeps) {
				t.Errorf("ControlDependence = %v, want %v", got, tc.cdeps)
			}
			// Same as the dominance frontier of the explicit reverse graph.
			r := Reverse(tc.g)
			if got := Dominators(r, tc.exit).Frontier(r); !equal2(got, tc.cdeps) {
				t.Errorf("Dominators(Reverse).Frontier = %v, want %v", got, tc.cdeps)
			}
		})
	}
}

func TestFrontier(t *testing.T) {
	tests := []struct {
		name string
		g    *Adjacency
		root int
		df   [][]int
	}{
		{
			name: "diamond",
			g:    edges(4, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}),
			root: 0,
			df:   [][]int{{}, {3}, {3}, {}},
		},
		{
			name: "loop-diamond",
			g: edges(6,
				[2]int{0, 1}, [2]int{1, 2}, [2]int{1, 3}, [2]int{2, 4}, [2]int{3, 4},
				[2]int{4, 1}, [2]int{4, 5}),
			root: 0,
			df:   [][]int{{}, {1}, {4}, {4}, {1}, {}},
		},
		{
			// Back edge into the entry: the entry is in its own frontier.
			name: "entry loop",
			g:    edges(3, [2]int{0, 1}, [2]int{1, 0}, [2]int{1, 2}),
			root: 0,
			df:   [][]int{{0}, {0}, {}},
		},
		{
			// Self loop and an edge from an unreachable node (3) that is ignored.
			name: "self loop, unreachable pred",
			g:    edges(4, [2]int{0, 1}, [2]int{1, 1}, [2]int{1, 2}, [2]int{3, 2}),
			root: 0,
			df:   [][]int{{}, {1}, {}, {}},
		},
		{
			name: "lengauer-tarjan",
			g:    lengauerTarjanGraph(),
			root: ltR,
			df: [][]int{
				ltR: {ltR}, ltA: {ltD}, ltB: {ltA, ltD, ltE}, ltC: {ltI}, ltD: {ltH},
				ltE: {ltH}, ltF: {ltI}, ltG: {ltI}, ltH: {ltE, ltK}, ltI: {ltK},
				ltJ: {ltI}, ltK: {ltR, ltI}, ltL: {ltH},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dt := Dominators(tc.g, tc.root)
			got := dt.Frontier(tc.g)
			if !equal2(got, tc.df) {
				t.Errorf("Frontier = %v, want %v", got, tc.df)
			}
			if ref := refFrontier(dt.Idom, tc.root, Preds(tc.g)); !equal2(ref, tc.df) {
				t.Errorf("table disagrees with reference: %v", ref)
			}
		})
	}
}

// TestDominatorsRandom cross-checks dominators, post-dominators and both
// frontiers against the definitions on many small random graphs.
func TestDominatorsRandom(t *testing.T) {
	for seed := range uint64(300) {
		n := 2 + int(seed%23)
		g := randomGraph(n, n+int(seed%(2*uint64(n))), seed)
		root := int(seed) % n
		dt := Dominators(g, root)
		want := refIdom(g, root)
		if !slices.Equal(dt.Idom, want) {
			t.Fatalf("seed %d: Idom = %v, want %v\ngraph %v", seed, dt.Idom, want, g.succs)
		}
		checkTree(t, dt, want)
		if got, want := dt.Frontier(g), refFrontier(want, root, Preds(g)); !equal2(got, want) {
			t.Fatalf("seed %d: Frontier = %v, want %v", seed, got, want)
		}

		pt := PostDominators(g, root)
		r := Reverse(g)
		wantP := refIdom(r, root)
		if !slices.Equal(pt.Idom, wantP) {
			t.Fatalf("seed %d: post Idom = %v, want %v", seed, pt.Idom, wantP)
		}
		checkTree(t, pt, wantP)
		succs := make([][]int, n)
		for v := range n {
			succs[v] = g.Succs(v)
		}
		if got, want := pt.Frontier(g), refFrontier(wantP, root, succs); !equal2(got, want) {
			t.Fatalf("seed %d: post Frontier = %v, want %v", seed, got, want)
		}
	}
}

func TestNewDomTree(t *testing.T) {
	g := lengauerTarjanGraph()
	dt := Dominators(g, ltR)
	nt := NewDomTree(ltR, slices.Clone(dt.Idom), false)
	checkTree(t, nt, dt.Idom)
	for _, bad := range [][]int{
		{1, -1},    // root has an idom
		{-1, 2, 1}, // cycle detached from the root
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewDomTree(0, %v) did not panic", bad)
				}
			}()
			NewDomTree(0, bad, false)
		}()
	}
}

func TestDominatorsPanics(t *testing.T) {
	g := NewAdjacency(3)
	for _, root := range []int{-1, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Dominators(root=%d) did not panic", root)
				}
			}()
			Dominators(g, root)
		}()
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("Frontier with wrong graph size did not panic")
			}
		}()
		Dominators(g, 0).Frontier(NewAdjacency(4))
	}()
}
