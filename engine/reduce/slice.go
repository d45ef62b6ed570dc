package reduce

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/pdg"
)

// SlicePass restricts the program to the property's backward slice
// (engine/pdg, SDG.SliceVia of the error edges; seed 000, section 2.4.2,
// and seed 002's "backward slicing" pass): every edge outside the slice
// becomes a no-op, as the slicing CPA treats it (engine/analysis/slicing,
// "What noop means"), with these exceptions, which keep the result an
// over-approximation of the original program for the property:
//   - Decl and Unsupported edges are kept;
//   - writes through a pointer the points-to analysis cannot resolve are
//     kept with their own backward slice (the slicing CPA's "always
//     relevant" edges);
//   - a branch (two Assume edges) outside the slice becomes a
//     nondeterministic branch: a Havoc of a fresh int temporary of the
//     function ("__reduce_br", Source "reduce") followed by the two
//     Assume edges on that temporary, so both branches stay possible
//     (a single no-op when both lead to the same location).
//
// g must be the system dependence graph of the program the clone was
// made from, and SlicePass must run first (edge IDs equal the original's);
// otherwise it leaves the program unchanged.
func SlicePass(g *pdg.SDG) Pass {
	return slicePass("slice", g, func(via *cfa.Edge, crit []*cfa.Edge) []*cfa.Edge {
		return g.SliceVia(via, crit).Edges()
	})
}

// slicePass is SlicePass with the slice of the criteria (edges of g's
// program) computed by sliceOf.
func slicePass(name string, g *pdg.SDG, sliceOf func(via *cfa.Edge, crit []*cfa.Edge) []*cfa.Edge) Pass {
	return Pass{Name: name, Run: func(p *cfa.Program, t *Target) {
		orig := g.Prog
		if len(orig.Edges) != len(p.Edges) {
			return
		}
		for i, e := range p.Edges {
			if e.ID != i || e.Op != orig.Edges[i].Op {
				return
			}
		}
		var crit []*cfa.Edge
		for _, e := range t.ErrorEdges {
			crit = append(crit, orig.Edges[e.ID])
		}
		var via *cfa.Edge
		if t.Via != nil {
			via = orig.Edges[t.Via.ID]
		}
		keep := make([]bool, len(p.Edges))
		for _, e := range sliceOf(via, crit) {
			keep[e.ID] = true
		}
		var unres []*cfa.Edge
		for _, e := range orig.Edges {
			if g.UnresolvedWrite(orig, e) {
				unres = append(unres, e)
				keep[e.ID] = true
			}
		}
		if len(unres) > 0 {
			for _, e := range g.Slice(unres).Edges() {
				keep[e.ID] = true
			}
		}
		for _, f := range functions(p) {
			var br *cfa.Var
			for _, l := range append([]*cfa.Location(nil), f.Locs...) {
				out := l.Out
				if len(out) == 2 && isAssume(out[0]) && isAssume(out[1]) && !keep[out[0].ID] && !keep[out[1].ID] {
					if out[0].To == out[1].To {
						// Both branches join at once: one no-op.
						unlink(out[1])
						replace(out[0], &cfa.Noop{Label: "sliced: branch"})
						continue
					}
					if br == nil {
						br = newTemp(p, f, branchTemp)
					}
					nondetBranch(p, l, br)
					continue
				}
				for _, e := range out {
					if keep[e.ID] {
						continue
					}
					switch e.Op.(type) {
					case *cfa.Decl, *cfa.Unsupported, *cfa.Noop, *cfa.Assume:
						// Kept: a lone Assume cannot occur (they come in
						// pairs); an Assume whose partner is relevant is
						// relevant too.
					default:
						replace(e, &cfa.Noop{Label: "sliced: " + e.Op.String()})
					}
				}
			}
		}
	}}
}

func isAssume(e *cfa.Edge) bool {
	_, ok := e.Op.(*cfa.Assume)
	return ok
}

// nondetBranch turns l's two Assume edges into a Havoc of br from l to a
// new location m, followed by the Assume edges [br] and [!br] from m.
func nondetBranch(p *cfa.Program, l *cfa.Location, br *cfa.Var) {
	m := p.NewLocation(l.Func)
	pos, text := l.Out[0].Pos, l.Out[0].Text
	cond := &cfa.VarRef{Var: br} // shared by the pair, as cfa.Program.Check wants
	for _, e := range l.Out {
		a := e.Op.(*cfa.Assume)
		e.From = m
		m.Out = append(m.Out, e)
		replace(e, &cfa.Assume{Cond: cond, Truth: a.Truth})
	}
	l.Out = nil
	p.AddEdge(l, m, &cfa.Havoc{LHS: &cfa.VarRef{Var: br}, Source: "reduce"}, pos, text)
}

// newTemp adds a local temporary of type int to f.
func newTemp(p *cfa.Program, f *cfa.Function, name string) *cfa.Var {
	v := p.NewVar(f, name, cfa.IntType(32, true))
	v.Orig, v.Temp = "", true
	return v
}

// branchTemp names the temporaries of nondeterministic branches.
const branchTemp = "__reduce_br"
