package pdg

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
)

// Slice is a static backward slice: the set of CFA edges relevant to the
// criteria. Analyses keep the relevant edges and replace every other edge
// by a no-op (seed 000, section 2.4.2).
type Slice struct {
	g *SDG
	// Criteria are the edges the slice was computed for.
	Criteria []*cfa.Edge
	// Via is the call edge the slice is restricted to (SliceVia), or nil.
	Via   *cfa.Edge
	edges []uint64 // bit set over Edge.ID
	n     int
}

// Slice computes the backward slice of the criteria: every CFA edge on
// which one of them transitively depends through flow and control
// dependences, along interprocedurally realizable paths (Horwitz, Reps and
// Binkley's two-phase algorithm). A criterion edge stands for reaching it
// with the values it uses (seed 000's criterion ⟨g, uses(op)⟩): for a call
// of a function with a body, its arguments count as used. The criteria
// themselves are in the slice. Criteria edges must belong to g's program.
func (g *SDG) Slice(criteria []*cfa.Edge) *Slice { return g.slice(nil, criteria) }

// SliceVia is Slice restricted to executions of the criteria inside the
// call via: leaving the callee of via in the first phase goes to via only,
// not to the callee's other call sites. It is the slice of an assertion
// wrapped in a function (spec.Property.Via), whose error edges lie in the
// wrapper.
func (g *SDG) SliceVia(via *cfa.Edge, criteria []*cfa.Edge) *Slice {
	return g.slice(via, criteria)
}

func (g *SDG) slice(via *cfa.Edge, criteria []*cfa.Edge) *Slice {
	N := len(g.nodes)
	visited := make([]uint64, (N+63)/64)
	var order []int
	add := func(n int) {
		if visited[n/64]&(1<<(n%64)) == 0 {
			visited[n/64] |= 1 << (n % 64)
			order = append(order, n)
		}
	}
	for _, e := range criteria {
		add(e.ID)
		if s := g.siteOf[e.ID]; s >= 0 {
			for _, sn := range g.sites[s].actIn {
				if sn.slot.Kind == SlotParam {
					add(int(sn.node))
				}
			}
		}
	}
	// viaFn marks the callees of via, whose ascents are restricted.
	var viaFn map[int32]bool
	if via != nil {
		viaFn = map[int32]bool{}
		if s := g.siteOf[via.ID]; s >= 0 {
			for _, t := range g.sites[s].targets {
				viaFn[int32(t)] = true
			}
		}
	}
	var sum []int
	summary := func(n int) {
		if g.nodes[n].kind == NodeActualOut {
			si, p := g.aoSite(n)
			sum = g.summaryDeps(si, p, sum[:0])
			for _, d := range sum {
				add(d)
			}
		}
	}
	// Phase 1: do not descend into callees (no parameter-out).
	for i := 0; i < len(order); i++ {
		n := order[i]
		summary(n)
		for j := g.depStart[n]; j < g.depStart[n+1]; j++ {
			k, d := g.depKind[j], g.depTo[j]
			if k == DepParamOut {
				continue
			}
			if viaFn != nil && (k == DepCall || k == DepParamIn) && viaFn[g.nodes[n].fn] {
				dn := g.nodes[d]
				if dn.edge != int32(via.ID) && dn.fn != g.nodes[n].fn {
					continue
				}
			}
			add(d)
		}
	}
	// Phase 2: from everything found, do not ascend to callers.
	phase1 := len(order)
	for i := 0; i < len(order); i++ {
		n := order[i]
		if i >= phase1 {
			summary(n)
		}
		for j := g.depStart[n]; j < g.depStart[n+1]; j++ {
			k := g.depKind[j]
			if k == DepCall || k == DepParamIn {
				continue
			}
			add(g.depTo[j])
		}
	}
	s := &Slice{g: g, Criteria: slices.Clone(criteria), Via: via, edges: make([]uint64, (len(g.Prog.Edges)+63)/64)}
	for _, n := range order {
		if g.nodes[n].kind == NodeEdge {
			s.edges[n/64] |= 1 << (n % 64)
			s.n++
		}
	}
	return s
}

// Contains reports whether edge e is relevant.
func (s *Slice) Contains(e *cfa.Edge) bool {
	return e.ID < len(s.g.Prog.Edges) && s.g.Prog.Edges[e.ID] == e && s.edges[e.ID/64]&(1<<(e.ID%64)) != 0
}

// Len returns the number of relevant edges.
func (s *Slice) Len() int { return s.n }

// Edges returns the relevant edges in order of Edge.ID.
func (s *Slice) Edges() []*cfa.Edge {
	out := make([]*cfa.Edge, 0, s.n)
	for w, word := range s.edges {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			out = append(out, s.g.Prog.Edges[i])
		}
	}
	return out
}

// Set returns the relevant edges as a set (a fresh map).
func (s *Slice) Set() map[*cfa.Edge]bool {
	m := make(map[*cfa.Edge]bool, s.n)
	for _, e := range s.Edges() {
		m[e] = true
	}
	return m
}

// Funcs returns the functions with at least one relevant edge, sorted by
// name (Init, "__reverify_init", sorts like any other name).
func (s *Slice) Funcs() []*cfa.Function {
	seen := map[*cfa.Function]bool{}
	var out []*cfa.Function
	for _, e := range s.Edges() {
		if f := e.From.Func; !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lines returns the source lines of the relevant edges, per file, sorted
// and without duplicates: every line from an edge's start to its end.
// Edges without a position contribute nothing.
func (s *Slice) Lines() map[string][]int {
	out := map[string][]int{}
	for _, e := range s.Edges() {
		start, end := e.Pos.Start, e.Pos.End
		if start.Line <= 0 {
			continue
		}
		last := start.Line
		if end.Line > last && (end.File == "" || end.File == start.File) {
			last = end.Line
		}
		for l := start.Line; l <= last; l++ {
			out[start.File] = append(out[start.File], l)
		}
	}
	for f, ls := range out {
		slices.Sort(ls)
		out[f] = slices.Compact(ls)
	}
	return out
}

// Union returns a slice holding the edges of s and t (of the same SDG),
// with both sets of criteria.
func (s *Slice) Union(t *Slice) *Slice {
	u := &Slice{g: s.g, Criteria: append(slices.Clone(s.Criteria), t.Criteria...), edges: slices.Clone(s.edges)}
	for i, w := range t.edges {
		u.edges[i] |= w
	}
	for _, w := range u.edges {
		u.n += bits.OnesCount64(w)
	}
	return u
}
