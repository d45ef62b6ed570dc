package cpa

import (
	"fmt"
	"io"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Node is a node of the abstract reachability graph (ARG): one abstract
// state the algorithm produced, with its precision and how it was reached.
// Every successor the transfer relation produced becomes a node, also when
// stop covers it or merge absorbs it, so the ARG shows the whole search
// (pixel trees colour covered, merged and target nodes).
//
// Invariants: ID is the node's index in ARG.Nodes; every parent has a
// smaller ID than its child, so following Parents always reaches the root
// (ID 0).
type Node struct {
	ID    int
	State *CompositeState
	Prec  *CompositePrecision
	// Parents are the nodes this one was computed from, with the step of
	// each ARG edge; the root has none. A node produced by merge-join has
	// the parents of both merged states.
	Parents []Edge
	// CoveredBy is the reached node that covers this one (stop), or nil.
	CoveredBy *Node
	// MergedInto is the node that replaced this one in the reached set
	// (merge), or nil.
	MergedInto *Node
	// Depth is the length of the path from the root along first parents.
	Depth int

	target    bool
	inReached bool
	inWait    bool
	removed   bool
	// incomplete marks ancestors of an excluded target: their subtrees
	// miss a successor, so they must not cover other states.
	incomplete bool
	pidx       int // index in its partition's slice while inReached
	part       *partition
	seq        uint64 // waitlist insertion number
	parent1    [1]Edge
	// bucketed is set once the node is filed in the stop index of its
	// partition.
	bucketed bool
}

// Edge is an ARG edge into a node: the parent and the step taken.
type Edge struct {
	Parent *Node
	Step   cfa.Step
}

// Explain returns the explanations carried by the node's state (nil
// for a node without one).
func (n *Node) Explain() []Explanation {
	if n.State == nil {
		return nil
	}
	return n.State.Explain()
}

// IsTarget reports whether the node's state is a target state.
func (n *Node) IsTarget() bool { return n.target }

// Covered reports whether stop covered the node.
func (n *Node) Covered() bool { return n.CoveredBy != nil }

// Merged reports whether merge replaced the node.
func (n *Node) Merged() bool { return n.MergedInto != nil }

// InReached reports whether the node is currently in the reached set.
func (n *Node) InReached() bool { return n.inReached }

// Removed reports whether Algorithm.Remove removed the node.
func (n *Node) Removed() bool { return n.removed }

// Location returns the node's program location, or nil.
func (n *Node) Location() *cfa.Location { return n.State.Location() }

// Path returns the interprocedural path from the root to n along first
// parents: len(Path) == n.Depth. With merge-sep the ARG is a tree and the
// path is unique; after merge-join it is one of the merged paths.
func (n *Node) Path() []cfa.Step {
	p := make([]cfa.Step, n.Depth)
	for i := n.Depth - 1; n != nil && len(n.Parents) > 0; i-- {
		p[i] = n.Parents[0].Step
		n = n.Parents[0].Parent
	}
	return p
}

// PathNodes returns the nodes from the root to n along first parents
// (len = n.Depth+1).
func (n *Node) PathNodes() []*Node {
	p := make([]*Node, n.Depth+1)
	for i := n.Depth; n != nil; i-- {
		p[i] = n
		if len(n.Parents) == 0 {
			break
		}
		n = n.Parents[0].Parent
	}
	return p
}

func (n *Node) String() string { return fmt.Sprintf("n%d", n.ID) }

// ARG is the abstract reachability graph. As a graph.Graph its nodes are
// the Node IDs and its edges the parent → child edges (Len and Succs are
// O(1) and do not allocate).
type ARG struct {
	Nodes []*Node
	succs [][]int
	slab  []int  // backing store for successor lists
	chunk []Node // backing store for nodes
}

// Children returns the children of n in creation order.
func (g *ARG) Children(n *Node) []*Node {
	out := make([]*Node, len(g.succs[n.ID]))
	for i, id := range g.succs[n.ID] {
		out[i] = g.Nodes[id]
	}
	return out
}

// reserve makes room for k children of n without reallocation.
func (g *ARG) reserve(n *Node, k int) {
	if k == 0 || len(g.succs[n.ID]) > 0 {
		return
	}
	if cap(g.slab)-len(g.slab) < k {
		g.slab = make([]int, 0, max(4096, k))
	}
	l := len(g.slab)
	g.succs[n.ID] = g.slab[l : l : l+k]
	g.slab = g.slab[:l+k]
}

// Root returns the root node (nil before the first Run).
func (g *ARG) Root() *Node {
	if len(g.Nodes) == 0 {
		return nil
	}
	return g.Nodes[0]
}

// Len returns the number of nodes.
func (g *ARG) Len() int { return len(g.Nodes) }

// Succs returns the IDs of n's children. The slice must not be modified.
func (g *ARG) Succs(n int) []int {
	s := g.succs[n]
	return s[:len(s):len(s)]
}

func (g *ARG) add(s *CompositeState, p *CompositePrecision) *Node {
	if len(g.chunk) == 0 {
		g.chunk = make([]Node, 256)
	}
	n := &g.chunk[0]
	g.chunk = g.chunk[1:]
	n.ID, n.State, n.Prec, n.pidx = len(g.Nodes), s, p, -1
	n.target = s.IsTarget()
	g.Nodes = append(g.Nodes, n)
	g.succs = append(g.succs, nil)
	return n
}

func (g *ARG) link(parent, child *Node, step cfa.Step) {
	if len(child.Parents) == 0 {
		child.parent1[0] = Edge{Parent: parent, Step: step}
		child.Parents = child.parent1[:1:1]
		child.Depth = parent.Depth + 1
	} else {
		child.Parents = append(child.Parents, Edge{Parent: parent, Step: step})
	}
	g.succs[parent.ID] = append(g.succs[parent.ID], child.ID)
}

// Counts summarises the ARG.
type Counts struct {
	Nodes, Covered, Merged, Targets, Removed, MaxDepth int
}

// Counts counts nodes by kind.
func (g *ARG) Counts() Counts {
	var c Counts
	c.Nodes = len(g.Nodes)
	for _, n := range g.Nodes {
		if n.CoveredBy != nil {
			c.Covered++
		}
		if n.MergedInto != nil {
			c.Merged++
		}
		if n.target {
			c.Targets++
		}
		if n.removed {
			c.Removed++
		}
		if n.Depth > c.MaxDepth {
			c.MaxDepth = n.Depth
		}
	}
	return c
}

// WriteText writes the stable text form of the ARG: a summary line, then
// one line per node in ID order:
//
//	arg: 6 nodes, 1 covered, 0 merged, 1 target, depth 5
//	n0 main:L0 root
//	n1 main:L2 <- n0 decl int x
//	n4 main:L3 <- n3 x = x + 1  covered by n2
//	n5 main:L1 <- n4 reach_error()  target
//
// A node shows its function and location, its first parent and the step
// (further parents after "+"), and its marks.
func (g *ARG) WriteText(w io.Writer) error {
	var b strings.Builder
	c := g.Counts()
	fmt.Fprintf(&b, "arg: %d nodes, %d covered, %d merged, %d target", c.Nodes, c.Covered, c.Merged, c.Targets)
	if c.Targets != 1 {
		b.WriteString("s")
	}
	fmt.Fprintf(&b, ", depth %d\n", c.MaxDepth)
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "n%d", n.ID)
		if l := n.Location(); l != nil {
			fmt.Fprintf(&b, " %s:%s", l.Func.Name, l)
		}
		if len(n.Parents) == 0 {
			b.WriteString(" root")
		}
		for i, e := range n.Parents {
			if i == 0 {
				fmt.Fprintf(&b, " <- n%d %s", e.Parent.ID, stepString(e.Step))
			} else {
				fmt.Fprintf(&b, " + n%d", e.Parent.ID)
			}
		}
		if n.CoveredBy != nil {
			fmt.Fprintf(&b, "  covered by n%d", n.CoveredBy.ID)
		}
		if n.MergedInto != nil {
			fmt.Fprintf(&b, "  merged into n%d", n.MergedInto.ID)
		}
		if n.target {
			b.WriteString("  target")
		}
		if n.removed {
			b.WriteString("  removed")
		}
		if r := n.State.TruncatedReason(); r != "" {
			fmt.Fprintf(&b, "  truncated: %s", r)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text returns the text form (see WriteText).
func (g *ARG) Text() string {
	var b strings.Builder
	g.WriteText(&b)
	return b.String()
}
