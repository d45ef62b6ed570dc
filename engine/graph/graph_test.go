package graph

import (
	"slices"
	"testing"
)

func TestAdjacency(t *testing.T) {
	var z Adjacency
	if z.Len() != 0 {
		t.Fatalf("zero Adjacency Len = %d", z.Len())
	}
	g := NewAdjacency(2)
	if id := g.AddNode(); id != 2 {
		t.Fatalf("AddNode = %d, want 2", id)
	}
	g.AddEdge(0, 2)
	g.AddEdge(0, 1)
	g.AddEdge(0, 2) // duplicate kept
	g.AddEdge(2, 2) // self loop kept
	if got, want := g.Succs(0), []int{2, 1, 2}; !slices.Equal(got, want) {
		t.Fatalf("Succs(0) = %v, want %v", got, want)
	}
	if g.Len() != 3 || g.NumEdges() != 4 {
		t.Fatalf("Len, NumEdges = %d, %d", g.Len(), g.NumEdges())
	}
	// Appending to a returned slice must not corrupt the graph.
	s := append(g.Succs(1), 0)
	_ = s
	g.AddEdge(1, 2)
	if got := g.Succs(1); !slices.Equal(got, []int{2}) {
		t.Fatalf("Succs(1) = %v", got)
	}
	c := Copy(g)
	g.AddEdge(1, 0)
	if got := c.Succs(1); !slices.Equal(got, []int{2}) {
		t.Fatalf("Copy aliased: %v", got)
	}
	for _, e := range [][2]int{{-1, 0}, {0, 3}, {3, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("AddEdge(%d, %d) did not panic", e[0], e[1])
				}
			}()
			g.AddEdge(e[0], e[1])
		}()
	}
}

func TestPredsReverse(t *testing.T) {
	g := edges(4, [2]int{2, 0}, [2]int{0, 1}, [2]int{0, 3}, [2]int{2, 1}, [2]int{1, 1}, [2]int{3, 1}, [2]int{0, 1})
	want := [][]int{{2}, {0, 0, 1, 2, 3}, {}, {0}}
	if got := Preds(g); !equal2(got, want) {
		t.Fatalf("Preds = %v, want %v", got, want)
	}
	r := Reverse(g)
	for v := range 4 {
		if !slices.Equal(r.Succs(v), want[v]) {
			t.Fatalf("Reverse.Succs(%d) = %v, want %v", v, r.Succs(v), want[v])
		}
	}
	// Reverse graphs are independent, mutable Adjacency values.
	r.AddEdge(2, 3)
	if got := r.Succs(3); !slices.Equal(got, []int{0}) {
		t.Fatalf("AddEdge on Reverse clobbered a neighbour list: %v", got)
	}
}

func TestTraversals(t *testing.T) {
	// 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 0 (back edge), 4 -> 0 (unreachable from 0), 5 isolated.
	g := edges(6, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 3}, [2]int{2, 3}, [2]int{3, 0}, [2]int{4, 0})
	tests := []struct {
		name      string
		roots     []int
		post, rpo []int
		bfs       []int
		depth     []int
	}{
		{"entry", []int{0}, []int{3, 1, 2, 0}, []int{0, 2, 1, 3}, []int{0, 1, 2, 3}, []int{0, 1, 1, 2, -1, -1}},
		{"from 2", []int{2}, []int{1, 0, 3, 2}, []int{2, 3, 0, 1}, []int{2, 3, 0, 1}, []int{2, 3, 0, 1, -1, -1}},
		{"two roots", []int{5, 4}, []int{5, 3, 1, 2, 0, 4}, []int{4, 0, 2, 1, 3, 5}, []int{5, 4, 0, 1, 2, 3}, []int{1, 2, 2, 3, 0, 0}},
		{"dup roots", []int{3, 3, 0}, []int{1, 2, 0, 3}, []int{3, 0, 2, 1}, []int{3, 0, 1, 2}, []int{0, 1, 1, 0, -1, -1}},
		{"no roots", nil, nil, nil, nil, []int{-1, -1, -1, -1, -1, -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := PostOrder(g, tc.roots...); !slices.Equal(got, tc.post) {
				t.Errorf("PostOrder = %v, want %v", got, tc.post)
			}
			if got := ReversePostOrder(g, tc.roots...); !slices.Equal(got, tc.rpo) {
				t.Errorf("ReversePostOrder = %v, want %v", got, tc.rpo)
			}
			order, depth := BFS(g, tc.roots...)
			if !slices.Equal(order, tc.bfs) || !slices.Equal(depth, tc.depth) {
				t.Errorf("BFS = %v, %v; want %v, %v", order, depth, tc.bfs, tc.depth)
			}
			reach := Reachable(g, tc.roots...)
			for v := range g.Len() {
				if reach[v] != (tc.depth[v] >= 0) {
					t.Errorf("Reachable[%d] = %v", v, reach[v])
				}
			}
		})
	}
}

func TestPostOrderMatchesRecursive(t *testing.T) {
	for seed := range uint64(50) {
		g := randomGraph(30, 60, seed)
		for _, roots := range [][]int{{0}, {7, 3}, {29, 0, 29}} {
			if got, want := PostOrder(g, roots...), refPostOrder(g, roots...); !slices.Equal(got, want) {
				t.Fatalf("seed %d roots %v: PostOrder = %v, want %v", seed, roots, got, want)
			}
		}
	}
}

func TestBackEdgeTargets(t *testing.T) {
	// 0 → 1 → 2 → 1 (loop at 1), 2 → 3 → 3 (self loop at 3), 4 → 0
	// (4 is not a root: never visited).
	g := NewAdjacency(5)
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 3}, {4, 0}} {
		g.AddEdge(e[0], e[1])
	}
	got := BackEdgeTargets(g, 0)
	want := []bool{false, true, false, true, false}
	if !slices.Equal(got, want) {
		t.Errorf("BackEdgeTargets = %v, want %v", got, want)
	}
	// Cross and forward edges are not back edges: 0 → 1, 0 → 2, 1 → 2.
	d := NewAdjacency(3)
	d.AddEdge(0, 1)
	d.AddEdge(0, 2)
	d.AddEdge(1, 2)
	if got := BackEdgeTargets(d, 0); slices.Contains(got, true) {
		t.Errorf("acyclic graph has back-edge targets %v", got)
	}
}
