package smt

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// Input is a nondeterministic value along a path, in the order the path
// produces them. The concrete interpreter (engine/interp) consumes its
// input values in exactly this order.
type Input struct {
	// Name is the name of the variable Term.
	Name string
	// Source says where the value comes from:
	//   - "__VERIFIER_nondet_int" (any Havoc source or nondet call): a
	//     value the reproducer's nondet function returns;
	//   - "extern f": the result of the external function f;
	//   - "decl x": the indeterminate initial value of the scalar local x
	//     (a reproducer cannot control it);
	//   - "param x": a scalar parameter of the entry function;
	//   - "volatile x": a read of the volatile variable x.
	Source string
	Type   *cfa.Type
	Term   *Term
	// Step is the index in the path of the step producing the value.
	Step int
}

// UBCond is a condition under which the path has undefined behaviour (or
// leaves the memory model) at a step. A model of the path formula in which
// a UBCond holds does not describe a real execution.
type UBCond struct {
	// Kind: a csem.UB string ("division by zero", …), "invalid memory
	// access", "invalid free", "pointer subtraction across objects",
	// "pointer comparison across objects", "pointer-to-integer cast",
	// "allocation too large for the memory model".
	Kind string
	Step int
	Pos  cfa.Pos
	Cond *Term
}

// Def records an SSA definition of a register variable: after step Step,
// variable Var of the call frame Frame ("" for globals) is the SSA
// variable Term, defined by the conjunct Term = Value.
type Def struct {
	Step  int
	Var   *cfa.Var
	Frame string
	Term  *Term
	Value *Term
}

// PathFormula is the bit-precise SSA encoding of a path: the path is
// feasible (with the documented semantics) iff the conjunction of
// Conjuncts is satisfiable, and it is feasible without undefined behaviour
// iff Conjuncts ∧ ¬Cond for every UB is satisfiable.
type PathFormula struct {
	Conjuncts []*Term
	// ConjunctStep[i] is the index of the step Conjuncts[i] comes from.
	ConjunctStep []int
	Inputs       []Input
	UB           []UBCond
	Defs         []Def
	// Steps is the number of steps encoded.
	Steps int
	// Heap lists the blocks of malloc and alloca along the path, whose
	// initial bytes are unconstrained (PathResult.HeapInit).
	Heap []HeapBlock
	// EnvLengths are the lengths of the values of getenv's names along
	// the path (envCall): CheckPath first looks for a model in which
	// each is at most cfa.EnvBytes, the bytes the replay gives.
	EnvLengths []*Term
}

// HeapBlock is a block allocated along the path without initial
// contents: the Ordinal-th allocation of the path (malloc, calloc, alloca
// and __builtin_alloca counted from 1, as engine/interp counts them),
// its size in bytes and the array of its initial bytes.
type HeapBlock struct {
	Ordinal    int
	Size, Init *Term
}

// Formula returns the conjunction of all conjuncts.
func (f *PathFormula) Formula(b *Builder) *Term { return b.And(f.Conjuncts...) }

// StepFormula returns the conjunction of the conjuncts of step i.
func (f *PathFormula) StepFormula(b *Builder, i int) *Term {
	r := b.True()
	for j, c := range f.Conjuncts {
		if f.ConjunctStep[j] == i {
			r = b.And(r, c)
		}
	}
	return r
}

// NoUB returns the Bool term saying that no undefined behaviour occurs.
func (f *PathFormula) NoUB(b *Builder) *Term {
	r := b.True()
	for _, u := range f.UB {
		r = b.And(r, b.Not(u.Cond))
	}
	return r
}

// Inline returns the formula with every SSA definition substituted into
// the terms using it: the remaining conjuncts (assumptions; definitions
// and conjuncts that fold to true are dropped) and the UB conditions, in
// the same order as UB. It is equisatisfiable with the formula (only the
// defined variables are eliminated) and much smaller for the solver when
// values are constant along the path (constants fold through the path);
// the inputs keep their variables, so a model of the inlined formula
// evaluates them. CheckPath solves this form.
func (f *PathFormula) Inline(b *Builder) (conjuncts []*Term, ub []*Term) {
	memo := f.inlineMemo(b)
	defining := make(map[*Term]bool, len(f.Defs))
	for _, d := range f.Defs {
		defining[b.Eq(d.Term, d.Value)] = true
	}
	for _, c := range f.Conjuncts {
		if defining[c] {
			continue
		}
		if r := b.rebuild(c, memo); r.Op != True {
			conjuncts = append(conjuncts, r)
		}
	}
	ub = make([]*Term, len(f.UB))
	for i, u := range f.UB {
		ub[i] = b.rebuild(u.Cond, memo)
	}
	return conjuncts, ub
}

// inlineMemo maps every SSA-defined variable to its definition with the
// definitions before it substituted (Inline).
func (f *PathFormula) inlineMemo(b *Builder) map[*Term]*Term {
	memo := map[*Term]*Term{}
	for _, d := range f.Defs {
		memo[d.Term] = b.rebuild(d.Value, memo)
	}
	return memo
}

// String prints the formula one conjunct per line, prefixed by its step.
func (f *PathFormula) String() string {
	var sb strings.Builder
	for i, c := range f.Conjuncts {
		fmt.Fprintf(&sb, "%3d: %s\n", f.ConjunctStep[i], c)
	}
	for _, u := range f.UB {
		fmt.Fprintf(&sb, "UB %d (%s): %s\n", u.Step, u.Kind, u.Cond)
	}
	for _, in := range f.Inputs {
		fmt.Fprintf(&sb, "input %d %s: %s\n", in.Step, in.Source, in.Name)
	}
	return sb.String()
}

// EncodeError says which construct at which step and position could not be
// encoded; analyses answer UNKNOWN naming it.
type EncodeError struct {
	Step      int
	Pos       cfa.Pos
	Construct string
}

func (e *EncodeError) Error() string {
	return fmt.Sprintf("smt: cannot encode %s (step %d at %s)", e.Construct, e.Step, e.Pos)
}

// Memory model. Every object (variable instance kept in memory, heap
// block, string literal, function) has a number k ≥ 1 and its own array of
// bytes; a pointer is the bit-vector k·2^OffsetBits + offset, so the object
// number is the high ptrBits−OffsetBits bits and the offset the low
// OffsetBits. Null is object 0. Objects larger than 2^OffsetBits−1 bytes
// cannot be encoded.
//
// OffsetBits is 32 under LP64 (objects up to 4 GiB, 2^32−1 objects) and 20
// under ILP32 (objects up to 1 MiB, 4095 objects).
func OffsetBits(m cfa.DataModel) int { return csem.OffsetBits(m) }

type object struct {
	id   int
	name string
	size *Term // BV(ptrBits)
	arr  *Term // contents: Array BV(offBits) → BV8
	live *Term // Bool
	heap bool
	fn   bool
	// parts are the candidates of a read-only view of the object a
	// pointer to several objects designates (readObject); nil otherwise.
	parts []*object
}

type frame struct {
	fn   *cfa.Function
	name string
	call *cfa.Edge
	reg  map[*cfa.Var]*Term
	obj  map[*cfa.Var]*object
	// allocas are alloca blocks, which die with the frame.
	allocas []*object
}

type lvalue struct {
	v   *cfa.Var // register variable, or nil
	fr  *frame   // its frame (nil for globals)
	ptr *Term    // address of a memory lvalue
	t   *cfa.Type
	// field, for a bit-field, is the member: its bits lie in the bytes
	// from ptr on (loadField, storeField)
	field *cfa.Field
}

type encoder struct {
	opts                      EncodeOptions
	b                         *Builder
	p                         *cfa.Program
	ptrBits, offBits, objBits int
	f                         *PathFormula
	step                      int
	pos                       cfa.Pos
	frames                    []*frame
	greg                      map[*cfa.Var]*Term
	gobj                      map[*cfa.Var]*object
	mem                       map[*cfa.Var]bool
	objs                      []*object
	strs                      map[*cfa.StringLit]*object
	funcs                     map[string]*object
	act                       map[*cfa.Function]int
	ver                       map[string]int
	guard                     *Term
	mallocs                   int
	// env holds, per name, the pointer getenv returns for it (envCall;
	// path encodings only); envChanged is set once an unmodelled call,
	// which may call setenv or putenv, was encoded.
	env        map[string]*Term
	envChanged bool
	path       []cfa.Step
	// defs maps the SSA variables of f.Defs[:ndefs] to their values and
	// foldMemo every term folded so far to its folded form (folded):
	// both only grow, as SSA definitions never change.
	defs     map[*Term]*Term
	ndefs    int
	foldMemo map[*Term]*Term
	// vsMemo and selMemo memoise valueSet (valueset.go).
	vsMemo  map[*Term]vset
	selMemo map[[2]*Term]vset
	// objNums are the POINTER_OBJECT results so far (objectNumber).
	objNums []objNum
	// shared, when not nil, makes this a merged encoding (merge.go):
	// the fields from frames to mallocs belong to the current SymState.
	shared *mergeShared
	ctx    context.Context // polled within a step (poll) when not nil
	polls  int
}

// encodePanic unwinds an encoding with an *EncodeError for a construct
// outside the encoding, or the error of a context that ended (poll).
type encodePanic struct{ err error }

// poll, called by the value-set and load recursions, reads the context
// every 256 calls and ends the encoding when it ended: one step can
// take seconds (aws_hash_table_foreach's proof passed its deadline by
// up to 3 s in one load).
func (e *encoder) poll() {
	if e.polls++; e.ctx == nil || e.polls&255 != 0 {
		return
	}
	if err := e.ctx.Err(); err != nil {
		panic(encodePanic{fmt.Errorf("smt: encoding interrupted in step %d: %w", e.step, err)})
	}
}

func (e *encoder) fail(format string, args ...any) {
	panic(encodePanic{&EncodeError{Step: e.step, Pos: e.pos, Construct: fmt.Sprintf(format, args...)}})
}

// EncodePath encodes path (starting at p.Init's entry, or at the entry
// function's entry) as a PathFormula in SSA form: every assignment to a
// register variable x (a scalar whose address is never taken) defines a
// new version x@n with a conjunct x@n = value; locals of call frames other
// than a function's first activation are named f#k::x. Havoc steps,
// nondet and external calls, declarations of scalar locals, entry
// parameters and volatile reads create input variables (PathFormula.Inputs,
// in order). Assume steps add their condition. Variables whose address is
// taken, arrays, structs and unions live in memory (see OffsetBits).
// Constructs outside the encoding return an *EncodeError.
func EncodePath(b *Builder, p *cfa.Program, path []cfa.Step) (f *PathFormula, err error) {
	return EncodePathOpts(b, p, path, EncodeOptions{})
}

// EncodePathOpts is EncodePath with a variant of the semantics (opts).
func EncodePathOpts(b *Builder, p *cfa.Program, path []cfa.Step, opts EncodeOptions) (f *PathFormula, err error) {
	return EncodePathContext(context.Background(), b, p, path, opts)
}

// EncodePathContext is EncodePathOpts under a context: it checks ctx
// before every step and returns ctx's error (wrapped, with the step
// reached; errors.Is finds context.DeadlineExceeded or context.Canceled)
// when it is done, so that encoding a path of tens of thousands of steps
// stops at the property's deadline.
func EncodePathContext(ctx context.Context, b *Builder, p *cfa.Program, path []cfa.Step, opts EncodeOptions) (f *PathFormula, err error) {
	e := &encoder{
		opts: opts,
		b:    b, p: p,
		ptrBits: p.DataModel.PointerBits(), offBits: OffsetBits(p.DataModel),
		f:    &PathFormula{Steps: len(path)},
		greg: map[*cfa.Var]*Term{}, gobj: map[*cfa.Var]*object{},
		mem: map[*cfa.Var]bool{}, strs: map[*cfa.StringLit]*object{}, funcs: map[string]*object{},
		act: map[*cfa.Function]int{}, ver: map[string]int{},
		path: path,
	}
	e.objBits = e.ptrBits - e.offBits
	e.objs = []*object{{id: 0, name: "NULL", size: b.BV(0, e.ptrBits), live: b.False()}}
	e.guard = b.True()
	e.ctx = ctx
	defer func() {
		e.ctx = nil
		if r := recover(); r != nil {
			if ep, ok := r.(encodePanic); ok {
				f, err = nil, ep.err
				return
			}
			panic(r)
		}
	}()
	e.scanMemVars(path)
	for i, s := range path {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("smt: encoding interrupted at step %d of %d: %w", i, len(path), err)
		}
		e.step = i
		e.pos = cfa.Pos{}
		if s.Edge != nil {
			e.pos = s.Edge.Pos.Start
		}
		e.doStep(s)
	}
	return e.f, nil
}

// scanMemVars decides which variables live in memory: those marked
// AddrTaken, non-scalars, and those whose address is taken on the path.
func (e *encoder) scanMemVars(path []cfa.Step) {
	for _, v := range e.p.Vars {
		if v.AddrTaken || !v.T.IsScalar() {
			e.mem[v] = true
		}
	}
	var visit func(x cfa.Expr)
	visit = func(x cfa.Expr) {
		cfa.Walk(x, func(x cfa.Expr) bool {
			if a, ok := x.(*cfa.AddrOf); ok {
				root := a.X
				for {
					switch r := root.(type) {
					case *cfa.Member:
						root = r.X
						continue
					case *cfa.Index:
						root = r.X
						continue
					case *cfa.VarRef:
						e.mem[r.Var] = true
					}
					break
				}
			}
			return true
		})
	}
	for _, s := range path {
		if s.Edge == nil {
			continue
		}
		switch op := s.Edge.Op.(type) {
		case *cfa.Assign:
			visit(op.LHS)
			visit(op.RHS)
		case *cfa.Havoc:
			visit(op.LHS)
		case *cfa.Assume:
			visit(op.Cond)
		case *cfa.Call:
			visit(op.FnPtr)
			for _, a := range op.Args {
				visit(a)
			}
			visit(op.Result)
		case *cfa.Return:
			visit(op.X)
		}
	}
}

func (e *encoder) top() *frame {
	if len(e.frames) == 0 {
		return nil
	}
	return e.frames[len(e.frames)-1]
}

func (e *encoder) pushFrame(fn *cfa.Function, call *cfa.Edge) *frame {
	k := e.act[fn]
	e.act[fn] = k + 1
	name := fn.Name
	if k > 0 {
		name += "#" + strconv.Itoa(k)
	}
	fr := &frame{fn: fn, name: name, call: call, reg: map[*cfa.Var]*Term{}, obj: map[*cfa.Var]*object{}}
	e.frames = append(e.frames, fr)
	return fr
}

func (e *encoder) conj(t *Term) {
	if t.Op == True {
		return
	}
	e.f.Conjuncts = append(e.f.Conjuncts, t)
	e.f.ConjunctStep = append(e.f.ConjunctStep, e.step)
}

// assume restricts the executions to those where t holds: a conjunct of
// a path formula, or in a merged encoding a strengthening of the state's
// guard (merge.go), since t holds on this branch only.
func (e *encoder) assume(t *Term) {
	if e.shared != nil {
		e.guard = e.b.And(e.guard, t)
		return
	}
	e.conj(t)
}

func (e *encoder) ub(kind string, cond *Term) {
	c := e.b.And(e.guard, cond)
	if c.Op == False {
		return
	}
	e.f.UB = append(e.f.UB, UBCond{Kind: kind, Step: e.step, Pos: e.pos, Cond: c})
}

func (e *encoder) newVersion(base string, s Sort) *Term {
	n := e.ver[base] + 1
	e.ver[base] = n
	return e.b.Var(base+"@"+strconv.Itoa(n), s)
}

func (e *encoder) input(base, source string, t *cfa.Type) *Term {
	w := e.width(t)
	v := e.newVersion(base, BVSort(w))
	e.f.Inputs = append(e.f.Inputs, Input{Name: v.Name, Source: source, Type: t, Term: v, Step: e.step})
	if t.Kind == cfa.Bool && !strings.HasPrefix(source, "decl ") && !strings.HasPrefix(source, "volatile") {
		// A _Bool value is 0 or 1 (C11 6.2.5p2, 6.3.1.2): a function's
		// _Bool result (__VERIFIER_nondet_bool, an external's) and a
		// _Bool argument are converted to one of them, never the other
		// byte values of its 8 bits. The byte of an uninitialised or
		// volatile _Bool object may hold anything: gcc -O0 reads it
		// with a zero extension.
		e.conj(e.b.Ule(v, e.b.BV(1, w)))
	}
	return v
}

// width is the encoded width of a scalar type; other types fail.
func (e *encoder) width(t *cfa.Type) int {
	switch {
	case t == nil:
		e.fail("untyped value")
	case t.Kind == cfa.Float:
		e.fail("floating-point value of type %s", t)
	case !t.IsScalar():
		e.fail("value of non-scalar type %s", t)
	case t.Kind == cfa.Pointer:
		if t.Bits != 0 && t.Bits != e.ptrBits {
			e.fail("pointer of %d bits under %s", t.Bits, e.p.DataModel)
		}
		return e.ptrBits
	case t.Width() < 1 || t.Width() > 128:
		e.fail("integer of %d bits", t.Width())
	}
	return t.Width()
}

func (e *encoder) doStep(s cfa.Step) {
	switch s.Kind {
	case cfa.Enter:
		if s.Edge == nil {
			e.enterEntry(s.Callee)
			return
		}
		e.ensureFrame(s.Edge.From.Func)
		e.enter(s.Edge, s.Callee)
		return
	case cfa.Leave:
		e.leave(s.Edge, s.Callee)
		return
	}
	if s.Edge == nil {
		e.fail("intraprocedural step without an edge")
	}
	e.ensureFrame(s.Edge.From.Func)
	switch op := s.Edge.Op.(type) {
	case *cfa.Decl:
		e.decl(op.Var)
	case *cfa.Assign:
		e.assign(op.LHS, op.RHS)
	case *cfa.Havoc:
		lv := e.lval(op.LHS)
		src := op.Source
		if src == "" {
			src = "nondet"
		}
		e.write(lv, e.input(e.inputBase(lv, op.LHS), src, lv.t))
	case *cfa.Assume:
		c := e.cond(op.Cond)
		if !op.Truth {
			c = e.b.Not(c)
		}
		e.assume(c)
	case *cfa.Call:
		e.callExtern(op)
	case *cfa.Return:
		fr := e.top()
		rv := fr.fn.RetVar
		if op.X != nil {
			if rv == nil {
				e.fail("return with a value from void function %s", fr.fn.Name)
			}
			if rv.T.IsScalar() {
				v := e.convert(e.rval(op.X), op.X.Type(), rv.T)
				e.write(e.varLoc(rv, true), v)
			} else {
				e.copyObj(e.varLoc(rv, true), e.lval(op.X))
			}
		}
	case *cfa.Noop:
	case *cfa.Unsupported:
		e.fail("unsupported construct: %s", op.Construct)
	default:
		e.fail("operation %T", op)
	}
}

func (e *encoder) ensureFrame(fn *cfa.Function) {
	if len(e.frames) == 0 {
		if fn == e.p.Init {
			e.pushFrame(fn, nil)
		} else {
			// the path starts in the entry function (Init is empty)
			e.enterEntry(fn)
		}
		return
	}
	if e.top().fn != fn {
		e.fail("step in %s while the current function is %s", fn.Name, e.top().fn.Name)
	}
}

func (e *encoder) inputBase(lv lvalue, x cfa.Expr) string {
	if lv.v != nil {
		return e.regBase(lv.v, lv.fr)
	}
	return "nondet"
}

func (e *encoder) regBase(v *cfa.Var, fr *frame) string {
	if fr == nil {
		return v.Name
	}
	return fr.name + "::" + v.Name
}

// enterEntry moves from Init to the entry function.
func (e *encoder) enterEntry(fn *cfa.Function) {
	if fn == nil {
		e.fail("entry step without a callee")
	}
	e.frames = e.frames[:0]
	fr := e.pushFrame(fn, nil)
	for _, v := range fn.Params {
		if !v.T.IsInteger() {
			if !pathMentions(e.path, v) {
				continue // the path never reads it: its value cannot matter
			}
			e.fail("entry function parameter %s of type %s (only integer parameters of the entry function are modelled)", v.Name, v.T)
		}
		in := e.input(e.regBase(v, fr), "param "+v.Name, v.T)
		if fn.IsArgc(v) {
			e.conj(e.b.Sle(e.b.BV(0, in.Sort.Width), in))
		}
		e.bindParam(fr, v, in)
	}
}

// pathMentions reports whether a step of path mentions v.
func pathMentions(path []cfa.Step, v *cfa.Var) bool {
	for _, s := range path {
		if s.Edge == nil {
			continue
		}
		found := false
		cfa.ForEachExpr(s.Edge.Op, func(x cfa.Expr) {
			for _, u := range cfa.Vars(x) {
				found = found || u == v
			}
		})
		if found {
			return true
		}
	}
	return false
}

func (e *encoder) bindParam(fr *frame, v *cfa.Var, val *Term) {
	if e.mem[v] {
		o := e.allocVar(v, fr, false)
		e.store(e.objPtr(o), val, v.T)
		return
	}
	nv := e.newVersion(e.regBase(v, fr), val.Sort)
	e.conj(e.b.Eq(nv, val))
	fr.reg[v] = nv
	e.f.Defs = append(e.f.Defs, Def{Step: e.step, Var: v, Frame: fr.name, Term: nv, Value: val})
}

func (e *encoder) enter(edge *cfa.Edge, callee *cfa.Function) {
	call, ok := edge.Op.(*cfa.Call)
	if !ok {
		e.fail("enter step over a non-call edge")
	}
	if callee == nil {
		e.fail("enter step without a callee")
	}
	if call.Fn != "" && call.Fn != callee.Name {
		e.fail("enter step into %s over a call of %s", callee.Name, call.Fn)
	}
	if call.Fn == "" {
		fp := e.rval(call.FnPtr)
		e.assume(e.b.Eq(fp, e.objPtr(e.funcObj(callee.Name))))
	}
	if len(call.Args) < len(callee.Params) {
		e.fail("call of %s with %d arguments for %d parameters", callee.Name, len(call.Args), len(callee.Params))
	}
	vals := make([]*Term, len(callee.Params))
	blocks := make([][]*Term, len(callee.Params))
	for i, v := range callee.Params {
		a := call.Args[i]
		if v.T.IsScalar() {
			vals[i] = e.convert(e.rval(a), a.Type(), v.T)
		} else {
			src := e.lval(a)
			blocks[i] = e.readBlock(src.ptr, v.T.Size)
		}
	}
	fr := e.pushFrame(callee, edge)
	for i, v := range callee.Params {
		if vals[i] != nil {
			e.bindParam(fr, v, vals[i])
		} else {
			o := e.allocVar(v, fr, false)
			e.writeBlock(e.objPtr(o), blocks[i])
		}
	}
}

func (e *encoder) leave(edge *cfa.Edge, callee *cfa.Function) {
	fr := e.top()
	if fr == nil || fr.fn != callee || fr.call != edge {
		e.fail("leave step does not match the call stack")
	}
	call := edge.Op.(*cfa.Call)
	var val *Term
	var block []*Term
	rv := callee.RetVar
	if call.Result != nil {
		if rv == nil {
			e.fail("result of void function %s used", callee.Name)
		}
		if rv.T.IsScalar() {
			val = e.rval(&cfa.VarRef{Var: rv})
		} else {
			block = e.readBlock(e.varLoc(rv, false).ptr, rv.T.Size)
		}
	}
	// locals die
	for _, o := range fr.obj {
		o.live = e.b.False()
	}
	for _, o := range fr.allocas {
		o.live = e.b.False()
	}
	e.frames = e.frames[:len(e.frames)-1]
	if len(e.frames) == 0 || e.top().fn != edge.From.Func {
		e.fail("leave step returns to the wrong function")
	}
	if call.Result != nil {
		lv := e.lval(call.Result)
		if val != nil {
			e.write(lv, e.convert(val, rv.T, lv.t))
		} else {
			e.writeBlock(lv.ptr, block)
		}
	}
}

// decl gives v a new instance: globals are zero, scalar locals get an
// input value ("decl x"), aggregate locals unconstrained contents.
func (e *encoder) decl(v *cfa.Var) {
	fr := e.top()
	if v.Global {
		fr = nil
	}
	if e.mem[v] {
		e.allocVar(v, fr, true)
		return
	}
	var val *Term
	if v.Global {
		val = e.b.BV(0, e.width(v.T))
	} else {
		val = e.input(e.regBase(v, fr), "decl "+v.Name, v.T)
	}
	e.setReg(v, fr, val)
}

func (e *encoder) setReg(v *cfa.Var, fr *frame, val *Term) {
	nv := e.newVersion(e.regBase(v, fr), val.Sort)
	e.conj(e.b.Eq(nv, val))
	name := ""
	if fr != nil {
		fr.reg[v] = nv
		name = fr.name
	} else {
		e.greg[v] = nv
	}
	e.f.Defs = append(e.f.Defs, Def{Step: e.step, Var: v, Frame: name, Term: nv, Value: val})
}

// newObject adds an object of the given size (BV(ptrBits)) and contents.
func (e *encoder) newObject(name string, size *Term, arr *Term) *object {
	id := len(e.objs)
	if e.shared != nil {
		// merged encoding: ids are unique over all states (merge.go)
		id = e.shared.nextObj
		e.shared.nextObj++
	}
	if e.objBits < 63 && uint64(id) >= 1<<uint(e.objBits) {
		e.fail("more than %d memory objects", 1<<uint(e.objBits)-1)
	}
	o := &object{id: id, name: name, size: size, arr: arr, live: e.b.True()}
	for len(e.objs) < id {
		e.objs = append(e.objs, nil)
	}
	e.objs = append(e.objs, o)
	return o
}

func (e *encoder) arraySort() Sort { return ArraySort(e.offBits, 8) }

func (e *encoder) constSize(t *cfa.Type, what string) int64 {
	if t.Size <= 0 && !(t.Kind == cfa.Struct || t.Kind == cfa.Union) {
		e.fail("%s of incomplete type %s", what, t)
	}
	if t.Size >= 1<<uint(e.offBits) {
		e.fail("%s of %d bytes, beyond the memory model's %d-bit offsets", what, t.Size, e.offBits)
	}
	return t.Size
}

// allocVar allocates a new instance of the memory variable v in frame fr
// (nil for globals). With decl, scalar locals get an input value.
func (e *encoder) allocVar(v *cfa.Var, fr *frame, decl bool) *object {
	size := e.constSize(v.T, "variable "+v.Name)
	var name string
	var arr *Term
	if fr == nil {
		name = v.Name
		arr = e.b.ConstArray(e.arraySort(), e.b.BV(0, 8))
	} else {
		name = fr.name + "::" + v.Name
		arr = e.newVersion("mem:"+name, e.arraySort())
	}
	var o *object
	if old := fr.objOf(v); e.shared != nil && fr != nil && old != nil {
		// merged encoding: a local declared again (a declaration in a
		// loop body) reuses its object, as gcc reuses the stack slot, so
		// that the states of different iterations agree on it (merge.go)
		o = &object{id: old.id, name: name, size: e.b.BV(uint64(size), e.ptrBits), arr: arr, live: e.b.True()}
		e.objs[old.id] = o
	} else {
		o = e.newObject(name, e.b.BV(uint64(size), e.ptrBits), arr)
	}
	if fr == nil {
		e.gobj[v] = o
	} else {
		fr.obj[v] = o
	}
	if decl && fr != nil && v.T.IsScalar() {
		in := e.input(name, "decl "+v.Name, v.T)
		e.store(e.objPtr(o), in, v.T)
	}
	return o
}

func (e *encoder) objPtr(o *object) *Term {
	return e.b.Concat(e.b.BV(uint64(o.id), e.objBits), e.b.BV(0, e.offBits))
}

func (e *encoder) funcObj(name string) *object {
	if o, ok := e.funcs[name]; ok {
		return o
	}
	if e.shared != nil {
		if id, ok := e.shared.funcIDs[name]; ok {
			o := &object{id: id, name: "func " + name, size: e.b.BV(0, e.ptrBits), live: e.b.True(), fn: true}
			e.place(o)
			e.funcs[name] = o
			return o
		}
	}
	o := e.newObject("func "+name, e.b.BV(0, e.ptrBits), nil)
	o.fn = true
	e.funcs[name] = o
	if e.shared != nil {
		e.shared.funcIDs[name] = o.id
	}
	return o
}

// varLoc returns the location of variable v. A memory variable without an
// instance in the current frame, and a register variable read (not
// written, write = true) before any definition, are declared implicitly
// there, as a Decl would (consuming an input for scalar locals).
func (e *encoder) varLoc(v *cfa.Var, write bool) lvalue {
	var fr *frame
	if !v.Global {
		fr = e.top()
		if fr == nil || v.Func != fr.fn.Name {
			e.fail("access to local %s of %s outside its function", v.Name, v.Func)
		}
	}
	if e.mem[v] {
		var o *object
		if fr == nil {
			o = e.gobj[v]
		} else {
			o = fr.obj[v]
		}
		if o == nil {
			e.decl(v)
			if fr == nil {
				o = e.gobj[v]
			} else {
				o = fr.obj[v]
			}
		}
		return lvalue{ptr: e.objPtr(o), t: v.T}
	}
	var cur *Term
	if fr == nil {
		cur = e.greg[v]
	} else {
		cur = fr.reg[v]
	}
	if cur == nil && !write {
		e.decl(v)
	}
	return lvalue{v: v, fr: fr, t: v.T}
}

func (e *encoder) regValue(lv lvalue) *Term {
	if lv.fr == nil {
		return e.greg[lv.v]
	}
	return lv.fr.reg[lv.v]
}

func (e *encoder) lval(x cfa.Expr) lvalue {
	switch x := x.(type) {
	case *cfa.VarRef:
		return e.varLoc(x.Var, true)
	case *cfa.Deref:
		if x.X.Type().Kind != cfa.Pointer {
			e.fail("dereference of a non-pointer %s", x.X)
		}
		return lvalue{ptr: e.rval(x.X), t: x.T}
	case *cfa.Member:
		base := e.lval(x.X)
		if base.ptr == nil {
			e.fail("member of a register value %s", x)
		}
		st := x.X.Type()
		if x.Field < 0 || x.Field >= len(st.Fields) {
			e.fail("member %d of %s", x.Field, st)
		}
		fld := st.Fields[x.Field]
		lv := lvalue{ptr: e.ptrAdd(base.ptr, e.b.BV(uint64(fld.Offset), 64), false, 1), t: x.T}
		if fld.BitWidth > 0 {
			if fld.BitOffset+fld.BitWidth > 64 {
				e.fail("bit-field %s beyond 64 bits of its storage", fld.Name)
			}
			lv.field = &fld
		}
		return lv
	case *cfa.Index:
		base := e.lval(x.X)
		if base.ptr == nil {
			e.fail("index into a register value %s", x)
		}
		at := x.X.Type()
		if at.Kind != cfa.Array {
			e.fail("index into non-array %s", x.X)
		}
		es := e.constSize(at.Elem, "array element")
		return lvalue{ptr: e.ptrAdd(base.ptr, e.rval(x.I), x.I.Type().IsSigned(), es), t: x.T}
	case *cfa.StringLit:
		return lvalue{ptr: e.objPtr(e.strObj(x)), t: x.T}
	}
	e.fail("lvalue %s (%T)", x, x)
	return lvalue{}
}

func (e *encoder) strObj(s *cfa.StringLit) *object {
	if o, ok := e.strs[s]; ok {
		return o
	}
	arr := e.b.ConstArray(e.arraySort(), e.b.BV(0, 8))
	for i := 0; i < len(s.Val); i++ {
		arr = e.b.Store(arr, e.b.BV(uint64(i), e.offBits), e.b.BV(uint64(s.Val[i]), 8))
	}
	name, size := "string "+strconv.Quote(s.Val), e.b.BV(uint64(len(s.Val)+1), e.ptrBits)
	if e.shared != nil {
		if id, ok := e.shared.strIDs[s]; ok {
			o := &object{id: id, name: name, size: size, arr: arr, live: e.b.True()}
			e.place(o)
			e.strs[s] = o
			return o
		}
	}
	o := e.newObject(name, size, arr)
	e.strs[s] = o
	if e.shared != nil {
		e.shared.strIDs[s] = o.id
	}
	return o
}

// ptrAdd returns p + idx·scale bytes, idx an integer term (signed or
// not). The offset is computed without wrap-around; leaving the offset
// range [0, 2^offBits) is undefined behaviour ("pointer arithmetic out of
// object bounds" — C already forbids leaving [0, size]).
func (e *encoder) ptrAdd(p, idx *Term, signed bool, scale int64) *Term {
	b := e.b
	if idx.Op == BVConst && idx.Val == 0 && idx.Hi == 0 {
		return p
	}
	obj, off := e.split(p)
	iw := idx.Sort.Width
	w := max(iw, e.ptrBits) + e.offBits + 2
	if w > 128 {
		e.fail("pointer arithmetic with a %d-bit index", iw)
	}
	var ext *Term
	if signed {
		ext = b.SignExt(idx, w)
	} else {
		ext = b.ZeroExt(idx, w)
	}
	if e.opts.WrapPointerArith {
		// The offset is a signed offBits-bit number: a pointer may go
		// before its object (and come back), not beyond half the range.
		full := b.Add(b.SignExt(off, w), b.Mul(ext, b.BV(uint64(scale), w)))
		top := b.Extract(full, w-1, e.offBits-1)
		e.ub("pointer arithmetic out of object bounds", b.And(b.Not(b.Eq(top, b.BV(0, w-e.offBits+1))), b.Not(b.Eq(top, b.BNot(b.BV(0, w-e.offBits+1))))))
		return b.Concat(obj, b.Extract(full, e.offBits-1, 0))
	}
	full := b.Add(b.ZeroExt(off, w), b.Mul(ext, b.BV(uint64(scale), w)))
	e.ub("pointer arithmetic out of object bounds", b.Not(b.Eq(b.Extract(full, w-1, e.offBits), b.BV(0, w-e.offBits))))
	return b.Concat(obj, b.Extract(full, e.offBits-1, 0))
}

// beforeObject makes a comparison or subtraction of pointers (ptrBits
// terms; an integer operand, a null pointer constant, has offset 0)
// undefined behaviour when one points before its object (a negative
// offset, EncodeOptions.WrapPointerArith): the wrapped offset would
// order them unlike the flat addresses of a real execution.
func (e *encoder) beforeObject(ps ...*Term) {
	if !e.opts.WrapPointerArith {
		return
	}
	b := e.b
	for _, p := range ps {
		if p.Sort.Width != e.ptrBits {
			continue
		}
		_, off := e.split(p)
		e.ub("use of a pointer before its object", b.Eq(b.Extract(off, e.offBits-1, e.offBits-1), b.BV(1, 1)))
	}
}

// addBytes returns p + k for a small constant k (within an access whose
// validity is checked as a whole).
func (e *encoder) addBytes(p *Term, k int64) *Term {
	if k == 0 {
		return p
	}
	obj, off := e.split(p)
	return e.b.Concat(obj, e.b.Add(off, e.b.BV(uint64(k), e.offBits)))
}

// adjoin returns when the pointers (lo, loff) and (ro, roff), into two
// different data objects, may be one address: one points one past the
// end of its object, the other to the start of its own (C11 6.5.9p6).
// False when either is NULL or both lie in one object; a heap block's
// start is not its end (value.mayAdjoin says the same).
func (e *encoder) adjoin(lo, loff, ro, roff *Term) *Term {
	b := e.b
	null := b.BV(0, e.objBits)
	zero := b.BV(0, e.offBits)
	isNull := func(o *Term) bool { return o.Op == BVConst && o.Hi == 0 && o.Val == 0 }
	if isNull(lo) || isNull(ro) || lo == ro {
		return b.False()
	}
	defer func(n int) { e.f.UB = e.f.UB[:n] }(len(e.f.UB)) // no access: == with a free object part goes both ways
	// at is when (obj, off) lies one past the end of its object (end)
	// or at its start
	at := func(obj, off *Term, end bool) *Term {
		start := b.ZeroExt(off, e.ptrBits)
		r := b.False()
		for _, o := range e.candidates(obj) {
			if o.fn {
				continue
			}
			in := b.Eq(off, zero)
			if end {
				in = b.Eq(start, o.size)
				if o.heap {
					in = b.And(in, b.Not(b.Eq(off, zero)))
				}
			}
			if obj.Op != BVConst {
				in = b.And(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), in)
			}
			r = b.Or(r, in)
		}
		return r
	}
	return b.And(b.Not(b.Eq(lo, ro)), b.Not(b.Eq(lo, null)), b.Not(b.Eq(ro, null)),
		b.Or(b.And(at(lo, loff, true), at(ro, roff, false)), b.And(at(ro, roff, true), at(lo, loff, false))))
}

func (e *encoder) split(p *Term) (obj, off *Term) {
	return e.b.Extract(p, e.ptrBits-1, e.offBits), e.b.Extract(p, e.offBits-1, 0)
}

// candidates returns the data objects a pointer with object part obj may
// designate: the one object when obj is a constant, else all data objects.
func (e *encoder) candidates(obj *Term) []*object {
	if obj.Op == BVConst {
		id := obj.Val
		if obj.Hi != 0 || id >= uint64(len(e.objs)) || e.objs[id] == nil || e.objs[id].fn || id == 0 {
			return nil
		}
		return []*object{e.objs[id]}
	}
	var out []*object
	if ids, ok, indet := e.valueSet(obj); ok {
		// the pointer designates one of a few objects (valueset.go)
		outside := e.b.Distinct(obj, e.b.BV(0, obj.Sort.Width))
		for _, id := range ids {
			if id != 0 && id < uint64(len(e.objs)) && e.objs[id] != nil && !e.objs[id].fn {
				out = append(out, e.objs[id])
				outside = e.b.And(outside, e.b.Distinct(obj, e.b.BV(id, obj.Sort.Width)))
			}
		}
		if indet {
			// a pointer read from indeterminate memory that is not
			// NULL and none of those objects: its access is left out
			e.ub(UBIndeterminatePointer, outside)
		}
		return out
	}
	for _, o := range e.objs[1:] {
		if o != nil && !o.fn {
			out = append(out, o)
		}
	}
	return out
}

// foldAccesses switches off the folding of load and store addresses for
// the baseline of BenchmarkEncodePointerParams (export_test.go).
var foldAccesses = true

// UBIndeterminatePointer is the UBCond kind of an access through a
// pointer read from indeterminate memory that designates none of the
// objects of its value set (valueset.go): the access is not modelled (a
// load gives any value, a store writes nothing), so an execution on
// which it happens may not be real, and a proof must show that none
// does (engine/bmc).
const UBIndeterminatePointer = "access through a pointer read from indeterminate memory"

// UBMaskedPointer is the UBCond kind of an integer-to-pointer cast of a
// pointer's address masked by other than all or no bits (maskedPointer):
// the result is left out (NULL), so a proof must show that none happens,
// as for UBIndeterminatePointer.
const UBMaskedPointer = "integer-to-pointer cast of an address masked by other than all or no bits"

// OutsideEncoding reports whether UB of kind leaves an execution's
// behaviour out of the encoding (not only undefined): no proof while
// it is reachable (engine/bmc).
func OutsideEncoding(kind string) bool {
	return kind == UBIndeterminatePointer || kind == UBMaskedPointer
}

// maskedPointer encodes (T *)((uintptr_t)p & m) (cfa.MaskedPointer)
// when x is that cast: with every bit of m set the address is p's and so
// is the pointer; with none it is 0, NULL; any other mask is
// UBMaskedPointer. p's address itself never becomes an integer (no
// "pointer-to-integer cast"). ok is false when x is not of that shape.
func (e *encoder) maskedPointer(x *cfa.Cast) (*Term, bool) {
	pe, mask, ok := cfa.MaskedPointer(x, e.ptrBits)
	if !ok {
		return nil, false
	}
	b := e.b
	p := e.rval(pe)
	m := e.rval(mask)
	w := e.width(mask.Type())
	all := b.Eq(m, b.BV(^uint64(0)>>(64-uint(w)), w))
	none := b.Eq(m, b.BV(0, w))
	e.ub(UBMaskedPointer, b.Not(b.Or(all, none)))
	return b.Ite(all, p, b.BV(0, e.ptrBits)), true
}

// foldAccess is folded(t) for the object and offset of a memory
// access: equal to t in every model, so the formula means the same, and
// constant for a pointer the path fixes (a parameter bound to &x), so
// that candidates gives that one object rather than every object of
// the path (each load then reads one array, not one per object, and
// each store writes one).
func (e *encoder) foldAccess(t *Term) *Term {
	if !foldAccesses {
		return t
	}
	return e.folded(t)
}

// valid is the condition that n bytes at p lie in a live object.
func (e *encoder) valid(obj, off *Term, n int64, cands []*object) *Term {
	b := e.b
	end := b.Add(b.ZeroExt(off, e.ptrBits), b.BV(uint64(n), e.ptrBits))
	r := b.False()
	for _, o := range cands {
		in := b.And(o.live, b.Ule(end, o.size))
		if obj.Op != BVConst {
			in = b.And(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), in)
		}
		r = b.Or(r, in)
	}
	return r
}

func (e *encoder) readBytes(arr, off *Term, n int64) *Term {
	var v *Term
	for i := int64(0); i < n; i++ {
		byt := e.b.Select(arr, e.b.Add(off, e.b.BV(uint64(i), e.offBits)))
		if v == nil {
			v = byt
		} else {
			v = e.b.Concat(byt, v)
		}
	}
	return v
}

func (e *encoder) writeBytes(arr, off, v *Term, n int64) *Term {
	for i := int64(0); i < n; i++ {
		arr = e.b.Store(arr, e.b.Add(off, e.b.BV(uint64(i), e.offBits)), e.b.Extract(v, int(8*i+7), int(8*i)))
	}
	return arr
}

// load reads a scalar of type t at p.
func (e *encoder) load(p *Term, t *cfa.Type) *Term {
	w := e.width(t)
	n := int64((w + 7) / 8)
	if t.Kind == cfa.Bool {
		n = 1
	}
	v := e.loadN(p, n, w)
	if v.Sort.Width != w {
		v = e.b.Extract(v, w-1, 0)
	}
	return v
}

// loadField reads the bit-field lv: its BitWidth bits at BitOffset of
// the little-endian bytes at lv.ptr, sign-extended for a signed type
// (gcc's x86 layout, which the front end checks: ctypes.bitFieldIssue).
func (e *encoder) loadField(lv lvalue) *Term {
	f := lv.field
	n := f.Bytes()
	raw := e.loadN(lv.ptr, n, int(8*n))
	x := e.b.Extract(raw, f.BitOffset+f.BitWidth-1, f.BitOffset)
	w := e.width(lv.t)
	switch {
	case w < f.BitWidth:
		return e.b.Extract(x, w-1, 0)
	case w == f.BitWidth:
		return x
	case lv.t.IsSigned():
		return e.b.SignExt(x, w)
	}
	return e.b.ZeroExt(x, w)
}

// storeField writes v's low BitWidth bits into the bit-field lv, the
// other bits of its bytes unchanged.
func (e *encoder) storeField(lv lvalue, v *Term) {
	f := lv.field
	n := f.Bytes()
	raw := e.loadN(lv.ptr, n, int(8*n))
	var bits *Term
	switch {
	case v.Sort.Width > f.BitWidth:
		bits = e.b.Extract(v, f.BitWidth-1, 0)
	case v.Sort.Width < f.BitWidth:
		bits = e.b.ZeroExt(v, f.BitWidth)
	default:
		bits = v
	}
	if hi := f.BitOffset + f.BitWidth; hi < int(8*n) {
		bits = e.b.Concat(e.b.Extract(raw, int(8*n)-1, hi), bits)
	}
	if f.BitOffset > 0 {
		bits = e.b.Concat(bits, e.b.Extract(raw, f.BitOffset-1, 0))
	}
	e.storeN(lv.ptr, bits, n)
}

// loadN reads the n little-endian bytes at p (n·8 bits; w, the width
// of the undefined value a read through no object gives).
func (e *encoder) loadN(p *Term, n int64, w int) *Term {
	obj, off := e.split(p)
	obj, off = e.foldAccess(obj), e.foldAccess(off) // one candidate object, not all, for a pointer the path fixes
	cands := e.candidates(obj)
	e.ub("invalid memory access", e.b.Not(e.valid(obj, off, n, cands)))
	if len(cands) == 0 {
		return e.b.FreshVar("undef", BVSort(w))
	}
	var v *Term
	for i := len(cands) - 1; i >= 0; i-- {
		e.poll()
		o := cands[i]
		x := e.readBytes(o.arr, off, n)
		if v == nil {
			v = x
		} else {
			v = e.b.Ite(e.b.Eq(obj, e.b.BV(uint64(o.id), e.objBits)), x, v)
		}
	}
	return v
}

// store writes the scalar v of type t at p.
func (e *encoder) store(p, v *Term, t *cfa.Type) {
	n := int64((v.Sort.Width + 7) / 8)
	if v.Sort.Width%8 != 0 {
		v = e.b.ZeroExt(v, int(8*n))
	}
	e.storeN(p, v, n)
}

// storeN writes v, of n·8 bits, as n little-endian bytes at p.
func (e *encoder) storeN(p, v *Term, n int64) {
	obj, off := e.split(p)
	obj, off = e.foldAccess(obj), e.foldAccess(off)
	cands := e.candidates(obj)
	e.ub("invalid memory access", e.b.Not(e.valid(obj, off, n, cands)))
	for _, o := range cands {
		w := e.writeBytes(o.arr, off, v, n)
		if obj.Op == BVConst {
			o.arr = w
		} else {
			o.arr = e.b.Ite(e.b.Eq(obj, e.b.BV(uint64(o.id), e.objBits)), w, o.arr)
		}
	}
}

// readBlock reads n bytes at p (for aggregate copies).
func (e *encoder) readBlock(p *Term, n int64) []*Term {
	if n > 1<<16 {
		e.fail("copy of %d bytes", n)
	}
	out := make([]*Term, n)
	for i := int64(0); i < n; i++ {
		out[i] = e.load(e.addBytes(p, i), cfa.UCharType)
	}
	return out
}

func (e *encoder) writeBlock(p *Term, bytes []*Term) {
	for i, x := range bytes {
		e.store(e.addBytes(p, int64(i)), x, cfa.UCharType)
	}
}

func (e *encoder) copyObj(dst, src lvalue) {
	if dst.ptr == nil || src.ptr == nil {
		e.fail("aggregate copy between registers")
	}
	e.writeBlock(dst.ptr, e.readBlock(src.ptr, e.constSize(dst.t, "aggregate copy")))
}

// write stores a scalar value to an lvalue.
func (e *encoder) write(lv lvalue, v *Term) {
	if lv.v != nil {
		e.setReg(lv.v, lv.fr, v)
		return
	}
	if lv.field != nil {
		e.storeField(lv, v)
		return
	}
	e.store(lv.ptr, v, lv.t)
}

func (e *encoder) assign(lhs, rhs cfa.Expr) {
	lt := lhs.Type()
	if lt.Kind == cfa.Float {
		e.fail("floating-point assignment %s = %s", lhs, rhs)
	}
	if !lt.IsScalar() {
		if k, ok := rhs.(*cfa.Const); ok {
			// the aggregate zero constant of initialisers
			if k.V != 0 {
				e.fail("aggregate constant %s", k)
			}
			e.zeroFill(lhs)
			return
		}
		e.copyObj(e.lval(lhs), e.lval(rhs))
		return
	}
	v := e.convert(e.rval(rhs), rhs.Type(), lt)
	e.write(e.lval(lhs), v)
}

// zeroFill sets the aggregate lvalue x to all zero bytes: a whole
// variable gets a constant array, parts get byte stores.
func (e *encoder) zeroFill(x cfa.Expr) {
	lv := e.lval(x)
	size := e.constSize(x.Type(), "aggregate")
	if r, ok := x.(*cfa.VarRef); ok {
		var o *object
		if r.Var.Global {
			o = e.gobj[r.Var]
		} else {
			o = e.top().obj[r.Var]
		}
		if o != nil && o.size.Op == BVConst && int64(o.size.Val) == size {
			o.arr = e.b.ConstArray(e.arraySort(), e.b.BV(0, 8))
			return
		}
	}
	if size > 1<<16 {
		e.fail("zero initialisation of %d bytes of %s", size, x)
	}
	zero := e.b.BV(0, 8)
	for i := int64(0); i < size; i++ {
		e.store(e.addBytes(lv.ptr, i), zero, cfa.UCharType)
	}
}

// convert converts a scalar value between types (the front end makes
// conversions explicit, so this matters only for calls and returns).
func (e *encoder) convert(v *Term, from, to *cfa.Type) *Term {
	if from.Kind == cfa.Pointer || to.Kind == cfa.Pointer {
		if from.Kind == cfa.Pointer && to.Kind == cfa.Pointer {
			return v
		}
		return e.castPtr(v, from, to)
	}
	e.width(to)
	return CCast(e.b, v, from, to)
}

func (e *encoder) castPtr(v *Term, from, to *cfa.Type) *Term {
	b := e.b
	switch {
	case from.Kind == cfa.Pointer && to.Kind == cfa.Bool:
		return CBool(b, CTruth(b, v), to)
	case from.Kind == cfa.Pointer && to.IsInteger():
		// An address of no object (NULL, or NULL plus an offset, as the
		// classic offsetof computes it) is its integer; the address of
		// an object is implementation-defined: unconstrained.
		w := e.width(to)
		obj, _ := e.split(v)
		inObj := b.Not(b.Eq(obj, b.BV(0, e.objBits)))
		e.ub("pointer-to-integer cast", inObj)
		return b.Ite(inObj, b.FreshVar("addr", BVSort(w)), CCast(b, v, cfa.IntType(e.ptrBits, false), to))
	case from.IsInteger() && to.Kind == cfa.Pointer:
		if v = e.folded(v); v.Op == BVConst && v.Val == 0 && v.Hi == 0 { // (cbmc_havoc.go)
			return b.BV(0, e.ptrBits)
		}
		if e.opts.ZeroPagePointers {
			u := CCast(b, v, from, cfa.IntType(e.ptrBits, false))
			e.ub("integer-to-pointer cast beyond the zero page", b.Uge(u, b.BV(ZeroPage, e.ptrBits)))
			return u
		}
		e.fail("integer-to-pointer cast")
	}
	e.fail("conversion from %s to %s", from, to)
	return nil
}

// rval evaluates a scalar expression.
func (e *encoder) rval(x cfa.Expr) *Term {
	b := e.b
	switch x := x.(type) {
	case *cfa.Const:
		w := e.width(x.T)
		if x.T.Kind == cfa.Pointer && x.V != 0 {
			e.fail("pointer constant %s", x)
		}
		return b.BV(x.V, w)
	case *cfa.FloatConst:
		e.fail("floating-point constant %s", x)
	case *cfa.VarRef:
		v := x.Var
		e.width(v.T)
		if v.Volatile {
			lv := e.varLoc(v, false)
			in := e.input(e.regBase(v, lv.fr)+"#volatile", "volatile "+v.Name, v.T)
			return in
		}
		lv := e.varLoc(v, false)
		if lv.v != nil {
			return e.regValue(lv)
		}
		return e.load(lv.ptr, v.T)
	case *cfa.Deref, *cfa.Member, *cfa.Index:
		e.width(x.Type())
		lv := e.lval(x)
		if lv.field != nil {
			return e.loadField(lv)
		}
		return e.load(lv.ptr, x.Type())
	case *cfa.AddrOf:
		if f, ok := x.X.(*cfa.FuncRef); ok {
			return e.objPtr(e.funcObj(f.Name))
		}
		lv := e.lval(x.X)
		if lv.ptr == nil {
			e.fail("address of register variable %s", x.X)
		}
		if lv.field != nil {
			e.fail("address of bit-field %s", lv.field.Name)
		}
		return lv.ptr
	case *cfa.FuncRef:
		return e.objPtr(e.funcObj(x.Name))
	case *cfa.Unary:
		v := e.rval(x.X)
		e.width(x.T)
		if x.X.Type().Kind == cfa.Pointer {
			if x.Op != cfa.LNot {
				e.fail("operator %s on a pointer", x.Op)
			}
			return CBool(b, b.Not(CTruth(b, v)), x.T)
		}
		if x.Op == cfa.Neg && e.opts.AssumeNoSignedOverflow {
			e.assumeNoOverflow(CNegOverflow(b, v, x.T))
		}
		return CUnary(b, x.Op, v, x.X.Type(), x.T)
	case *cfa.Binary:
		return e.binary(x)
	case *cfa.Cast:
		if v, ok := e.maskedPointer(x); ok {
			return v
		}
		v := e.rval(x.X)
		return e.convert(v, x.X.Type(), x.T)
	case *cfa.StringLit:
		e.fail("string literal %s in value position", x)
	}
	e.fail("expression %s (%T)", x, x)
	return nil
}

func (e *encoder) binary(x *cfa.Binary) *Term {
	b := e.b
	xt, yt := x.X.Type(), x.Y.Type()
	switch x.Op {
	case cfa.LAnd, cfa.LOr:
		e.width(x.T)
		return CBool(b, e.cond(x), x.T)
	}
	if xt.Kind == cfa.Pointer || yt.Kind == cfa.Pointer {
		return e.pointerBinary(x)
	}
	e.width(x.T)
	l := e.rval(x.X)
	r := e.rval(x.Y)
	v, ubs := CBinary(b, x.Op, l, r, xt, yt, x.T)
	for _, u := range ubs {
		e.ub(u.Kind.String(), u.Cond)
	}
	if e.opts.AssumeNoSignedOverflow {
		e.assumeNoOverflow(CSignedOverflow(b, x.Op, l, r, x.T))
	}
	return v
}

func (e *encoder) elemSize(pt *cfa.Type) int64 {
	if pt.Elem == nil || pt.Elem.Kind == cfa.Void {
		return 1 // gcc: arithmetic on void * steps bytes
	}
	if pt.Elem.Kind == cfa.Func {
		e.fail("arithmetic on a function pointer")
	}
	return e.constSize(pt.Elem, "pointee")
}

func (e *encoder) pointerBinary(x *cfa.Binary) *Term {
	b := e.b
	xt, yt := x.X.Type(), x.Y.Type()
	l, r := e.rval(x.X), e.rval(x.Y)
	switch {
	case x.Op == cfa.Add && xt.Kind == cfa.Pointer && yt.IsInteger():
		return e.ptrAdd(l, r, yt.IsSigned(), e.elemSize(xt))
	case x.Op == cfa.Add && yt.Kind == cfa.Pointer && xt.IsInteger():
		return e.ptrAdd(r, l, xt.IsSigned(), e.elemSize(yt))
	case x.Op == cfa.Sub && xt.Kind == cfa.Pointer && yt.IsInteger():
		// p - i = p + (-i) computed one bit wider, so -INT_MIN is exact
		w := r.Sort.Width + 1
		var ext *Term
		if yt.IsSigned() {
			ext = b.SignExt(r, w)
		} else {
			ext = b.ZeroExt(r, w)
		}
		return e.ptrAdd(l, b.Neg(ext), true, e.elemSize(xt))
	case x.Op == cfa.Sub && xt.Kind == cfa.Pointer && yt.Kind == cfa.Pointer:
		lo, loff := e.split(l)
		ro, roff := e.split(r)
		same := b.Eq(lo, ro)
		e.ub("pointer subtraction across objects", b.Not(same))
		e.beforeObject(l, r)
		// offsets are below 2^offBits: the difference fits ptrBits signed
		d := b.Sub(b.ZeroExt(loff, e.ptrBits), b.ZeroExt(roff, e.ptrBits))
		sz := e.elemSize(xt)
		d = b.SDiv(d, b.BV(uint64(sz), e.ptrBits))
		if same.Op != True {
			// across objects the distance is no C value (and
			// undefined): any, so that no proof rests on it
			d = b.Ite(same, d, b.FreshVar("pointer distance across objects", BVSort(e.ptrBits)))
		}
		return e.convert(d, cfa.IntType(e.ptrBits, true), x.T)
	case x.Op.IsComparison() && xt.Kind == cfa.Pointer && yt.Kind == cfa.Pointer:
		lo, loff := e.split(l)
		ro, roff := e.split(r)
		same := b.Eq(lo, ro)
		e.beforeObject(l, r)
		cmp := CCompare(b, x.Op, l, r, xt)
		if x.Op != cfa.Eq && x.Op != cfa.Ne {
			e.ub("pointer comparison across objects", b.Not(same))
			if same.Op != True {
				// the order of two objects in memory is no C value:
				// any, so that no proof rests on it
				cmp = b.Ite(same, cmp, b.FreshVar("pointer order across objects", BoolSort))
			}
			return CBool(b, cmp, x.T)
		}
		if adj := e.adjoin(lo, loff, ro, roff); adj.Op != False {
			// one past the end of an object and the start of another
			// are one address when the second follows the first
			// (C11 6.5.9p6): either result
			eq := b.Or(b.Eq(l, r), b.And(adj, b.FreshVar("adjacent objects", BoolSort)))
			if x.Op == cfa.Ne {
				eq = b.Not(eq)
			}
			return CBool(b, eq, x.T)
		}
		return CBool(b, cmp, x.T)
	case x.Op.IsComparison():
		e.beforeObject(l, r)
		// pointer compared with an integer (a null pointer constant)
		if xt.Kind != cfa.Pointer {
			l = e.castPtr(l, xt, yt)
		} else {
			r = e.castPtr(r, yt, xt)
		}
		return CBool(b, CCompare(b, x.Op, l, r, cfa.UIntType), x.T)
	}
	e.fail("pointer operation %s", x)
	return nil
}

// cond evaluates a condition to a Bool term, short-circuiting LAnd/LOr:
// undefined behaviour on the right of && counts only when the left holds.
func (e *encoder) cond(x cfa.Expr) *Term {
	b := e.b
	switch x := x.(type) {
	case *cfa.Binary:
		switch x.Op {
		case cfa.LAnd, cfa.LOr:
			l := e.cond(x.X)
			saved := e.guard
			if x.Op == cfa.LAnd {
				e.guard = b.And(saved, l)
			} else {
				e.guard = b.And(saved, b.Not(l))
			}
			r := e.cond(x.Y)
			e.guard = saved
			if x.Op == cfa.LAnd {
				return b.And(l, r)
			}
			return b.Or(l, r)
		}
		if x.Op.IsComparison() && x.X.Type().Kind != cfa.Pointer && x.Y.Type().Kind != cfa.Pointer {
			l, r := e.rval(x.X), e.rval(x.Y)
			return CCompare(b, x.Op, l, r, x.X.Type())
		}
	case *cfa.Unary:
		if x.Op == cfa.LNot {
			return b.Not(e.cond(x.X))
		}
	}
	return CTruth(b, e.rval(x))
}

// callExtern handles a call of a function without a body.
func (e *encoder) callExtern(c *cfa.Call) {
	b := e.b
	if c.Fn == "" {
		if e.shared == nil {
			e.fail("call through a function pointer without entering a body")
		}
		e.callPointerExtern(c)
		return
	}
	if e.p.Func(c.Fn) != nil {
		e.fail("call of %s (which has a body) taken as one step", c.Fn)
	}
	arg := func(i int) *Term {
		if i >= len(c.Args) {
			e.fail("%s called with %d arguments", c.Fn, len(c.Args))
		}
		return e.rval(c.Args[i])
	}
	setResult := func(v *Term, t *cfa.Type) {
		if c.Result == nil {
			return
		}
		lv := e.lval(c.Result)
		e.write(lv, e.convert(v, t, lv.t))
	}
	ptrT := cfa.PointerTo(cfa.VoidType, e.ptrBits)
	sizeT := cfa.IntType(e.ptrBits, false)
	switch {
	case strings.HasPrefix(c.Fn, "__VERIFIER_nondet_"):
		if c.Result == nil {
			return
		}
		lv := e.lval(c.Result)
		if lv.t.Kind == cfa.Pointer {
			e.fail("nondeterministic pointer from %s", c.Fn)
		}
		e.write(lv, e.input(e.inputBase(lv, c.Result), c.Fn, lv.t))
		return
	case IsErrorFunction(c.Fn) || c.Fn == "abort" || c.Fn == "exit" || c.Fn == "_exit" || c.Fn == "__builtin_trap":
		for i, a := range c.Args {
			if _, lit := a.(*cfa.StringLit); lit {
				// an assertion's message: no undefined behaviour to
				// find, and an object for it would be one more
				// candidate of every pointer access after it
				continue
			}
			arg(i)
		}
		return
	case c.Fn == "__VERIFIER_assume":
		e.assume(CTruth(b, arg(0)))
		return
	case c.Fn == "malloc" || c.Fn == "calloc" || c.Fn == "alloca" || c.Fn == "__builtin_alloca":
		var size *Term
		var arr *Term
		if c.Fn == "calloc" {
			n := e.convert(arg(0), c.Args[0].Type(), sizeT)
			m := e.convert(arg(1), c.Args[1].Type(), sizeT)
			// the product must not overflow size_t (calloc fails then)
			wide := b.Mul(b.ZeroExt(n, 2*e.ptrBits), b.ZeroExt(m, 2*e.ptrBits))
			e.ub("allocation too large for the memory model", b.Uge(wide, b.BV(1<<uint(e.offBits), 2*e.ptrBits)))
			size = b.Mul(n, m)
			arr = b.ConstArray(e.arraySort(), b.BV(0, 8))
		} else {
			size = e.convert(arg(0), c.Args[0].Type(), sizeT)
			e.ub("allocation too large for the memory model", b.Uge(size, b.BV(1<<uint(e.offBits), e.ptrBits)))
		}
		e.mallocs++
		name := fmt.Sprintf("heap#%d", e.mallocs)
		if arr == nil {
			arr = e.newVersion("mem:"+name, e.arraySort())
		}
		if c.Fn != "calloc" {
			e.f.Heap = append(e.f.Heap, HeapBlock{Ordinal: e.mallocs, Size: size, Init: arr})
		}
		o := e.newObject(name, size, arr)
		o.heap = c.Fn == "malloc" || c.Fn == "calloc"
		if !o.heap {
			e.top().allocas = append(e.top().allocas, o)
		}
		setResult(e.objPtr(o), ptrT)
		return
	case c.Fn == "free":
		p := arg(0)
		obj, off := e.split(p)
		isNull := b.Eq(p, b.BV(0, e.ptrBits))
		ok := isNull
		for _, o := range e.candidates(obj) {
			if !o.heap {
				continue
			}
			is := b.Eq(obj, b.BV(uint64(o.id), e.objBits))
			ok = b.Or(ok, b.And(is, o.live, b.Eq(off, b.BV(0, e.offBits))))
			o.live = b.And(o.live, b.Not(is))
		}
		e.ub("invalid free", b.Not(ok))
		return
	case c.Fn == "memset":
		p := arg(0)
		ch := b.Extract(e.convert(arg(1), c.Args[1].Type(), cfa.IntT), 7, 0)
		n := e.convert(arg(2), c.Args[2].Type(), sizeT)
		if n.Op != BVConst || n.Hi != 0 || n.Val > 1<<16 {
			// exact over objects of a small constant size (extern.go),
			// else p's objects get any contents
			if !e.fillRange(p, n, func(*Term) *Term { return ch }) {
				e.havocPointee(p, "memset")
			}
			setResult(p, ptrT)
			return
		}
		for i := uint64(0); i < n.Val; i++ {
			e.store(e.addBytes(p, int64(i)), ch, cfa.UCharType)
		}
		setResult(p, ptrT)
		return
	case c.Fn == "memcpy" || c.Fn == "memmove":
		d, s := arg(0), arg(1)
		n := e.convert(arg(2), c.Args[2].Type(), sizeT)
		if n.Op != BVConst || n.Hi != 0 || n.Val > 1<<16 {
			// exact over objects of a small constant size (extern.go),
			// else d's objects get any contents
			if src := e.srcBytes(s, n); src == nil || !e.fillRange(d, n, src) {
				e.havocPointee(d, c.Fn)
			}
			setResult(d, ptrT)
			return
		}
		e.writeBlock(d, e.readBlock(s, int64(n.Val)))
		setResult(d, ptrT)
		return
	case c.Fn == "abs" || c.Fn == "labs" || c.Fn == "llabs":
		x := arg(0)
		t := c.Args[0].Type()
		v := b.Ite(b.Slt(x, b.BV(0, x.Sort.Width)), b.Neg(x), x)
		setResult(v, t)
		return
	}
	if e.libModel(c, arg, setResult) {
		return
	}
	if e.envCall(c, arg, setResult) {
		return
	}
	switch e.p.Extern(c.Fn) {
	case cfa.ExternNoEffect, cfa.ExternPure:
		// Writes nothing the program reads; any result.
		e.externArgs(c)
	default:
		e.externArgs(c)
		e.havocUnmodelled(c.Fn)
	}
	if c.Result == nil {
		return
	}
	lv := e.lval(c.Result)
	if lv.t.Kind == cfa.Pointer || !lv.t.IsScalar() {
		e.fail("external function %s returning a pointer or aggregate", c.Fn)
	}
	e.write(lv, e.input(e.inputBase(lv, c.Result), "extern "+c.Fn, lv.t))
}

// IsErrorFunction reports whether calling fn signals a property violation
// (reach_error, __VERIFIER_error, __assert_fail).
func IsErrorFunction(fn string) bool {
	switch fn {
	case "reach_error", "__VERIFIER_error", "__assert_fail":
		return true
	}
	return false
}
