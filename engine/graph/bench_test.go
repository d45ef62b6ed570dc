package graph

import (
	"math/rand/v2"
	"sync"
	"testing"
)

const benchN = 1_000_000

var benchGraph = sync.OnceValue(func() *Adjacency {
	// 1,000,000 nodes, out-degree 3: a chain edge v -> v+1 (so everything is
	// reachable from 0) plus two uniformly random edges per node.
	r := rand.New(rand.NewPCG(1, 2))
	g := NewAdjacency(benchN)
	for v := range benchN {
		if v+1 < benchN {
			g.AddEdge(v, v+1)
		}
		g.AddEdge(v, r.IntN(benchN))
		g.AddEdge(v, r.IntN(benchN))
	}
	return g
})

func BenchmarkDominators(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	for b.Loop() {
		Dominators(g, 0)
	}
}

func BenchmarkPostDominators(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	for b.Loop() {
		PostDominators(g, benchN-1)
	}
}

func BenchmarkFrontier(b *testing.B) {
	g := benchGraph()
	dt := Dominators(g, 0)
	b.ResetTimer()
	for b.Loop() {
		dt.Frontier(g)
	}
}

func BenchmarkSCCs(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	for b.Loop() {
		SCCs(g)
	}
}

func BenchmarkPostOrder(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	for b.Loop() {
		PostOrder(g, 0)
	}
}

func BenchmarkPreds(b *testing.B) {
	g := benchGraph()
	b.ResetTimer()
	for b.Loop() {
		Preds(g)
	}
}

// Sparse CFG-like graph: a chain with short forward branches and
// occasional back edges, where Frontier is near-linear.
func BenchmarkDominatorsCFG(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	g := NewAdjacency(benchN)
	for v := range benchN - 1 {
		g.AddEdge(v, v+1)
		switch x := r.IntN(10); {
		case x < 3 && v+5 < benchN:
			g.AddEdge(v, v+1+r.IntN(4))
		case x == 3 && v > 20:
			g.AddEdge(v, v-1-r.IntN(20))
		}
	}
	b.ResetTimer()
	for b.Loop() {
		dt := Dominators(g, 0)
		dt.Frontier(g)
	}
}
