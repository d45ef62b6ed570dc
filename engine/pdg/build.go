package pdg

import (
	"slices"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// builder holds the state of Build.
type builder struct {
	g     *SDG
	p     *cfa.Program
	a     *pta
	funcs []*funcInfo
	cg    *graph.Adjacency // call graph over function indices, caller → callee
	comps [][]int          // SCCs of cg, callees first
	acc   []access         // per edge ID (call edges: unused)
	sacc  []siteAccess     // per call site
	norm  *normalizer
	reach map[int][]bool // functions reachable from a function in cg
	// slotOf maps objects to the SSA slots of the function being built (-1).
	slotOf []int32
	// localOf maps nodes to local indices in formalDeps (-1).
	localOf   []int32
	fdScratch fdScratch
	// inG marks objects reachable from globals; vis[o] == h+1 marks those
	// reachable from function h's parameters and return variable.
	inG, vis []int32
	// rest is the pseudo-object ObjRest (-1 until a function needs it);
	// collMark and mapFn serve mapObj (collapse.go).
	rest     int32
	collMark []int32
	mapFn    *funcInfo

	// dependences under construction
	dFrom, dTo []int32
	dKind      []DepKind
}

func newBuilder(p *cfa.Program) *builder {
	g := &SDG{Prog: p, funcIdx: map[*cfa.Function]int{}}
	b := &builder{g: g, p: p, reach: map[int][]bool{}, rest: -1}
	all := append([]*cfa.Function{p.Init}, p.Funcs...)
	for i, f := range all {
		fi := &funcInfo{f: f, idx: i}
		b.funcs = append(b.funcs, fi)
		g.funcIdx[f] = i
	}
	g.funcs = b.funcs
	return b
}

func (b *builder) run() {
	g := b.g
	// Points-to analysis and call graph.
	b.a = newPTA(b.p)
	b.a.generate()
	b.a.solve()
	g.addrTaken = b.a.addrTaken
	g.derefPtr = b.a.derefPtr
	b.callGraph()

	// Pseudo-objects and accesses.
	b.accesses()
	g.objs = b.a.objs
	g.pts = b.a.pts

	// Interprocedural summaries of effects.
	b.modRef()
	b.collapse()
	g.objs = b.a.objs
	g.pts = b.a.pts
	b.mayStop()

	// Nodes.
	b.nodes()

	// Per-function control and flow dependences.
	for _, fi := range b.funcs {
		b.controlDeps(fi)
		b.flowDeps(fi)
	}
	b.interprocedural()
	b.csr()
	b.summaries()
	b.g.stats.Locations = len(b.p.Locs)
	b.g.stats.Edges = len(b.p.Edges)
	b.g.stats.Functions = len(b.funcs)
	b.g.stats.Nodes = len(g.nodes)
	b.g.stats.Deps = len(g.depTo)
	b.g.stats.Objects = len(g.objs)
}

// callGraph records every call site's targets (its points-to targets with
// a body and the callbacks of an unmodelled callee) and every function's
// callers, builds the program's call graph on them (cfa.NewCallGraph,
// whose node indices are the function indices here: Init, then
// Program.Funcs), and computes its SCCs and recursion.
func (b *builder) callGraph() {
	g := b.g
	g.siteOf = b.a.siteOf
	edges := make([]*cfa.Edge, len(b.a.sites))
	targets := map[*cfa.Edge][]string{}
	for i, cs := range b.a.sites {
		caller := g.funcIdx[cs.e.From.Func]
		si := &siteInfo{cs: cs, fn: caller}
		for _, t := range append(slices.Clone(cs.bodies), cs.callbacks...) {
			ti := g.funcIdx[t]
			if slices.Contains(si.targets, ti) {
				continue
			}
			si.targets = append(si.targets, ti)
			b.funcs[ti].callers = append(b.funcs[ti].callers, int32(i))
			targets[cs.e] = append(targets[cs.e], t.Name)
		}
		edges[i] = cs.e
		g.sites = append(g.sites, si)
		b.funcs[caller].sites = append(b.funcs[caller].sites, int32(i))
	}
	b.cg = cfa.NewCallGraph(b.p, edges, func(e *cfa.Edge, _ *cfa.Call) []string { return targets[e] }).Graph
	b.comps = graph.SCCs(b.cg)
	for _, c := range b.comps {
		if len(c) > 1 {
			for _, f := range c {
				b.funcs[f].recursive = true
			}
			continue
		}
		if slices.Contains(b.cg.Succs(c[0]), c[0]) {
			b.funcs[c[0]].recursive = true
		}
	}
}

// strong reports whether an assignment to v replaces its only instance:
// always for variables whose address is not taken and for objects of
// static storage duration; for address-taken locals unless their function
// is recursive (another activation's instance shares the object).
func (b *builder) strong(v *cfa.Var) bool {
	if !b.a.addrTaken[v.ID] || v.Global || v.Func == "" {
		return true
	}
	f := b.p.Func(v.Func)
	if f == nil {
		return true
	}
	return !b.funcs[b.g.funcIdx[f]].recursive
}

// isMem reports whether o is memory that pointers may reach.
func (b *builder) isMem(o int32) bool {
	obj := b.a.objs[o]
	if obj.Kind == ObjVar {
		return b.a.addrTaken[obj.Var.ID]
	}
	return obj.memory()
}

// accesses computes the normalized accesses of every edge and call site.
func (b *builder) accesses() {
	x := &extractor{a: b.a, strong: b.strong}
	b.acc = make([]access, len(b.p.Edges))
	hasUnsupported := false
	for _, e := range b.p.Edges {
		switch e.Op.(type) {
		case *cfa.Call:
			continue
		case *cfa.Unsupported:
			hasUnsupported = true
		}
		b.acc[e.ID] = x.edge(e.From.Func, e)
	}
	b.sacc = make([]siteAccess, len(b.g.sites))
	for i, si := range b.g.sites {
		cs := si.cs
		external := len(cs.exts) > 0 || cs.unknown || (len(cs.bodies) == 0 && len(cs.callbacks) == 0)
		mixed := external && len(si.targets) > 0
		b.sacc[i] = x.site(cs, external, mixed)
	}
	n := &normalizer{
		mem:            b.isMem,
		unknown:        b.a.unknown,
		useUW:          x.rawUnknownWrite,
		defUR:          x.rawUnknownRead,
		hasUnsupported: hasUnsupported,
		uw:             -1, ur: -1, any: -1,
	}
	if x.rawUnknownWrite {
		n.uw = b.a.newNode(&Object{Kind: ObjWriteUnknown})
	}
	if x.rawUnknownRead || x.rawUnknownWrite {
		n.ur = b.a.newNode(&Object{Kind: ObjReadUnknown})
	}
	if hasUnsupported {
		n.any = b.a.newNode(&Object{Kind: ObjAny})
	}
	b.norm = n
	for _, e := range b.p.Edges {
		switch e.Op.(type) {
		case *cfa.Call:
		case *cfa.Unsupported:
			b.acc[e.ID].wdefs = []int32{n.any}
		default:
			n.access(&b.acc[e.ID])
		}
	}
	for i := range b.sacc {
		n.site(&b.sacc[i])
	}
}

// private reports whether object o is a local of f that nothing outside f
// can access.
func (b *builder) private(o int32, f *cfa.Function) bool {
	obj := b.a.objs[o]
	return obj.Kind == ObjVar && !obj.Var.Global && obj.Var.Func == f.Name && !b.a.addrTaken[obj.Var.ID]
}

// keep reports whether object o belongs to the interface (MOD/REF) of
// function h, that is, whether h's callers may access o before or after
// the call:
//   - globals and the pseudo-objects always;
//   - other objects (locals of functions, heap, strings, memory of
//     external functions) only when h can reach them through pointers
//     from globals, its parameters or its return value (see visible);
//   - locals of a function F additionally only if F may call h, and h's
//     own locals only if h is recursive (else no activation of h's
//     callers can hold them).
func (b *builder) keep(o int32, h int) bool {
	obj := b.a.objs[o]
	switch obj.Kind {
	case ObjUnknown, ObjWriteUnknown, ObjReadUnknown, ObjAny:
		return true
	}
	if obj.Kind == ObjVar && obj.Var.Global {
		return true
	}
	if b.inG[o] == 0 && b.vis[o] != int32(h+1) {
		return false
	}
	if obj.Kind != ObjVar || obj.Var.Func == "" {
		return true
	}
	F := b.p.Func(obj.Var.Func)
	if F == nil {
		return true
	}
	fi := b.g.funcIdx[F]
	if fi == h {
		return b.funcs[h].recursive
	}
	return b.reaches(fi, h)
}

// closure marks in mark (with stamp) every object reachable through the
// points-to sets from the objects in start, skipping objects already in
// skip (which must be closed).
func (b *builder) closure(start []int32, mark []int32, stamp int32, skip []int32) (marked []int32) {
	var stack []int32
	push := func(objs []int32) {
		for _, o := range objs {
			if mark[o] != stamp && (skip == nil || skip[o] == 0) {
				mark[o] = stamp
				stack = append(stack, o)
				marked = append(marked, o)
			}
		}
	}
	push(start)
	for len(stack) > 0 {
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		push(b.a.pts[o])
	}
	return marked
}

// visible marks (b.vis[o] == h+1) the objects reachable from h's
// parameters and return variable that are not reachable from globals
// (b.inG).
func (b *builder) visible(h int) {
	f := b.funcs[h].f
	var roots []int32
	for _, p := range f.Params {
		roots = append(roots, b.a.pts[p.ID]...)
	}
	if f.RetVar != nil {
		roots = append(roots, b.a.pts[f.RetVar.ID]...)
	}
	b.closure(roots, b.vis, int32(h+1), b.inG)
}

// modRef computes GMOD and GREF: the non-private objects each function may
// write and read, its callees included, bottom-up over the call graph's
// SCCs, each restricted to what its callers may access (keep).
func (b *builder) modRef() {
	n := len(b.a.objs)
	b.inG = make([]int32, n)
	b.vis = make([]int32, n)
	var gl []int32
	for _, v := range b.p.Vars {
		if v.Global {
			gl = append(gl, b.a.pts[v.ID]...)
		}
	}
	b.closure(gl, b.inG, 1, nil)
	imod := make([][]int32, len(b.funcs))
	iref := make([][]int32, len(b.funcs))
	for _, fi := range b.funcs {
		f := fi.f
		var mod, ref []int32
		add := func(dst []int32, objs []int32) []int32 {
			for _, o := range objs {
				if !b.private(o, f) {
					dst = append(dst, o)
				}
			}
			return dst
		}
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if _, ok := e.Op.(*cfa.Call); ok {
					sa := &b.sacc[b.g.siteOf[e.ID]]
					ref = add(ref, sa.node.uses)
					mod = add(mod, sa.node.sdefs)
					mod = add(mod, sa.node.wdefs)
					for _, u := range sa.args {
						ref = add(ref, u)
					}
					ref = add(ref, sa.resUses)
					mod = add(mod, sa.resS)
					mod = add(mod, sa.resW)
					continue
				}
				a := &b.acc[e.ID]
				ref = add(ref, a.uses)
				mod = add(mod, a.sdefs)
				mod = add(mod, a.wdefs)
			}
		}
		imod[fi.idx] = sortUniq(mod)
		iref[fi.idx] = sortUniq(ref)
	}
	inComp := make([]int, len(b.funcs))
	for ci, c := range b.comps {
		for _, f := range c {
			inComp[f] = ci
		}
	}
	for ci, c := range b.comps {
		if len(c) == 1 {
			// Filter before sorting: callees' sets may be large.
			h := c[0]
			b.visible(h)
			fi := b.funcs[h]
			var mod, ref []int32
			add := func(dst, objs []int32) []int32 {
				for _, o := range objs {
					if b.keep(o, h) {
						dst = append(dst, o)
					}
				}
				return dst
			}
			mod = add(mod, imod[h])
			ref = add(ref, iref[h])
			for _, callee := range b.cg.Succs(h) {
				if callee != h {
					mod = add(mod, b.funcs[callee].mod)
					ref = add(ref, b.funcs[callee].ref)
				}
			}
			fi.mod, fi.ref = sortUniq(mod), sortUniq(ref)
			continue
		}
		var mod, ref []int32
		for _, h := range c {
			mod = append(mod, imod[h]...)
			ref = append(ref, iref[h]...)
			for _, callee := range b.cg.Succs(h) {
				if inComp[callee] != ci {
					mod = append(mod, b.funcs[callee].mod...)
					ref = append(ref, b.funcs[callee].ref...)
				}
			}
		}
		mod, ref = sortUniq(mod), sortUniq(ref)
		for _, h := range c {
			b.visible(h)
			fi := b.funcs[h]
			fi.mod = filter(mod, func(o int32) bool { return b.keep(o, h) })
			fi.ref = filter(ref, func(o int32) bool { return b.keep(o, h) })
		}
	}
}

func filter(s []int32, keep func(int32) bool) []int32 {
	out := make([]int32, 0, len(s))
	for _, o := range s {
		if keep(o) {
			out = append(out, o)
		}
	}
	return out
}

// mayStop decides for every function whether a call of it may not return:
// its body reaches a Terminal location, has a reachable location without a
// path to the exit (a non-terminating loop), or calls such a function or an
// external function that may not return.
func (b *builder) mayStop() {
	local := make([]bool, len(b.funcs))
	for _, fi := range b.funcs {
		f := fi.f
		reach := graph.Reachable(f, f.Entry.Index)
		back := graph.Reachable(graph.Reverse(f), f.Exit.Index)
		for i, l := range f.Locs {
			if reach[i] && (l.Terminal || !back[i]) {
				local[fi.idx] = true
				break
			}
		}
		for _, s := range fi.sites {
			si := b.g.sites[s]
			for _, name := range si.cs.exts {
				if externKindIn(b.p, name).mayStop() {
					si.extStop = true
				}
			}
			if si.extStop {
				local[fi.idx] = true
			}
		}
	}
	for _, c := range b.comps {
		for _, h := range c {
			b.funcs[h].mayStop = local[h]
		}
		for changed := true; changed; {
			changed = false
			for _, h := range c {
				fi := b.funcs[h]
				for _, s := range fi.sites {
					si := b.g.sites[s]
					for _, t := range si.targets {
						if b.funcs[t].mayStop && !si.mayStop {
							si.mayStop = true
						}
					}
					if si.mayStop && !fi.mayStop {
						fi.mayStop = true
						changed = true
					}
				}
			}
		}
	}
}

// nodes creates the edge nodes and every function's entry, formal and
// actual nodes.
func (b *builder) nodes() {
	g := b.g
	g.nodes = make([]node, len(b.p.Edges), len(b.p.Edges)*2)
	for _, e := range b.p.Edges {
		g.nodes[e.ID] = node{kind: NodeEdge, fn: int32(g.funcIdx[e.From.Func]), edge: int32(e.ID), loc: -1, slot: -1}
	}
	// Formals first (actuals need the callees' slots).
	for _, fi := range b.funcs {
		fi.entry = b.newNode(node{kind: NodeEntry, fn: int32(fi.idx), edge: -1, loc: -1})
		for i := range fi.f.Params {
			fi.formIn = append(fi.formIn, slotNode{Slot{SlotParam, i}, -1})
		}
		for _, o := range sortUniq(append(slices.Clone(fi.ref), fi.mod...)) {
			fi.formIn = append(fi.formIn, slotNode{Slot{SlotObject, int(o)}, -1})
		}
		if fi.restIn {
			fi.formIn = append(fi.formIn, slotNode{Slot{SlotRest, 0}, -1})
		}
		if fi.f.RetVar != nil {
			fi.formOut = append(fi.formOut, slotNode{Slot{SlotReturn, 0}, -1})
		}
		if fi.mayStop {
			fi.formOut = append(fi.formOut, slotNode{Slot{SlotReturns, 0}, -1})
		}
		for _, o := range fi.mod {
			fi.formOut = append(fi.formOut, slotNode{Slot{SlotObject, int(o)}, -1})
		}
		if fi.restOut {
			fi.formOut = append(fi.formOut, slotNode{Slot{SlotRest, 0}, -1})
		}
		for i := range fi.formIn {
			fi.formIn[i].node = b.newNode(node{kind: NodeFormalIn, fn: int32(fi.idx), edge: -1, loc: -1, sk: fi.formIn[i].slot.Kind, slot: int32(fi.formIn[i].slot.Index)})
		}
		for i := range fi.formOut {
			fi.formOut[i].node = b.newNode(node{kind: NodeFormalOut, fn: int32(fi.idx), edge: -1, loc: -1, sk: fi.formOut[i].slot.Kind, slot: int32(fi.formOut[i].slot.Index)})
		}
		g.stats.Formals += len(fi.formIn) + len(fi.formOut)
	}
	acc := make([]int32, len(b.a.objs))
	for _, fi := range b.funcs {
		b.trackedObjects(fi, b.accessible(fi, acc))
		stamp := int32(fi.idx + 1)
		// Objects the caller cannot access while it runs pass through the
		// call site without actual nodes (their versions in the caller are
		// undefined and unread).
		useful := func(sl Slot) bool {
			if sl.Kind != SlotObject {
				return true // parameters, results, termination, the rest
			}
			o := int32(sl.Index)
			if b.inG[o] != 0 || acc[o] == stamp {
				return true
			}
			switch obj := b.a.objs[o]; obj.Kind {
			case ObjVar:
				return obj.Var.Global || obj.Var.Func == fi.f.Name
			case ObjUnknown, ObjWriteUnknown, ObjReadUnknown, ObjAny:
				return true
			}
			return false
		}
		for _, s := range fi.sites {
			si := g.sites[s]
			var in, out []Slot
			for _, t := range si.targets {
				for _, sn := range b.funcs[t].formIn {
					if useful(sn.slot) {
						in = append(in, sn.slot)
					}
				}
				for _, sn := range b.funcs[t].formOut {
					if sn.slot.Kind == SlotReturn && si.cs.call.Result == nil || !useful(sn.slot) {
						continue
					}
					out = append(out, sn.slot)
				}
			}
			cmp := func(a, b Slot) int {
				if a == b {
					return 0
				}
				if a.less(b) {
					return -1
				}
				return 1
			}
			slices.SortFunc(in, cmp)
			slices.SortFunc(out, cmp)
			in, out = slices.Compact(in), slices.Compact(out)
			e := int32(si.cs.e.ID)
			for _, sl := range in {
				si.actIn = append(si.actIn, slotNode{sl, b.newNode(node{kind: NodeActualIn, fn: int32(fi.idx), edge: e, loc: -1, sk: sl.Kind, slot: int32(sl.Index)})})
			}
			for _, sl := range out {
				si.actOut = append(si.actOut, slotNode{sl, b.newNode(node{kind: NodeActualOut, fn: int32(fi.idx), edge: e, loc: -1, sk: sl.Kind, slot: int32(sl.Index)})})
			}
			g.stats.Actuals += len(si.actIn) + len(si.actOut)
		}
	}
}

// accessible marks (acc[o] == fi.idx+1) the objects function fi can
// reach while it runs, besides those reachable from globals (b.inG): its
// own locals and everything reachable through the points-to sets from its
// variables and from the arguments it passes; locals of a function G only
// when G may call fi (else no activation of G is alive).
func (b *builder) accessible(fi *funcInfo, acc []int32) (marked []int32) {
	stamp := int32(fi.idx + 1)
	f := fi.f
	var roots []int32
	add := func(v *cfa.Var) {
		if v != nil {
			roots = append(roots, b.a.pts[v.ID]...)
		}
	}
	for _, v := range f.Params {
		add(v)
	}
	for _, v := range f.Locals {
		add(v)
	}
	add(f.RetVar)
	for _, s := range fi.sites {
		for _, a := range b.g.sites[s].cs.args {
			if a >= 0 {
				roots = append(roots, b.a.pts[a]...)
			}
		}
	}
	all := b.closure(roots, acc, stamp, b.inG)
	marked = all[:0]
	for _, o := range all {
		if obj := b.a.objs[o]; obj.Kind == ObjVar && !obj.Var.Global && obj.Var.Func != "" && obj.Var.Func != f.Name {
			if F := b.p.Func(obj.Var.Func); F != nil {
				if fF := b.g.funcIdx[F]; !b.reaches(fF, fi.idx) {
					acc[o] = 0
					continue
				}
			}
		}
		marked = append(marked, o)
	}
	return marked
}

// reaches reports whether function from may call function to
// (transitively, or from == to).
func (b *builder) reaches(from, to int) bool {
	r, ok := b.reach[from]
	if !ok {
		r = graph.Reachable(b.cg, from)
		b.reach[from] = r
	}
	return r[to]
}

func (b *builder) newNode(n node) int32 {
	id := int32(len(b.g.nodes))
	b.g.nodes = append(b.g.nodes, n)
	return id
}

func (b *builder) dep(from, to int32, k DepKind) {
	if from < 0 || to < 0 {
		return
	}
	b.dFrom = append(b.dFrom, from)
	b.dTo = append(b.dTo, to)
	b.dKind = append(b.dKind, k)
}

// interprocedural adds call, parameter-in and parameter-out dependences,
// and links the formal-ins of entry functions to Init's formal-outs.
func (b *builder) interprocedural() {
	g := b.g
	for _, si := range g.sites {
		call := int32(si.cs.e.ID)
		for _, t := range si.targets {
			fi := b.funcs[t]
			b.dep(fi.entry, call, DepCall)
			for _, sn := range fi.formIn {
				b.dep(sn.node, findSlot(si.actIn, sn.slot), DepParamIn)
			}
			for _, sn := range fi.formOut {
				if a := findSlot(si.actOut, sn.slot); a >= 0 {
					b.dep(a, sn.node, DepParamOut)
				}
			}
		}
	}
	init := b.funcs[0]
	for _, fi := range b.funcs[1:] {
		if len(fi.callers) > 0 && fi.f.Name != "main" {
			continue
		}
		initRest := findSlot(init.formOut, Slot{SlotRest, 0})
		for _, sn := range fi.formIn {
			switch sn.slot.Kind {
			case SlotObject:
				if d := findSlot(init.formOut, sn.slot); d >= 0 {
					b.dep(sn.node, d, DepParamIn)
				} else if containsSorted(init.collapsed, int32(sn.slot.Index)) {
					b.dep(sn.node, initRest, DepParamIn)
				}
			case SlotRest:
				b.dep(sn.node, initRest, DepParamIn)
				for _, o := range fi.collapsed {
					b.dep(sn.node, findSlot(init.formOut, Slot{SlotObject, int(o)}), DepParamIn)
				}
			}
		}
	}
}

// csr freezes the dependences into the SDG's compressed adjacency, each
// node's dependences sorted by kind and target and without duplicates.
func (b *builder) csr() {
	g := b.g
	n := len(g.nodes)
	start := make([]int32, n+1)
	for _, f := range b.dFrom {
		start[f+1]++
	}
	for i := range n {
		start[i+1] += start[i]
	}
	to := make([]int, start[n])
	kind := make([]DepKind, start[n])
	fill := slices.Clone(start[:n])
	for i, f := range b.dFrom {
		to[fill[f]] = int(b.dTo[i])
		kind[fill[f]] = b.dKind[i]
		fill[f]++
	}
	// Sort and deduplicate each node's list, compacting in place.
	w := int32(0)
	type pair struct {
		to   int
		kind DepKind
	}
	var buf []pair
	newStart := make([]int32, n+1)
	for i := range n {
		s, e := start[i], start[i+1]
		buf = buf[:0]
		for j := s; j < e; j++ {
			buf = append(buf, pair{to[j], kind[j]})
		}
		slices.SortFunc(buf, func(a, b pair) int {
			if a.kind != b.kind {
				return int(a.kind) - int(b.kind)
			}
			return a.to - b.to
		})
		buf = slices.Compact(buf)
		newStart[i] = w
		for _, p := range buf {
			to[w] = p.to
			kind[w] = p.kind
			w++
		}
	}
	newStart[n] = w
	g.depStart = newStart
	g.depTo = to[:w:w]
	g.depKind = kind[:w:w]
}
