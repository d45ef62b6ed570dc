package cfa

import (
	"slices"
	"sort"

	"github.com/reverify/reverify/engine/graph"
)

// CallGraph is the program's one call graph (doc/DESIGN.md, "one owner
// per concern"): its nodes are the global initialiser Program.Init (node
// 0, when the program has one) and the functions with a body in
// Program.Funcs order, and an
// edge f → g means that some call edge of f may enter g. Which functions a
// call may enter is the caller's choice of CallTargets: the PDG resolves
// calls through pointers by its points-to analysis, the property finder
// and diffslice by AddressTaken. Functions without a body are not nodes:
// they have no calls of their own, and what they may call back is part of
// the CallTargets rule (cfa.ExternUnmodelled, below).
type CallGraph struct {
	// Funcs[n] is the function of node n.
	Funcs []*Function
	// Graph holds the edges between node indices; successors are in the
	// order of the call edges, each target once per caller.
	Graph *graph.Adjacency
	index map[*Function]int
}

// CallTargets returns the names of the functions a call edge e (with
// operation c) may enter. Names of functions without a body are ignored.
type CallTargets func(e *Edge, c *Call) []string

// AddressTaken returns the sorted names of every function a FuncRef names
// in some edge's expressions, with or without a body, the FuncRef of a
// direct call's callee included: the coarse, syntactic set of targets a
// call through a pointer may have. Program.EscapedFuncs is the finer set
// the analyses use for callbacks.
func (p *Program) AddressTaken() []string {
	seen := map[string]bool{}
	for _, e := range p.Edges {
		ForEachExpr(e.Op, func(x Expr) {
			Walk(x, func(x Expr) bool {
				if r, ok := x.(*FuncRef); ok {
					seen[r.Name] = true
				}
				return true
			})
		})
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SyntacticTargets is the CallTargets rule that needs no pointer
// analysis: a direct call enters its callee; a call through a pointer may
// enter every function in p.AddressTaken(); so may a call of an
// unmodelled function without a body (ExternUnmodelled), which may call
// back (doc/DESIGN.md, "What the program does not contain"). The
// address-taken set is computed once, on first use.
func (p *Program) SyntacticTargets() CallTargets {
	var taken []string
	return func(e *Edge, c *Call) []string {
		if c.Fn != "" && (p.Func(c.Fn) != nil || p.Extern(c.Fn) != ExternUnmodelled) {
			return []string{c.Fn}
		}
		if taken == nil {
			taken = p.AddressTaken()
		}
		if c.Fn != "" {
			return append([]string{c.Fn}, taken...)
		}
		return taken
	}
}

// NewCallGraph builds the call graph of the call edges among edges (other
// edges are ignored; pass p.Edges for the whole program, or a slice's
// edges for the calls a property depends on), with targets resolving each
// call. O(calls × targets).
func NewCallGraph(p *Program, edges []*Edge, targets CallTargets) *CallGraph {
	cg := &CallGraph{index: map[*Function]int{}}
	if p.Init != nil {
		cg.Funcs = append(cg.Funcs, p.Init)
	}
	cg.Funcs = append(cg.Funcs, p.Funcs...)
	for i, f := range cg.Funcs {
		cg.index[f] = i
	}
	cg.Graph = graph.NewAdjacency(len(cg.Funcs))
	for _, e := range edges {
		c, ok := e.Op.(*Call)
		if !ok {
			continue
		}
		from, ok := cg.index[e.From.Func]
		if !ok {
			continue
		}
		for _, name := range targets(e, c) {
			if t := p.Func(name); t != nil && !slices.Contains(cg.Graph.Succs(from), cg.index[t]) {
				cg.Graph.AddEdge(from, cg.index[t])
			}
		}
	}
	return cg
}

// Node returns the node of f, or -1 if f is not in the graph.
func (cg *CallGraph) Node(f *Function) int {
	if n, ok := cg.index[f]; ok {
		return n
	}
	return -1
}

// Reachable returns the functions reachable from roots (each included),
// as a set of names. O(V+E).
func (cg *CallGraph) Reachable(roots ...*Function) map[string]bool {
	var ns []int
	for _, r := range roots {
		if n := cg.Node(r); n >= 0 {
			ns = append(ns, n)
		}
	}
	out := map[string]bool{}
	for n, ok := range graph.Reachable(cg.Graph, ns...) {
		if ok {
			out[cg.Funcs[n].Name] = true
		}
	}
	return out
}

// BottomUp returns the functions callees first: the strongly connected
// components of the graph in reverse topological order (graph.SCCs),
// the functions of one component in node order. O(V+E).
func (cg *CallGraph) BottomUp() []*Function {
	var out []*Function
	for _, comp := range graph.SCCs(cg.Graph) {
		for _, n := range comp {
			out = append(out, cg.Funcs[n])
		}
	}
	return out
}

// Recursive returns the functions on a cycle of the graph: those of a
// strongly connected component of more than one function, and those
// that call themselves. O(V+E).
func (cg *CallGraph) Recursive() map[*Function]bool {
	out := map[*Function]bool{}
	for _, comp := range graph.SCCs(cg.Graph) {
		for _, n := range comp {
			if len(comp) > 1 || slices.Contains(cg.Graph.Succs(n), n) {
				out[cg.Funcs[n]] = true
			}
		}
	}
	return out
}
