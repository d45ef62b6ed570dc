// Package graph is the generic directed-graph toolkit of the model checker.
//
// Every graph-shaped structure of the engine — control-flow automata (CFA),
// program dependence graphs, the call graph, the abstract reachability graph
// (ARG, up to millions of nodes) and pixel trees — exposes itself through the
// small [Graph] interface and reuses the algorithms here: traversal orders
// ([PostOrder], [ReversePostOrder], [BFS], [Reachable]), strongly connected
// components ([SCCs]), dominator and post-dominator trees ([Dominators],
// [PostDominators]) with O(1) dominance queries and dominance frontiers
// ([DomTree.Frontier], [ControlDependence]), and Graphviz output ([WriteDOT]).
//
// # Invariants
//
//   - Nodes are dense ints 0..Len()-1. All per-node results are slices
//     indexed by node id, never maps.
//   - Succs(n) may contain duplicates and self loops; every algorithm
//     tolerates both. Callers must not modify the slice returned by Succs.
//   - Every algorithm is iterative (explicit stacks, no recursion), so a
//     graph with millions of nodes, e.g. a chain of length 10^6, cannot
//     overflow the goroutine stack.
//   - Every result is deterministic: it depends only on Len() and the order
//     of the successor lists, never on map iteration or scheduling.
//     Traversals visit successors in Succs order; node lists that are sets
//     (SCC members, dominator-tree children, dominance frontiers,
//     predecessor lists) are in increasing node order.
//   - Unless stated otherwise an algorithm runs in O(V+E) time and O(V)
//     extra space, where V = Len() and E is the total length of the
//     successor lists. Out-of-range node ids cause a panic.
//
// # Sources
//
//   - Dominators: K. D. Cooper, T. J. Harvey, K. Kennedy, "A Simple, Fast
//     Dominance Algorithm", Software Practice and Experience 4:1–10, 2001.
//     The iterative data-flow formulation over reverse postorder with the
//     two-finger "intersect" on postorder numbers, and the frontier
//     algorithm of the same paper.
//   - Strongly connected components: R. E. Tarjan, "Depth-First Search and
//     Linear Graph Algorithms", SIAM Journal on Computing 1(2):146–160,
//     1972, implemented with an explicit call stack.
//   - Control dependence as post-dominance frontiers: R. Cytron,
//     J. Ferrante, B. K. Rosen, M. N. Wegman, F. K. Zadeck, "Efficiently
//     Computing Static Single Assignment Form and the Control Dependence
//     Graph", TOPLAS 13(4), 1991.
package graph
