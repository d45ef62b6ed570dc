package graph

import "fmt"

// Graph is a directed graph over nodes 0..Len()-1.
//
// Succs(n) returns the successors of n in a fixed order; algorithms in this
// package visit them in that order. The returned slice is owned by the
// graph and must not be modified by the caller. Implementations should make
// Succs O(1) (no allocation), since algorithms call it once per visited
// node.
type Graph interface {
	Len() int
	Succs(n int) []int
}

// Adjacency is a mutable [Graph] stored as one successor list per node.
// Memory is O(V+E). The zero value is an empty graph ready to use.
type Adjacency struct {
	succs [][]int
}

var _ Graph = (*Adjacency)(nil)

// NewAdjacency returns a graph with n nodes 0..n-1 and no edges.
func NewAdjacency(n int) *Adjacency {
	if n < 0 {
		panic(fmt.Sprintf("graph: NewAdjacency(%d): negative size", n))
	}
	return &Adjacency{succs: make([][]int, n)}
}

// AddNode adds a node without edges and returns its id, which is the
// previous Len(). Amortized O(1).
func (a *Adjacency) AddNode() int {
	a.succs = append(a.succs, nil)
	return len(a.succs) - 1
}

// AddEdge appends to to the successor list of from. Duplicate edges and
// self loops are kept as given. Amortized O(1). It panics if either node is
// out of range.
func (a *Adjacency) AddEdge(from, to int) {
	if uint(from) >= uint(len(a.succs)) || uint(to) >= uint(len(a.succs)) {
		panic(fmt.Sprintf("graph: AddEdge(%d, %d): node out of range [0,%d)", from, to, len(a.succs)))
	}
	a.succs[from] = append(a.succs[from], to)
}

// Len returns the number of nodes. O(1).
func (a *Adjacency) Len() int { return len(a.succs) }

// Succs returns the successors of n in insertion order. The slice aliases
// the graph's storage (its capacity is clipped, so appending to it does not
// corrupt the graph) and must not be modified. O(1).
func (a *Adjacency) Succs(n int) []int {
	s := a.succs[n]
	return s[:len(s):len(s)]
}

// NumEdges returns the total number of edges, counting duplicates. O(V).
func (a *Adjacency) NumEdges() int {
	e := 0
	for _, s := range a.succs {
		e += len(s)
	}
	return e
}

// Copy returns a deep copy of any Graph as an *Adjacency, with the same
// successor order. O(V+E); the successor lists share one backing array.
func Copy(g Graph) *Adjacency {
	n := g.Len()
	e := 0
	for v := range n {
		e += len(g.Succs(v))
	}
	back := make([]int, 0, e)
	succs := make([][]int, n)
	for v := range n {
		s := len(back)
		back = append(back, g.Succs(v)...)
		succs[v] = back[s:len(back):len(back)]
	}
	return &Adjacency{succs: succs}
}

// Preds returns the predecessor lists of g: Preds(g)[v] lists every u with
// an edge u→v, once per such edge, in increasing order of u (edges from the
// same u in Succs order). The result has length g.Len(); all lists share a
// single backing array of length E (each list's capacity is clipped). O(V+E)
// time, two passes over the edges.
func Preds(g Graph) [][]int {
	n := g.Len()
	start := make([]int, n+1)
	for u := range n {
		for _, v := range g.Succs(u) {
			start[v+1]++
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	back := make([]int, start[n])
	fill := make([]int, n)
	copy(fill, start[:n])
	for u := range n {
		for _, v := range g.Succs(u) {
			back[fill[v]] = u
			fill[v]++
		}
	}
	preds := make([][]int, n)
	for v := range n {
		preds[v] = back[start[v]:start[v+1]:start[v+1]]
	}
	return preds
}

// Reverse returns the reverse (predecessor) graph of g: it has the same
// nodes and an edge v→u for every edge u→v of g. Successor lists of the
// result are ordered as in [Preds]. O(V+E).
func Reverse(g Graph) *Adjacency {
	return &Adjacency{succs: Preds(g)}
}
