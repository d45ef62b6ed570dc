package pixeltree

import (
	"math/rand/v2"
	"sync"
)

// adjTree is a Tree given by successor lists and a kind map.
type adjTree struct {
	succs [][]int
	kinds map[int]Kind
}

func (t adjTree) Len() int          { return len(t.succs) }
func (t adjTree) Succs(n int) []int { return t.succs[n] }
func (t adjTree) Kind(n int) Kind   { return t.kinds[n] }

// chain returns 0 → 1 → … → n-1.
func chain(n int) adjTree {
	s := make([][]int, n)
	for v := range n - 1 {
		s[v] = []int{v + 1}
	}
	return adjTree{succs: s}
}

// binary returns the complete binary tree with the given number of levels,
// nodes numbered in BFS order (children of v are 2v+1, 2v+2).
func binary(levels int, kinds map[int]Kind) adjTree {
	n := 1<<levels - 1
	s := make([][]int, n)
	for v := range n {
		if 2*v+2 < n {
			s[v] = []int{2*v + 1, 2*v + 2}
		}
	}
	return adjTree{succs: s, kinds: kinds}
}

// fan returns a root with w children.
func fan(w int, kinds map[int]Kind) adjTree {
	s := make([][]int, w+1)
	for i := range w {
		s[0] = append(s[0], i+1)
	}
	return adjTree{succs: s, kinds: kinds}
}

// csrTree is a compact tree for large benchmarks.
type csrTree struct {
	start []int // children of v: child[start[v]:start[v+1]]
	child []int
	kinds []Kind
}

func (t *csrTree) Len() int          { return len(t.kinds) }
func (t *csrTree) Succs(n int) []int { return t.child[t.start[n]:t.start[n+1]:t.start[n+1]] }
func (t *csrTree) Kind(n int) Kind   { return t.kinds[n] }

// randomARG builds an ARG-like random tree with n states, grown
// breadth-first: each expanded state has 1–3 children (mostly 1), 2% of
// the states are covered leaves, 1% merged, and ten states are targets;
// states left when n is reached are unexpanded (the waitlist).
func randomARG(n int, seed uint64) *csrTree {
	r := rand.New(rand.NewPCG(seed, 7))
	t := &csrTree{start: make([]int, n+1), child: make([]int, 0, n-1), kinds: make([]Kind, n)}
	next := 1
	v := 0
	for ; v < n && next < n; v++ {
		t.start[v] = len(t.child)
		switch x := r.IntN(100); {
		case v == 0:
		case x < 2:
			t.kinds[v] = Covered
			continue
		case x < 3:
			t.kinds[v] = Merged
		}
		k := 1
		switch x := r.IntN(100); {
		case x < 20:
			k = 2
		case x < 25:
			k = 3
		}
		for ; k > 0 && next < n; k-- {
			t.child = append(t.child, next)
			next++
		}
	}
	for ; v < n; v++ {
		t.start[v] = len(t.child)
		if t.kinds[v] == Ordinary {
			t.kinds[v] = Unexpanded
		}
	}
	t.start[n] = len(t.child)
	for range 10 {
		t.kinds[n/2+r.IntN(n/2)] = Target
	}
	return t
}

var bigARG = sync.OnceValue(func() *csrTree { return randomARG(1_000_000, 1) })
