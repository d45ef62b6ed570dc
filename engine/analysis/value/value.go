package value

import (
	"fmt"
	"sync"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

// Options configure the value analysis.
type Options struct {
	// Precision is the initial precision; nil means FullPrecision.
	Precision Precision
	// MallocMayFail makes malloc and calloc return, besides a fresh
	// block, a null pointer on a second successor.
	MallocMayFail bool
	// MaxBlockBytes bounds the byte-wise models (memset, memcpy, calloc,
	// zero-initialised aggregates, strlen); larger operations make the
	// affected object unknown. 0 selects 4096.
	MaxBlockBytes int
	// Symbolic, when not nil, makes the analysis symbolic (seed 000,
	// section 2.3; engine/analysis/symbolic and engine/analysis/predicate
	// build on it, with the implementation of
	// engine/analysis/symbolic/symval): integer values that would be
	// unknown become terms — fresh symbols for nondeterministic inputs,
	// uninitialised and havocked memory, volatile reads and results of
	// unmodelled functions, and terms with the bit-precise C semantics
	// of engine/smt for operations on them; array indices and pointer
	// offsets may be terms. Assume steps whose condition is symbolic
	// keep the state and report the condition as assumed (Transfer).
	// See symbolic.go.
	Symbolic Symbolic
	// NoListAbstraction switches off the abstraction of linked lists
	// into list segments at loop heads (engine/analysis/smg); materialisation of
	// segments stays (none are created).
	NoListAbstraction bool
	// Memory, when not nil, checks memory safety (memsafety.go): heap
	// blocks carry sizes and validity, and violations make target
	// states.
	Memory *MemChecks
}

// CPA is the explicit-value analysis.
type CPA struct {
	prog *cfa.Program
	opts Options
	ptr  int      // pointer width in bits
	sym  Symbolic // symbolic mode when not nil

	mu        sync.Mutex
	strs      map[string]uint32
	strVals   []string
	funcIDs   map[string]uint32
	funcNames []string
	// addrFuncs are the functions whose address is taken (FuncRef
	// outside the callee position), by name.
	addrFuncs map[string]bool
	// extAddr says whether a function pointer may designate a function
	// without a body (cfa.Program.OutsideFuncPointers): a call through an
	// unknown pointer is then an unmodelled call.
	extAddr bool
	// escaped are the functions with a body an unmodelled function may
	// call back (cfa.Program.EscapedFuncs).
	escaped []string
	// fnPtrVars[v.ID] says whether every scalar of variable v is a
	// function pointer (onlyFuncPointers), computed once: tracked asks
	// at every memory access.
	fnPtrVars []bool
	// shapeNotes are the heap shapes list abstraction met and could not
	// fold (shapes.go, ShapeNotes), under mu.
	shapeNotes map[string]bool
}

// New returns the value analysis of prog.
func New(prog *cfa.Program, opts Options) *CPA {
	if opts.Precision == nil {
		opts.Precision = FullPrecision{}
	}
	if opts.MaxBlockBytes <= 0 {
		opts.MaxBlockBytes = 4096
	}
	c := &CPA{prog: prog, opts: opts, ptr: prog.DataModel.PointerBits(), sym: opts.Symbolic,
		strs: map[string]uint32{}, funcIDs: map[string]uint32{}, addrFuncs: map[string]bool{}}
	for _, e := range prog.Edges {
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if f, ok := x.(*cfa.FuncRef); ok {
					c.addrFuncs[f.Name] = true
				}
				return true
			})
		})
	}
	c.extAddr = prog.OutsideFuncPointers()
	c.escaped = prog.EscapedFuncs()
	c.fnPtrVars = make([]bool, len(prog.Vars))
	for i, v := range prog.Vars {
		c.fnPtrVars[i] = v != nil && onlyFuncPointers(v.T)
	}
	return c
}

// Name returns "value".
func (c *CPA) Name() string { return "value" }

// Initial returns the empty state (nothing known) and the configured
// precision.
func (c *CPA) Initial() (cpa.State, cpa.Precision) {
	return &State{c: c}, c.opts.Precision
}

// LessOrEqual: a ⊑ b when b's known cells are known with the same values
// in a (stop-sep).
func (c *CPA) LessOrEqual(a, b cpa.State) bool { return lessOrEqual(a.(*State), b.(*State)) }

// Join keeps the cells both states agree on (merge-join).
func (c *CPA) Join(a, b cpa.State) (cpa.State, bool) {
	j, ok := joinStates(a.(*State), b.(*State))
	if !ok {
		return nil, false
	}
	return j, true
}

func (c *CPA) strObj(s string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.strs[s]
	if !ok {
		id = uint32(len(c.strVals))
		c.strs[s] = id
		c.strVals = append(c.strVals, s)
	}
	return memory.KindString<<memory.KindShift | uint64(id)
}

func (c *CPA) funcObj(name string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.funcIDs[name]
	if !ok {
		id = uint32(len(c.funcNames))
		c.funcIDs[name] = id
		c.funcNames = append(c.funcNames, name)
	}
	return memory.KindFunc<<memory.KindShift | uint64(id)
}

func (c *CPA) strByte(o uint64, off int64) (uint64, bool) {
	c.mu.Lock()
	s := c.strVals[uint32(o)]
	c.mu.Unlock()
	switch {
	case off >= 0 && off < int64(len(s)):
		return uint64(s[off]), true
	case off == int64(len(s)):
		return 0, true
	}
	return 0, false
}

// Successors computes the successor of s for step under precision p
// (seed 001, section 3.8.1: the strongest post-condition on partial
// variable assignments). It returns no successor when the step is
// infeasible (an Assume that evaluates to false, a call through a pointer
// that designates another function), and two when malloc may fail.
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, p cpa.Precision) ([]cpa.State, error) {
	c.splitting(s.(*State), step, p, 0, func(t *tx, orig *State) {
		dst = append(dst, t.result(orig))
		if t.alt != nil {
			dst = append(dst, t.alt)
		}
	})
	return dst, nil
}

// splitting runs the step on s and calls emit with the feasible
// transfer; when the step dereferenced a list segment of at least one
// block (tx.split, lists.go), it runs the step on both cases of the
// segment instead (up to smg.MaxSplits nested splits).
func (c *CPA) splitting(s *State, step cfa.Step, p cpa.Precision, depth int, emit func(t *tx, orig *State)) {
	t, ok := c.step(s, step, p)
	if t.split != 0 && depth < smg.MaxSplits {
		if cases := c.splitSeg(s, t.split); cases != nil {
			for _, cs := range cases {
				c.splitting(cs, step, p, depth+1, emit)
			}
			return
		}
	}
	if ok {
		t.flushUndecided()
		emit(&t, s)
	}
}

// Succ is a successor computed by Transfer: the state and the path
// conditions (Bool terms, not constant) that the step assumed on the way.
// Assumed is empty outside symbolic mode.
type Succ struct {
	State   *State
	Assumed []*smt.Term
}

// Transfer is Successors for callers that keep path conditions (the
// symbolic execution CPA): in symbolic mode an Assume (or
// __VERIFIER_assume) whose condition is symbolic keeps the state and
// reports the condition, negated for the else branch, in Assumed. The
// state may still be refined by the assumption (x == 5 stores 5 into x),
// which is exact only together with the reported condition.
func (c *CPA) Transfer(dst []Succ, s *State, step cfa.Step, p cpa.Precision) []Succ {
	c.splitting(s, step, p, 0, func(t *tx, orig *State) {
		dst = append(dst, Succ{State: t.result(orig), Assumed: t.assumed})
		if t.alt != nil {
			dst = append(dst, Succ{State: t.alt, Assumed: t.altAssumed})
		}
	})
	return dst
}

// step runs the transfer of s for step; ok is false when the step is
// infeasible.
func (c *CPA) step(st *State, step cfa.Step, p cpa.Precision) (tx, bool) {
	prec, _ := p.(Precision)
	if prec == nil {
		prec = FullPrecision{}
	}
	t := tx{c: c, s: *st, loc: step.Next(), prec: prec, full: prec.Full()}
	if vp, ok := prec.(*VarPrecision); ok && len(vp.AtLoc) == 0 {
		t.uniform = true
	}
	if c.opts.Memory != nil {
		t.memPre(step)
	}
	var ok bool
	switch step.Kind {
	case cfa.Enter:
		ok = t.enter(step)
	case cfa.Leave:
		ok = t.leave(step)
	default:
		ok = t.intra(step.Edge)
	}
	if ok && c.opts.Memory != nil {
		t.memPostAll(step, st)
	}
	return t, ok
}

// tx is one transfer in progress: a private copy of the state.
type tx struct {
	c    *CPA
	s    State
	loc  *cfa.Location // the successor's location (for the precision)
	prec Precision
	full bool
	// uniform is set when the precision does not depend on the location:
	// writes already respect it, so no abstraction pass is needed.
	uniform bool
	alt     *State // a second successor (malloc returning NULL)
	// assumed are the path conditions of a symbolic Assume (symbolic
	// mode); altAssumed those of alt.
	assumed, altAssumed []*smt.Term
	// split is a list segment of at least one block that the step
	// dereferenced and could not materialise without a case split
	// (lists.go, smg.Heap.Split); 0 if none.
	split uint64
	// undecided are the Undecided reports held back while split was
	// set (memsafety.go: memUnknown, flushUndecided).
	undecided []func()
}

func (t *tx) result(orig *State) *State {
	if !t.full && !t.uniform {
		t.abstract()
	}
	if !t.c.opts.NoListAbstraction && t.loc != nil && t.loc.LoopHead {
		t.abstractLists()
	}
	if t.s.mem == orig.mem && t.s.depth == orig.depth && t.s.allocs == orig.allocs && t.s.syms == orig.syms && len(t.s.reasons) == len(orig.reasons) {
		return orig
	}
	ns := t.s
	return &ns
}

// abstract drops the cells of variables the precision does not track at
// the successor's location.
func (t *tx) abstract() {
	t.s.mem = t.s.mem.Filter(t.cellTracked)
}

func (t *tx) tracked(obj uint64) bool {
	if t.full {
		return true
	}
	switch memory.ObjKind(obj) {
	case memory.KindGlobal, memory.KindLocal:
		id := memory.VarID(obj)
		v := t.c.prog.Vars[id]
		if id < len(t.c.fnPtrVars) {
			return t.c.fnPtrVars[id] || t.prec.Tracks(t.loc, v)
		}
		return onlyFuncPointers(v.T) || t.prec.Tracks(t.loc, v) // a variable added after New

	case memory.KindHeap, memory.KindSeg:
		return t.heapTracked() // by field in cellTracked (smg_refine.go)
	}
	return t.prec.Tracks(t.loc, nil)
}

// onlyFuncPointers reports whether every scalar of ty is a function
// pointer (a callback, a table or struct of hooks). Such variables are
// tracked under every precision, as CPAchecker's FunctionPointerCPA
// does: a call through a pointer the analysis does not know enters every
// function whose address is taken, which, untracked, makes up call
// cycles a non-recursive program does not have and ends in "recursion
// depth exceeded"; they take few values, so tracking them
// costs little.
func onlyFuncPointers(ty *cfa.Type) bool {
	switch ty.Kind {
	case cfa.Pointer:
		return ty.Elem != nil && ty.Elem.Kind == cfa.Func
	case cfa.Array:
		return ty.Elem != nil && onlyFuncPointers(ty.Elem)
	case cfa.Struct, cfa.Union:
		for _, f := range ty.Fields {
			if !onlyFuncPointers(f.Type) {
				return false
			}
		}
		return len(ty.Fields) > 0
	}
	return false
}

func (t *tx) reason(r cpa.Explanation) { t.s.reasons = cpa.AddExplanation(t.s.reasons, r) }

// unsupported records that the path passed a construct (what) at e that
// the analysis does not model: no TRUE.
func (t *tx) unsupported(e *cfa.Edge, what string) {
	t.reason(cpa.Explanation{Kind: cpa.Unsupported, Text: what, At: posString(e)})
}

func posString(e *cfa.Edge) string {
	p := e.Pos.Start
	if p.Line == 0 {
		return fmt.Sprintf("edge %d", e.ID)
	}
	return p.String()
}

func (t *tx) intra(e *cfa.Edge) bool {
	switch op := e.Op.(type) {
	case *cfa.Noop:
		return true
	case *cfa.Decl:
		v := op.Var
		obj := t.varObj(v)
		t.clearObj(obj)
		if v.Global {
			t.zeroInit(obj, v.T)
		}
		return true
	case *cfa.Assign:
		t.assign(op.LHS, op.RHS)
		return true
	case *cfa.Havoc:
		if !t.input(op.LHS, inputLabel(op.Source)) {
			t.havocLvalue(op.LHS)
		}
		return true
	case *cfa.Assume:
		return t.assume(op.Cond, op.Truth)
	case *cfa.Return:
		if op.X == nil {
			return true
		}
		f := e.From.Func
		if f.RetVar == nil {
			return true
		}
		t.assign(&cfa.VarRef{Var: f.RetVar}, op.X)
		return true
	case *cfa.Call:
		return t.callExternal(e, op)
	case *cfa.Unsupported:
		t.unsupported(e, op.Construct)
		return true
	}
	t.unsupported(e, fmt.Sprintf("operation %T", e.Op))
	return true
}

// enter binds the arguments of the call edge to the callee's parameters in
// a new frame. Through a function pointer, the step is infeasible when the
// pointer is known to designate another function.
func (t *tx) enter(step cfa.Step) bool {
	if step.Edge == nil {
		return true
	}
	call := step.Edge.Op.(*cfa.Call)
	if call.FnPtr != nil {
		v, ok := t.eval(call.FnPtr)
		if ok && (v.Obj != t.c.funcObj(step.Callee.Name) || v.Bits != 0) {
			return false
		}
		if !ok && !t.c.addrFuncs[step.Callee.Name] {
			return false
		}
	}
	type arg struct {
		v     memory.Value
		known bool
		src   Addr // aggregates
	}
	args := make([]arg, len(call.Args))
	for i, a := range call.Args {
		if isAggregate(a.Type()) {
			args[i].src = t.addrOf(a)
			continue
		}
		args[i].v, args[i].known = t.eval(a)
	}
	t.s.depth++
	lo, hi := memory.FrameRange(t.s.depth)
	t.s.mem = t.s.mem.DelRange(lo, 0, hi, 0) // stale cells of an earlier frame
	for i, p := range step.Callee.Params {
		if i >= len(args) {
			break
		}
		dst := Addr{Obj: t.varObj(p), Known: true, OffKnown: true}
		if isAggregate(p.T) {
			t.copyCells(dst, args[i].src, p.T.Size)
			continue
		}
		v, known := t.convertValue(args[i].v, args[i].known, call.Args[i].Type(), p.T)
		t.store(dst, p.T, v, known)
	}
	return true
}

// leave copies the callee's return value to the call's result lvalue and
// discards the callee's frame.
func (t *tx) leave(step cfa.Step) bool {
	call := step.Edge.Op.(*cfa.Call)
	ret := step.Callee.RetVar
	var cells []*memory.Node
	var rv memory.Value
	var rknown bool
	if call.Result != nil && ret != nil {
		src := Addr{Obj: t.varObj(ret), Known: true, OffKnown: true}
		if isAggregate(ret.T) {
			cells = t.cellsIn(src, ret.T.Size)
		} else {
			rv, rknown = t.load(src, ret.T)
		}
	}
	lo, hi := memory.FrameRange(t.s.depth)
	t.s.mem = t.s.mem.DelRange(lo, 0, hi, 0)
	t.s.depth--
	if call.Result == nil || ret == nil {
		return true
	}
	dst := t.addrOf(call.Result)
	if isAggregate(ret.T) {
		t.writeCells(dst, cells, ret.T.Size)
		return true
	}
	rv, rknown = t.convertValue(rv, rknown, ret.T, call.Result.Type())
	t.store(dst, call.Result.Type(), rv, rknown)
	return true
}

func isAggregate(t *cfa.Type) bool {
	return t.Kind == cfa.Struct || t.Kind == cfa.Union || t.Kind == cfa.Array
}

var (
	_ cpa.CPA       = (*CPA)(nil)
	_ cpa.Joiner    = (*CPA)(nil)
	_ cpa.Explainer = (*State)(nil)
)
