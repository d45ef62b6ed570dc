package smt

import (
	"context"
	"fmt"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
)

// mergeShared is the part of a merged encoding that all its states
// share: object ids are unique over all states, so that a pointer of one
// branch never designates an object of another, and the objects of
// string literals and functions have one id wherever they are created.
type mergeShared struct {
	nextObj int
	strIDs  map[*cfa.StringLit]int
	funcIDs map[string]int
	step    int
}

// SymState is one symbolic state of a merged encoding: the call frames,
// the SSA values of register variables, the memory objects and the guard,
// the condition (Bool) under which an execution is in this state. A
// SymState belongs to the Merger that made it.
type SymState struct {
	frames  []*frame
	greg    map[*cfa.Var]*Term
	gobj    map[*cfa.Var]*object
	objs    []*object
	strs    map[*cfa.StringLit]*object
	funcs   map[string]*object
	guard   *Term
	mallocs int
}

// Guard returns the condition under which an execution is in s.
func (s *SymState) Guard() *Term { return s.guard }

// Depth returns the number of call frames of s (0 before the first step).
func (s *SymState) Depth() int { return len(s.frames) }

// Merger encodes many paths at once, as a bounded model checker does
// (CBMC's symbolic execution with path merging; Beyer, Cimatti, Griggio,
// Keremoglu, Sebastiani, "Software model checking via large-block
// encoding", FMCAD 2009): states are advanced step by step with the
// encoding of EncodePath, but an Assume strengthens the state's guard
// instead of adding a conjunct, and Join merges the states arriving at a
// join point into one, each register and memory object an if-then-else
// over the arriving guards. Every definition is a conjunct over fresh
// variables, so the conjunction of Formula's conjuncts is satisfiable
// together with any guard that some execution of the encoded paths
// satisfies, and a guard is unsatisfiable with them iff no execution
// reaches its state (with undefined operations yielding any value, as in
// EncodePath; Formula's UB conditions are each guarded by their state).
type Merger struct {
	e *encoder
	// memo and defining are Query's substitution of f.Defs[:ndefs].
	memo     map[*Term]*Term
	defining map[*Term]bool
	ndefs    int
}

// NewMerger returns a merged encoder for executions of p that take edges
// of edges only (the variables whose address any of them takes live in
// memory, and an entry parameter is modelled when one of them mentions
// it).
func NewMerger(b *Builder, p *cfa.Program, edges []*cfa.Edge, opts EncodeOptions) *Merger {
	steps := make([]cfa.Step, len(edges))
	for i, e := range edges {
		steps[i] = cfa.Step{Edge: e}
	}
	e := &encoder{
		opts: opts,
		b:    b, p: p,
		ptrBits: p.DataModel.PointerBits(), offBits: OffsetBits(p.DataModel),
		f:   &PathFormula{},
		mem: map[*cfa.Var]bool{},
		act: map[*cfa.Function]int{}, ver: map[string]int{},
		path: steps,
		shared: &mergeShared{nextObj: 1, strIDs: map[*cfa.StringLit]int{},
			funcIDs: map[string]int{}},
	}
	e.objBits = e.ptrBits - e.offBits
	e.scanMemVars(steps)
	return &Merger{e: e}
}

// Initial returns the state before the first step: no frame, no object
// but NULL, guard true.
func (m *Merger) Initial() *SymState {
	b := m.e.b
	return &SymState{
		greg: map[*cfa.Var]*Term{}, gobj: map[*cfa.Var]*object{},
		objs:  []*object{{id: 0, name: "NULL", size: b.BV(0, m.e.ptrBits), live: b.False()}},
		strs:  map[*cfa.StringLit]*object{},
		funcs: map[string]*object{},
		guard: b.True(),
	}
}

// Formula returns the conjuncts and UB conditions of every step applied
// so far (a PathFormula whose Steps, Defs and Inputs are bookkeeping
// only).
func (m *Merger) Formula() *PathFormula { return m.e.f }

func (m *Merger) load(s *SymState) {
	e := m.e
	e.frames, e.greg, e.gobj, e.objs = s.frames, s.greg, s.gobj, s.objs
	e.strs, e.funcs, e.guard, e.mallocs = s.strs, s.funcs, s.guard, s.mallocs
}

func (m *Merger) save(s *SymState) {
	e := m.e
	s.frames, s.greg, s.gobj, s.objs = e.frames, e.greg, e.gobj, e.objs
	s.strs, s.funcs, s.guard, s.mallocs = e.strs, e.funcs, e.guard, e.mallocs
}

// Apply advances s over step (the cfa.Step convention of EncodePath),
// in place. It returns an *EncodeError for a construct outside the
// encoding, or ctx's error; s is then unusable.
func (m *Merger) Apply(ctx context.Context, s *SymState, step cfa.Step) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	e := m.e
	m.load(s)
	e.ctx = ctx
	e.step = e.shared.step
	e.shared.step++
	e.pos = cfa.Pos{}
	if step.Edge != nil {
		e.pos = step.Edge.Pos.Start
	}
	defer func() {
		e.ctx = nil
		if r := recover(); r != nil {
			ep, ok := r.(encodePanic)
			if !ok {
				panic(r)
			}
			err = ep.err
		}
		m.save(s)
	}()
	e.doStep(step)
	return nil
}

// Assume strengthens s's guard by c (Bool).
func (m *Merger) Assume(s *SymState, c *Term) { s.guard = m.e.b.And(s.guard, c) }

// NameGuard replaces s's guard by a fresh Bool variable whose name
// starts with name, defined equal to it by a conjunct, and returns the
// variable: guards stay small terms however many joins they pass.
func (m *Merger) NameGuard(s *SymState, name string) *Term {
	b := m.e.b
	if s.guard.Op == True || s.guard.Op == False || s.guard.Op == Var {
		return s.guard
	}
	v := b.FreshVar(name, BoolSort)
	m.e.conj(b.Eq(v, s.guard))
	s.guard = v
	return v
}

// Clone returns a copy of s that Apply and Join may change independently
// of s.
func (m *Merger) Clone(s *SymState) *SymState {
	objs := make([]*object, len(s.objs))
	for i, o := range s.objs {
		if o != nil {
			c := *o
			objs[i] = &c
		}
	}
	re := func(o *object) *object { return objs[o.id] }
	c := &SymState{
		frames: make([]*frame, len(s.frames)),
		greg:   make(map[*cfa.Var]*Term, len(s.greg)),
		gobj:   make(map[*cfa.Var]*object, len(s.gobj)),
		objs:   objs,
		strs:   make(map[*cfa.StringLit]*object, len(s.strs)),
		funcs:  make(map[string]*object, len(s.funcs)),
		guard:  s.guard, mallocs: s.mallocs,
	}
	for i, fr := range s.frames {
		nf := &frame{fn: fr.fn, name: fr.name, call: fr.call,
			reg: make(map[*cfa.Var]*Term, len(fr.reg)), obj: make(map[*cfa.Var]*object, len(fr.obj))}
		for v, t := range fr.reg {
			nf.reg[v] = t
		}
		for v, o := range fr.obj {
			nf.obj[v] = re(o)
		}
		for _, o := range fr.allocas {
			nf.allocas = append(nf.allocas, re(o))
		}
		c.frames[i] = nf
	}
	for v, t := range s.greg {
		c.greg[v] = t
	}
	for v, o := range s.gobj {
		c.gobj[v] = re(o)
	}
	for k, o := range s.strs {
		c.strs[k] = re(o)
	}
	for k, o := range s.funcs {
		c.funcs[k] = re(o)
	}
	return c
}

// Join merges states (at least one) arriving at one join point into one
// state whose guard is the disjunction of theirs, each register and each
// object's contents, size and liveness an if-then-else over their
// guards. The states must have the same call frames (the same functions
// and call edges); they are consumed. It returns an *EncodeError when
// the states disagree on which object a variable names.
func (m *Merger) Join(states []*SymState) (r *SymState, err error) {
	defer func() {
		if x := recover(); x != nil {
			ep, ok := x.(encodePanic)
			if !ok {
				panic(x)
			}
			r, err = nil, ep.err
		}
	}()
	r = states[0]
	for _, s := range states[1:] {
		m.join2(r, s)
	}
	return r, nil
}

// join2 merges s into r: r becomes "if s.guard then s else r".
func (m *Merger) join2(r, s *SymState) {
	e, b := m.e, m.e.b
	g := s.guard
	if len(r.frames) != len(s.frames) {
		e.fail("join of states with %d and %d call frames", len(r.frames), len(s.frames))
	}
	// objects first: the frames' maps are redirected to r's objects
	for len(r.objs) < len(s.objs) {
		r.objs = append(r.objs, nil)
	}
	for id, so := range s.objs {
		ro := r.objs[id]
		switch {
		case so == nil:
			if ro != nil && !m.sharedObj(ro) {
				ro.live = b.Ite(g, b.False(), ro.live)
			}
		case ro == nil:
			c := *so
			if !m.sharedObj(so) {
				c.live = b.Ite(g, so.live, b.False())
			}
			r.objs[id] = &c
		default:
			ro.live = b.Ite(g, so.live, ro.live)
			ro.size = b.Ite(g, so.size, ro.size)
			if ro.arr != nil && so.arr != nil {
				ro.arr = b.Ite(g, so.arr, ro.arr)
			}
			ro.heap = ro.heap || so.heap
		}
	}
	mergeObjMap := func(what string, dst, src map[*cfa.Var]*object) {
		for v, so := range src {
			if ro, ok := dst[v]; ok {
				if ro.id != so.id {
					e.fail("join of states holding different instances of %s %s", what, v.Name)
				}
				continue
			}
			dst[v] = r.objs[so.id]
		}
	}
	for i, sf := range s.frames {
		rf := r.frames[i]
		if rf.fn != sf.fn || rf.call != sf.call {
			e.fail("join of states in different calls (%s and %s)", rf.fn.Name, sf.fn.Name)
		}
		m.joinRegs(g, rf.reg, sf.reg, rf)
		mergeObjMap("variable", rf.obj, sf.obj)
		have := map[int]bool{}
		for _, o := range rf.allocas {
			have[o.id] = true
		}
		for _, o := range sf.allocas {
			if !have[o.id] {
				rf.allocas = append(rf.allocas, r.objs[o.id])
			}
		}
	}
	m.joinRegs(g, r.greg, s.greg, nil)
	mergeObjMap("global", r.gobj, s.gobj)
	for k, o := range s.strs {
		if _, ok := r.strs[k]; !ok {
			r.strs[k] = r.objs[o.id]
		}
	}
	for k, o := range s.funcs {
		if _, ok := r.funcs[k]; !ok {
			r.funcs[k] = r.objs[o.id]
		}
	}
	r.mallocs = max(r.mallocs, s.mallocs)
	r.guard = b.Or(r.guard, g)
}

// sharedObj reports whether o is a string literal's or a function's
// object, which every state has alike once any state made it.
func (m *Merger) sharedObj(o *object) bool {
	if o.fn {
		return true
	}
	for _, id := range m.e.shared.strIDs {
		if id == o.id {
			return true
		}
	}
	return false
}

// joinRegs merges the registers of src (valid under g) into dst: a
// register defined on one side only gets a fresh unconstrained value on
// the other (an indeterminate value: it was read before any definition
// there, or never).
func (m *Merger) joinRegs(g *Term, dst, src map[*cfa.Var]*Term, fr *frame) {
	e, b := m.e, m.e.b
	base := func(v *cfa.Var) string {
		if fr == nil {
			return v.Name
		}
		return fr.name + "::" + v.Name
	}
	set := func(v *cfa.Var, x, y *Term) {
		val := b.Ite(g, x, y)
		nv := e.newVersion(base(v), val.Sort)
		e.conj(b.Eq(nv, val))
		frName := ""
		if fr != nil {
			frName = fr.name
		}
		e.f.Defs = append(e.f.Defs, Def{Step: e.step, Var: v, Frame: frName, Term: nv, Value: val})
		dst[v] = nv
	}
	for v, sv := range src {
		rv, ok := dst[v]
		switch {
		case !ok:
			set(v, sv, b.FreshVar("indeterminate", sv.Sort))
		case rv != sv:
			set(v, sv, rv)
		}
	}
	for v, rv := range dst {
		if _, ok := src[v]; !ok {
			set(v, b.FreshVar("indeterminate", rv.Sort), rv)
		}
	}
}

// objOf returns the object of v in fr (nil for a nil frame or none).
func (fr *frame) objOf(v *cfa.Var) *object {
	if fr == nil {
		return nil
	}
	return fr.obj[v]
}

// place puts o at its id in the current state's objects.
func (e *encoder) place(o *object) {
	for len(e.objs) <= o.id {
		e.objs = append(e.objs, nil)
	}
	e.objs[o.id] = o
}

// String describes s for debugging: its guard and frames.
func (s *SymState) String() string {
	names := make([]string, len(s.frames))
	for i, f := range s.frames {
		names[i] = f.name
	}
	return fmt.Sprintf("guard %s, frames %v", s.guard, names)
}

// Havoc returns a copy of s in an arbitrary state with the same objects:
// every register of every frame and every global register a fresh
// variable, every data object's contents and liveness fresh (NULL,
// functions and string literals keep theirs; sizes are kept, as an
// object's size never changes after its allocation), guard true. It is
// the start of k-induction's step case (engine/bmc).
func (m *Merger) Havoc(s *SymState) *SymState {
	b := m.e.b
	c := m.Clone(s)
	c.guard = b.True()
	for _, fr := range c.frames {
		for v, t := range fr.reg {
			fr.reg[v] = b.FreshVar("havoc "+fr.name+"::"+v.Name, t.Sort)
		}
	}
	for v, t := range c.greg {
		c.greg[v] = b.FreshVar("havoc "+v.Name, t.Sort)
	}
	for _, o := range c.objs {
		if o == nil || o.id == 0 || o.fn || m.sharedObj(o) {
			continue
		}
		o.live = b.FreshVar("havoc live "+o.name, BoolSort)
		if o.arr != nil {
			o.arr = b.FreshVar("havoc "+o.name, m.e.arraySort())
		}
	}
	return c
}

// Query returns the formula so far as a query: its conjuncts with every
// SSA definition substituted into the terms using it (as
// PathFormula.Inline; definitions are dropped), then extra substituted
// alike. Constants fold through the substitution, which the solver
// would otherwise have to propagate. The substitution is kept between
// calls.
func (m *Merger) Query(extra ...*Term) []*Term { return m.QuerySince(0, extra...) }

// Mark returns the number of conjuncts so far, for QuerySince.
func (m *Merger) Mark() int { return len(m.e.f.Conjuncts) }

// QuerySince is Query over the conjuncts added since Mark returned mark
// (the substitution covers every definition so far).
func (m *Merger) QuerySince(mark int, extra ...*Term) []*Term {
	b, f := m.e.b, m.e.f
	if m.memo == nil {
		m.memo, m.defining = map[*Term]*Term{}, map[*Term]bool{}
	}
	for ; m.ndefs < len(f.Defs); m.ndefs++ {
		d := f.Defs[m.ndefs]
		m.memo[d.Term] = b.rebuild(d.Value, m.memo)
		m.defining[b.Eq(d.Term, d.Value)] = true
	}
	q := func(t *Term) *Term { return b.rebuild(t, m.memo) }
	var out []*Term
	for _, c := range f.Conjuncts[mark:] {
		if m.defining[c] {
			continue
		}
		if r := q(c); r.Op != True {
			out = append(out, r)
		}
	}
	for _, x := range extra {
		out = append(out, q(x))
	}
	return out
}

// Fold sets s's guard to its value if Query's substitution folds it.
func (m *Merger) Fold(s *SymState) {
	if g := m.Inline(s.guard); g.Op == True || g.Op == False {
		s.guard = g
	}
}

// Inline returns t with the substitution of the last Query applied: a
// model of the query evaluates the result as it would t.
func (m *Merger) Inline(t *Term) *Term {
	if m.memo == nil {
		return t
	}
	return m.e.b.rebuild(t, m.memo)
}

// callPointerExtern encodes, in a merged encoding, the step of a call
// through a function pointer that reaches a function without a body
// (engine/analysis/location: beside the Enter steps into every function
// whose address is taken): the pointer designates none of the functions
// with a body, and the call is an unmodelled one (cfa.ExternUnmodelled:
// havocUnmodelled, any scalar result).
func (e *encoder) callPointerExtern(c *cfa.Call) {
	b := e.b
	fp := e.rval(c.FnPtr)
	for _, f := range e.p.Funcs {
		e.assume(b.Not(b.Eq(fp, e.objPtr(e.funcObj(f.Name)))))
	}
	name := "(*" + c.FnPtr.String() + ")"
	e.externArgs(c)
	e.havocUnmodelled(name)
	if c.Result == nil {
		return
	}
	lv := e.lval(c.Result)
	if lv.t.Kind == cfa.Pointer || !lv.t.IsScalar() {
		e.fail("external function %s returning a pointer or aggregate", name)
	}
	e.write(lv, e.input(e.inputBase(lv, c.Result), "extern "+name, lv.t))
}

// Shape lists what Havoc makes arbitrary in a state: every register of
// every frame (by frame index and variable), every global register, and
// the liveness and contents of every data object (by id). Vector reads
// these values of any state in this order: the arguments of a cut
// point's relation in engine/bmc's Horn clauses.
type Shape struct {
	regs  []shapeReg
	gregs []*cfa.Var
	objs  []shapeObj
	sorts []Sort
}

type shapeReg struct {
	frame int
	v     *cfa.Var
}

type shapeObj struct {
	id  int
	arr bool
}

// Sorts returns the sorts of Vector's terms, in order.
func (sh *Shape) Sorts() []Sort { return sh.sorts }

// ShapeOf returns the shape of s: the values Havoc(s) replaces, ordered
// by frame, then variable id, then object id.
func (m *Merger) ShapeOf(s *SymState) *Shape {
	sh := &Shape{}
	for i, fr := range s.frames {
		var vs []*cfa.Var
		for v := range fr.reg {
			vs = append(vs, v)
		}
		sort.Slice(vs, func(a, b int) bool { return vs[a].ID < vs[b].ID })
		for _, v := range vs {
			sh.regs = append(sh.regs, shapeReg{i, v})
			sh.sorts = append(sh.sorts, fr.reg[v].Sort)
		}
	}
	for v := range s.greg {
		sh.gregs = append(sh.gregs, v)
	}
	sort.Slice(sh.gregs, func(a, b int) bool { return sh.gregs[a].ID < sh.gregs[b].ID })
	for _, v := range sh.gregs {
		sh.sorts = append(sh.sorts, s.greg[v].Sort)
	}
	for _, o := range s.objs {
		if o == nil || o.id == 0 || o.fn || m.sharedObj(o) {
			continue
		}
		sh.objs = append(sh.objs, shapeObj{o.id, o.arr != nil})
		sh.sorts = append(sh.sorts, BoolSort)
		if o.arr != nil {
			sh.sorts = append(sh.sorts, m.e.arraySort())
		}
	}
	return sh
}

// Vector returns the values of the shape's registers and objects in s,
// in the shape's order: a register s lacks is a fresh variable (any
// value), an object s lacks is dead with fresh contents. For the state
// Havoc(t) and the shape of t, they are Havoc's fresh variables.
func (m *Merger) Vector(sh *Shape, s *SymState) []*Term {
	b := m.e.b
	out := make([]*Term, 0, len(sh.sorts))
	for _, r := range sh.regs {
		var t *Term
		if r.frame < len(s.frames) {
			t = s.frames[r.frame].reg[r.v]
		}
		if t == nil {
			t = b.FreshVar("any "+r.v.Name, sh.sorts[len(out)])
		}
		out = append(out, t)
	}
	for _, v := range sh.gregs {
		t := s.greg[v]
		if t == nil {
			t = b.FreshVar("any "+v.Name, sh.sorts[len(out)])
		}
		out = append(out, t)
	}
	for _, so := range sh.objs {
		var o *object
		if so.id < len(s.objs) {
			o = s.objs[so.id]
		}
		if o == nil {
			out = append(out, b.False())
		} else {
			out = append(out, o.live)
		}
		if so.arr {
			if o == nil || o.arr == nil {
				out = append(out, b.FreshVar("any object", m.e.arraySort()))
			} else {
				out = append(out, o.arr)
			}
		}
	}
	return out
}

// Var returns the variable of the shape's i-th value (Vector's order)
// and its frame index (-1 for a global register), or nil when the value
// is an object's liveness or contents, or i is beyond the shape.
func (sh *Shape) Var(i int) (*cfa.Var, int) {
	switch {
	case i < 0:
		return nil, 0
	case i < len(sh.regs):
		return sh.regs[i].v, sh.regs[i].frame
	case i < len(sh.regs)+len(sh.gregs):
		return sh.gregs[i-len(sh.regs)], -1
	}
	return nil, 0
}
