package pdg

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// augment returns the augmented CFA of fi used for post-dominance: the
// locations 0..n-1 of the function and a virtual end node n that
// post-dominates everything. Edges into the end come from
//   - the exit;
//   - every location without out-edges other than the exit (Terminal
//     locations after abort, exit or a failed __VERIFIER_assume);
//   - every call site of a callee that may not return (so the call counts
//     as a branch: returning or not);
//   - one location of every bottom strongly connected component of the
//     locations that still cannot reach the end (non-terminating loops):
//     the loop head with the lowest index, else the lowest index.
//
// stopAt[l] is 1 + the index of the may-not-return call site at location l,
// or 0.
func (b *builder) augment(fi *funcInfo) (aug *graph.Adjacency, stopAt []int32) {
	f := fi.f
	n := len(f.Locs)
	end := n
	aug = graph.NewAdjacency(n + 1)
	for _, l := range f.Locs {
		for _, e := range l.Out {
			aug.AddEdge(l.Index, e.To.Index)
		}
	}
	aug.AddEdge(f.Exit.Index, end)
	for _, l := range f.Locs {
		if l != f.Exit && len(l.Out) == 0 {
			aug.AddEdge(l.Index, end)
		}
	}
	stopAt = make([]int32, n)
	for _, s := range fi.sites {
		si := b.g.sites[s]
		if si.mayStop || si.extStop {
			l := si.cs.e.From.Index
			aug.AddEdge(l, end)
			stopAt[l] = s + 1
		}
	}
	back := graph.Reachable(graph.Reverse(aug), end)
	all := true
	for _, ok := range back {
		all = all && ok
	}
	fi.loopRep = make([]bool, n)
	if all {
		return aug, stopAt
	}
	comps := graph.SCCs(aug)
	ci := graph.ComponentIndex(comps, n+1)
	for c, comp := range comps {
		if back[comp[0]] {
			continue
		}
		bottom := true
		for _, v := range comp {
			for _, w := range aug.Succs(v) {
				if ci[w] != c {
					bottom = false
				}
			}
		}
		if !bottom {
			continue
		}
		rep := comp[0]
		for _, v := range comp {
			if f.Locs[v].LoopHead {
				rep = v
				break
			}
		}
		aug.AddEdge(rep, end)
		fi.loopRep[rep] = true
	}
	return aug, stopAt
}

// controlDeps computes fi's post-dominator tree on the augmented CFA and
// its post-dominance frontiers (Ferrante, Ottenstein and Warren 1987, via
// Cytron et al. 1991), and adds the control dependences:
//   - an edge leaving location l depends on the branch nodes of every
//     location in PDF(l), and on the entry when l post-dominates the
//     entry (Ferrante et al.'s augmentation START → entry, START → end)
//     or nothing else;
//   - the branch nodes of a location are its out-edges (both Assume edges
//     of a branch), or for a call of a function that may not return, the
//     call's actual-out "returns" (external callees: the call node);
//   - formal-ins and formal-outs depend on the entry, except the formal-out
//     "returns", which depends like an edge leaving the exit;
//   - actual-ins and actual-outs depend on their call node.
func (b *builder) controlDeps(fi *funcInfo) {
	f := fi.f
	aug, stopAt := b.augment(fi)
	fi.aug = aug
	fi.pdom = graph.PostDominators(aug, len(f.Locs))
	fi.pdf = fi.pdom.Frontier(aug)
	var buf []int32
	deps := func(l int) []int32 {
		buf = buf[:0]
		for _, y := range fi.pdf[l] {
			buf = b.branchNodes(fi, f.Locs[y], stopAt, buf)
		}
		// Ferrante et al.'s START → entry, START → end: locations that
		// post-dominate the entry (or depend on nothing else) depend on
		// the entry.
		if len(buf) == 0 || fi.pdom.Dominates(l, f.Entry.Index) {
			buf = append(buf, fi.entry)
		}
		return buf
	}
	for _, l := range f.Locs {
		if len(l.Out) == 0 {
			continue
		}
		ds := deps(l.Index)
		for _, e := range l.Out {
			for _, d := range ds {
				b.dep(int32(e.ID), d, DepControl)
			}
		}
	}
	for _, sn := range fi.formIn {
		b.dep(sn.node, fi.entry, DepControl)
	}
	for _, sn := range fi.formOut {
		if sn.slot.Kind == SlotReturns {
			for _, d := range deps(f.Exit.Index) {
				b.dep(sn.node, d, DepControl)
			}
			continue
		}
		b.dep(sn.node, fi.entry, DepControl)
	}
	for _, s := range fi.sites {
		si := b.g.sites[s]
		call := int32(si.cs.e.ID)
		for _, sn := range si.actIn {
			b.dep(sn.node, call, DepControl)
		}
		for _, sn := range si.actOut {
			b.dep(sn.node, call, DepControl)
		}
	}
}

// branchNodes appends the nodes that decide which way control leaves
// location y.
func (b *builder) branchNodes(fi *funcInfo, y *cfa.Location, stopAt []int32, out []int32) []int32 {
	if s := stopAt[y.Index]; s > 0 {
		si := b.g.sites[s-1]
		r := int32(-1)
		if si.mayStop {
			r = findSlot(si.actOut, Slot{SlotReturns, 0})
			if r >= 0 {
				out = append(out, r)
			}
		}
		if si.extStop || r < 0 {
			out = append(out, int32(si.cs.e.ID))
		}
		return out
	}
	for _, e := range y.Out {
		out = append(out, int32(e.ID))
	}
	return out
}
