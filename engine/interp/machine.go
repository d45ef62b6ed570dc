package interp

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// object is a memory object: a variable instance kept in memory, a heap or
// alloca block, a string literal or a function (fn != "").
type object struct {
	id   int
	name string
	data []byte
	init []bool // per byte: holds a determinate value
	// bits, for a byte not init, are the bits of it that bit-field
	// stores made determinate (storeField), when any
	bits map[int64]byte
	// decl, when not nil, gives per byte 1 + the index of the input
	// (the indeterminate value of a scalar local's Decl) that the byte
	// still holds, or 0 (see machine.observed).
	decl []int
	live bool
	heap bool
	fn   string
}

type frame struct {
	fn      *cfa.Function
	call    *cfa.Edge
	reg     map[*cfa.Var]uint64
	obj     map[*cfa.Var]*object
	allocas []*object
}

type machine struct {
	p                *cfa.Program
	ptrBits, offBits int
	inputs           []uint64
	used, missing    int
	frames           []*frame
	greg             map[*cfa.Var]uint64
	gobj             map[*cfa.Var]*object
	mem              map[*cfa.Var]bool
	objs             []*object
	strs             map[*cfa.StringLit]*object
	funcs            map[string]*object
	trace            *Trace
	// allocs counts the blocks malloc, calloc and alloca allocated;
	// heapInit gives the initial bytes of the uninitialised ones by that
	// ordinal (ReplayHeap).
	allocs   int
	heapInit map[int][]byte
	// env holds the pointer getenv returned for each name (getenv);
	// envChanged is set by an unmodelled call (setenv, putenv)
	env          map[string]uint64
	envChanged   bool
	loc          *cfa.Location // Replay: the current location
	errorCall    bool
	assumeFailed bool
	// decided and callee carry what Run's choice of the next step already
	// evaluated (an assume condition, a function pointer), so that exec
	// does not evaluate it twice (volatile reads consume inputs).
	decided bool
	callee  string
	// observed holds the indexes of Decl inputs of memory variables whose
	// bytes were read while they still held them (UnobservedInputs);
	// declIn all such inputs.
	observed, declIn map[int]bool
	// detectOverflow makes binary and unary set overflowed at the first
	// signed +, -, * or unary - whose result wraps (FirstSignedOverflow).
	detectOverflow, overflowed bool
	// wrapPtr makes offsets signed offBits-bit numbers: pointer
	// arithmetic may leave the object below offset 0 (and come back)
	// instead of stopping on undefined behaviour
	// (Semantics.WrapPointerArith).
	wrapPtr bool
	// zeroPage makes integers below zeroPageSize convertible to pointers
	// into no object (Semantics.ZeroPagePointers).
	zeroPage bool

	// uf holds the results of CBMC's uninterpreted functions by function
	// and argument values (cbmc_havoc.go, uninterpreted)
	uf map[string]uint64
}

// stop is the panic value that ends execution of a step.
type stop struct {
	kind     Stop
	msg      string
	diverges bool
}

func newMachine(p *cfa.Program, inputs []uint64) *machine {
	m := &machine{
		p: p, inputs: inputs,
		ptrBits: p.DataModel.PointerBits(), offBits: csem.OffsetBits(p.DataModel),
		greg: map[*cfa.Var]uint64{}, gobj: map[*cfa.Var]*object{}, mem: map[*cfa.Var]bool{},
		strs: map[*cfa.StringLit]*object{}, funcs: map[string]*object{},
	}
	m.objs = []*object{{name: "NULL"}}
	m.scanMemVars()
	return m
}

// scanMemVars puts in memory the variables marked AddrTaken, non-scalars
// and variables whose address is taken anywhere in the program.
func (m *machine) scanMemVars() {
	for _, v := range m.p.Vars {
		if v.AddrTaken || !v.T.IsScalar() {
			m.mem[v] = true
		}
	}
	visit := func(x cfa.Expr) {
		cfa.Walk(x, func(x cfa.Expr) bool {
			if a, ok := x.(*cfa.AddrOf); ok {
				root := a.X
			loop:
				for {
					switch r := root.(type) {
					case *cfa.Member:
						root = r.X
					case *cfa.Index:
						root = r.X
					case *cfa.VarRef:
						m.mem[r.Var] = true
						break loop
					default:
						break loop
					}
				}
			}
			return true
		})
	}
	for _, e := range m.p.Edges {
		switch op := e.Op.(type) {
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

func (m *machine) stopf(kind Stop, format string, args ...any) {
	panic(&stop{kind: kind, msg: fmt.Sprintf(format, args...)})
}

func (m *machine) ub(format string, args ...any) { m.stopf(UndefinedBehaviour, format, args...) }

func (m *machine) unsupported(format string, args ...any) { m.stopf(Unsupported, format, args...) }

// try runs f, returning the stop it panics with, if any.
func (m *machine) try(f func()) (st *stop) {
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(*stop); ok {
				st = s
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

func (m *machine) finish(st *stop) {
	m.trace.Stop = st.kind
	m.trace.Reason = st.msg
	m.trace.InputsUsed, m.trace.MissingInputs = m.used, m.missing
}

func (m *machine) top() *frame { return m.frames[len(m.frames)-1] }

func (m *machine) started() bool { return len(m.frames) > 0 }

func (m *machine) pushFrame(fn *cfa.Function, call *cfa.Edge) *frame {
	if len(m.frames) >= 100000 {
		m.unsupported("call depth beyond 100000")
	}
	fr := &frame{fn: fn, call: call, reg: map[*cfa.Var]uint64{}, obj: map[*cfa.Var]*object{}}
	m.frames = append(m.frames, fr)
	return fr
}

// ensureStarted creates the first frame for a path starting in fn.
func (m *machine) ensureStarted(fn *cfa.Function) {
	if m.started() {
		if m.top().fn != fn {
			panic(&stop{msg: fmt.Sprintf("step in %s while executing %s", fn.Name, m.top().fn.Name), diverges: true})
		}
		return
	}
	if fn == m.p.Init {
		m.pushFrame(fn, nil)
	} else {
		m.enterEntry(fn)
	}
}

// getenv returns the pointer getenv(name) returns (cfa.EnvName), as the
// SMT encoding models it: at the name's first call the inputs whether it
// is set, the length n of its value and cfa.EnvBytes bytes give NULL or
// a new object of n+1 bytes, the first n of them those bytes and none
// NUL, then NUL; later calls return the same pointer. A value longer
// than cfa.EnvBytes (whose bytes the inputs do not give) or with a NUL
// inside is no environment a run can have: unsupported.
func (m *machine) getenv(name string) uint64 {
	if m.envChanged {
		m.unsupported("getenv(%q) after an unmodelled call, which may have changed the environment", name)
	}
	if p, ok := m.env[name]; ok {
		return p
	}
	set := m.input(cfa.UCharType)
	n := m.input(cfa.IntType(m.ptrBits, false))
	bytes := make([]byte, cfa.EnvBytes)
	for i := range bytes {
		bytes[i] = byte(m.input(cfa.UCharType))
	}
	var p uint64
	if set != 0 {
		if n > cfa.EnvBytes {
			m.unsupported("environment variable %s with a value of %d bytes (the replay gives %d)", name, n, cfa.EnvBytes)
		}
		o := m.newObject("environment "+name, int64(n)+1, true)
		for i := uint64(0); i < n; i++ {
			if bytes[i] == 0 {
				m.unsupported("environment variable %s with a NUL inside its value", name)
			}
			o.data[i] = bytes[i]
		}
		p = m.addr(o)
	}
	if m.env == nil {
		m.env = map[string]uint64{}
	}
	m.env[name] = p
	return p
}

// input consumes the next input value, truncated to t.
func (m *machine) input(t *cfa.Type) uint64 {
	m.width(t)
	var v uint64
	if m.used < len(m.inputs) {
		v = m.inputs[m.used]
	} else {
		m.missing++
	}
	m.used++
	return m.fit(v, t)
}

// fit truncates v to t's width (_Bool keeps 8 bits, as the encoder).
func (m *machine) fit(v uint64, t *cfa.Type) uint64 { return cfa.Truncate(v, m.width(t)) }

func (m *machine) width(t *cfa.Type) int {
	switch {
	case t == nil:
		m.unsupported("untyped value")
	case t.Kind == cfa.Float:
		m.unsupported("floating-point value of type %s", t)
	case !t.IsScalar():
		m.unsupported("value of non-scalar type %s", t)
	case t.Kind == cfa.Pointer:
		return m.ptrBits
	case t.Width() < 1 || t.Width() > 64:
		m.unsupported("integer of %d bits", t.Width())
	}
	return t.Width()
}

func (m *machine) enterEntry(fn *cfa.Function) {
	m.frames = m.frames[:0]
	fr := m.pushFrame(fn, nil)
	for _, v := range fn.Params {
		if v.T.Kind == cfa.Pointer {
			// argv: no input, as the path encoder, which encodes only
			// paths that never read it; a free run (Run) reads null
			m.bindParam(fr, v, 0)
			continue
		}
		if !v.T.IsInteger() {
			if !fn.Mentions(v) {
				continue // never read
			}
			m.unsupported("entry function parameter %s of type %s (only integer parameters of the entry function are modelled)", v.Name, v.T)
		}
		m.bindParam(fr, v, m.input(v.T))
	}
}

func (m *machine) bindParam(fr *frame, v *cfa.Var, val uint64) {
	if m.mem[v] {
		o := m.allocVar(v, fr, false)
		m.store(m.addr(o), val, v.T)
		return
	}
	fr.reg[v] = val
}

// choose picks the step the execution takes from loc.
func (m *machine) choose(loc *cfa.Location) cfa.Step {
	if len(loc.Out) == 2 {
		// the condition is evaluated once, here: exec skips it
		a := loc.Out[0].Op.(*cfa.Assume)
		m.decided = true
		if csem.Truth(m.cond(a.Cond)) == a.Truth {
			return cfa.Step{Edge: loc.Out[0], Kind: cfa.Intra}
		}
		return cfa.Step{Edge: loc.Out[1], Kind: cfa.Intra}
	}
	e := loc.Out[0]
	if c, ok := e.Op.(*cfa.Call); ok {
		name := c.Fn
		if name == "" {
			// evaluated once, here: enter uses m.callee
			name = m.funcName(m.rval(c.FnPtr))
			m.callee = name
		}
		if f := m.p.Func(name); f != nil {
			return cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f}
		}
	}
	return cfa.Step{Edge: e, Kind: cfa.Intra}
}

// funcName returns the function a function pointer designates.
func (m *machine) funcName(p uint64) string {
	id, off := m.split(p)
	if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].fn == "" || off != 0 {
		m.ub("call through an invalid function pointer")
	}
	return m.objs[id].fn
}

// exec executes one step.
func (m *machine) exec(s cfa.Step) {
	switch s.Kind {
	case cfa.Enter:
		if s.Edge == nil {
			if s.Callee == nil {
				m.unsupported("entry step without a callee")
			}
			m.enterEntry(s.Callee)
			return
		}
		m.ensureStarted(s.Edge.From.Func)
		m.enter(s.Edge, s.Callee)
		return
	case cfa.Leave:
		m.leave(s.Edge, s.Callee)
		return
	}
	m.ensureStarted(s.Edge.From.Func)
	switch op := s.Edge.Op.(type) {
	case *cfa.Decl:
		m.decl(op.Var)
	case *cfa.Assign:
		m.assign(op.LHS, op.RHS)
	case *cfa.Havoc:
		lv := m.lval(op.LHS)
		if lv.t.Kind == cfa.Pointer {
			m.unsupported("nondeterministic pointer")
		}
		m.write(lv, m.input(lv.t))
	case *cfa.Assume:
		if m.decided {
			m.decided = false
			return
		}
		if csem.Truth(m.cond(op.Cond)) != op.Truth {
			panic(&stop{msg: fmt.Sprintf("assumption %s does not hold", op), diverges: true})
		}
	case *cfa.Call:
		if op.Fn != "" && m.p.Func(op.Fn) != nil {
			m.unsupported("call of %s (which has a body) taken as one step", op.Fn)
		}
		m.callExtern(op)
	case *cfa.Return:
		fr := m.top()
		rv := fr.fn.RetVar
		if op.X != nil {
			if rv == nil {
				m.unsupported("return with a value from void function %s", fr.fn.Name)
			}
			if rv.T.IsScalar() {
				m.write(m.varLoc(rv, true), m.convert(m.rval(op.X), op.X.Type(), rv.T))
			} else {
				m.copyBlock(m.varLoc(rv, true).ptr, m.lval(op.X).ptr, m.size(rv.T))
			}
		}
	case *cfa.Noop:
	case *cfa.Unsupported:
		m.unsupported("unsupported construct: %s", op.Construct)
	default:
		m.unsupported("operation %T", op)
	}
}

func (m *machine) enter(edge *cfa.Edge, callee *cfa.Function) {
	call, ok := edge.Op.(*cfa.Call)
	if !ok || callee == nil {
		m.unsupported("enter step over a non-call edge")
	}
	name := call.Fn
	if name == "" {
		if m.callee != "" {
			name, m.callee = m.callee, ""
		} else {
			name = m.funcName(m.rval(call.FnPtr))
		}
	}
	if name != callee.Name {
		panic(&stop{msg: fmt.Sprintf("the call goes to %s, the path enters %s", name, callee.Name), diverges: true})
	}
	if IsErrorFunction(name) {
		m.errorCall = true
	}
	if len(call.Args) < len(callee.Params) {
		m.unsupported("call of %s with %d arguments for %d parameters", name, len(call.Args), len(callee.Params))
	}
	vals := make([]uint64, len(callee.Params))
	blocks := make([]*block, len(callee.Params))
	for i, v := range callee.Params {
		a := call.Args[i]
		if v.T.IsScalar() {
			vals[i] = m.convert(m.rval(a), a.Type(), v.T)
		} else {
			blocks[i] = m.readBlock(m.lval(a).ptr, m.size(v.T))
		}
	}
	fr := m.pushFrame(callee, edge)
	for i, v := range callee.Params {
		if blocks[i] == nil {
			m.bindParam(fr, v, vals[i])
		} else {
			o := m.allocVar(v, fr, false)
			m.writeBlock(m.addr(o), blocks[i])
		}
	}
}

func (m *machine) leave(edge *cfa.Edge, callee *cfa.Function) {
	if !m.started() {
		m.unsupported("leave step without a call")
	}
	fr := m.top()
	if fr.fn != callee || fr.call != edge || len(m.frames) < 2 {
		panic(&stop{msg: "leave step does not match the call stack", diverges: true})
	}
	call := edge.Op.(*cfa.Call)
	rv := callee.RetVar
	var val uint64
	var blk *block
	if call.Result != nil {
		if rv == nil {
			m.unsupported("result of void function %s used", callee.Name)
		}
		if rv.T.IsScalar() {
			val = m.rval(&cfa.VarRef{Var: rv})
		} else {
			blk = m.readBlock(m.varLoc(rv, false).ptr, m.size(rv.T))
		}
	}
	for _, o := range fr.obj {
		o.live = false
	}
	for _, o := range fr.allocas {
		o.live = false
	}
	m.frames = m.frames[:len(m.frames)-1]
	if call.Result != nil {
		lv := m.lval(call.Result)
		if blk == nil {
			m.write(lv, m.convert(val, rv.T, lv.t))
		} else {
			m.writeBlock(lv.ptr, blk)
		}
	}
}

// decl gives v a new instance: globals zero, scalar locals an input value,
// aggregate locals uninitialised memory.
func (m *machine) decl(v *cfa.Var) {
	var fr *frame
	if !v.Global {
		fr = m.top()
	}
	if m.mem[v] {
		m.allocVar(v, fr, true)
		return
	}
	var val uint64
	if !v.Global {
		val = m.input(v.T)
	} else {
		m.width(v.T)
	}
	if fr == nil {
		m.greg[v] = val
	} else {
		fr.reg[v] = val
	}
}

func (m *machine) size(t *cfa.Type) int64 {
	if t.Size < 0 || t.Size >= 1<<uint(m.offBits) {
		m.unsupported("object of type %s (%d bytes) beyond the memory model", t, t.Size)
	}
	if t.Size == 0 && t.Kind != cfa.Struct && t.Kind != cfa.Union {
		m.unsupported("object of incomplete type %s", t)
	}
	return t.Size
}

func (m *machine) newObject(name string, size int64, initialised bool) *object {
	id := len(m.objs)
	if m.ptrBits-m.offBits < 63 && uint64(id) >= 1<<uint(m.ptrBits-m.offBits) {
		m.unsupported("more than %d memory objects", id-1)
	}
	if size > maxAlloc {
		m.unsupported("allocation of %d bytes", size)
	}
	o := &object{id: id, name: name, data: make([]byte, size), init: make([]bool, size), live: true}
	if initialised {
		for i := range o.init {
			o.init[i] = true
		}
	}
	m.objs = append(m.objs, o)
	return o
}

func (m *machine) allocVar(v *cfa.Var, fr *frame, decl bool) *object {
	size := m.size(v.T)
	o := m.newObject(v.QualName(), size, fr == nil)
	if fr == nil {
		m.gobj[v] = o
	} else {
		fr.obj[v] = o
	}
	if decl && fr != nil && v.T.IsScalar() {
		idx := m.used
		m.store(m.addr(o), m.input(v.T), v.T)
		if m.declIn != nil && idx < len(m.inputs) {
			m.declIn[idx] = true
			o.decl = make([]int, len(o.data))
			for i := range m.nbytes(v.T) {
				o.decl[i] = idx + 1
			}
		}
	}
	return o
}

func (m *machine) addr(o *object) uint64 { return uint64(o.id) << uint(m.offBits) }

func (m *machine) split(p uint64) (id, off uint64) {
	return p >> uint(m.offBits), p & (1<<uint(m.offBits) - 1)
}

type lvalue struct {
	v   *cfa.Var // register variable
	fr  *frame
	ptr uint64
	t   *cfa.Type
	// field, for a bit-field, is the member: its bits lie in the bytes
	// from ptr on (BitOffset, BitWidth), as the encoder reads them
	field *cfa.Field
}

// varLoc returns the location of v, declaring it implicitly exactly as the
// encoder does: memory variables on any first access in a frame, register
// variables when read (write = false) before any definition.
func (m *machine) varLoc(v *cfa.Var, write bool) lvalue {
	var fr *frame
	if !v.Global {
		fr = m.top()
		if v.Func != fr.fn.Name {
			m.unsupported("access to local %s of %s outside its function", v.Name, v.Func)
		}
	}
	if m.mem[v] {
		var o *object
		if fr == nil {
			o = m.gobj[v]
		} else {
			o = fr.obj[v]
		}
		if o == nil {
			m.decl(v)
			if fr == nil {
				o = m.gobj[v]
			} else {
				o = fr.obj[v]
			}
		}
		return lvalue{ptr: m.addr(o), t: v.T}
	}
	var ok bool
	if fr == nil {
		_, ok = m.greg[v]
	} else {
		_, ok = fr.reg[v]
	}
	if !ok && !write {
		m.decl(v)
	}
	return lvalue{v: v, fr: fr, t: v.T}
}

func (m *machine) lval(x cfa.Expr) lvalue {
	switch x := x.(type) {
	case *cfa.VarRef:
		return m.varLoc(x.Var, true)
	case *cfa.Deref:
		return lvalue{ptr: m.rval(x.X), t: x.T}
	case *cfa.Member:
		base := m.lval(x.X)
		if base.v != nil {
			m.unsupported("member of a register value %s", x)
		}
		fld := x.X.Type().Fields[x.Field]
		lv := lvalue{ptr: m.ptrAdd(base.ptr, uint64(fld.Offset), false, 1), t: x.T}
		if fld.BitWidth > 0 {
			lv.field = &fld
		}
		return lv
	case *cfa.Index:
		base := m.lval(x.X)
		if base.v != nil {
			m.unsupported("index into a register value %s", x)
		}
		at := x.X.Type()
		es := m.size(at.Elem)
		i := m.rval(x.I)
		return lvalue{ptr: m.ptrAddTyped(base.ptr, i, x.I.Type(), es), t: x.T}
	case *cfa.StringLit:
		return lvalue{ptr: m.addr(m.strObj(x)), t: x.T}
	}
	m.unsupported("lvalue %s (%T)", x, x)
	return lvalue{}
}

func (m *machine) strObj(s *cfa.StringLit) *object {
	if o, ok := m.strs[s]; ok {
		return o
	}
	o := m.newObject("string", int64(len(s.Val)+1), true)
	copy(o.data, s.Val)
	m.strs[s] = o
	return o
}

func (m *machine) funcObj(name string) *object {
	if o, ok := m.funcs[name]; ok {
		return o
	}
	o := m.newObject("func "+name, 0, true)
	o.fn = name
	m.funcs[name] = o
	return o
}

// ptrAddTyped adds idx (of integer type t) times scale bytes to p.
func (m *machine) ptrAddTyped(p, idx uint64, t *cfa.Type, scale int64) uint64 {
	if t.IsSigned() {
		return m.ptrAdd(p, uint64(cfa.SignExtend(idx, t.Width())), true, scale)
	}
	return m.ptrAdd(p, idx, false, scale)
}

// ptrAdd returns p + idx·scale bytes (idx signed or unsigned 64-bit);
// leaving the offset range [0, 2^offBits) is undefined behaviour, as in
// the encoder.
func (m *machine) ptrAdd(p, idx uint64, signed bool, scale int64) uint64 {
	id, off := m.split(p)
	lim := uint64(1) << uint(m.offBits)
	if m.wrapPtr {
		// a signed offBits-bit offset, as the encoder's
		neg := signed && int64(idx) < 0
		mag := idx
		if neg {
			mag = -idx
		}
		hi, prod := bits.Mul64(mag, uint64(scale))
		half := int64(1) << uint(m.offBits-1)
		soff := int64(off<<uint(64-m.offBits)) >> uint(64-m.offBits)
		if hi != 0 || prod >= 1<<62 {
			m.ub("pointer arithmetic out of object bounds")
		}
		n := soff + int64(prod)
		if neg {
			n = soff - int64(prod)
		}
		if n < -half || n >= half {
			m.ub("pointer arithmetic out of object bounds")
		}
		return id<<uint(m.offBits) | uint64(n)&(lim-1)
	}
	neg := signed && int64(idx) < 0
	mag := idx
	if neg {
		mag = -idx
	}
	hi, prod := bits.Mul64(mag, uint64(scale))
	var newOff uint64
	switch {
	case hi != 0 || prod >= 1<<62:
		m.ub("pointer arithmetic out of object bounds")
	case neg:
		if prod > off {
			m.ub("pointer arithmetic out of object bounds")
		}
		newOff = off - prod
	default:
		newOff = off + prod
	}
	if newOff >= lim {
		m.ub("pointer arithmetic out of object bounds")
	}
	return id<<uint(m.offBits) | newOff
}

// access checks that n bytes at p lie in a live data object.
func (m *machine) access(p uint64, n int64) (*object, int64) {
	id, off := m.split(p)
	if id == 0 {
		m.ub("invalid memory access: null pointer dereference")
	}
	if id >= uint64(len(m.objs)) {
		m.ub("invalid memory access: no object %d", id)
	}
	o := m.objs[id]
	switch {
	case o.fn != "":
		m.ub("invalid memory access: access to function %s", o.fn)
	case !o.live:
		m.ub("invalid memory access: %s is no longer live", o.name)
	case int64(off)+n > int64(len(o.data)):
		m.ub("invalid memory access: %d bytes at offset %d of %s (%d bytes)", n, off, o.name, len(o.data))
	}
	return o, int64(off)
}

func (m *machine) nbytes(t *cfa.Type) int64 {
	w := m.width(t)
	return int64((w + 7) / 8)
}

func (m *machine) load(p uint64, t *cfa.Type) uint64 {
	return m.fit(m.loadN(p, m.nbytes(t)), t)
}

// loadN reads the n ≤ 8 little-endian bytes at p.
func (m *machine) loadN(p uint64, n int64) uint64 {
	o, off := m.access(p, n)
	var v uint64
	for i := n - 1; i >= 0; i-- {
		if !o.init[off+i] {
			m.unsupported("read of uninitialised memory in %s (its value is no input)", o.name)
		}
		v = v<<8 | uint64(o.data[off+i])
	}
	m.observe(o, off, n)
	return v
}

// observe records that n bytes of o at off are read: the Decl inputs they
// still hold are observed.
func (m *machine) observe(o *object, off, n int64) {
	if o.decl == nil {
		return
	}
	for i := off; i < off+n; i++ {
		if o.decl[i] > 0 {
			m.observed[o.decl[i]-1] = true
		}
	}
}

// overwrite records that n bytes of o at off are written.
func overwrite(o *object, off, n int64) {
	if o.decl != nil {
		clear(o.decl[off : off+n])
	}
}

func (m *machine) store(p, v uint64, t *cfa.Type) { m.storeN(p, v, m.nbytes(t)) }

// storeN writes v's n ≤ 8 low bytes at p, little-endian.
func (m *machine) storeN(p, v uint64, n int64) {
	o, off := m.access(p, n)
	for i := int64(0); i < n; i++ {
		o.data[off+i] = byte(v >> (8 * uint(i)))
		o.init[off+i] = true
		delete(o.bits, off+i)
	}
	overwrite(o, off, n)
}

type block struct {
	data []byte
	init []bool
	bits map[int64]byte // object.bits, by index in the block
}

func (m *machine) readBlock(p uint64, n int64) *block {
	o, off := m.access(p, n)
	b := &block{data: make([]byte, n), init: make([]bool, n)}
	copy(b.data, o.data[off:off+n])
	copy(b.init, o.init[off:off+n])
	for i, x := range o.bits {
		if i >= off && i < off+n {
			if b.bits == nil {
				b.bits = map[int64]byte{}
			}
			b.bits[i-off] = x
		}
	}
	m.observe(o, off, n)
	return b
}

func (m *machine) writeBlock(p uint64, b *block) {
	n := int64(len(b.data))
	o, off := m.access(p, n)
	copy(o.data[off:], b.data)
	copy(o.init[off:], b.init)
	for i := range o.bits {
		if i >= off && i < off+n {
			delete(o.bits, i)
		}
	}
	for i, x := range b.bits {
		if o.bits == nil {
			o.bits = map[int64]byte{}
		}
		o.bits[off+i] = x
	}
	overwrite(o, off, n)
}

func (m *machine) copyBlock(dst, src uint64, n int64) {
	m.writeBlock(dst, m.readBlock(src, n))
}

func (m *machine) write(lv lvalue, v uint64) {
	if lv.v != nil {
		v = m.fit(v, lv.t)
		if lv.fr == nil {
			m.greg[lv.v] = v
		} else {
			lv.fr.reg[lv.v] = v
		}
		return
	}
	if lv.field != nil {
		m.storeField(lv, v)
		return
	}
	m.store(lv.ptr, v, lv.t)
}

// loadField reads the bit-field lv: its BitWidth bits at BitOffset of
// the little-endian bytes at lv.ptr, sign-extended for a signed type.
// Its own bits must be determinate (the others of its bytes need not
// be: a struct whose other bit-fields were never written).
func (m *machine) loadField(lv lvalue) uint64 {
	f := lv.field
	n := f.Bytes()
	mask := fieldMask(f)
	o, off := m.access(lv.ptr, n)
	var raw uint64
	for i := n - 1; i >= 0; i-- {
		need := byte(mask >> uint(8*i))
		if !o.init[off+i] && o.bits[off+i]&need != need {
			m.unsupported("read of uninitialised memory in %s (its value is no input)", o.name)
		}
		raw = raw<<8 | uint64(o.data[off+i])
	}
	m.observe(o, off, n)
	x := cfa.Truncate(raw>>uint(f.BitOffset), f.BitWidth)
	if lv.t.IsSigned() {
		x = uint64(cfa.SignExtend(x, f.BitWidth))
	}
	return m.fit(x, lv.t)
}

// storeField writes v's low BitWidth bits into the bit-field lv, the
// other bits of its bytes unchanged; in a byte not yet determinate its
// bits become so (object.bits), the byte once all are.
func (m *machine) storeField(lv lvalue, v uint64) {
	f := lv.field
	n := f.Bytes()
	mask := fieldMask(f)
	o, off := m.access(lv.ptr, n)
	v <<= uint(f.BitOffset)
	for i := int64(0); i < n; i++ {
		bm := byte(mask >> uint(8*i))
		o.data[off+i] = o.data[off+i]&^bm | byte(v>>uint(8*i))&bm
		if o.init[off+i] {
			continue
		}
		if o.bits == nil {
			o.bits = map[int64]byte{}
		}
		if o.bits[off+i] |= bm; o.bits[off+i] == 0xff {
			o.init[off+i] = true
			delete(o.bits, off+i)
		}
	}
}

// fieldMask is the mask of a bit-field's bits in its bytes.
func fieldMask(f *cfa.Field) uint64 {
	return cfa.Truncate(^uint64(0), f.BitWidth) << uint(f.BitOffset)
}

func (m *machine) assign(lhs, rhs cfa.Expr) {
	lt := lhs.Type()
	if lt.Kind == cfa.Float {
		m.unsupported("floating-point assignment %s = %s", lhs, rhs)
	}
	if !lt.IsScalar() {
		if k, ok := rhs.(*cfa.Const); ok {
			// the aggregate zero constant of initialisers
			if k.V != 0 {
				m.unsupported("aggregate constant %s", k)
			}
			dst := m.lval(lhs)
			n := m.size(lt)
			o, off := m.access(dst.ptr, n)
			for i := int64(0); i < n; i++ {
				o.data[off+i] = 0
				o.init[off+i] = true
			}
			overwrite(o, off, n)
			return
		}
		dst, src := m.lval(lhs), m.lval(rhs)
		m.copyBlock(dst.ptr, src.ptr, m.size(lt))
		return
	}
	v := m.convert(m.rval(rhs), rhs.Type(), lt)
	m.write(m.lval(lhs), v)
}

// convert converts a scalar between types, as the encoder does.
func (m *machine) convert(v uint64, from, to *cfa.Type) uint64 {
	m.width(from)
	m.width(to)
	fp, tp := from.Kind == cfa.Pointer, to.Kind == cfa.Pointer
	switch {
	case fp && tp:
		return v
	case fp && to.Kind == cfa.Bool:
		return csem.Convert(v, cfa.ULLType, to)
	case fp:
		if id, _ := m.split(v); id != 0 {
			m.ub("pointer-to-integer cast (the address is implementation-defined)")
			return 0
		}
		return csem.Convert(v, cfa.IntType(m.ptrBits, false), to) // NULL plus an offset, as the encoder
	case tp:
		if v != 0 && m.zeroPage {
			if u := csem.Convert(v, from, cfa.IntType(m.ptrBits, false)); u < zeroPageSize {
				return u // offset u of the null object
			}
			m.ub("integer-to-pointer cast beyond the zero page")
		}
		if v != 0 {
			m.unsupported("integer-to-pointer cast")
		}
		return 0
	}
	return csem.Convert(v, from, to)
}

func (m *machine) rval(x cfa.Expr) uint64 {
	switch x := x.(type) {
	case *cfa.Const:
		m.width(x.T)
		if x.T.Kind == cfa.Pointer && x.V != 0 {
			m.unsupported("pointer constant %s", x)
		}
		return x.V
	case *cfa.FloatConst:
		m.unsupported("floating-point constant %s", x)
	case *cfa.VarRef:
		v := x.Var
		m.width(v.T)
		lv := m.varLoc(v, false)
		if v.Volatile {
			return m.input(v.T)
		}
		if lv.v != nil {
			if lv.fr == nil {
				return m.greg[v]
			}
			return lv.fr.reg[v]
		}
		return m.load(lv.ptr, v.T)
	case *cfa.Deref, *cfa.Member, *cfa.Index:
		m.width(x.Type())
		lv := m.lval(x)
		if lv.field != nil {
			return m.loadField(lv)
		}
		return m.load(lv.ptr, x.Type())
	case *cfa.AddrOf:
		if f, ok := x.X.(*cfa.FuncRef); ok {
			return m.addr(m.funcObj(f.Name))
		}
		lv := m.lval(x.X)
		if lv.v != nil {
			m.unsupported("address of register variable %s", x.X)
		}
		if lv.field != nil {
			m.unsupported("address of bit-field %s", lv.field.Name)
		}
		return lv.ptr
	case *cfa.FuncRef:
		return m.addr(m.funcObj(x.Name))
	case *cfa.Unary:
		v := m.rval(x.X)
		m.width(x.T)
		if x.X.Type().Kind == cfa.Pointer {
			if x.Op != cfa.LNot {
				m.unsupported("operator %s on a pointer", x.Op)
			}
			if v == 0 {
				return 1
			}
			return 0
		}
		if m.detectOverflow && x.Op == cfa.Neg && csem.NegOverflow(v, x.X.Type(), x.T) {
			m.overflowed = true
		}
		return csem.Unary(x.Op, v, x.X.Type(), x.T)
	case *cfa.Binary:
		return m.binary(x)
	case *cfa.Cast:
		if p, mask, ok := cfa.MaskedPointer(x, m.ptrBits); ok {
			// as the encoder: p with every bit of the mask, NULL with none
			pv, mv := m.rval(p), csem.Convert(m.rval(mask), mask.Type(), cfa.IntType(m.ptrBits, false))
			switch {
			case mv == ^uint64(0)>>(64-uint(m.ptrBits)):
				return pv
			case mv == 0:
				return 0
			}
			m.unsupported("integer-to-pointer cast of an address masked by other than all or no bits")
		}
		return m.convert(m.rval(x.X), x.X.Type(), x.T)
	case *cfa.StringLit:
		m.unsupported("string literal %s in value position", x)
	}
	m.unsupported("expression %s (%T)", x, x)
	return 0
}

func (m *machine) elemSize(pt *cfa.Type) int64 {
	if pt.Elem == nil || pt.Elem.Kind == cfa.Void {
		return 1
	}
	if pt.Elem.Kind == cfa.Func {
		m.unsupported("arithmetic on a function pointer")
	}
	return m.size(pt.Elem)
}

func (m *machine) binary(x *cfa.Binary) uint64 {
	xt, yt := x.X.Type(), x.Y.Type()
	if x.Op == cfa.LAnd || x.Op == cfa.LOr {
		m.width(x.T)
		if csem.Truth(m.cond(x)) {
			return 1
		}
		return 0
	}
	if xt.Kind == cfa.Pointer || yt.Kind == cfa.Pointer {
		return m.pointerBinary(x)
	}
	m.width(x.T)
	l := m.rval(x.X)
	r := m.rval(x.Y)
	m.width(xt)
	m.width(yt)
	v, ub := csem.Binary(x.Op, l, r, xt, yt, x.T)
	if ub != csem.NoUB {
		m.ub("%s", ub)
	}
	if m.detectOverflow && csem.SignedOverflow(x.Op, l, r, xt, yt, x.T) {
		m.overflowed = true
	}
	return v
}

// zeroPageSize is smt.ZeroPage (the interpreter does not import smt).
const zeroPageSize = 4096

// beforeObject stops on undefined behaviour when a compared or
// subtracted pointer points before its object (a negative offset, with
// wrapPtr), as the encoder's beforeObject.
func (m *machine) beforeObject(ps ...uint64) {
	if !m.wrapPtr {
		return
	}
	for _, p := range ps {
		if _, off := m.split(p); off>>uint(m.offBits-1)&1 == 1 {
			m.ub("use of a pointer before its object")
		}
	}
}

func (m *machine) pointerBinary(x *cfa.Binary) uint64 {
	xt, yt := x.X.Type(), x.Y.Type()
	l, r := m.rval(x.X), m.rval(x.Y)
	switch {
	case x.Op == cfa.Add && xt.Kind == cfa.Pointer && yt.IsInteger():
		return m.ptrAddTyped(l, r, yt, m.elemSize(xt))
	case x.Op == cfa.Add && yt.Kind == cfa.Pointer && xt.IsInteger():
		return m.ptrAddTyped(r, l, xt, m.elemSize(yt))
	case x.Op == cfa.Sub && xt.Kind == cfa.Pointer && yt.IsInteger():
		var i int64
		if yt.IsSigned() {
			i = cfa.SignExtend(r, yt.Width())
		} else {
			if r > 1<<62 {
				m.ub("pointer arithmetic out of object bounds")
			}
			i = int64(r)
		}
		if i == -1<<63 {
			m.ub("pointer arithmetic out of object bounds")
		}
		return m.ptrAdd(l, uint64(-i), true, m.elemSize(xt))
	case x.Op == cfa.Sub && xt.Kind == cfa.Pointer && yt.Kind == cfa.Pointer:
		lid, loff := m.split(l)
		rid, roff := m.split(r)
		if lid != rid {
			m.ub("pointer subtraction across objects")
		}
		m.beforeObject(l, r)
		d := (int64(loff) - int64(roff)) / m.elemSize(xt)
		return m.convert(uint64(d), cfa.IntType(m.ptrBits, true), x.T)
	case x.Op.IsComparison() && xt.Kind == cfa.Pointer && yt.Kind == cfa.Pointer:
		if x.Op != cfa.Eq && x.Op != cfa.Ne {
			lid, _ := m.split(l)
			rid, _ := m.split(r)
			if lid != rid {
				m.ub("pointer comparison across objects")
			}
		}
		m.beforeObject(l, r)
		if (x.Op == cfa.Eq || x.Op == cfa.Ne) && m.adjoin(l, r) {
			// the replay lays objects apart, gcc may not: neither
			// result is the program's (the encoding takes either)
			m.unsupported("%s compares one past the end of an object with the start of another: the result depends on whether the two lie side by side in memory, which C leaves to the compiler (6.5.9p6)", x)
		}
		v, _ := csem.Binary(x.Op, l, r, cfa.ULLType, cfa.ULLType, x.T)
		return v
	case x.Op.IsComparison():
		if xt.Kind != cfa.Pointer {
			l = m.convert(l, xt, yt)
		} else {
			r = m.convert(r, yt, xt)
		}
		m.beforeObject(l, r)
		v, _ := csem.Binary(x.Op, l, r, cfa.ULLType, cfa.ULLType, x.T)
		return v
	}
	m.unsupported("pointer operation %s", x)
	return 0
}

// adjoin reports whether the pointers l and r, into two different data
// objects, are one past the end of one and the start of the other: one
// address when the second follows the first in memory (the encoding's
// adjoin; a heap block's start is not its end).
func (m *machine) adjoin(l, r uint64) bool {
	lid, loff := m.split(l)
	rid, roff := m.split(r)
	data := func(id uint64) *object {
		if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].fn != "" {
			return nil
		}
		return m.objs[id]
	}
	lo, ro := data(lid), data(rid)
	if lid == rid || lo == nil || ro == nil {
		return false
	}
	end := func(o *object, off uint64) bool { return off == uint64(len(o.data)) && (off != 0 || !o.heap) }
	return end(lo, loff) && roff == 0 || end(ro, roff) && loff == 0
}

// cond evaluates a condition with short-circuit && and ||.
func (m *machine) cond(x cfa.Expr) uint64 {
	if b, ok := x.(*cfa.Binary); ok && (b.Op == cfa.LAnd || b.Op == cfa.LOr) {
		l := csem.Truth(m.cond(b.X))
		if b.Op == cfa.LAnd && !l || b.Op == cfa.LOr && l {
			if l {
				return 1
			}
			return 0
		}
		if csem.Truth(m.cond(b.Y)) {
			return 1
		}
		return 0
	}
	return m.rval(x)
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

// callExtern executes a call of a function without a body: builtins, and
// other external functions returning an input value.
func (m *machine) callExtern(c *cfa.Call) {
	if c.Fn == "" {
		m.unsupported("call through a function pointer to a function without a body")
	}
	arg := func(i int) uint64 {
		if i >= len(c.Args) {
			m.unsupported("%s called with %d arguments", c.Fn, len(c.Args))
		}
		return m.rval(c.Args[i])
	}
	setResult := func(v uint64, t *cfa.Type) {
		if c.Result == nil {
			return
		}
		lv := m.lval(c.Result)
		m.write(lv, m.convert(v, t, lv.t))
	}
	ptrT := cfa.PointerTo(cfa.VoidType, m.ptrBits)
	sizeT := cfa.IntType(m.ptrBits, false)
	if name, ok := cfa.EnvName(m.p, c); ok {
		arg(0)
		setResult(m.getenv(name), ptrT)
		return
	}
	switch {
	case strings.HasPrefix(c.Fn, "__VERIFIER_nondet_"):
		if c.Result == nil {
			return
		}
		lv := m.lval(c.Result)
		if lv.t.Kind == cfa.Pointer {
			m.unsupported("nondeterministic pointer from %s", c.Fn)
		}
		m.write(lv, m.input(lv.t))
		return
	case IsErrorFunction(c.Fn) || c.Fn == "abort" || c.Fn == "exit" || c.Fn == "_exit" || c.Fn == "__builtin_trap":
		for i := range c.Args {
			arg(i)
		}
		if IsErrorFunction(c.Fn) {
			m.errorCall = true
		}
		return
	case c.Fn == "__VERIFIER_assume":
		if !csem.Truth(arg(0)) {
			m.assumeFailed = true
		}
		return
	case c.Fn == "malloc" || c.Fn == "calloc" || c.Fn == "alloca" || c.Fn == "__builtin_alloca":
		var size uint64
		zero := c.Fn == "calloc"
		if zero {
			n := m.convert(arg(0), c.Args[0].Type(), sizeT)
			k := m.convert(arg(1), c.Args[1].Type(), sizeT)
			hi, lo := bits.Mul64(n, k)
			if hi != 0 || lo >= 1<<uint(m.offBits) {
				m.ub("allocation too large for the memory model")
			}
			size = lo
		} else {
			size = m.convert(arg(0), c.Args[0].Type(), sizeT)
			if size >= 1<<uint(m.offBits) {
				m.ub("allocation too large for the memory model")
			}
		}
		o := m.newObject(fmt.Sprintf("%s block", c.Fn), int64(size), zero)
		m.allocs++
		if init := m.heapInit[m.allocs]; !zero && init != nil {
			for i := range o.data {
				if i < len(init) {
					o.data[i], o.init[i] = init[i], true
				}
			}
		}
		o.heap = c.Fn == "malloc" || c.Fn == "calloc"
		if !o.heap {
			m.top().allocas = append(m.top().allocas, o)
		}
		setResult(m.addr(o), ptrT)
		return
	case c.Fn == "free":
		p := arg(0)
		if p == 0 {
			return
		}
		id, off := m.split(p)
		if id >= uint64(len(m.objs)) || !m.objs[id].heap || !m.objs[id].live || off != 0 {
			m.ub("invalid free")
		}
		m.objs[id].live = false
		return
	case c.Fn == "memset":
		p := arg(0)
		ch := byte(m.convert(arg(1), c.Args[1].Type(), cfa.IntT))
		n := m.convert(arg(2), c.Args[2].Type(), sizeT)
		if n > 0 {
			o, off := m.access(p, int64(min(n, 1<<62)))
			for i := int64(0); i < int64(n); i++ {
				o.data[off+i] = ch
				o.init[off+i] = true
			}
			overwrite(o, off, int64(n))
		}
		setResult(p, ptrT)
		return
	case c.Fn == "memcpy" || c.Fn == "memmove":
		d, s := arg(0), arg(1)
		n := m.convert(arg(2), c.Args[2].Type(), sizeT)
		if n > 0 {
			if n >= 1<<uint(m.offBits) {
				m.ub("invalid memory access: %s of %d bytes", c.Fn, n)
			}
			m.copyBlock(d, s, int64(n))
		}
		setResult(d, ptrT)
		return
	case c.Fn == "strlen":
		p := arg(0)
		n := uint64(0)
		for {
			if m.load(m.ptrAdd(p, n, false, 1), cfa.CharType) == 0 {
				break
			}
			n++
		}
		setResult(n, sizeT)
		return
	case c.Fn == "abs" || c.Fn == "labs" || c.Fn == "llabs":
		x := arg(0)
		t := c.Args[0].Type()
		if cfa.SignExtend(x, t.Width()) < 0 {
			x = cfa.Truncate(-x, t.Width())
		}
		setResult(x, t)
		return
	}
	if m.libModel(c, arg, setResult) {
		return
	}
	if cfa.Uninterpreted(c.Fn) {
		m.uninterpreted(c, arg) // cbmc_havoc.go
		return
	}
	switch m.p.Extern(c.Fn) {
	case cfa.ExternNoEffect, cfa.ExternPure:
		// writes nothing the program reads: evaluate scalar arguments
		for i, a := range c.Args {
			if a.Type().IsScalar() {
				arg(i)
			}
		}
	default:
		m.envChanged = true
		if m.unmodelledMayWrite() {
			m.unsupported("unmodelled %s may write memory whose new contents the replay cannot know", c.Fn)
		}
		for i, a := range c.Args {
			if a.Type().Kind == cfa.Pointer || !a.Type().IsScalar() {
				m.unsupported("call of external function %s with a pointer or aggregate argument %d", c.Fn, i+1)
			}
			arg(i)
		}
	}
	if c.Result == nil {
		return
	}
	lv := m.lval(c.Result)
	if lv.t.Kind == cfa.Pointer || !lv.t.IsScalar() {
		m.unsupported("external function %s returning a pointer or aggregate", c.Fn)
	}
	m.write(lv, m.input(lv.t))
}
