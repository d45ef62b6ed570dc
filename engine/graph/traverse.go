package graph

import "slices"

// dfsFrame is one entry of the explicit DFS stack: a node and the index
// of its next successor to visit. It holds no pointers, so deep stacks
// (millions of frames) cost the garbage collector nothing to scan.
type dfsFrame struct {
	node int
	next int
}

// postOrder appends to out the DFS postorder of the nodes reachable from
// roots that are not yet marked in visited, marking them. Successors are
// visited in Succs order; roots in the given order.
func postOrder(g Graph, roots []int, visited []bool, out []int) []int {
	var stack []dfsFrame
	for _, r := range roots {
		if visited[r] {
			continue
		}
		visited[r] = true
		stack = push(stack, dfsFrame{node: r})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if succs := g.Succs(top.node); top.next < len(succs) {
				w := succs[top.next]
				top.next++
				if !visited[w] {
					visited[w] = true
					stack = push(stack, dfsFrame{node: w})
				}
				continue
			}
			out = push(out, top.node)
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

// PostOrder returns the nodes reachable from roots in depth-first
// postorder: a node appears after all nodes first discovered through it.
// The search starts from each root in turn (skipping roots already
// visited) and visits successors in Succs order, exactly like the
// recursive textbook DFS but with an explicit stack. Each reachable node
// appears once; the result has length equal to the number of reachable
// nodes. O(V+E) time, O(V) space.
func PostOrder(g Graph, roots ...int) []int {
	return postOrder(g, roots, make([]bool, g.Len()), nil)
}

// ReversePostOrder returns PostOrder(g, roots...) reversed. For a single
// root it is a topological order of the reachable subgraph when that is
// acyclic, and in general every node comes before its successors except
// along back edges — the standard iteration order for forward data-flow
// analyses. O(V+E).
func ReversePostOrder(g Graph, roots ...int) []int {
	order := PostOrder(g, roots...)
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// BackEdgeTargets runs the same depth-first search as PostOrder (roots in
// the given order, successors in Succs order) and returns a slice of
// length g.Len() with true exactly for the targets of its back edges: the
// edges to a node still on the DFS stack. In a CFA these are the loop
// heads, and for reducible graphs the result does not depend on the
// order. O(V+E) time, O(V) space.
func BackEdgeTargets(g Graph, roots ...int) []bool {
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, g.Len())
	target := make([]bool, g.Len())
	var stack []dfsFrame
	for _, r := range roots {
		if color[r] != white {
			continue
		}
		color[r] = grey
		stack = push(stack, dfsFrame{node: r})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			succs := g.Succs(top.node)
			if top.next == len(succs) {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			w := succs[top.next]
			top.next++
			switch color[w] {
			case white:
				color[w] = grey
				stack = push(stack, dfsFrame{node: w})
			case grey:
				target[w] = true
			}
		}
	}
	return target
}

// BFS runs a breadth-first search from all roots at once (each at depth 0,
// duplicates ignored). order lists the reachable nodes in visiting order,
// successors enqueued in Succs order; depth has length g.Len() and holds
// the shortest edge distance from the nearest root, or -1 when the node is
// unreachable. O(V+E) time and O(V) space.
func BFS(g Graph, roots ...int) (order []int, depth []int) {
	depth = make([]int, g.Len())
	for i := range depth {
		depth[i] = -1
	}
	for _, r := range roots {
		if depth[r] < 0 {
			depth[r] = 0
			order = push(order, r)
		}
	}
	for head := 0; head < len(order); head++ {
		v := order[head]
		d := depth[v] + 1
		for _, w := range g.Succs(v) {
			if depth[w] < 0 {
				depth[w] = d
				order = push(order, w)
			}
		}
	}
	return order, depth
}

// Reachable returns a slice of length g.Len() with true exactly for the
// nodes reachable from some root (roots included). O(V+E) time, O(V)
// space.
func Reachable(g Graph, roots ...int) []bool {
	seen := make([]bool, g.Len())
	var stack []int
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			stack = push(stack, r)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range g.Succs(v) {
			if !seen[w] {
				seen[w] = true
				stack = push(stack, w)
			}
		}
	}
	return seen
}

// push appends x to s, doubling the capacity when s is full. Plain append
// grows large slices by only 1.25x, which for stacks and orders of
// millions of entries costs many full copies.
func push[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, len(s)+16)
	}
	return append(s, x)
}
