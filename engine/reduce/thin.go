package reduce

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/pdg"
)

// ThinSlicePass is thin slicing (seed 002, section 2.4, "Thin slicing",
// after Sridharan, Fink and Bodik, PLDI 2007): the slice follows the
// flow, call and parameter dependences of engine/pdg's SDG (Horwitz,
// Reps and Binkley's two phases, as pdg.SDG.SliceVia) but not the
// control dependences on branches, which become nondeterministic
// branches (the seed's "abstract predicates" φ). The criterion is the
// property's error edges, the branches they directly depend on (the
// assertion's condition, seed 002's criterion (s, V)) and keep, the
// branches a refinement added.
//
// Unlike Sridharan's thin slices, base-pointer dependences are kept: the
// SDG's flow dependences of an edge include the reads of the pointers
// its lvalues dereference, so a kept write through *p keeps the
// producers of p. Control dependences on function entries (and so the
// call edges that run a kept statement) are kept too, also through an
// abstracted branch: its own control dependences are followed (without
// its condition's data), so the calls that run a statement under it
// stay. With the CFA
// skeleton kept (SlicePass's rules for what is not in the slice), the
// thin slice is an over-approximation: every execution of the original
// program that reaches an error edge follows the same locations in the
// thin slice (a nondeterministic branch can take the original's
// direction), and every kept edge reads only values that kept edges
// produced, so it computes the same values. TRUE on it is a proof; a
// FALSE may rest on a branch direction the original cannot take, and
// needs the original program (Lift, then cexcheck.CheckPath), else a
// refinement (Refine) or the backward slice.
func ThinSlicePass(g *pdg.SDG, keep []*cfa.Edge) Pass {
	return slicePass("thin", g, func(via *cfa.Edge, crit []*cfa.Edge) []*cfa.Edge {
		return thinSlice(g, via, crit, keep, false)
	})
}

// ValueSlicePass is value slicing (seed 002, section 2.4, "Value
// slicing", after Kumar, Sanyal and Khedker, TACAS 2015): the thin slice
// plus the branches that are value-impacting, with their own thin
// slices: a branch s is kept when a statement t (not a branch) of the
// thin slice is directly control dependent on s (s decides whether the
// value t produces is produced; the producers of s's condition are kept,
// but the branches around them stay abstracted, as the loop condition in
// the seed's figure 3b) and both successors of s reach the criterion
// (seed 002's condition 3, with "reach the criterion" computed within
// the function of s when the criterion lies there, and assumed when it
// lies elsewhere, which keeps more). It is an over-approximation for the
// same reason as the thin slice.
func ValueSlicePass(g *pdg.SDG, keep []*cfa.Edge) Pass {
	return slicePass("value", g, func(via *cfa.Edge, crit []*cfa.Edge) []*cfa.Edge {
		return thinSlice(g, via, crit, keep, true)
	})
}

// thinSlice computes the thin (or, with value, the value) slice of crit
// restricted to via, with the branches of keep in the criterion.
func thinSlice(g *pdg.SDG, via *cfa.Edge, crit, keep []*cfa.Edge, value bool) []*cfa.Edge {
	prog := g.Prog
	n := g.NumNodes()
	// The actual-in parameter nodes of each call edge.
	actIn := map[int][]pdg.NodeID{}
	for i := 0; i < n; i++ {
		nd := g.Node(pdg.NodeID(i))
		if nd.Kind == pdg.NodeActualIn && nd.Slot.Kind == pdg.SlotParam && nd.Edge != nil {
			actIn[nd.Edge.ID] = append(actIn[nd.Edge.ID], pdg.NodeID(i))
		}
	}
	isBranch := func(x pdg.NodeID) bool {
		if int(x) >= len(prog.Edges) {
			return false // edge nodes come first (NodeID(e.ID))
		}
		_, ok := prog.Edges[x].Op.(*cfa.Assume)
		return ok
	}
	var viaFn *cfa.Function
	if via != nil {
		if c, ok := via.Op.(*cfa.Call); ok && c.Fn != "" {
			viaFn = prog.Func(c.Fn)
		}
	}
	// mark: 0 not reached, 1 reached as the structure of an abstracted
	// branch (only its control dependences are followed: a statement
	// under an abstracted branch must still run, so the calls of its
	// function must stay), 2 in the slice.
	var mark []uint8
	var order []pdg.NodeID
	add := func(x pdg.NodeID) {
		if mark[x] != 2 {
			mark[x] = 2
			order = append(order, x)
		}
	}
	// dep follows the dependence d.
	dep := func(d pdg.Dep) {
		if d.Kind == pdg.DepControl && isBranch(d.On) {
			if mark[d.On] == 0 {
				mark[d.On] = 1
				order = append(order, d.On)
			}
			return
		}
		add(d.On)
	}
	addEdge := func(e *cfa.Edge) {
		add(g.EdgeNode(e))
		for _, a := range actIn[e.ID] {
			add(a)
		}
	}
	// run computes the slice from scratch (a node first found
	// descending must still ascend when a later criterion reaches it).
	run := func(branches []*cfa.Edge) {
		mark, order = make([]uint8, n), order[:0]
		for _, e := range crit {
			addEdge(e)
			// The assertion's condition: the branches the error edge
			// directly depends on.
			for _, d := range g.Deps(g.EdgeNode(e)) {
				if d.Kind == pdg.DepControl && isBranch(d.On) {
					add(d.On)
				}
			}
		}
		for _, e := range append(append([]*cfa.Edge(nil), keep...), branches...) {
			addEdge(e)
		}
		// Phase 1: do not descend into callees.
		for i := 0; i < len(order); i++ {
			x := order[i]
			structural := mark[x] == 1
			for _, d := range g.Deps(x) {
				if d.Kind == pdg.DepParamOut || structural && d.Kind != pdg.DepControl {
					continue
				}
				if viaFn != nil && (d.Kind == pdg.DepCall || d.Kind == pdg.DepParamIn) && g.Node(x).Func == viaFn {
					if dn := g.Node(d.On); dn.Edge != via && dn.Func != viaFn {
						continue
					}
				}
				dep(d)
			}
		}
		// Phase 2: from everything found, do not ascend to callers.
		for i := 0; i < len(order); i++ {
			structural := mark[order[i]] == 1
			for _, d := range g.Deps(order[i]) {
				if d.Kind == pdg.DepCall || d.Kind == pdg.DepParamIn || structural && d.Kind != pdg.DepControl {
					continue
				}
				dep(d)
			}
		}
	}
	run(nil)
	if value {
		// The branches that directly decide whether a statement of the
		// thin slice (the criterion's value chain) runs.
		reach := critReach(prog, crit)
		var more []*cfa.Edge
		seen := map[pdg.NodeID]bool{}
		for _, x := range order {
			if int(x) >= len(prog.Edges) || isBranch(x) || mark[x] != 2 {
				continue // t is a statement that produces a value
			}
			for _, d := range g.Deps(x) {
				if d.Kind != pdg.DepControl || !isBranch(d.On) || mark[d.On] == 2 || seen[d.On] {
					continue
				}
				seen[d.On] = true
				if valueImpacting(prog.Edges[d.On].From, reach) {
					more = append(more, prog.Edges[d.On])
				}
			}
		}
		if len(more) > 0 {
			run(more)
		}
	}
	var out []*cfa.Edge
	for _, x := range order {
		if int(x) < len(prog.Edges) && mark[x] == 2 {
			out = append(out, prog.Edges[x])
		}
	}
	return out
}

// critReach returns, per function containing a criterion edge, the
// locations from which one is reachable within the function.
func critReach(p *cfa.Program, crit []*cfa.Edge) map[*cfa.Function][]bool {
	out := map[*cfa.Function][]bool{}
	for _, e := range crit {
		f := e.From.Func
		r := out[f]
		if r == nil {
			r = make([]bool, len(f.Locs))
			out[f] = r
		}
		cfa.MarkReachable(e.From, r, true)
	}
	return out
}

// valueImpacting is seed 002's path condition for the branch at l: both
// successors reach the criterion (assumed when it is in another
// function).
func valueImpacting(l *cfa.Location, reach map[*cfa.Function][]bool) bool {
	r, ok := reach[l.Func]
	if !ok {
		return true
	}
	for _, e := range l.Out {
		if !r[e.To.Index] {
			return false
		}
	}
	return true
}
