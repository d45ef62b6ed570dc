package cpa

import "github.com/reverify/reverify/engine/cfa"

// ShapeKind is how a picture of the exploration draws a node of a
// Shape.
type ShapeKind uint8

// The kinds of Shape nodes (seed 000, section 3.5: pixel trees colour
// covered, merged and target states).
const (
	ShapeOrdinary ShapeKind = iota
	ShapeCovered            // stop covered the node
	ShapeMerged             // merge replaced the node
	ShapeTarget             // a target state
)

// Shape is the shape of an ARG without its states: its nodes (IDs
// 0…Len()-1, the root 0), the parent → child edges in creation order and
// each node's ShapeKind. It is what a picture of the exploration needs
// (report/pixeltree), at about 17 bytes a node where the ARG holds each
// abstract state: the results of many properties keep their shapes
// (Config.KeepShape) and not their reached sets. As a graph.Graph its
// Len and Succs are O(1) and do not allocate.
type Shape struct {
	first []int // node n's children are child[first[n]:first[n+1]]
	child []int
	kind  []ShapeKind
}

// ShapeOf returns the shape of g.
func ShapeOf(g *ARG) *Shape {
	n := g.Len()
	s := &Shape{first: make([]int, n+1), kind: make([]ShapeKind, n)}
	total := 0
	for i := 0; i < n; i++ {
		total += len(g.succs[i])
	}
	s.child = make([]int, 0, total)
	for i, node := range g.Nodes {
		s.first[i] = len(s.child)
		s.child = append(s.child, g.succs[i]...)
		switch {
		case node.IsTarget():
			s.kind[i] = ShapeTarget
		case node.Covered():
			s.kind[i] = ShapeCovered
		case node.Merged():
			s.kind[i] = ShapeMerged
		}
	}
	s.first[n] = len(s.child)
	return s
}

// Len returns the number of nodes.
func (s *Shape) Len() int { return len(s.kind) }

// Succs returns the IDs of n's children. The slice must not be modified.
func (s *Shape) Succs(n int) []int {
	c := s.child[s.first[n]:s.first[n+1]]
	return c[:len(c):len(c)]
}

// Kind returns node n's kind.
func (s *Shape) Kind(n int) ShapeKind { return s.kind[n] }

// TargetPath returns the IDs of the nodes from the root to the first
// target node of g whose path takes the steps of cex (its
// counterexample), root first; nil when none does or cex is empty.
func TargetPath(g *ARG, cex []cfa.Step) []int {
	if len(cex) == 0 {
		return nil
	}
	for _, n := range g.Nodes {
		if n.IsTarget() && sameSteps(n.Path(), cex) {
			ps := n.PathNodes()
			ids := make([]int, len(ps))
			for i, p := range ps {
				ids[i] = p.ID
			}
			return ids
		}
	}
	return nil
}

// sameSteps reports whether a and b take the same steps.
func sameSteps(a, b []cfa.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Edge != b[i].Edge || a[i].Kind != b[i].Kind {
			return false
		}
	}
	return true
}
