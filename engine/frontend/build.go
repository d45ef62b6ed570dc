package frontend

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// builder constructs the CFA of one function as a graph of nodes that can
// be merged (union-find): control that simply continues at another node
// (a join after if/else, break, continue, goto, fall-through) merges the
// current node into the target instead of adding a no-op edge. The graph
// is emitted into the cfa.Program at the end, keeping only the nodes
// reachable from the entry, numbered in creation order.
type builder struct {
	parent   []int32
	terminal []bool
	edges    []bedge
	entry    int
	exit     int
	undo     []func()
}

type bedge struct {
	from, to int
	op       cfa.Op
	pos      cfa.Range
	text     string
}

func newBuilder() *builder {
	b := &builder{}
	b.entry = b.node()
	b.exit = b.node()
	return b
}

func (b *builder) node() int {
	b.parent = append(b.parent, -1)
	b.terminal = append(b.terminal, false)
	return len(b.parent) - 1
}

func (b *builder) find(n int) int {
	for b.parent[n] >= 0 {
		n = int(b.parent[n])
	}
	return n
}

func (b *builder) edge(from, to int, op cfa.Op, pos cfa.Range, text string) {
	b.edges = append(b.edges, bedge{from: b.find(from), to: to, op: op, pos: pos, text: text})
}

// join makes control continue from `from` (a node without out-edges) at
// `to`. It merges the nodes, or adds a no-op edge when from is the entry
// (which must not get in-edges) or already is to.
func (b *builder) join(from, to int, label string, pos cfa.Range, text string) {
	f, t := b.find(from), b.find(to)
	if f == b.entry || f == t || b.terminal[f] {
		if b.terminal[f] {
			return
		}
		b.edge(f, t, &cfa.Noop{Label: label}, pos, text)
		return
	}
	b.parent[f] = int32(t)
	b.undo = append(b.undo, func() { b.parent[f] = -1 })
}

type checkpoint struct{ nodes, edges, undo int }

func (b *builder) checkpoint() checkpoint {
	return checkpoint{len(b.parent), len(b.edges), len(b.undo)}
}

func (b *builder) rollback(c checkpoint) {
	for i := len(b.undo) - 1; i >= c.undo; i-- {
		b.undo[i]()
	}
	b.undo = b.undo[:c.undo]
	b.edges = b.edges[:c.edges]
	b.parent = b.parent[:c.nodes]
	b.terminal = b.terminal[:c.nodes]
}

// emit adds the reachable part of the graph to p as the body of f.
func (b *builder) emit(p *cfa.Program, f *cfa.Function) error {
	n := len(b.parent)
	out := make([][]int, n)
	for i := range b.edges {
		e := &b.edges[i]
		e.from = b.find(e.from)
		e.to = b.find(e.to)
		out[e.from] = append(out[e.from], i)
	}
	// Number the reachable nodes in depth-first preorder from the entry
	// (successors in edge order: the true branch of a condition first).
	reach := make([]bool, n)
	locs := make([]*cfa.Location, n)
	exit := b.find(b.exit)
	locs[b.entry] = f.Entry
	locs[exit] = f.Exit
	type frame struct{ node, i int }
	stack := []frame{{b.entry, 0}}
	reach[b.entry] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(out[top.node]) {
			stack = stack[:len(stack)-1]
			continue
		}
		t := b.edges[out[top.node][top.i]].to
		top.i++
		if !reach[t] {
			reach[t] = true
			if locs[t] == nil {
				locs[t] = p.NewLocation(f)
			}
			stack = append(stack, frame{t, 0})
		}
	}
	for i := 0; i < n; i++ {
		if l := locs[i]; l != nil && b.terminal[i] {
			l.Terminal = true
		}
	}
	for _, e := range b.edges {
		if !reach[e.from] {
			continue
		}
		p.AddEdge(locs[e.from], locs[e.to], e.op, e.pos, e.text)
	}
	for i := 0; i < n; i++ {
		if !reach[i] || b.parent[i] >= 0 || locs[i] == f.Exit || b.terminal[i] {
			continue
		}
		switch len(out[i]) {
		case 0:
			var in []string
			for _, e := range b.edges {
				if e.to == i {
					in = append(in, fmt.Sprintf("%v@%v", e.op, e.pos.Start))
				}
			}
			return fmt.Errorf("frontend: internal error: %s: location without successor (reached by %v)", f.Name, in)
		case 1:
			if _, ok := b.edges[out[i][0]].op.(*cfa.Assume); ok {
				return fmt.Errorf("frontend: internal error: %s: single assume edge", f.Name)
			}
		case 2:
		default:
			return fmt.Errorf("frontend: internal error: %s: location with %d successors", f.Name, len(out[i]))
		}
	}
	return nil
}
