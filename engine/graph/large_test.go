package graph

import (
	"runtime/debug"
	"testing"
)

// TestMillionChain runs every algorithm on the chain 0 -> 1 -> ... -> n-1
// (and on the cycle closing it) with n = 1,000,000. The goroutine stack
// is capped at 1 MiB, far below what a recursive DFS of depth 10^6 needs,
// so any recursion would crash the test binary.
func TestMillionChain(t *testing.T) {
	const n = 1_000_000
	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))

	g := NewAdjacency(n)
	for v := 1; v < n; v++ {
		g.AddEdge(v-1, v)
	}

	po := PostOrder(g, 0)
	rpo := ReversePostOrder(g, 0)
	if len(po) != n || len(rpo) != n {
		t.Fatalf("len(PostOrder), len(RPO) = %d, %d", len(po), len(rpo))
	}
	for i := range n {
		if po[i] != n-1-i || rpo[i] != i {
			t.Fatalf("PostOrder[%d] = %d, RPO[%d] = %d", i, po[i], i, rpo[i])
		}
	}
	order, depth := BFS(g, 0)
	if len(order) != n || depth[n-1] != n-1 {
		t.Fatalf("BFS: %d nodes, depth[last] = %d", len(order), depth[n-1])
	}
	if r := Reachable(g, n/2); r[n/2-1] || !r[n-1] {
		t.Fatalf("Reachable from the middle is wrong")
	}

	comps := SCCs(g)
	if len(comps) != n || comps[0][0] != n-1 || comps[n-1][0] != 0 {
		t.Fatalf("SCCs on chain: %d comps, first %v, last %v", len(comps), comps[0], comps[len(comps)-1])
	}

	dt := Dominators(g, 0)
	pt := PostDominators(g, n-1)
	for v := 1; v < n; v++ {
		if dt.Idom[v] != v-1 || pt.Idom[v-1] != v {
			t.Fatalf("idom(%d) = %d, ipdom(%d) = %d", v, dt.Idom[v], v-1, pt.Idom[v-1])
		}
	}
	if !dt.Dominates(0, n-1) || dt.Dominates(n-1, 0) || !pt.Dominates(n-1, 0) {
		t.Fatalf("Dominates on chain is wrong")
	}
	if len(dt.PreOrder()) != n {
		t.Fatalf("PreOrder length %d", len(dt.PreOrder()))
	}
	for v, f := range dt.Frontier(g) {
		if len(f) != 0 {
			t.Fatalf("Frontier(%d) = %v on a chain", v, f)
		}
	}

	// Close the cycle: one component of size n; every frontier is {0}.
	g.AddEdge(n-1, 0)
	comps = SCCs(g)
	if len(comps) != 1 || len(comps[0]) != n || comps[0][0] != 0 || comps[0][n-1] != n-1 {
		t.Fatalf("SCCs on cycle: %d comps", len(comps))
	}
	dt = Dominators(g, 0)
	df := dt.Frontier(g)
	for v := range n {
		if len(df[v]) != 1 || df[v][0] != 0 {
			t.Fatalf("cycle Frontier(%d) = %v, want [0]", v, df[v])
		}
	}
	// The exit's edge back to 0 makes every node control dependent on it.
	for v, c := range ControlDependence(g, n-1) {
		if len(c) != 1 || c[0] != n-1 {
			t.Fatalf("cycle ControlDependence(%d) = %v, want [%d]", v, c, n-1)
		}
	}
	var sink countWriter
	if err := WriteDOT(&sink, g, "chain", nil, nil); err != nil || sink == 0 {
		t.Fatalf("WriteDOT: %v, %d bytes", err, sink)
	}
}

type countWriter int

func (w *countWriter) Write(p []byte) (int, error) {
	*w += countWriter(len(p))
	return len(p), nil
}
