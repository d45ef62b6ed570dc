package pdg

import (
	"slices"

	"github.com/reverify/reverify/engine/cfa"
)

// pta is a flow- and context-insensitive, field-insensitive inclusion-based
// points-to analysis (L. O. Andersen, "Program Analysis and Specialization
// for the C Programming Language", PhD thesis, DIKU 1994), solved with a
// worklist and difference propagation, the call graph built on the fly.
//
// Every abstract object is a constraint node holding the pointers stored
// anywhere in the object (its fields and elements collapsed); a variable's
// node is its object, with ID Var.ID. Temporaries are nodes for the values
// of sub-expressions. Constraints:
//
//	addr   n ∋ o        n = &o
//	copy   b ⊇ a        b = a
//	load   d ⊇ *p       d = *p
//	store  *p ⊇ s       *p = s
//
// The object Unknown stands for memory behind pointers the analysis cannot
// resolve (integers cast to pointers, nondeterministic pointers). Loading
// through it yields the contents of every memory object and storing through
// it reaches every memory object.
type pta struct {
	prog  *cfa.Program
	objs  []*Object // per node; nil for temporaries
	pts   [][]int32 // sorted object ids
	delta [][]int32 // sorted, not yet propagated
	succ  [][]int32
	loads [][]int32 // loads[p]: nodes d with d ⊇ *p
	store [][]int32 // store[p]: nodes s with *p ⊇ s
	calls [][]int32 // calls[p]: call sites calling through p (or calling back through p)

	queued []bool
	work   []int32
	copies map[uint64]struct{}

	addrTaken []bool // per variable ID
	addrNode  map[int32]int32
	funcObj   map[string]int32
	strObj    map[*cfa.StringLit]int32
	derefPtr  map[*cfa.Deref]int32 // value node of the pointer operand of each Deref
	seenCond  map[cfa.Expr]bool

	unknown            int32
	memObjs            []int32
	unkLoad, unkStore  bool
	sites              []*callSite
	siteOf             []int32 // per edge ID: index into sites, -1
	addrFuncs          []*cfa.Function
	addrFuncsCollected bool
	// escaped is the node of everything generic external functions see
	// (one for the whole program, -1 until the first): the addresses of
	// every global, everything passed to any of them, everything stored
	// in what they see, and memory of their own.
	escaped int32
}

// callSite is what the analyses know about one Call edge.
type callSite struct {
	e      *cfa.Edge
	call   *cfa.Call
	args   []int32  // value node per argument, -1 when it holds no pointer
	res    lvTarget // the Result lvalue
	fnptr  int32    // value node of FnPtr, -1 for direct calls
	bodies []*cfa.Function
	// callbacks are functions with bodies that an external function called
	// here may call back (found among its arguments).
	callbacks []*cfa.Function
	exts      []string // external functions called (by name)
	unknown   bool     // calls through an unresolved pointer
	generic   int32    // node of everything the generic external sees, -1
	heap      int32    // the heap object of an allocation site, -1
	bound     map[*cfa.Function]bool
}

// lvTarget is where an assignment stores: into a node directly, or through
// a pointer node.
type lvTarget struct{ direct, via int32 }

var noTarget = lvTarget{-1, -1}

func newPTA(p *cfa.Program) *pta {
	a := &pta{
		prog:     p,
		copies:   map[uint64]struct{}{},
		addrNode: map[int32]int32{},
		funcObj:  map[string]int32{},
		strObj:   map[*cfa.StringLit]int32{},
		derefPtr: map[*cfa.Deref]int32{},
		seenCond: map[cfa.Expr]bool{},
		siteOf:   make([]int32, len(p.Edges)),
		escaped:  -1,
	}
	for i := range a.siteOf {
		a.siteOf[i] = -1
	}
	n := len(p.Vars)
	a.objs = make([]*Object, n, n+n/2+16)
	a.pts = make([][]int32, n, cap(a.objs))
	a.delta = make([][]int32, n, cap(a.objs))
	a.succ = make([][]int32, n, cap(a.objs))
	a.loads = make([][]int32, n, cap(a.objs))
	a.store = make([][]int32, n, cap(a.objs))
	a.calls = make([][]int32, n, cap(a.objs))
	a.queued = make([]bool, n, cap(a.objs))
	for i, v := range p.Vars {
		a.objs[i] = &Object{ID: i, Kind: ObjVar, Var: v}
	}
	a.addrTaken = addressTaken(p)
	if hasGeneric(p) {
		// An external function may read and write every global: they are
		// all memory that pointers (its own) may reach.
		for _, v := range p.Vars {
			if v.Global {
				a.addrTaken[v.ID] = true
			}
		}
	}
	for i, t := range a.addrTaken {
		if t {
			a.memObjs = append(a.memObjs, int32(i))
		}
	}
	a.unknown = a.newObj(&Object{Kind: ObjUnknown})
	a.addAddr(a.unknown, a.unknown) // unknown memory holds unknown pointers
	return a
}

// addressTaken marks the variables whose address is taken (or that are
// arrays, which decay to their address).
func addressTaken(p *cfa.Program) []bool {
	at := make([]bool, len(p.Vars))
	for i, v := range p.Vars {
		at[i] = v.AddrTaken || v.T.Kind == cfa.Array
	}
	for _, e := range p.Edges {
		forEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if a, ok := x.(*cfa.AddrOf); ok {
					if v := cfa.BaseVar(a.X); v != nil {
						at[v.ID] = true
					}
				}
				return true
			})
		})
	}
	return at
}

// forEachExpr calls f on each top-level expression of op.
func forEachExpr(op cfa.Op, f func(cfa.Expr)) {
	switch op := op.(type) {
	case *cfa.Assign:
		f(op.LHS)
		f(op.RHS)
	case *cfa.Havoc:
		f(op.LHS)
	case *cfa.Assume:
		f(op.Cond)
	case *cfa.Call:
		if op.FnPtr != nil {
			f(op.FnPtr)
		}
		if op.Result != nil {
			f(op.Result)
		}
		for _, a := range op.Args {
			f(a)
		}
	case *cfa.Return:
		if op.X != nil {
			f(op.X)
		}
	}
}

func (a *pta) newNode(o *Object) int32 {
	id := int32(len(a.objs))
	if o != nil {
		o.ID = int(id)
	}
	a.objs = append(a.objs, o)
	a.pts = append(a.pts, nil)
	a.delta = append(a.delta, nil)
	a.succ = append(a.succ, nil)
	a.loads = append(a.loads, nil)
	a.store = append(a.store, nil)
	a.calls = append(a.calls, nil)
	a.queued = append(a.queued, false)
	return id
}

func (a *pta) temp() int32 { return a.newNode(nil) }

// newObj adds a memory object; if unresolved loads or stores already
// exist, it joins them.
func (a *pta) newObj(o *Object) int32 {
	id := a.newNode(o)
	if o.memory() {
		a.memObjs = append(a.memObjs, id)
		if a.unkLoad && id != a.unknown {
			a.addCopy(id, a.unknown)
		}
		if a.unkStore && id != a.unknown {
			a.addCopy(a.unknown, id)
		}
	}
	return id
}

func (a *pta) enqueue(n int32) {
	if !a.queued[n] {
		a.queued[n] = true
		a.work = append(a.work, n)
	}
}

func (a *pta) addAddr(n, o int32) {
	if merged, added := mergeAdd(a.pts[n], []int32{o}); len(added) > 0 {
		a.pts[n] = merged
		a.delta[n], _ = mergeAdd(a.delta[n], added)
		a.enqueue(n)
	}
}

// addrOf returns a node whose points-to set is exactly {o}.
func (a *pta) addrOf(o int32) int32 {
	if n, ok := a.addrNode[o]; ok {
		return n
	}
	n := a.temp()
	a.addAddr(n, o)
	a.addrNode[o] = n
	return n
}

func (a *pta) addCopy(from, to int32) {
	if from < 0 || to < 0 || from == to {
		return
	}
	key := uint64(uint32(from))<<32 | uint64(uint32(to))
	if _, ok := a.copies[key]; ok {
		return
	}
	a.copies[key] = struct{}{}
	a.succ[from] = append(a.succ[from], to)
	a.unionInto(to, a.pts[from])
}

func (a *pta) unionInto(to int32, s []int32) {
	if len(s) == 0 {
		return
	}
	merged, added := mergeAdd(a.pts[to], s)
	if len(added) == 0 {
		return
	}
	a.pts[to] = merged
	a.delta[to], _ = mergeAdd(a.delta[to], added)
	a.enqueue(to)
}

func (a *pta) addLoad(p, dst int32) {
	if p < 0 || dst < 0 {
		return
	}
	a.loads[p] = append(a.loads[p], dst)
	for _, o := range a.pts[p] {
		a.handleLoad(o, dst)
	}
}

func (a *pta) addStore(p, src int32) {
	if p < 0 || src < 0 {
		return
	}
	a.store[p] = append(a.store[p], src)
	for _, o := range a.pts[p] {
		a.handleStore(o, src)
	}
}

func (a *pta) handleLoad(o, dst int32) {
	switch a.objs[o].Kind {
	case ObjFunc:
		return
	case ObjUnknown:
		if !a.unkLoad {
			a.unkLoad = true
			for _, m := range a.memObjs {
				a.addCopy(m, a.unknown)
			}
		}
	}
	a.addCopy(o, dst)
}

func (a *pta) handleStore(o, src int32) {
	switch a.objs[o].Kind {
	case ObjFunc:
		return
	case ObjUnknown:
		if !a.unkStore {
			a.unkStore = true
			for _, m := range a.memObjs {
				a.addCopy(a.unknown, m)
			}
		}
	}
	a.addCopy(src, o)
}

// union returns a node holding the values of both x and y.
func (a *pta) union(x, y int32) int32 {
	if x < 0 {
		return y
	}
	if y < 0 {
		return x
	}
	t := a.temp()
	a.addCopy(x, t)
	a.addCopy(y, t)
	return t
}

func (a *pta) fn(name string) int32 {
	if o, ok := a.funcObj[name]; ok {
		return o
	}
	o := a.newObj(&Object{Kind: ObjFunc, Func: name})
	a.funcObj[name] = o
	return o
}

func (a *pta) str(s *cfa.StringLit) int32 {
	if o, ok := a.strObj[s]; ok {
		return o
	}
	o := a.newObj(&Object{Kind: ObjString, Lit: s})
	a.strObj[s] = o
	return o
}

func isArray(t *cfa.Type) bool { return t != nil && t.Kind == cfa.Array }

// val returns the node of e's value (-1 when it cannot hold a pointer),
// visiting every sub-expression.
func (a *pta) val(e cfa.Expr) int32 {
	switch e := e.(type) {
	case *cfa.Const:
		if e.T.Kind == cfa.Pointer && e.V != 0 {
			return a.addrOf(a.unknown)
		}
	case *cfa.VarRef:
		if isArray(e.Var.T) {
			return a.addrOf(int32(e.Var.ID))
		}
		return int32(e.Var.ID)
	case *cfa.StringLit:
		return a.addrOf(a.str(e))
	case *cfa.FuncRef:
		return a.addrOf(a.fn(e.Name))
	case *cfa.Unary:
		x := a.val(e.X)
		if e.Op == cfa.LNot {
			return -1
		}
		return x
	case *cfa.Binary:
		x, y := a.val(e.X), a.val(e.Y)
		if e.Op.IsComparison() || e.Op == cfa.LAnd || e.Op == cfa.LOr {
			return -1
		}
		return a.union(x, y)
	case *cfa.Cast:
		x := a.val(e.X)
		if e.T.Kind == cfa.Float {
			return -1
		}
		if e.T.Kind == cfa.Pointer && e.X.Type().IsInteger() {
			if c, ok := e.X.(*cfa.Const); ok && c.V == 0 {
				return x
			}
			return a.union(x, a.addrOf(a.unknown))
		}
		return x
	case *cfa.Deref:
		p := a.ptrOf(e)
		if isArray(e.T) || e.T.Kind == cfa.Func {
			return p
		}
		if p < 0 {
			return -1
		}
		t := a.temp()
		a.addLoad(p, t)
		return t
	case *cfa.AddrOf:
		return a.addr(e.X)
	case *cfa.Member:
		if isArray(e.T) {
			return a.addr(e)
		}
		return a.contents(e.X)
	case *cfa.Index:
		a.val(e.I)
		if isArray(e.T) {
			return a.addr(e)
		}
		return a.contents(e.X)
	}
	return -1
}

// ptrOf returns (and records) the value node of a Deref's operand.
func (a *pta) ptrOf(d *cfa.Deref) int32 {
	if p, ok := a.derefPtr[d]; ok {
		return p
	}
	p := a.val(d.X)
	a.derefPtr[d] = p
	return p
}

// contents returns the node of the values stored in lvalue l.
func (a *pta) contents(l cfa.Expr) int32 {
	switch l := l.(type) {
	case *cfa.VarRef:
		return int32(l.Var.ID)
	case *cfa.Deref:
		p := a.ptrOf(l)
		if p < 0 {
			return -1
		}
		t := a.temp()
		a.addLoad(p, t)
		return t
	case *cfa.Member:
		return a.contents(l.X)
	case *cfa.Index:
		a.val(l.I)
		return a.contents(l.X)
	case *cfa.StringLit:
		return a.str(l)
	}
	return a.val(l)
}

// addr returns a node pointing to the objects lvalue l designates.
func (a *pta) addr(l cfa.Expr) int32 {
	switch l := l.(type) {
	case *cfa.VarRef:
		return a.addrOf(int32(l.Var.ID))
	case *cfa.Deref:
		return a.ptrOf(l)
	case *cfa.Member:
		return a.addr(l.X)
	case *cfa.Index:
		a.val(l.I)
		return a.addr(l.X)
	case *cfa.StringLit:
		return a.addrOf(a.str(l))
	case *cfa.FuncRef:
		return a.addrOf(a.fn(l.Name))
	}
	return a.val(l)
}

// target returns where an assignment to lvalue l stores.
func (a *pta) target(l cfa.Expr) lvTarget {
	switch l := l.(type) {
	case *cfa.VarRef:
		return lvTarget{int32(l.Var.ID), -1}
	case *cfa.Deref:
		return lvTarget{-1, a.ptrOf(l)}
	case *cfa.Member:
		return a.target(l.X)
	case *cfa.Index:
		a.val(l.I)
		return a.target(l.X)
	case *cfa.StringLit:
		return lvTarget{a.str(l), -1}
	}
	a.val(l)
	return noTarget
}

func (a *pta) assign(t lvTarget, v int32) {
	if v < 0 {
		return
	}
	if t.direct >= 0 {
		a.addCopy(v, t.direct)
	}
	if t.via >= 0 {
		a.addStore(t.via, v)
	}
}

// generate adds the constraints of every edge of p.
func (a *pta) generate() {
	for _, f := range append([]*cfa.Function{a.prog.Init}, a.prog.Funcs...) {
		for _, l := range f.Locs {
			for _, e := range l.Out {
				a.edge(f, e)
			}
		}
	}
}

func (a *pta) edge(f *cfa.Function, e *cfa.Edge) {
	switch op := e.Op.(type) {
	case *cfa.Assign:
		t := a.target(op.LHS)
		a.assign(t, a.val(op.RHS))
	case *cfa.Havoc:
		t := a.target(op.LHS)
		switch op.LHS.Type().Kind {
		case cfa.Pointer, cfa.Struct, cfa.Union, cfa.Array:
			a.assign(t, a.addrOf(a.unknown))
		}
	case *cfa.Assume:
		if !a.seenCond[op.Cond] {
			a.seenCond[op.Cond] = true
			a.val(op.Cond)
		}
	case *cfa.Return:
		if op.X != nil {
			x := a.val(op.X)
			if f.RetVar != nil {
				a.addCopy(x, int32(f.RetVar.ID))
			}
		}
	case *cfa.Call:
		a.call(e, op)
	}
}

func (a *pta) call(e *cfa.Edge, op *cfa.Call) {
	s := &callSite{e: e, call: op, fnptr: -1, generic: -1, heap: -1, res: noTarget}
	a.siteOf[e.ID] = int32(len(a.sites))
	a.sites = append(a.sites, s)
	s.args = make([]int32, len(op.Args))
	for i, x := range op.Args {
		s.args[i] = a.val(x)
	}
	if op.Result != nil {
		s.res = a.target(op.Result)
	}
	if op.Fn != "" {
		if g := a.prog.Func(op.Fn); g != nil {
			a.bindBody(s, g)
		} else {
			a.external(s, op.Fn)
		}
		return
	}
	s.fnptr = a.val(op.FnPtr)
	if s.fnptr < 0 {
		return
	}
	idx := int32(len(a.sites) - 1)
	a.calls[s.fnptr] = append(a.calls[s.fnptr], idx)
	for _, o := range a.pts[s.fnptr] {
		a.bindObj(idx, o)
	}
}

func (a *pta) bindBody(s *callSite, g *cfa.Function) {
	if s.bound == nil {
		s.bound = map[*cfa.Function]bool{}
	}
	if s.bound[g] {
		return
	}
	s.bound[g] = true
	s.bodies = append(s.bodies, g)
	for i, x := range s.args {
		if i < len(g.Params) {
			a.addCopy(x, int32(g.Params[i].ID))
		}
	}
	if g.RetVar != nil {
		a.assign(s.res, int32(g.RetVar.ID))
	}
}

// bindObj handles object o reaching the function pointer of call site
// idx.
func (a *pta) bindObj(idx, o int32) {
	s := a.sites[idx]
	obj := a.objs[o]
	switch obj.Kind {
	case ObjFunc:
		if g := a.prog.Func(obj.Func); g != nil {
			a.bindBody(s, g)
		} else if !slices.Contains(s.exts, obj.Func) {
			a.external(s, obj.Func)
		}
	case ObjUnknown, ObjExtern:
		// Unknown memory, or what an unmodelled function hands out: a
		// function outside the program among others.
		if s.unknown {
			return
		}
		s.unknown = true
		for _, g := range a.addressTakenFuncs() {
			a.bindBody(s, g)
		}
		a.genericEffect(s, idx)
	}
}

// addressTakenFuncs returns the functions with bodies whose address is
// taken: the possible targets of an unresolved function pointer.
func (a *pta) addressTakenFuncs() []*cfa.Function {
	if !a.addrFuncsCollected {
		a.addrFuncsCollected = true
		for _, f := range a.prog.Funcs {
			if _, ok := a.funcObj[f.Name]; ok {
				a.addrFuncs = append(a.addrFuncs, f)
			}
		}
	}
	return a.addrFuncs
}

// external adds the constraints of calling the external function name.
func (a *pta) external(s *callSite, name string) {
	s.exts = append(s.exts, name)
	arg := func(i int) int32 {
		if i < len(s.args) {
			return s.args[i]
		}
		return -1
	}
	switch externKindIn(a.prog, name) {
	case extAlloc:
		if s.heap < 0 {
			s.heap = a.newObj(&Object{Kind: ObjHeap, Site: s.e})
		}
		a.assign(s.res, a.addrOf(s.heap))
	case extRealloc:
		if s.heap < 0 {
			s.heap = a.newObj(&Object{Kind: ObjHeap, Site: s.e})
		}
		a.assign(s.res, a.union(a.addrOf(s.heap), arg(0)))
		if p := arg(0); p >= 0 {
			t := a.temp()
			a.addLoad(p, t)
			a.addCopy(t, s.heap)
		}
	case extCopy:
		if d, src := arg(0), arg(1); d >= 0 && src >= 0 {
			t := a.temp()
			a.addLoad(src, t)
			a.addStore(d, t)
		}
		a.assign(s.res, arg(0))
	case extSet, extRetArg0:
		a.assign(s.res, arg(0))
	case extNondet:
		if s.call.Result != nil && s.call.Result.Type().Kind == cfa.Pointer {
			a.assign(s.res, a.addrOf(a.unknown))
		}
	case extGeneric:
		a.genericEffect(s, int32(a.siteOf[s.e.ID]))
	}
}

// genericEffect models an unknown external function at site s
// (cfa.ExternUnmodelled): all such calls share one node A of everything
// they see — the address of every global, everything reachable from the
// arguments of any of them, memory of their own — which may be stored
// anywhere in A, returned, and passed to any function in A. Sharing A
// makes an object that escaped at one call writable at every other.
func (a *pta) genericEffect(s *callSite, idx int32) {
	if s.generic >= 0 {
		return
	}
	if a.escaped < 0 {
		a.escaped = a.temp()
		for _, v := range a.prog.Vars {
			if v.Global {
				a.addAddr(a.escaped, int32(v.ID))
			}
		}
		a.addLoad(a.escaped, a.escaped)
		a.addStore(a.escaped, a.escaped)
	}
	A := a.escaped
	s.generic = A
	escapes := s.call.Result != nil
	for _, v := range s.args {
		escapes = escapes || v >= 0
	}
	if escapes {
		// Memory of its own that the external function may hand out.
		x := a.newObj(&Object{Kind: ObjExtern, Site: s.e})
		a.addAddr(A, x)
	}
	for _, v := range s.args {
		a.addCopy(v, A)
	}
	a.assign(s.res, A)
	a.calls[A] = append(a.calls[A], idx)
	for _, o := range a.pts[A] {
		a.bindCallback(idx, o)
	}
}

// bindCallback handles a function object among the arguments of a generic
// external call: the external may call it with any value it sees.
func (a *pta) bindCallback(idx, o int32) {
	s := a.sites[idx]
	obj := a.objs[o]
	if obj.Kind != ObjFunc {
		return
	}
	g := a.prog.Func(obj.Func)
	if g == nil || slices.Contains(s.callbacks, g) {
		return
	}
	s.callbacks = append(s.callbacks, g)
	for _, p := range g.Params {
		a.addCopy(s.generic, int32(p.ID))
	}
	if g.RetVar != nil {
		a.addCopy(int32(g.RetVar.ID), s.generic)
	}
}

// solve propagates points-to sets to the fixpoint.
func (a *pta) solve() {
	for len(a.work) > 0 {
		n := a.work[len(a.work)-1]
		a.work = a.work[:len(a.work)-1]
		a.queued[n] = false
		d := a.delta[n]
		a.delta[n] = nil
		if len(d) == 0 {
			continue
		}
		for _, o := range d {
			for i := 0; i < len(a.loads[n]); i++ {
				a.handleLoad(o, a.loads[n][i])
			}
			for i := 0; i < len(a.store[n]); i++ {
				a.handleStore(o, a.store[n][i])
			}
			for i := 0; i < len(a.calls[n]); i++ {
				idx := a.calls[n][i]
				if a.sites[idx].generic == n {
					a.bindCallback(idx, o)
				} else {
					a.bindObj(idx, o)
				}
			}
		}
		for i := 0; i < len(a.succ[n]); i++ {
			a.unionInto(a.succ[n][i], d)
		}
	}
}

// mergeAdd returns the sorted union of sorted sets s and t and the elements
// of t not in s. s is not modified.
func mergeAdd(s, t []int32) (merged, added []int32) {
	i, j := 0, 0
	for i < len(s) && j < len(t) {
		switch {
		case s[i] < t[j]:
			i++
		case s[i] > t[j]:
			added = append(added, t[j])
			j++
		default:
			i++
			j++
		}
	}
	for ; j < len(t); j++ {
		if len(added) == 0 || added[len(added)-1] != t[j] {
			added = append(added, t[j])
		}
	}
	if len(added) == 0 {
		return s, nil
	}
	merged = make([]int32, 0, len(s)+len(added))
	i, j = 0, 0
	for i < len(s) || j < len(added) {
		if j == len(added) || (i < len(s) && s[i] < added[j]) {
			merged = append(merged, s[i])
			i++
		} else {
			merged = append(merged, added[j])
			j++
		}
	}
	return merged, added
}

func containsSorted(s []int32, x int32) bool {
	_, ok := slices.BinarySearch(s, x)
	return ok
}
