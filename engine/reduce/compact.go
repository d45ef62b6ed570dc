package reduce

import (
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// CompactPass removes what the other passes made useless and restores the
// invariants of cfa.Program.Check:
//   - a nondeterministic branch of SlicePass whose two edges lead to the
//     same location becomes one no-op;
//   - a location other than the entry and exit whose only out-edge is a
//     Noop to another location is merged into its successor (its
//     in-edges are redirected; they keep their positions and text);
//   - locations unreachable from their function's entry (except the
//     exit) are removed with their edges;
//   - IDs and indices are renumbered densely, and loop heads recomputed.
//
// Error edges and the Via edge are never Noop edges, so they survive.
var CompactPass = Pass{Name: "compact", Run: compact}

func compact(p *cfa.Program, _ *Target) {
	for _, f := range functions(p) {
		for mergeNoops(f) {
		}
		// Reachability from the entry.
		seen := make([]bool, len(f.Locs))
		cfa.MarkReachable(f.Entry, seen, false)
		var locs []*cfa.Location
		for _, l := range f.Locs {
			if !seen[l.Index] && l != f.Exit {
				for _, e := range append([]*cfa.Edge(nil), l.Out...) {
					unlink(e)
				}
				continue
			}
			locs = append(locs, l)
		}
		for _, l := range locs {
			var in []*cfa.Edge
			for _, e := range l.In {
				if seen[e.From.Index] {
					in = append(in, e)
				}
			}
			l.In = in
		}
		for i, l := range locs {
			l.Index = i
		}
		f.Locs = locs
	}
	p.Locs, p.Edges = p.Locs[:0], p.Edges[:0]
	for _, f := range functions(p) {
		for _, l := range f.Locs {
			l.ID = len(p.Locs)
			l.LoopHead = false
			p.Locs = append(p.Locs, l)
		}
	}
	for _, l := range p.Locs {
		for _, e := range l.Out {
			e.ID = len(p.Edges)
			p.Edges = append(p.Edges, e)
		}
	}
	p.Finish()
}

// isBranchTemp reports whether op is an Assume on SlicePass's branch
// temporary.
func isBranchTemp(op cfa.Op) bool {
	a, ok := op.(*cfa.Assume)
	if !ok {
		return false
	}
	r, ok := a.Cond.(*cfa.VarRef)
	// Inlined copies are named "f.__reduce_br.k".
	return ok && r.Var.Temp && (r.Var.Name == branchTemp || strings.Contains(r.Var.Name, "."+branchTemp+"."))
}

// mergeNoops collapses nondeterministic branches to one location and
// merges no-op chains once; it reports whether anything changed.
func mergeNoops(f *cfa.Function) bool {
	changed := false
	for _, l := range f.Locs {
		if len(l.Out) == 2 && l.Out[0].To == l.Out[1].To && isBranchTemp(l.Out[0].Op) {
			unlink(l.Out[1])
			replace(l.Out[0], &cfa.Noop{Label: "sliced: branch"})
			changed = true
		}
	}
	for _, u := range f.Locs {
		if u == f.Entry || u == f.Exit || len(u.Out) != 1 {
			continue
		}
		e := u.Out[0]
		if _, ok := e.Op.(*cfa.Noop); !ok || e.To == u {
			continue
		}
		v := e.To
		unlink(e)
		for _, in := range u.In {
			in.To = v
			v.In = append(v.In, in)
		}
		u.In = nil
		changed = true
	}
	return changed
}
