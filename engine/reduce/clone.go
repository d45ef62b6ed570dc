package reduce

import "github.com/reverify/reverify/engine/cfa"

// Clone returns a copy of p whose functions, locations and edges are new
// and whose variables, types and operations are shared with p (passes
// replace operations, never mutate them), with the map from p's edges to
// the copy's. The copy is finished (cfa.Program.Finish).
func Clone(p *cfa.Program) (*cfa.Program, map[*cfa.Edge]*cfa.Edge) {
	q := &cfa.Program{
		DataModel: p.DataModel, Files: p.Files, Globals: p.Globals,
		Externals: p.Externals, Defs: p.Defs, AssumePure: p.AssumePure,
		Vars: append([]*cfa.Var(nil), p.Vars...),
	}
	locs := make([]*cfa.Location, len(p.Locs))
	q.Locs = make([]*cfa.Location, len(p.Locs))
	for i, l := range p.Locs {
		c := *l
		c.Out, c.In = nil, nil
		locs[i] = &c
		q.Locs[i] = &c
	}
	edges := make(map[*cfa.Edge]*cfa.Edge, len(p.Edges))
	q.Edges = make([]*cfa.Edge, len(p.Edges))
	for i, e := range p.Edges {
		c := &cfa.Edge{ID: e.ID, From: locs[e.From.ID], To: locs[e.To.ID], Op: e.Op, Pos: e.Pos, Text: e.Text}
		q.Edges[i] = c
		edges[e] = c
	}
	// Out and In in the original order.
	for _, l := range p.Locs {
		for _, e := range l.Out {
			locs[l.ID].Out = append(locs[l.ID].Out, edges[e])
		}
		for _, e := range l.In {
			locs[l.ID].In = append(locs[l.ID].In, edges[e])
		}
	}
	cloneFunc := func(f *cfa.Function) *cfa.Function {
		g := *f
		g.Locals = append([]*cfa.Var(nil), f.Locals...)
		g.Locs = make([]*cfa.Location, len(f.Locs))
		for i, l := range f.Locs {
			g.Locs[i] = locs[l.ID]
			g.Locs[i].Func = &g
		}
		g.Entry, g.Exit = locs[f.Entry.ID], locs[f.Exit.ID]
		return &g
	}
	q.Init = cloneFunc(p.Init)
	for _, f := range p.Funcs {
		q.Funcs = append(q.Funcs, cloneFunc(f))
	}
	q.Finish()
	return q, edges
}
