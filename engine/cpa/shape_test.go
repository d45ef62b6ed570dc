package cpa_test

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/cpa"
)

// TestShapeOf: the shape of an ARG has its nodes, its parent → child
// edges in order and each node's kind, and the target path of a
// counterexample is the path of the node whose steps it takes.
func TestShapeOf(t *testing.T) {
	arg, target := runningARG(t)
	s := cpa.ShapeOf(arg)
	if s.Len() != arg.Len() {
		t.Fatalf("shape has %d nodes, the ARG %d", s.Len(), arg.Len())
	}
	kinds := map[cpa.ShapeKind]int{}
	for n := 0; n < arg.Len(); n++ {
		if got, want := s.Succs(n), arg.Succs(n); len(got) != len(want) {
			t.Fatalf("node %d: %d children, want %d", n, len(got), len(want))
		} else {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("node %d: children %v, want %v", n, got, want)
				}
			}
		}
		node := arg.Nodes[n]
		want := cpa.ShapeOrdinary
		switch {
		case node.IsTarget():
			want = cpa.ShapeTarget
		case node.Covered():
			want = cpa.ShapeCovered
		case node.Merged():
			want = cpa.ShapeMerged
		}
		if s.Kind(n) != want {
			t.Errorf("node %d: kind %d, want %d", n, s.Kind(n), want)
		}
		kinds[want]++
	}
	if kinds[cpa.ShapeTarget] == 0 || kinds[cpa.ShapeOrdinary] == 0 {
		t.Errorf("kinds %v: want targets and ordinary nodes", kinds)
	}
	path := cpa.TargetPath(arg, target.Path())
	if len(path) != target.Depth+1 || path[0] != 0 || path[len(path)-1] != target.ID {
		t.Errorf("target path %v, want root … n%d (%d nodes)", path, target.ID, target.Depth+1)
	}
	if cpa.TargetPath(arg, nil) != nil {
		t.Error("a path for no counterexample")
	}
}

// runningARG is the ARG of counter's reachable error and its target.
func runningARG(t *testing.T) (*cpa.ARG, *cpa.Node) {
	alg, st, n := cpatest.Run(t, counter(t, 3), cpatest.Config{}, cpa.Options{})
	if st != cpa.Target || n == nil {
		t.Fatalf("status %v", st)
	}
	return alg.ARG(), n
}
