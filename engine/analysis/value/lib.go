package value

import (
	"strings"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// callExternal handles an Intra step over a Call edge: a function without
// a body (modelled, or havocked as unmodelled), or a call through a
// pointer to such a function.
func (t *tx) callExternal(e *cfa.Edge, call *cfa.Call) bool {
	name := call.Fn
	if call.FnPtr != nil {
		v, ok := t.eval(call.FnPtr)
		switch {
		case ok && memory.ObjKind(v.Obj) == memory.KindFunc && v.Bits == 0:
			name = t.c.funcNames[uint32(v.Obj)]
			if t.c.prog.Func(name) != nil {
				return false // an Enter step covers it
			}
		case ok:
			return false // not a function: undefined behaviour
		default:
			if !t.c.extAddr {
				return false // only functions with bodies can be pointed to
			}
			t.unmodelled(e, call, "(*"+call.FnPtr.String()+")")
			return true
		}
	}
	if cfa.MemoryQueries[name] != 0 {
		t.memoryQuery(call)
		return true
	}
	if name == cfa.HavocObject {
		t.havocObject(e, call) // lib_cbmc.go
		return true
	}
	if name == cfa.HavocSlice {
		t.havocSlice(e, call) // lib_cbmc.go
		return true
	}
	switch t.c.prog.Extern(name) {
	case cfa.ExternNoEffect:
		t.setResult(call, memory.Value{}, false)
		return true
	case cfa.ExternNondet:
		if !t.input(call.Result, inputLabel(name)) {
			t.setResult(call, memory.Value{}, false)
		}
		return true
	case cfa.ExternAssume:
		if len(call.Args) == 1 {
			return t.assume(call.Args[0], true)
		}
	case cfa.ExternPure:
		// Declared side-effect-free: writes nothing, any result.
		if !t.input(call.Result, "extern "+name) {
			t.setResult(call, memory.Value{}, false)
		}
		return true
	}
	if m, ok := libModels[name]; ok {
		return m(t, e, call)
	}
	if _, ok := cfa.EnvName(t.c.prog, call); ok {
		// getenv of a literal name: writes nothing; its result is NULL
		// or a string outside the program's objects, read as unknown
		// values (as main's argv), so a path through it may be a
		// counterexample (the SMT encoding and the replay model it)
		t.setResult(call, memory.Value{}, false)
		return true
	}
	t.unmodelled(e, call, name)
	return true
}

// setResult stores the call's result (if it has a result lvalue).
func (t *tx) setResult(call *cfa.Call, v memory.Value, known bool) {
	if call.Result == nil {
		return
	}
	if isAggregate(call.Result.Type()) {
		t.havocLvalue(call.Result)
		return
	}
	t.store(t.addrOf(call.Result), call.Result.Type(), v, known)
}

// unmodelled havocs what a function without a body may change
// (cfa.ExternUnmodelled): its result, every object of static storage
// duration, every address-taken variable of every frame
// (cfa.UnmodelledWrites: its address may have escaped at this or an
// earlier call) and every heap block. The state records "unmodelled
// name", which forbids FALSE, and, when the program takes the address of
// functions with a body, "callback: …", which forbids TRUE (callbacks
// are not modelled).
func (t *tx) unmodelled(e *cfa.Edge, call *cfa.Call, name string) {
	t.reason(cpa.Explanation{Kind: cpa.Unmodelled, Name: name})
	if len(t.c.escaped) > 0 {
		t.reason(cpa.Explanation{Kind: cpa.Callback, Name: name, Text: strings.Join(t.c.escaped, ", ")})
	}
	t.s.mem = t.s.mem.Filter(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal:
			return false
		case memory.KindLocal:
			return !cfa.UnmodelledWrites(t.c.prog.Vars[memory.VarID(n.Obj)])
		case memory.KindString:
			return true
		}
		return false
	})
	if !t.input(call.Result, "extern "+name) {
		t.setResult(call, memory.Value{}, false)
	}
}

type libModel func(t *tx, e *cfa.Edge, call *cfa.Call) bool

var libModels map[string]libModel

func init() {
	libModels = map[string]libModel{
		"memset":  memset,
		"memcpy":  memmove,
		"memmove": memmove,
		"strlen":  strlen,
		"strcmp":  strcmp,
		"strncmp": compareModel,
		"memcmp":  compareModel,
		"strcpy":  strcpyModel,
		"strncpy": strcpyModel,
		"strchr":  strchrModel,
		"toupper": ctypeModel, "tolower": ctypeModel, "isdigit": ctypeModel, "isalpha": ctypeModel,
		"isalnum": ctypeModel, "isspace": ctypeModel, "isupper": ctypeModel, "islower": ctypeModel,
		"isxdigit": ctypeModel, "isprint": ctypeModel,
		"abs":    absModel,
		"labs":   absModel,
		"llabs":  absModel,
		"malloc": malloc,
		"calloc": malloc,
		"free":   free,
		// alloca (also the front end's variable-length arrays): a block
		// like malloc's, which never fails.
		"alloca":           malloc,
		"__builtin_alloca": malloc,
	}
}

// argInt evaluates argument i as an integer (int64 by its type).
func (t *tx) argInt(call *cfa.Call, i int) (int64, bool) {
	if i >= len(call.Args) {
		return 0, false
	}
	v, ok := t.eval(call.Args[i])
	if !conc(v, ok) || v.Obj != 0 {
		return 0, false
	}
	return IntOf(v, call.Args[i].Type()), true
}

// argAddr evaluates argument i as a pointer.
func (t *tx) argAddr(call *cfa.Call, i int) (Addr, memory.Value, bool) {
	if i >= len(call.Args) {
		return Addr{}, memory.Value{}, false
	}
	v, ok := t.eval(call.Args[i])
	if ok && memory.ObjKind(v.Obj) == memory.KindSeg {
		v, ok = t.segDeref(v) // materialise a list segment (lists.go)
	}
	if !ok {
		return Addr{}, memory.Value{}, false
	}
	if v.Obj == 0 || memory.ObjKind(v.Obj) == memory.KindFunc {
		return Addr{}, v, true
	}
	if v.Sym != nil {
		return symAddr(v), v, true // a symbolic offset (symbolic mode)
	}
	return Addr{Obj: v.Obj, Off: memory.Sext(v.Bits, t.c.ptr), Known: true, OffKnown: true}, v, true
}

// havocPointee forgets what a pointer argument may point to: the object
// when known, every addressable object otherwise.
func (t *tx) havocPointee(a Addr) {
	if a.Known {
		t.clearObj(a.Obj)
		return
	}
	t.havocAddressable()
}

// memset(p, c, n): n bytes of p become (unsigned char)c; result p.
func memset(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	a, pv, pok := t.argAddr(call, 0)
	c, cok := t.argInt(call, 1)
	by := memory.Value{Bits: uint64(c) & 0xff}
	if !cok && t.c.sym != nil && len(call.Args) > 1 {
		if v, ok := t.eval(call.Args[1]); ok && v.Sym != nil {
			by, cok = t.byteOf(v, 0), true // symbolic mode: (unsigned char)c
		}
	}
	n, nok := t.argInt(call, 2)
	switch {
	case !pok || !a.Known:
		t.havocAddressable()
	case !nok || !a.OffKnown:
		// a symbolic length or offset (symbolic mode), else forgotten
		if !cok || t.c.sym == nil || !t.c.sym.Fill(Tx{t}, call, a, Addr{}, by) {
			t.clearObj(a.Obj)
		}
	case n < 0 || n > int64(t.c.opts.MaxBlockBytes):
		t.clearObj(a.Obj)
	default:
		t.clearRange(a.Obj, a.Off, n)
		if cok && t.tracked(a.Obj) {
			for i := int64(0); i < n; i++ {
				t.s.mem = t.s.mem.Put(a.Obj, a.Off+i, by, 1)
			}
		}
	}
	t.setResult(call, pv, pok)
	return true
}

// memmove(d, s, n) and memcpy: copy n bytes (cells within the source
// range keep pointer values); result d.
func memmove(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	d, dv, dok := t.argAddr(call, 0)
	s, _, sok := t.argAddr(call, 1)
	n, nok := t.argInt(call, 2)
	switch {
	case !dok || !d.Known:
		t.havocAddressable()
	case (!nok || !d.OffKnown || !s.OffKnown) && sok && s.Known:
		// a symbolic length or offset (symbolic mode), else forgotten
		if t.c.sym == nil || !t.c.sym.Fill(Tx{t}, call, d, s, memory.Value{}) {
			t.clearObj(d.Obj)
		}
	case !nok || n < 0 || n > int64(t.c.opts.MaxBlockBytes) || !sok || !s.Known || !d.OffKnown:
		t.clearObj(d.Obj)
	default:
		cells := t.cellsIn(s, n)
		// Bytes of the source covered only partially by a cell are
		// unknown in the copy; cellsIn already skips such cells.
		t.writeCells(d, cells, n)
	}
	t.setResult(call, dv, dok)
	return true
}

// readCString reads the bytes of a NUL-terminated string at a (without
// the NUL); ok is false if some byte is unknown or the string is longer
// than limit.
func (t *tx) readCString(a Addr, limit int) ([]byte, bool) {
	if !a.Known || !a.OffKnown {
		return nil, false
	}
	var out []byte
	for i := 0; i <= limit; i++ {
		b, ok := t.loadByte(a.Obj, a.Off+int64(i))
		if !ok {
			return nil, false
		}
		if b == 0 {
			return out, true
		}
		out = append(out, byte(b))
	}
	return nil, false
}

// strlen(s): concrete when every byte up to the NUL is known.
func strlen(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	a, _, _ := t.argAddr(call, 0)
	s, ok := t.readCString(a, t.c.opts.MaxBlockBytes)
	t.setResult(call, memory.Value{Bits: uint64(len(s))}, ok)
	return true
}

// strcmp(a, b): 0 when both strings are known and equal; unknown
// otherwise (the sign is all C fixes, not the value).
func strcmp(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	a, _, _ := t.argAddr(call, 0)
	b, _, _ := t.argAddr(call, 1)
	x, xok := t.readCString(a, t.c.opts.MaxBlockBytes)
	y, yok := t.readCString(b, t.c.opts.MaxBlockBytes)
	t.setResult(call, memory.Value{}, xok && yok && string(x) == string(y))
	return true
}

// abs, labs, llabs: |x| with wrap-around (abs(INT_MIN) == INT_MIN).
func absModel(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	if len(call.Args) != 1 {
		t.unmodelled(e, call, call.Fn)
		return true
	}
	if x, ok := t.eval(call.Args[0]); ok && x.Sym != nil {
		// |x| symbolically: ite(x < 0, -x, x), wrapping at the minimum.
		at := call.Args[0].Type()
		if !TermType(at) || !at.IsSigned() {
			t.unmodelled(e, call, call.Fn)
			return true
		}
		r := t.c.sym.Abs(x)
		if call.Result != nil {
			rv, ok := t.c.sym.Convert(r, at, call.Result.Type())
			t.setResult(call, rv, ok)
		}
		return true
	}
	v, ok := t.argInt(call, 0)
	if v < 0 {
		v = -v
	}
	t.setResult(call, memory.Value{Bits: uint64(v) & memory.Mask(call.Args[0].Type().Width())}, ok)
	return true
}

// malloc(n), calloc(m, n), alloca(n): a fresh heap block named by the
// call site and the allocation count; calloc's block is zeroed (up to
// MaxBlockBytes). With MallocMayFail a second successor of malloc and
// calloc gets NULL.
func malloc(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	if t.c.opts.MallocMayFail && call.Fn != "alloca" && call.Fn != "__builtin_alloca" {
		alt := *t
		alt.s.reasons = t.s.reasons
		alt.setResult(call, memory.Value{}, true)
		if !alt.full && !alt.uniform {
			alt.abstract()
		}
		st := alt.s
		t.alt = &st
		t.altAssumed = t.assumed
	}
	obj := memory.HeapObj(e.ID, t.s.allocs)
	t.s.allocs++
	t.clearObj(obj)
	if t.c.opts.Memory != nil {
		t.memAlloc(call, obj)
	}
	if call.Fn == "calloc" {
		m, mok := t.argInt(call, 0)
		n, nok := t.argInt(call, 1)
		if mok && nok && m >= 0 && n >= 0 && m*n <= int64(t.c.opts.MaxBlockBytes) && t.tracked(obj) {
			for i := int64(0); i < m*n; i++ {
				t.s.mem = t.s.mem.Put(obj, i, memory.Value{}, 1)
			}
		}
	}
	t.setResult(call, memory.Value{Obj: obj}, true)
	return true
}

// free(p): no effect, except with Options.Memory (memFree: the block
// becomes freed, invalid frees are violations).
func free(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	if t.c.opts.Memory != nil {
		t.memFree(e, call)
	}
	return true
}

// readCStringN reads the string at a up to its NUL or n bytes (without
// the NUL); ok is false if some byte read is unknown.
func (t *tx) readCStringN(a Addr, n int64) ([]byte, bool) {
	if !a.Known || !a.OffKnown {
		return nil, false
	}
	var out []byte
	for i := int64(0); i < n; i++ {
		b, ok := t.loadByte(a.Obj, a.Off+i)
		if !ok {
			return nil, false
		}
		if b == 0 {
			break
		}
		out = append(out, byte(b))
	}
	return out, true
}

// writeBytes stores the bytes bs at a (a known, offset known, tracked).
func (t *tx) writeBytes(a Addr, bs []byte) {
	t.clearRange(a.Obj, a.Off, int64(len(bs)))
	if !t.tracked(a.Obj) {
		return
	}
	for i, b := range bs {
		t.s.mem = t.s.mem.Put(a.Obj, a.Off+int64(i), memory.Value{Bits: uint64(b)}, 1)
	}
}

// strcpyModel: strcpy(d, s) and strncpy(d, s, n) copy the string (strncpy:
// n bytes, padded with NUL) when s's bytes and n are known; otherwise d's
// object (every addressable object for an unknown d) is forgotten.
func strcpyModel(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	d, dv, dok := t.argAddr(call, 0)
	s, _, _ := t.argAddr(call, 1)
	var bs []byte
	ok := false
	if call.Fn == "strcpy" {
		if str, sok := t.readCString(s, t.c.opts.MaxBlockBytes); sok {
			bs, ok = append(str, 0), true
		}
	} else if n, nok := t.argInt(call, 2); nok && n >= 0 && n <= int64(t.c.opts.MaxBlockBytes) {
		if str, sok := t.readCStringN(s, n); sok {
			bs, ok = make([]byte, n), true
			copy(bs, str)
		}
	}
	switch {
	case !dok || !d.Known:
		t.havocAddressable()
	case !ok || !d.OffKnown || (s.Known && s.Obj == d.Obj):
		t.clearObj(d.Obj)
	default:
		t.writeBytes(d, bs)
	}
	t.setResult(call, dv, dok)
	return true
}

// compareModel: strncmp(a, b, n) and memcmp(a, b, n) are 0 when the
// compared bytes are known and equal; unknown otherwise (C fixes only
// the sign).
func compareModel(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	a, _, _ := t.argAddr(call, 0)
	b, _, _ := t.argAddr(call, 1)
	n, nok := t.argInt(call, 2)
	equal := false
	if nok && n >= 0 && n <= int64(t.c.opts.MaxBlockBytes) {
		if call.Fn == "strncmp" {
			x, xok := t.readCStringN(a, n)
			y, yok := t.readCStringN(b, n)
			equal = xok && yok && string(x) == string(y)
		} else {
			equal = true
			for i := int64(0); i < n && equal; i++ {
				if !a.Known || !a.OffKnown || !b.Known || !b.OffKnown {
					equal = false
					break
				}
				x, xok := t.loadByte(a.Obj, a.Off+i)
				y, yok := t.loadByte(b.Obj, b.Off+i)
				equal = xok && yok && x == y
			}
		}
	}
	t.setResult(call, memory.Value{}, equal)
	return true
}

// strchrModel: strchr(s, c) points to the first (char)c in s (the NUL
// for c == 0) or is NULL, when s's bytes and c are known.
func strchrModel(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	s, _, _ := t.argAddr(call, 0)
	c, cok := t.argInt(call, 1)
	str, sok := t.readCString(s, t.c.opts.MaxBlockBytes)
	if !cok || !sok {
		t.setResult(call, memory.Value{}, false)
		return true
	}
	ch := byte(c)
	for i := 0; i <= len(str); i++ {
		b := byte(0)
		if i < len(str) {
			b = str[i]
		}
		if b == ch {
			t.setResult(call, memory.Value{Obj: s.Obj, Bits: uint64(s.Off+int64(i)) & memory.Mask(t.c.ptr)}, true)
			return true
		}
	}
	t.setResult(call, memory.Value{}, true)
	return true
}

// ctypeModel: toupper, tolower and the classification functions
// (isdigit, …) give cfa.CtypeValue on a known argument; unknown otherwise
// (also outside EOF and unsigned char, which is undefined).
func ctypeModel(t *tx, e *cfa.Edge, call *cfa.Call) bool {
	x, ok := t.argInt(call, 0)
	v, vok := cfa.CtypeValue(call.Fn, x)
	t.setResult(call, memory.Value{Bits: uint64(v) & memory.Mask(32)}, ok && vok)
	return true
}

// memoryQuery evaluates one of CBMC's memory primitives
// (cfa.MemoryQueries) where the state decides it, and otherwise gives its
// result any value (an input in symbolic mode), never a guessed one:
//   - r_ok, w_ok, rw_ok(p, n): 0 for NULL; for a known pointer with a
//     known offset and a known n, whether the object is valid and
//     0 <= offset and offset + n <= size, for globals, string literals
//     (r_ok only) and, with Options.Memory (which tracks lifetimes),
//     locals and heap blocks of known status and size (freed and dead
//     ones are invalid);
//   - same_object(p, q): for two known pointers to NULL, globals, string
//     literals, functions or (with Options.Memory) locals and live heap
//     blocks, whether the objects are equal;
//   - POINTER_OFFSET(p): the offset of a known pointer to an object or
//     NULL;
//   - POINTER_OBJECT(p): 0 for NULL (CBMC numbers the other objects).
func (t *tx) memoryQuery(call *cfa.Call) {
	r, ok := t.memoryQueryValue(call)
	if ok {
		t.setResult(call, memory.Value{Bits: cfa.Truncate(r, call.Result.Type().Width())}, true)
		return
	}
	if t.c.sym != nil {
		if v, ok := t.c.sym.MemoryQuery(Tx{t}, call); ok {
			t.setResult(call, v, true) // a symbolic offset or length
			return
		}
	}
	if !t.input(call.Result, "extern "+call.Fn) {
		t.setResult(call, memory.Value{}, false)
	}
}

// memoryQueryValue is memoryQuery's exact result, if the state decides it.
func (t *tx) memoryQueryValue(call *cfa.Call) (uint64, bool) {
	if call.Result == nil || len(call.Args) != cfa.MemoryQueries[call.Fn] {
		return 0, false
	}
	ptr := func(i int) (memory.Value, bool) {
		v, ok := t.eval(call.Args[i])
		if !conc(v, ok) || v.Obj == 0 && v.Bits != 0 {
			return memory.Value{}, false // unknown, or an integer address
		}
		return v, true
	}
	p, ok := ptr(0)
	if !ok {
		return 0, false
	}
	switch call.Fn {
	case "__CPROVER_POINTER_OBJECT":
		return 0, p.Obj == 0
	case "__CPROVER_POINTER_OFFSET":
		return p.Bits, true
	case "__CPROVER_same_object":
		q, ok := ptr(1)
		if !ok || !t.identifiable(p.Obj) || !t.identifiable(q.Obj) {
			return 0, false
		}
		return b2u(p.Obj == q.Obj), true
	}
	nv, ok := t.eval(call.Args[1])
	if !conc(nv, ok) || nv.Obj != 0 {
		return 0, false
	}
	if p.Obj == 0 {
		return 0, true // NULL
	}
	size, valid, known := t.querySize(p.Obj, call.Fn == "__CPROVER_r_ok")
	switch {
	case !known:
		return 0, false
	case !valid:
		return 0, true
	}
	off, n := memory.Sext(p.Bits, t.c.ptr), nv.Bits
	return b2u(off >= 0 && off <= size && n <= uint64(size-off)), true
}

// identifiable reports whether distinct object encodings of obj's kind
// are distinct objects of the execution and equal ones the same object.
func (t *tx) identifiable(obj uint64) bool {
	switch memory.ObjKind(obj) {
	case memory.KindNone, memory.KindGlobal, memory.KindString, memory.KindFunc:
		return true
	case memory.KindLocal:
		return t.mem() != nil && memory.FrameOf(obj) <= t.s.depth
	case memory.KindHeap:
		if t.mem() == nil || int(obj>>32)&0x1fffffff == memory.DeadSite {
			return false
		}
		st, ok := t.metaGet(obj, memory.MetaStatus)
		return ok && (st == memory.StHeap || st >= memory.StAlloca)
	}
	return false
}

// querySize returns the size in bytes of the data object obj and whether
// it is valid, when the state knows both (known); readOnly admits string
// literals.
func (t *tx) querySize(obj uint64, readOnly bool) (size int64, valid, known bool) {
	switch memory.ObjKind(obj) {
	case memory.KindGlobal:
		size := t.c.prog.Vars[memory.VarID(obj)].T.Size
		return size, true, size > 0 // not an array of unknown size
	case memory.KindString:
		return int64(len(t.c.strVals[uint32(obj)])) + 1, true, readOnly
	case memory.KindFunc:
		return 0, false, true
	case memory.KindLocal:
		if t.mem() == nil || memory.FrameOf(obj) > t.s.depth {
			return 0, false, false
		}
		size := t.c.prog.Vars[memory.VarID(obj)].T.Size
		return size, true, size > 0
	case memory.KindHeap:
		if t.mem() == nil {
			return 0, false, false
		}
		st, ok := t.metaGet(obj, memory.MetaStatus)
		switch {
		case !ok:
			return 0, false, false
		case st == memory.StFreed || st == memory.StDead:
			return 0, false, true
		case st != memory.StHeap && st < memory.StAlloca:
			return 0, false, false
		}
		sz, ok := t.metaGet(obj, memory.MetaSize)
		return int64(sz), true, ok
	}
	return 0, false, false
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
