package graph

import "slices"

// SCCs returns the strongly connected components of g using Tarjan's
// algorithm (1972) with an explicit call stack.
//
// Every node belongs to exactly one component, so the components partition
// 0..Len()-1; a node without a cycle through it forms a singleton. The
// components come in reverse topological order of the condensation: if
// there is an edge from a node of component A to a node of a different
// component B, then B appears before A. Each component's nodes are sorted
// in increasing order. Roots are tried in order 0..Len()-1 and successors
// in Succs order, so the result is deterministic. All components share one
// backing array of length V (capacities clipped).
//
// O(V+E) time plus O(c log c) to sort each component of size c; O(V)
// extra space.
func SCCs(g Graph) [][]int {
	n := g.Len()
	const unvisited = -1
	index := make([]int, n) // DFS discovery number, or unvisited
	low := make([]int, n)   // lowest index reachable via the DFS subtree and one back/cross edge
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	// Tarjan's stack holds the nodes of not-yet-emitted components; since
	// every node is pushed and popped once, emitted components are laid
	// out contiguously in back, which becomes the result's storage.
	tstack := make([]int, 0, 64)
	back := make([]int, 0, n)
	var comps [][]int
	var call []dfsFrame
	counter := 0

	for s := range n {
		if index[s] != unvisited {
			continue
		}
		index[s], low[s] = counter, counter
		counter++
		tstack = push(tstack, s)
		onStack[s] = true
		call = push(call, dfsFrame{node: s})
		for len(call) > 0 {
			top := &call[len(call)-1]
			v := top.node
			if succs := g.Succs(v); top.next < len(succs) {
				w := succs[top.next]
				top.next++
				switch {
				case index[w] == unvisited:
					index[w], low[w] = counter, counter
					counter++
					tstack = push(tstack, w)
					onStack[w] = true
					call = push(call, dfsFrame{node: w})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			// All successors of v done: "return" from v.
			call = call[:len(call)-1]
			if low[v] == index[v] {
				i := len(tstack) - 1
				for tstack[i] != v {
					i--
				}
				start := len(back)
				for _, w := range tstack[i:] {
					onStack[w] = false
				}
				back = append(back, tstack[i:]...)
				tstack = tstack[:i]
				comp := back[start:len(back):len(back)]
				if len(comp) > 1 {
					slices.Sort(comp)
				}
				comps = push(comps, comp)
			}
			if len(call) > 0 {
				u := call[len(call)-1].node
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comps
}

// ComponentIndex maps every node to the index of its component in comps,
// as returned by [SCCs] for a graph with n nodes. O(V).
func ComponentIndex(comps [][]int, n int) []int {
	idx := make([]int, n)
	for i, c := range comps {
		for _, v := range c {
			idx[v] = i
		}
	}
	return idx
}
