package graph

import (
	"math/rand/v2"
	"slices"
)

// edges builds an *Adjacency with n nodes from an edge list.
func edges(n int, es ...[2]int) *Adjacency {
	g := NewAdjacency(n)
	for _, e := range es {
		g.AddEdge(e[0], e[1])
	}
	return g
}

// randomGraph returns a graph with n nodes and m random edges (duplicates
// and self loops possible), deterministic in seed.
func randomGraph(n, m int, seed uint64) *Adjacency {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := NewAdjacency(n)
	for range m {
		g.AddEdge(r.IntN(n), r.IntN(n))
	}
	return g
}

// refReach returns the nodes reachable from root, never entering skip
// (skip = -1 for none). If root == skip nothing is reachable.
func refReach(g Graph, root, skip int) []bool {
	seen := make([]bool, g.Len())
	if root == skip {
		return seen
	}
	var visit func(int)
	visit = func(v int) {
		seen[v] = true
		for _, w := range g.Succs(v) {
			if w != skip && !seen[w] {
				visit(w)
			}
		}
	}
	visit(root)
	return seen
}

// refIdom computes immediate dominators by the definition: d dominates n
// iff n is unreachable from root once d is removed.
func refIdom(g Graph, root int) []int {
	n := g.Len()
	reach := refReach(g, root, -1)
	dom := make([][]bool, n) // dom[d][v]: d dominates v
	for d := range n {
		dom[d] = make([]bool, n)
		if !reach[d] {
			continue
		}
		without := refReach(g, root, d)
		for v := range n {
			dom[d][v] = reach[v] && !without[v]
		}
	}
	idom := make([]int, n)
	for v := range n {
		idom[v] = -1
		if !reach[v] || v == root {
			continue
		}
		// The strict dominator dominated by all other strict dominators.
		for d := range n {
			if d == v || !dom[d][v] {
				continue
			}
			ok := true
			for e := range n {
				if e != v && dom[e][v] && !dom[e][d] {
					ok = false
					break
				}
			}
			if ok {
				idom[v] = d
			}
		}
	}
	return idom
}

// refDominates answers dominance by walking the idom chain.
func refDominates(idom []int, root, a, b int) bool {
	if b != root && idom[b] < 0 || a != root && idom[a] < 0 {
		return false
	}
	for v := b; v >= 0; v = idom[v] {
		if v == a {
			return true
		}
	}
	return false
}

// refFrontier computes dominance frontiers by the definition over the
// given predecessor lists.
func refFrontier(idom []int, root int, preds [][]int) [][]int {
	n := len(idom)
	df := make([][]int, n)
	for x := range n {
		for y := range n {
			if refDominates(idom, root, x, y) && x != y {
				continue
			}
			for _, p := range preds[y] {
				if refDominates(idom, root, x, p) {
					df[x] = append(df[x], y)
					break
				}
			}
		}
	}
	return df
}

// refPostOrder is the recursive textbook DFS.
func refPostOrder(g Graph, roots ...int) []int {
	seen := make([]bool, g.Len())
	var out []int
	var visit func(int)
	visit = func(v int) {
		seen[v] = true
		for _, w := range g.Succs(v) {
			if !seen[w] {
				visit(w)
			}
		}
		out = append(out, v)
	}
	for _, r := range roots {
		if !seen[r] {
			visit(r)
		}
	}
	return out
}

// normalize maps nil inner slices to empty ones for comparison.
func normalize(xs [][]int) [][]int {
	out := make([][]int, len(xs))
	for i, x := range xs {
		out[i] = slices.Clip(append([]int{}, x...))
	}
	return out
}

func equal2(a, b [][]int) bool {
	return slices.EqualFunc(normalize(a), normalize(b), slices.Equal[[]int])
}
