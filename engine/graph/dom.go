package graph

import (
	"fmt"
	"math"
)

// DomTree is a dominator tree (or post-dominator tree) of a graph with
// nodes 0..len(Idom)-1, as computed by [Dominators] or [PostDominators].
//
// Node d dominates n when every path from Root to n passes through d
// (post-dominates: every path from n to the exit passes through d). Only
// nodes reachable from Root (for post-dominators: that reach the exit)
// take part; the others are "unreachable" and have Idom -1, no children,
// and neither dominate nor are dominated by anything.
type DomTree struct {
	// Root is the entry node (the exit node for post-dominator trees).
	Root int
	// Idom[n] is the immediate (post-)dominator of n, or -1 when n is
	// Root or unreachable. len(Idom) is the number of graph nodes.
	Idom []int
	// Post is true for trees built by PostDominators: the tree then
	// describes the reverse of the graph it was built from.
	Post bool

	childStart []int   // children of n: child[childStart[n]:childStart[n+1]]
	child      []int   // children lists, each in increasing node order
	pre        []int32 // preorder number in the tree, -1 if unreachable
	last       []int32 // largest preorder number in n's subtree
}

// Dominators computes the dominator tree of g rooted at root using the
// iterative algorithm of Cooper, Harvey and Kennedy, "A Simple, Fast
// Dominance Algorithm" (2001): idoms are refined in reverse postorder,
// intersecting the dominator-tree paths of already-processed predecessors
// by walking up with two fingers compared by postorder number. The work
// arrays are indexed by postorder number for locality.
//
// Nodes not reachable from root get Idom -1 and are ignored, as are edges
// from them. Time O(V+E) per pass, with at most d+3 passes where d is the loop
// connectedness (in practice 2–3; worst case O(V²) on contrived graphs);
// O(V+E) space, plus O(V) to build the tree's O(1) Dominates index.
func Dominators(g Graph, root int) *DomTree {
	return dominators(g, root, false)
}

// PostDominators computes the post-dominator tree of g with the given
// exit node: the dominator tree of Reverse(g) rooted at exit. Nodes that
// cannot reach exit get Idom -1. A graph with several exits (or none
// reachable, e.g. infinite loops) should first be given a single virtual
// exit that all of them lead to. O(V+E) plus the cost of [Dominators].
func PostDominators(g Graph, exit int) *DomTree {
	return dominators(Reverse(g), exit, true)
}

func dominators(g Graph, root int, post bool) *DomTree {
	n := g.Len()
	if uint(root) >= uint(n) {
		panic(fmt.Sprintf("graph: dominators: root %d out of range [0,%d)", root, n))
	}
	if n > math.MaxInt32 {
		panic("graph: dominators: more than 2^31-1 nodes")
	}
	order := postOrder(g, []int{root}, make([]bool, n), make([]int, 0, n))
	m := len(order) // root is order[m-1]
	num := make([]int32, n)
	for i := range num {
		num[i] = -1
	}
	for i, v := range order {
		num[v] = int32(i)
	}

	// Predecessors in postorder-number space, CSR layout, reachable only.
	predStart := make([]int32, m+1)
	for _, v := range order {
		for _, w := range g.Succs(v) {
			predStart[num[w]+1]++
		}
	}
	for i := range m {
		predStart[i+1] += predStart[i]
	}
	preds := make([]int32, predStart[m])
	fill := make([]int32, m)
	copy(fill, predStart[:m])
	for i, v := range order {
		for _, w := range g.Succs(v) {
			j := num[w]
			preds[fill[j]] = int32(i)
			fill[j]++
		}
	}
	fill = nil

	// doms[i] is the current idom candidate of the node numbered i, -1 =
	// undefined. Higher number = earlier in reverse postorder.
	doms := make([]int32, m)
	for i := range doms {
		doms[i] = -1
	}
	rootNum := int32(m - 1)
	doms[rootNum] = rootNum
	for changed := true; changed; {
		changed = false
		for b := rootNum - 1; b >= 0; b-- {
			ps := preds[predStart[b]:predStart[b+1]]
			newIdom := int32(-1)
			for _, p := range ps {
				if doms[p] < 0 {
					continue
				}
				if newIdom < 0 {
					newIdom = p
					continue
				}
				// intersect(p, newIdom)
				f1, f2 := p, newIdom
				for f1 != f2 {
					for f1 < f2 {
						f1 = doms[f1]
					}
					for f2 < f1 {
						f2 = doms[f2]
					}
				}
				newIdom = f1
			}
			if doms[b] != newIdom {
				doms[b] = newIdom
				changed = true
			}
		}
	}

	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	for i := range rootNum {
		idom[order[i]] = order[doms[i]]
	}
	t := &DomTree{Root: root, Idom: idom, Post: post}
	t.index()
	return t
}

// NewDomTree builds a DomTree from an immediate-dominator array (as in
// [DomTree.Idom]: -1 for root and unreachable nodes), for trees computed
// elsewhere or deserialized. It panics if idom does not describe a tree
// rooted at root. O(V).
func NewDomTree(root int, idom []int, post bool) *DomTree {
	if uint(root) >= uint(len(idom)) || idom[root] != -1 {
		panic(fmt.Sprintf("graph: NewDomTree: bad root %d", root))
	}
	t := &DomTree{Root: root, Idom: idom, Post: post}
	t.index()
	for n, d := range idom {
		if d >= 0 && t.pre[n] < 0 {
			panic(fmt.Sprintf("graph: NewDomTree: node %d not connected to root %d", n, root))
		}
	}
	return t
}

// index builds the children lists and the preorder numbering that make
// Children and Dominates O(1).
func (t *DomTree) index() {
	n := len(t.Idom)
	t.childStart = make([]int, n+1)
	for _, d := range t.Idom {
		if d >= 0 {
			t.childStart[d+1]++
		}
	}
	for i := range n {
		t.childStart[i+1] += t.childStart[i]
	}
	t.child = make([]int, t.childStart[n])
	fill := make([]int, n)
	copy(fill, t.childStart[:n])
	for v, d := range t.Idom {
		if d >= 0 {
			t.child[fill[d]] = v
			fill[d]++
		}
	}

	// Preorder numbering with an explicit stack; subtree of n occupies the
	// preorder interval [pre[n], last[n]].
	t.pre = make([]int32, n)
	t.last = make([]int32, n)
	for i := range t.pre {
		t.pre[i] = -1
	}
	preorder := fill[:0] // reuse storage
	stack := make([]int, 1, n)
	stack[0] = t.Root
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.pre[v] >= 0 {
			panic(fmt.Sprintf("graph: dominator tree has a cycle through %d", v))
		}
		t.pre[v] = int32(len(preorder))
		preorder = append(preorder, v)
		cs := t.Children(v)
		for i := len(cs) - 1; i >= 0; i-- {
			stack = append(stack, cs[i])
		}
	}
	for _, v := range preorder {
		t.last[v] = t.pre[v]
	}
	for i := len(preorder) - 1; i > 0; i-- {
		v := preorder[i]
		if d := t.Idom[v]; t.last[v] > t.last[d] {
			t.last[d] = t.last[v]
		}
	}
}

// Len returns the number of nodes of the underlying graph. O(1).
func (t *DomTree) Len() int { return len(t.Idom) }

// Reachable reports whether n takes part in the tree: n is reachable from
// Root (for post-dominators: n can reach the exit). O(1).
func (t *DomTree) Reachable(n int) bool { return t.pre[n] >= 0 }

// Dominates reports whether a dominates b (post-dominates, for a
// post-dominator tree). Dominance is reflexive: Dominates(a, a) is true
// for every reachable a. It is false whenever a or b is unreachable. O(1),
// by comparing preorder intervals of the dominator tree: a dominates b iff
// pre[a] <= pre[b] <= last[a], where last[a] is the largest preorder
// number in a's subtree (equivalent to DFS pre/post numbering).
func (t *DomTree) Dominates(a, b int) bool {
	pa, pb := t.pre[a], t.pre[b]
	return pa >= 0 && pb >= 0 && pa <= pb && pb <= t.last[a]
}

// StrictlyDominates reports whether a dominates b and a != b. O(1).
func (t *DomTree) StrictlyDominates(a, b int) bool {
	return a != b && t.Dominates(a, b)
}

// Children returns the nodes whose immediate dominator is n, in increasing
// order; empty for leaves and unreachable nodes. The slice aliases the
// tree and must not be modified. O(1).
func (t *DomTree) Children(n int) []int {
	s, e := t.childStart[n], t.childStart[n+1]
	return t.child[s:e:e]
}

// PreOrder returns the reachable nodes in preorder of the dominator tree
// (children in increasing order), starting with Root. Every node comes
// after its dominators. O(V).
func (t *DomTree) PreOrder() []int {
	cnt := 0
	for _, p := range t.pre {
		if p >= 0 {
			cnt++
		}
	}
	out := make([]int, cnt)
	for v, p := range t.pre {
		if p >= 0 {
			out[p] = v
		}
	}
	return out
}

// Frontier returns the dominance frontier of every node, using the
// algorithm of Cooper, Harvey and Kennedy (2001): for each join
// node b and each predecessor p, walk up the tree from p to idom(b),
// adding b to the frontier of every node passed.
//
// DF(x) is the set of nodes y such that x dominates a predecessor of y
// but does not strictly dominate y. g must be the graph the tree was built
// from (the argument of Dominators or PostDominators). For a
// post-dominator tree the frontier is that of the reverse graph — the
// post-dominance frontier: y ∈ PDF(x) iff x post-dominates a successor of
// y but does not strictly post-dominate y, i.e. x is control dependent on
// the branch y (see [ControlDependence]).
//
// The result has length Len(); each frontier is sorted in increasing
// order and has no duplicates; unreachable nodes have empty frontiers and
// edges from unreachable nodes are ignored. All frontiers share one
// backing array (capacities clipped). Time O(V+E+Σ|DF|), which is
// O(V²) in the worst case but near-linear on CFGs.
func (t *DomTree) Frontier(g Graph) [][]int {
	n := len(t.Idom)
	if g.Len() != n {
		panic(fmt.Sprintf("graph: Frontier: graph has %d nodes, tree has %d", g.Len(), n))
	}
	var preds [][]int
	if !t.Post {
		preds = Preds(g)
	}
	// Collect (runner, b) pairs in increasing order of b, then bucket them
	// by runner with a stable counting sort: every frontier comes out
	// sorted, in one shared backing array, without per-node appends.
	var runners, joins []int32
	count := make([]int, n+1)
	mark := make([]int32, n) // mark[r] == b+1: b already in DF(r)
	for b := range n {
		if t.pre[b] < 0 {
			continue
		}
		var ps []int
		if t.Post {
			ps = g.Succs(b) // predecessors in the reverse graph
		} else {
			ps = preds[b]
		}
		if len(ps) < 2 && b != t.Root {
			// A single predecessor is the immediate dominator itself.
			continue
		}
		stop, tag := t.Idom[b], int32(b+1)
		for _, p := range ps {
			if t.pre[p] < 0 {
				continue
			}
			for r := p; r != stop; r = t.Idom[r] {
				if mark[r] == tag {
					// Added for this b already, and so were all of r's
					// dominators up to stop.
					break
				}
				mark[r] = tag
				count[r+1]++
				runners = push(runners, int32(r))
				joins = push(joins, int32(b))
			}
		}
	}
	for i := range n {
		count[i+1] += count[i]
	}
	back := make([]int, len(joins))
	df := make([][]int, n)
	for r := range n {
		df[r] = back[count[r]:count[r]:count[r+1]]
	}
	for i, r := range runners {
		df[r] = append(df[r], int(joins[i]))
	}
	return df
}

// ControlDependence returns, for every node n of g, the nodes n is control
// dependent on: the post-dominance frontier of n with respect to exit
// (Cytron et al. 1991). Branch node y is in the result for n iff y has a
// successor that n post-dominates while n does not strictly post-dominate
// y. Lists are sorted; nodes that cannot reach exit get empty lists. It
// equals PostDominators(g, exit).Frontier(g).
func ControlDependence(g Graph, exit int) [][]int {
	return PostDominators(g, exit).Frontier(g)
}
