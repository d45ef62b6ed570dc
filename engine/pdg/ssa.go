package pdg

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// Flow dependences are reaching definitions computed sparsely, the way SSA
// form is built (Cytron, Ferrante, Rosen, Wegman and Zadeck 1991): for
// every object, phi nodes at the iterated dominance frontier of the
// locations its definitions reach, then one walk over the dominator tree
// renaming uses to the definition (or phi, or weak join) on top of the
// object's stack. A use thus depends on exactly the definitions that reach
// it without an intervening strong definition, through at most a linear
// number of phi and weak nodes instead of a quadratic number of def-use
// pairs.

// defUse lists, in execution order, what the nodes of one CFA edge read
// and write, objects mapped to the function's SSA variables (mapObj).
type defUse struct {
	uses   []nodeObjs // node reads objects
	defs   []nodeDef  // node defines object
	buf    []int32
	restBy int32 // the node that last defined the rest (dedup)
}

type nodeObjs struct {
	node int32
	objs []int32
}

type nodeDef struct {
	node   int32
	obj    int32
	strong bool
}

// edgeDefUse returns the reads and writes of edge e's nodes.
func (b *builder) edgeDefUse(fi *funcInfo, e *cfa.Edge, du *defUse) {
	du.uses = du.uses[:0]
	du.defs = du.defs[:0]
	du.buf = du.buf[:0]
	du.restBy = -1
	mapped := func(objs []int32) []int32 {
		start := len(du.buf)
		rest := false
		for _, o := range objs {
			m := b.mapObj(o)
			if m < 0 || m == b.rest && rest {
				continue
			}
			rest = rest || m == b.rest
			du.buf = append(du.buf, m)
		}
		return du.buf[start:len(du.buf):len(du.buf)]
	}
	use := func(node int32, objs []int32) {
		du.uses = append(du.uses, nodeObjs{node, mapped(objs)})
	}
	def := func(node, o int32, strong bool) {
		m := b.mapObj(o)
		if m < 0 {
			return
		}
		if m == b.rest {
			if du.restBy == node {
				return
			}
			du.restBy = node
			strong = false
		}
		du.defs = append(du.defs, nodeDef{node, m, strong})
	}
	node := int32(e.ID)
	s := b.g.siteOf[e.ID]
	if _, isCall := e.Op.(*cfa.Call); !isCall || s < 0 {
		a := &b.acc[e.ID]
		use(node, a.uses)
		for _, o := range a.sdefs {
			def(node, o, true)
		}
		for _, o := range a.wdefs {
			def(node, o, false)
		}
		return
	}
	si := b.g.sites[s]
	sa := &b.sacc[s]
	use(node, sa.node.uses)
	callbacks := len(si.cs.callbacks) > 0
	var all []int32
	if callbacks {
		for _, u := range sa.args {
			all = append(all, u...)
		}
	}
	var restObjs []int32
	rest := func() []int32 {
		if restObjs == nil {
			restObjs = b.restObjects(fi, si)
			if len(fi.collapsed) > 0 {
				restObjs = append(restObjs, b.rest)
			}
		}
		return restObjs
	}
	retOut := int32(-1)
	mixed := len(si.targets) > 0 && (len(si.cs.exts) > 0 || si.cs.unknown)
	for _, sn := range si.actIn {
		switch sn.slot.Kind {
		case SlotParam:
			var u []int32
			if sn.slot.Index < len(sa.args) {
				u = sa.args[sn.slot.Index]
			}
			if callbacks {
				u = all
			}
			use(sn.node, u)
		case SlotObject:
			use(sn.node, []int32{int32(sn.slot.Index)})
		case SlotRest:
			use(sn.node, rest())
		}
	}
	for _, sn := range si.actOut {
		if sn.slot.Kind == SlotReturn {
			retOut = sn.node
		}
	}
	if retOut >= 0 {
		use(retOut, sa.resUses)
	} else if len(sa.resUses) > 0 {
		use(node, sa.resUses)
	}
	for _, o := range sa.node.sdefs {
		def(node, o, true)
	}
	for _, o := range sa.node.wdefs {
		def(node, o, false)
	}
	for _, sn := range si.actOut {
		switch sn.slot.Kind {
		case SlotObject:
			def(sn.node, int32(sn.slot.Index), !mixed)
		case SlotRest:
			for _, o := range rest() {
				def(sn.node, o, !mixed)
			}
		}
	}
	if retOut >= 0 {
		for _, o := range sa.resS {
			def(retOut, o, true)
		}
		for _, o := range sa.resW {
			def(retOut, o, false)
		}
	}
}

type phiNode struct {
	slot int32 // local slot
	node int32
}

type version struct {
	slot int32
	node int32
}

// flowDeps adds the flow dependences of fi's nodes.
func (b *builder) flowDeps(fi *funcInfo) {
	f := fi.f
	g := b.g
	n := len(f.Locs)
	if len(b.slotOf) < len(b.a.objs) {
		b.slotOf = make([]int32, len(b.a.objs))
		for i := range b.slotOf {
			b.slotOf[i] = -1
		}
	}
	slotOf := b.slotOf
	var slots []int32
	var defsites [][]int32
	get := func(o int32) int32 {
		if s := slotOf[o]; s >= 0 {
			return s
		}
		s := int32(len(slots))
		slotOf[o] = s
		slots = append(slots, o)
		defsites = append(defsites, nil)
		return s
	}
	defer func() {
		for _, o := range slots {
			slotOf[o] = -1
		}
	}()

	b.objMap(fi)
	dom := graph.Dominators(f, f.Entry.Index)
	entry := f.Entry.Index
	// Definitions at the entry: parameters and formal-ins.
	var entryDefs []version
	for _, sn := range fi.formIn {
		var o int32
		switch sn.slot.Kind {
		case SlotParam:
			o = int32(f.Params[sn.slot.Index].ID)
		case SlotObject:
			o = int32(sn.slot.Index)
		case SlotRest:
			o = b.rest
		default:
			continue
		}
		s := get(o)
		defsites[s] = append(defsites[s], int32(entry))
		entryDefs = append(entryDefs, version{s, sn.node})
	}
	var du defUse
	for _, l := range f.Locs {
		if !dom.Reachable(l.Index) {
			continue
		}
		for _, e := range l.Out {
			b.edgeDefUse(fi, e, &du)
			for _, d := range du.defs {
				s := get(d.obj)
				defsites[s] = append(defsites[s], int32(e.To.Index))
			}
		}
	}

	// Phi placement at iterated dominance frontiers (plus at every join a
	// definition on an edge flows into).
	df := dom.Frontier(f)
	phis := make([][]phiNode, n)
	hasPhi := make([]int32, n)
	inWork := make([]int32, n)
	var work []int32
	for s, sites := range defsites {
		stamp := int32(s + 1)
		work = work[:0]
		addPhi := func(y int32) {
			if hasPhi[y] == stamp {
				return
			}
			hasPhi[y] = stamp
			ph := b.newNode(node{kind: NodePhi, fn: int32(fi.idx), edge: -1, loc: int32(f.Locs[y].ID), slot: slots[s]})
			phis[y] = append(phis[y], phiNode{int32(s), ph})
			g.stats.Phis++
		}
		for _, d := range sites {
			if inWork[d] != stamp {
				inWork[d] = stamp
				work = append(work, d)
			}
			if int(d) != entry && len(f.Locs[d].In) > 1 {
				addPhi(d)
			}
		}
		for len(work) > 0 {
			d := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range df[d] {
				addPhi(int32(y))
				if inWork[y] != stamp {
					inWork[y] = stamp
					work = append(work, int32(y))
				}
			}
		}
	}

	// Renaming over the dominator tree.
	stacks := make([][]int32, len(slots))
	var log []int32
	push := func(s, v int32) {
		stacks[s] = append(stacks[s], v)
		log = append(log, s)
	}
	topSlot := func(s int32) int32 {
		if st := stacks[s]; len(st) > 0 {
			return st[len(st)-1]
		}
		return -1
	}
	top := func(o int32) int32 {
		if s := slotOf[o]; s >= 0 {
			return topSlot(s)
		}
		return -1
	}
	var after []version
	current := func(s int32) int32 {
		for i := len(after) - 1; i >= 0; i-- {
			if after[i].slot == s {
				return after[i].node
			}
		}
		return topSlot(s)
	}
	visit := func(l int) int {
		mark := len(log)
		if l == entry {
			for _, v := range entryDefs {
				push(v.slot, v.node)
			}
		}
		for _, ph := range phis[l] {
			push(ph.slot, ph.node)
		}
		if l == f.Exit.Index {
			for _, sn := range fi.formOut {
				switch sn.slot.Kind {
				case SlotObject:
					b.dep(sn.node, top(int32(sn.slot.Index)), DepFlow)
				case SlotReturn:
					b.dep(sn.node, top(int32(f.RetVar.ID)), DepFlow)
				case SlotRest:
					b.dep(sn.node, top(b.rest), DepFlow)
				}
			}
		}
		loc := f.Locs[l]
		for _, e := range loc.Out {
			b.edgeDefUse(fi, e, &du)
			for _, u := range du.uses {
				for _, o := range u.objs {
					b.dep(u.node, top(o), DepFlow)
				}
			}
			after = after[:0]
			for _, d := range du.defs {
				s := slotOf[d.obj]
				v := d.node
				if !d.strong {
					if prev := current(s); prev >= 0 {
						v = b.newNode(node{kind: NodeWeak, fn: int32(fi.idx), edge: int32(e.ID), loc: -1, slot: d.obj})
						b.dep(v, d.node, DepFlow)
						b.dep(v, prev, DepFlow)
					}
				}
				after = append(after, version{s, v})
			}
			for _, ph := range phis[e.To.Index] {
				b.dep(ph.node, current(ph.slot), DepFlow)
			}
			if len(loc.Out) == 1 {
				for _, v := range after {
					push(v.slot, v.node)
				}
			}
		}
		return mark
	}
	type frame struct{ l, next, mark int }
	stack := []frame{{entry, 0, visit(entry)}}
	for len(stack) > 0 {
		fr := &stack[len(stack)-1]
		if cs := dom.Children(fr.l); fr.next < len(cs) {
			c := cs[fr.next]
			fr.next++
			stack = append(stack, frame{c, 0, visit(c)})
			continue
		}
		for len(log) > fr.mark {
			s := log[len(log)-1]
			log = log[:len(log)-1]
			stacks[s] = stacks[s][:len(stacks[s])-1]
		}
		stack = stack[:len(stack)-1]
	}
}
