package pdg

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// LocNamer names locations in text and DOT output; nil means Location's
// own String ("L3").
type LocNamer func(*cfa.Location) string

func (n LocNamer) or() LocNamer {
	if n == nil {
		return defaultLoc
	}
	return n
}

// shortEdge names an edge "L3->L4", with "+" or "-" appended for the true
// and false edge of a branch.
func shortEdge(e *cfa.Edge, loc LocNamer) string {
	s := loc(e.From) + "->" + loc(e.To)
	if a, ok := e.Op.(*cfa.Assume); ok {
		if a.Truth {
			return s + "+"
		}
		return s + "-"
	}
	return s
}

// shortName names node n for dependence lists; nodes of another function
// than in are prefixed with their function's name.
func (g *SDG) shortName(n int, in int32, loc LocNamer) string {
	c := g.nodes[n]
	fi := g.funcs[c.fn]
	var s string
	switch c.kind {
	case NodeEdge:
		s = shortEdge(g.Prog.Edges[c.edge], loc)
	case NodeEntry:
		s = "entry"
	case NodeFormalIn:
		s = "in " + g.slotName(fi.f, Slot{c.sk, int(c.slot)})
	case NodeFormalOut:
		s = "out " + g.slotName(fi.f, Slot{c.sk, int(c.slot)})
	case NodeActualIn:
		s = shortEdge(g.Prog.Edges[c.edge], loc) + " in " + g.slotName(nil, Slot{c.sk, int(c.slot)})
	case NodeActualOut:
		s = shortEdge(g.Prog.Edges[c.edge], loc) + " out " + g.slotName(nil, Slot{c.sk, int(c.slot)})
	case NodePhi:
		s = "phi " + loc(g.Prog.Locs[c.loc]) + " " + g.objs[c.slot].String()
	case NodeWeak:
		s = "weak " + g.objs[c.slot].String()
	}
	if c.fn != in {
		s = fi.f.Name + ":" + s
	}
	return s
}

// resolved returns n's dependences with flow dependences through phi and
// weak nodes replaced by the definitions behind them, grouped by kind, each
// group sorted and without duplicates.
func (g *SDG) resolved(n int) [6][]int {
	var out [6][]int
	for j := g.depStart[n]; j < g.depStart[n+1]; j++ {
		k, d := g.depKind[j], g.depTo[j]
		if k == DepFlow {
			out[k] = append(out[k], g.definitions(d)...)
			continue
		}
		out[k] = append(out[k], d)
	}
	if g.nodes[n].kind == NodeActualOut {
		si, p := g.aoSite(n)
		out[DepSummary] = g.summaryDeps(si, p, out[DepSummary])
	}
	for k := range out {
		slices.Sort(out[k])
		out[k] = slices.Compact(out[k])
	}
	return out
}

// definitions returns the non-join nodes reachable from n through flow
// dependences of phi and weak nodes (n itself if it is none).
func (g *SDG) definitions(n int) []int {
	if k := g.nodes[n].kind; k != NodePhi && k != NodeWeak {
		return []int{n}
	}
	var out []int
	seen := map[int]bool{n: true}
	stack := []int{n}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k := g.nodes[v].kind; k != NodePhi && k != NodeWeak {
			out = append(out, v)
			continue
		}
		for j := g.depStart[v]; j < g.depStart[v+1]; j++ {
			if d := g.depTo[j]; g.depKind[j] == DepFlow && !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return out
}

// FlowDeps returns the definitions e's node uses: CFA edges, formal-ins
// and actual-outs, with phi and weak joins resolved; sorted.
func (g *SDG) FlowDeps(e *cfa.Edge) []NodeID { return toIDs(g.resolved(e.ID)[DepFlow]) }

// ControlDeps returns the nodes e's node is control dependent on: branch
// edges, actual-outs "returns" of calls that may not return, or the
// function's entry; sorted.
func (g *SDG) ControlDeps(e *cfa.Edge) []NodeID { return toIDs(g.resolved(e.ID)[DepControl]) }

func toIDs(s []int) []NodeID {
	out := make([]NodeID, len(s))
	for i, n := range s {
		out[i] = NodeID(n)
	}
	return out
}

// funcNodes returns the nodes of fi other than phi and weak nodes: its
// edges in location order, then entry, formals and actuals.
func (g *SDG) funcNodes(fi *funcInfo) []int {
	var out []int
	for _, l := range fi.f.Locs {
		for _, e := range l.Out {
			out = append(out, e.ID)
		}
	}
	out = append(out, int(fi.entry))
	for _, sn := range fi.formIn {
		out = append(out, int(sn.node))
	}
	for _, sn := range fi.formOut {
		out = append(out, int(sn.node))
	}
	for _, s := range fi.sites {
		for _, sn := range g.sites[s].actIn {
			out = append(out, int(sn.node))
		}
		for _, sn := range g.sites[s].actOut {
			out = append(out, int(sn.node))
		}
	}
	return out
}

// WriteText writes the stable text form of the SDG: per function (Init
// first when it has edges, then in definition order) one line per node
// with its dependences, flow dependences resolved through phi and weak
// nodes to the definitions (see FlowDeps):
//
//	func main
//	  L2->L3 x = nondet(int)  control: entry
//	  L5->L6+ [x > 0]  control: L5->L6+ L5->L9-  flow: L2->L3 L6->L5
//	  in g  control: entry  param-in: __reverify_init:out g
//
// Nodes of other functions are prefixed with their function's name.
func (g *SDG) WriteText(w io.Writer, loc LocNamer) error {
	loc = loc.or()
	var b strings.Builder
	for _, fi := range g.funcs {
		if fi.idx == 0 && trivial(fi.f) {
			continue
		}
		fmt.Fprintf(&b, "func %s\n", fi.f.Name)
		for _, n := range g.funcNodes(fi) {
			c := g.nodes[n]
			b.WriteString("  ")
			b.WriteString(g.shortName(n, c.fn, loc))
			if c.kind == NodeEdge {
				fmt.Fprintf(&b, " %s", g.Prog.Edges[n].Op)
			}
			for k, ds := range g.resolved(n) {
				if len(ds) == 0 {
					continue
				}
				fmt.Fprintf(&b, "  %s:", DepKind(k))
				for _, d := range ds {
					b.WriteString(" ")
					b.WriteString(g.shortName(d, c.fn, loc))
				}
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text returns WriteText's output with the default location names.
func (g *SDG) Text() string {
	var b strings.Builder
	g.WriteText(&b, nil)
	return b.String()
}

// PostDom returns the post-dominator tree of f on its augmented CFA: nodes
// 0..len(f.Locs)-1 are f's locations by Index, node len(f.Locs) is the
// virtual end (the root), which the exit, Terminal locations, calls that
// may not return and non-terminating loops lead to. Nil if f is not part
// of the program.
func (g *SDG) PostDom(f *cfa.Function) *graph.DomTree {
	if fi := g.funcOf(f); fi != nil {
		return fi.pdom
	}
	return nil
}

// Augmented returns the augmented CFA of f that PostDom is computed on.
func (g *SDG) Augmented(f *cfa.Function) graph.Graph {
	if fi := g.funcOf(f); fi != nil {
		return fi.aug
	}
	return nil
}

// WritePostDom writes f's post-dominator tree (see PostDom) with
// WriteDomTree, the virtual end named "end":
//
//	end
//	  L1
//	    L4
//	      L0
func (g *SDG) WritePostDom(w io.Writer, f *cfa.Function, loc LocNamer) error {
	loc = loc.or()
	t := g.PostDom(f)
	if t == nil {
		return fmt.Errorf("pdg: function %s is not part of the program", f.Name)
	}
	return WriteDomTree(w, t, func(n int) string {
		if n == len(f.Locs) {
			return "end"
		}
		return loc(f.Locs[n])
	})
}

// WriteDomTree writes a (post-)dominator tree as an indented tree, the
// root first, each node's children after it in increasing node order,
// indented by two spaces per level. Nodes outside the tree are omitted.
func WriteDomTree(w io.Writer, t *graph.DomTree, name func(n int) string) error {
	var b strings.Builder
	type item struct{ n, depth int }
	stack := []item{{t.Root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b.WriteString(strings.Repeat("  ", it.depth))
		b.WriteString(name(it.n))
		b.WriteByte('\n')
		cs := t.Children(it.n)
		for i := len(cs) - 1; i >= 0; i-- {
			stack = append(stack, item{cs[i], it.depth + 1})
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteControlDeps writes the control dependences of f's locations: for
// each location whose post-dominance frontier is not empty, the branch
// locations it depends on, e.g. "L4: L3 L4".
func (g *SDG) WriteControlDeps(w io.Writer, f *cfa.Function, loc LocNamer) error {
	loc = loc.or()
	fi := g.funcOf(f)
	if fi == nil {
		return fmt.Errorf("pdg: function %s is not part of the program", f.Name)
	}
	var b strings.Builder
	for i, ys := range fi.pdf[:len(f.Locs)] {
		if len(ys) == 0 {
			continue
		}
		b.WriteString(loc(f.Locs[i]) + ":")
		for _, y := range ys {
			b.WriteString(" " + loc(f.Locs[y]))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDOT writes the dependence graph of f (all functions when f is nil)
// as a Graphviz digraph in the style of seed 000's figures 10 and 11: CFA
// edges as boxes, the entry and interprocedural nodes as ellipses; control
// dependences dashed, flow dependences solid (resolved through phi and
// weak nodes), call and parameter dependences dotted, summary dependences
// bold. Arrows point from a node to the nodes that depend on it.
func (g *SDG) WriteDOT(w io.Writer, f *cfa.Function, loc LocNamer) error {
	loc = loc.or()
	var ids []int
	for _, fi := range g.funcs {
		if f != nil && fi.f != f {
			continue
		}
		if f == nil && fi.idx == 0 && trivial(fi.f) {
			continue
		}
		ids = append(ids, g.funcNodes(fi)...)
	}
	local := make(map[int]int, len(ids))
	for i, n := range ids {
		local[n] = i
	}
	adj := graph.NewAdjacency(len(ids))
	kinds := map[[2]int]DepKind{}
	for i, n := range ids {
		for k, ds := range g.resolved(n) {
			for _, d := range ds {
				if j, ok := local[d]; ok {
					adj.AddEdge(j, i)
					kinds[[2]int{j, i}] = DepKind(k)
				}
			}
		}
	}
	name := "sdg"
	if f != nil {
		name = f.Name
	}
	styles := [...]string{"", "style=dashed", "style=dotted", "style=dotted", "style=dotted", "style=bold"}
	return graph.WriteDOT(w, adj, name, func(i int) string {
		n := ids[i]
		c := g.nodes[n]
		label := g.shortName(n, -1, loc)
		if c.kind == NodeEdge {
			label = shortEdge(g.Prog.Edges[n], loc) + ": " + g.Prog.Edges[n].Op.String()
			if f == nil {
				label = g.funcs[c.fn].f.Name + ":" + label
			}
			return "shape=box, label=" + graph.QuoteDOT(label)
		}
		return "label=" + graph.QuoteDOT(label)
	}, func(from, to int) string {
		return styles[kinds[[2]int{from, to}]]
	})
}

// trivial reports whether f has no edges but no-ops (an empty Init).
func trivial(f *cfa.Function) bool {
	for _, l := range f.Locs {
		for _, e := range l.Out {
			if _, ok := e.Op.(*cfa.Noop); !ok {
				return false
			}
		}
	}
	return true
}
