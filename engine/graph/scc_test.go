package graph

import (
	"slices"
	"testing"
)

func TestSCCs(t *testing.T) {
	tests := []struct {
		name string
		g    *Adjacency
		want [][]int
	}{
		{"empty", NewAdjacency(0), nil},
		{"isolated", NewAdjacency(3), [][]int{{0}, {1}, {2}}},
		{"self loop", edges(2, [2]int{1, 1}, [2]int{0, 1}), [][]int{{1}, {0}}},
		{"chain", edges(3, [2]int{0, 1}, [2]int{1, 2}), [][]int{{2}, {1}, {0}}},
		{"cycle", edges(3, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 0}), [][]int{{0, 1, 2}}},
		{
			// 0 -> outer loop {1,2,3,4} with inner loop {2,3}; 4 -> 5 -> 6 (self loop); 7 isolated.
			name: "nested loops",
			g: edges(8,
				[2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 2}, [2]int{3, 4},
				[2]int{4, 1}, [2]int{4, 5}, [2]int{5, 6}, [2]int{6, 6}),
			want: [][]int{{6}, {5}, {1, 2, 3, 4}, {0}, {7}},
		},
		{
			// Triply nested loops, visited in an order that makes the
			// component's DFS order differ from the sorted order, followed
			// by a second loop reached from the innermost one.
			name: "deep nesting",
			g: edges(9,
				[2]int{0, 5}, [2]int{5, 3}, [2]int{3, 8}, [2]int{8, 3}, // inner {3,8}
				[2]int{8, 1}, [2]int{1, 5}, // middle {1,3,5,8}
				[2]int{1, 0},                             // outer {0,1,3,5,8}
				[2]int{3, 2}, [2]int{2, 7}, [2]int{7, 2}, // second loop {2,7}
				[2]int{7, 4}, [2]int{6, 4}),
			want: [][]int{{4}, {2, 7}, {0, 1, 3, 5, 8}, {6}},
		},
		{
			// Two disjoint cycles connected by a bridge in the reverse id order.
			name: "bridge",
			g:    edges(4, [2]int{0, 1}, [2]int{1, 0}, [2]int{2, 3}, [2]int{3, 2}, [2]int{3, 0}),
			want: [][]int{{0, 1}, {2, 3}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SCCs(tc.g)
			if !equal2(got, tc.want) {
				t.Fatalf("SCCs = %v, want %v", got, tc.want)
			}
			checkSCCs(t, tc.g, got)
		})
	}
}

// checkSCCs checks the partition, sortedness, mutual reachability and the
// reverse topological order of comps.
func checkSCCs(t *testing.T, g Graph, comps [][]int) {
	t.Helper()
	n := g.Len()
	idx := ComponentIndex(comps, n)
	seen := 0
	for i, c := range comps {
		if len(c) == 0 || !slices.IsSorted(c) {
			t.Fatalf("component %d = %v not sorted/non-empty", i, c)
		}
		seen += len(c)
		reach := refReach(g, c[0], -1)
		for _, v := range c {
			if idx[v] != i || !reach[v] || !refReach(g, v, -1)[c[0]] {
				t.Fatalf("component %v is not strongly connected", c)
			}
		}
	}
	if seen != n {
		t.Fatalf("components cover %d of %d nodes", seen, n)
	}
	for u := range n {
		for _, v := range g.Succs(u) {
			if idx[v] > idx[u] {
				t.Fatalf("edge %d->%d goes from component %d to later %d", u, v, idx[u], idx[v])
			}
			if idx[u] != idx[v] && refReach(g, v, -1)[u] {
				t.Fatalf("nodes %d and %d should share a component", u, v)
			}
		}
	}
}

func TestSCCsRandom(t *testing.T) {
	for seed := range uint64(200) {
		n := 1 + int(seed%40)
		g := randomGraph(n, int(seed%(3*uint64(n)+1)), seed)
		checkSCCs(t, g, SCCs(g))
	}
}
