package value

import (
	"fmt"
	"sync"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/graph"
	"github.com/reverify/reverify/results"
)

// MemChecks select the memory-safety checks of the value analysis
// (Options.Memory; SV-COMP's MemSafety subproperties, seed 001,
// sections 3.9–3.10: objects with sizes and validity).
//
// With Options.Memory set, every heap block carries metadata (its size
// in bytes, known or unknown, and its status: allocated, freed, alloca
// of a frame, dead), stored as cells of a metadata object beside the
// block, so that join and coverage treat them like any value (absent
// means unknown). Each step is checked before it runs (Deref: every
// memory access of its expressions, lvalue and rvalue, and the ranges
// the library models read and write; Free: the argument of free) and
// after (Memtrack: an allocated block no longer reachable from globals
// and live frames through known pointer cells; Memcleanup: an allocated
// block at the entry function's exit or at exit()). A check that fails
// for certain makes the successor a target (State.IsTarget) carrying the
// reason "memory violation: <property>: <what> at <file:line>"; a check
// that cannot be decided (unknown pointer, offset, size or status)
// records "memory: cannot prove <property> at <file:line>: <why>",
// which forbids TRUE. Pointers into a frame that is left become pointers
// to a dead object (a metadata status), so dangling accesses are
// violations too.
type MemChecks struct {
	Deref, Free, Memtrack, Memcleanup bool
	// Entry is the entry function: its exit (at depth 0) is the end of
	// the program, where its locals die.
	Entry string
	// Undecided, when not nil, is called with every check that could not
	// be decided, as it is made (a superset of the "memory: cannot prove"
	// reasons of the states kept): the property, the edge of the step
	// (the access site) and why. The engine attributes these to per-site
	// properties. Calls come from the goroutine running the analysis.
	Undecided func(prop string, e *cfa.Edge, why string)
}

// Memory-safety property names (SV-COMP's valid-memsafety.prp and
// valid-memcleanup.prp).
const (
	ValidDeref      = "valid-deref"
	ValidFree       = "valid-free"
	ValidMemtrack   = "valid-memtrack"
	ValidMemcleanup = "valid-memcleanup"
)

// IsTarget reports whether the state violates a memory property
// (cpa.Targetable; only with Options.Memory).
func (s *State) IsTarget() bool {
	_, _, ok := s.MemoryViolation()
	return ok
}

// MemoryViolation returns the violated memory property ("valid-deref",
// …) and the violation's description with its position, if the state
// violates one.
func (s *State) MemoryViolation() (prop, detail string, ok bool) {
	for _, r := range s.reasons {
		if r.Kind == cpa.MemViolation {
			return r.Name, r.Text + " at " + r.At, true
		}
	}
	return "", "", false
}

// MemoryViolations returns every memory violation of the state (one step
// may violate several properties, or one at several accesses): the
// properties, descriptions and typed facts (Problem OtherViolation where
// none was recorded; Detail the description without its position), in
// the order of MemoryViolation.
func (s *State) MemoryViolations() (props, details []string, facts []*results.MemoryViolation) {
	for _, r := range s.reasons {
		if r.Kind == cpa.MemViolation {
			props, details = append(props, r.Name), append(details, r.Text+" at "+r.At)
			f := &results.MemoryViolation{Problem: results.OtherViolation}
			if m, ok := r.Data.(results.MemoryViolation); ok {
				f = &m
			}
			f.Detail = r.Text
			facts = append(facts, f)
		}
	}
	return props, details, facts
}

func (t *tx) mem() *MemChecks { return t.c.opts.Memory }

// violation records that the step e violates the memory property prop:
// what it did as a typed fact f (its Object and allocation site filled
// by object) and in words (format, args).
func (t *tx) violation(prop string, e *cfa.Edge, f results.MemoryViolation, format string, args ...any) {
	t.reason(cpa.Explanation{Kind: cpa.MemViolation, Name: prop, Text: fmt.Sprintf(format, args...), At: posString(e), Data: f})
}

// object fills f's Object with the name of obj and, for a heap block,
// where it is allocated: its allocation site is the ID of the edge that
// allocates it (memory.HeapObj), unless it stands for a dead local or a block
// of an abstracted list.
func (t *tx) object(f results.MemoryViolation, obj uint64) results.MemoryViolation {
	f.Object = t.c.objName(obj, t.s.depth)
	if memory.ObjKind(obj) != memory.KindHeap {
		return f
	}
	site := int((obj >> 32) & 0x1fffffff)
	if site == memory.DeadSite || site < 0 || site >= len(t.c.prog.Edges) {
		return f
	}
	e := t.c.prog.Edges[site]
	if c, ok := e.Op.(*cfa.Call); ok && e.Pos.Start.Line > 0 {
		f.AllocFile, f.AllocLine, f.AllocFunc = e.Pos.Start.File, e.Pos.Start.Line, c.Fn
	}
	return f
}

// Undecided says why the value analysis left a memory check undecided
// where its value alone is missing, the Data of the check's
// cpa.MemUndecided explanation (nil for any other reason): the
// memory-safety driver (engine/memsafety) probes these checks with the
// bit-precise encoding, which knows what the analysis lost.
type Undecided uint8

// The reasons of Undecided.
const (
	// UnknownPointer: the analysis does not know the pointer's value.
	UnknownPointer Undecided = iota + 1
	// UnknownValidity: it does not know whether the block is valid.
	UnknownValidity
	// IntegerAddress: the access goes through an integer address.
	IntegerAddress
)

// memUnknown reports the check prop at e undecided, for the reason
// format and args say.
func (t *tx) memUnknown(prop string, e *cfa.Edge, format string, args ...any) {
	t.memUnknownAs(0, prop, e, format, args...)
}

// memUnknownAs is memUnknown with a typed reason (Undecided; 0: none)
// that a probe may act on.
func (t *tx) memUnknownAs(cause Undecided, prop string, e *cfa.Edge, format string, args ...any) {
	var data any
	if cause != 0 {
		data = cause
	}
	why := fmt.Sprintf(format, args...)
	t.reason(cpa.Explanation{Kind: cpa.MemUndecided, Name: prop, Text: why, At: posString(e), Data: data})
	if f := t.mem().Undecided; f != nil {
		if t.split != 0 {
			// The step dereferenced a segment that needs a case split:
			// splitting reruns it on both cases and drops this transfer,
			// unless the splits are exhausted (then flushUndecided).
			t.undecided = append(t.undecided, func() { f(prop, e, why) })
			return
		}
		f(prop, e, why)
	}
}

// flushUndecided reports the undecided checks held back while a case
// split was pending (memUnknown), when the transfer is kept after all.
func (t *tx) flushUndecided() {
	for _, f := range t.undecided {
		f()
	}
	t.undecided = nil
}

func (t *tx) metaGet(heap uint64, off int64) (uint64, bool) { return t.s.mem.MetaGet(heap, off) }

func (t *tx) metaSet(heap uint64, off int64, v uint64) { t.s.mem = t.s.mem.MetaPut(heap, off, v) }

// memAlloc records the size and status of a block malloc, calloc or
// alloca just created.
func (t *tx) memAlloc(call *cfa.Call, obj uint64) {
	var size int64
	ok := false
	switch call.Fn {
	case "calloc":
		m, mok := t.argInt(call, 0)
		n, nok := t.argInt(call, 1)
		if mok && nok && m >= 0 && n >= 0 && (m == 0 || n <= 1<<40/m) {
			size, ok = m*n, true
		}
	default:
		n, nok := t.argInt(call, 0)
		if nok && len(call.Args) > 0 {
			size, ok = int64(uint64(n)&memory.Mask(call.Args[0].Type().Width())), nok
		}
	}
	if ok && size >= 0 {
		t.metaSet(obj, memory.MetaSize, uint64(size))
	} else if t.c.sym != nil {
		if sz := t.c.sym.AllocSize(Tx{t}, call); sz != nil {
			t.s.mem = t.s.mem.Put(memory.MetaObj(obj), memory.MetaSize, memory.Value{Sym: sz}, 8)
		}
	}
	st := uint64(memory.StHeap)
	if call.Fn == "alloca" || call.Fn == "__builtin_alloca" {
		st = memory.StAlloca + uint64(t.s.depth)
	}
	t.metaSet(obj, memory.MetaStatus, st)
}

// memFree checks and performs free(p).
func (t *tx) memFree(e *cfa.Edge, call *cfa.Call) {
	check := t.mem().Free
	if len(call.Args) != 1 {
		return
	}
	v, ok := t.eval(call.Args[0])
	if !conc(v, ok) {
		if check {
			t.memUnknownAs(UnknownPointer, ValidFree, e, "unknown pointer %s", call.Args[0])
		}
		t.forgetStatuses()
		return
	}
	if v.Obj == 0 {
		if v.Bits != 0 && check {
			t.violation(ValidFree, e, results.MemoryViolation{Problem: results.InvalidFree, Address: v.Bits}, "free of the non-pointer %#x", v.Bits)
		}
		return // free(NULL) does nothing
	}
	if memory.ObjKind(v.Obj) == memory.KindSeg {
		// The first (last) block of a list segment: materialise it.
		if mv, mok := t.segDeref(v); mok {
			v = mv
		} else {
			if check {
				t.memUnknown(ValidFree, e, "free of a block of the list segment %s", t.c.objName(v.Obj, t.s.depth))
			}
			t.forgetStatuses()
			return
		}
	}
	if memory.ObjKind(v.Obj) != memory.KindHeap {
		if check {
			t.violation(ValidFree, e, t.object(results.MemoryViolation{Problem: results.InvalidFree}, v.Obj), "free of %s, which is not a heap block", t.c.objName(v.Obj, t.s.depth))
		}
		return
	}
	st, known := t.metaGet(v.Obj, memory.MetaStatus)
	off := memory.Sext(v.Bits, t.c.ptr)
	switch {
	case !known:
		if check {
			t.memUnknownAs(UnknownValidity, ValidFree, e, "the validity of %s is unknown", t.c.objName(v.Obj, t.s.depth))
		}
	case st == memory.StFreed:
		if check {
			t.violation(ValidFree, e, t.object(results.MemoryViolation{Problem: results.DoubleFree}, v.Obj), "double free of %s", t.c.objName(v.Obj, t.s.depth))
		}
		return
	case st != memory.StHeap:
		if check {
			t.violation(ValidFree, e, t.object(results.MemoryViolation{Problem: results.InvalidFree}, v.Obj), "free of %s, which is not a heap block", t.c.objName(v.Obj, t.s.depth))
		}
		return
	case off != 0:
		if check {
			t.violation(ValidFree, e, t.object(results.MemoryViolation{Problem: results.InvalidFree, Offset: off}, v.Obj), "free of a pointer to offset %d of %s", off, t.c.objName(v.Obj, t.s.depth))
		}
		return
	}
	t.metaSet(v.Obj, memory.MetaStatus, memory.StFreed)
}

// forgetStatuses makes the status of every block unknown (a free through
// an unknown pointer may have freed any of them).
func (t *tx) forgetStatuses() {
	t.s.mem = t.s.mem.Filter(func(n *memory.Node) bool {
		return memory.ObjKind(n.Obj) != memory.KindMeta || n.Off != memory.MetaStatus
	})
}

// memPre checks the memory accesses of step on the state before it.
func (t *tx) memPre(step cfa.Step) {
	m := t.mem()
	e := step.Edge
	if e == nil || step.Kind == cfa.Leave {
		return
	}
	w := accessWalker{t: t, e: e}
	if step.Kind == cfa.Enter {
		call := e.Op.(*cfa.Call)
		for _, a := range call.Args {
			w.rval(a)
		}
		if call.FnPtr != nil {
			w.rval(call.FnPtr)
		}
		return
	}
	switch op := e.Op.(type) {
	case *cfa.Assign:
		w.rval(op.RHS)
		w.write(op.LHS)
		if cfa.IsMallocFailure(e) {
			if v, ok := t.eval(op.LHS); conc(v, ok) && memory.ObjKind(v.Obj) == memory.KindHeap {
				t.metaSet(v.Obj, memory.MetaStatus, memory.StFailed)
			}
		}
	case *cfa.Havoc:
		w.write(op.LHS)
	case *cfa.Decl:
		// A new lifetime of a local: pointers to the old one dangle.
		if !op.Var.Global && op.Var.AddrTaken {
			t.killObjects(memory.LocalObj(t.s.depth, op.Var.ID), memory.LocalObj(t.s.depth, op.Var.ID)+1)
		}
	case *cfa.Assume:
		w.rval(op.Cond)
	case *cfa.Return:
		if op.X != nil {
			w.rval(op.X)
		}
	case *cfa.Call:
		for _, a := range op.Args {
			w.rval(a)
		}
		if op.FnPtr != nil {
			w.rval(op.FnPtr)
		}
		if op.Result != nil {
			w.write(op.Result)
		}
		if m.Deref {
			t.libAccesses(e, op)
		}
	}
}

// libAccesses checks the ranges a library function without body reads or
// writes through its pointer arguments.
func (t *tx) libAccesses(e *cfa.Edge, call *cfa.Call) {
	name := call.Fn
	if call.FnPtr != nil {
		return // unmodelled through a pointer: no TRUE anyway
	}
	n, nok := int64(0), false
	if len(call.Args) == 3 {
		n, nok = t.argInt(call, 2)
	}
	switch name {
	case "memset":
		if t.c.sym != nil && t.c.sym.CheckRanges(Tx{t}, e, call, 0) { // symbolic mode
			return
		}
		t.rangeAccess(e, call, 0, n, nok)
	case "memcpy", "memmove", "memcmp":
		if t.c.sym != nil && t.c.sym.CheckRanges(Tx{t}, e, call, 0, 1) {
			return
		}
		t.rangeAccess(e, call, 0, n, nok)
		t.rangeAccess(e, call, 1, n, nok)
	case "strlen", "strchr", "strcmp", "strncmp", "strcpy", "strncpy":
		for i, a := range call.Args {
			if a.Type().Kind == cfa.Pointer {
				t.stringAccess(e, call, i)
			}
		}
	case "malloc", "calloc", "free", "alloca", "__builtin_alloca", "abs", "labs", "llabs":
	default:
		switch t.c.prog.Extern(name) {
		case cfa.ExternNondet, cfa.ExternAssume:
			return
		}
		if cfa.MemoryQueries[name] != 0 {
			return // CBMC's primitives read pointer values, no memory
		}
		if _, ok := libModels[name]; ok {
			return // ctype functions: integers only
		}
		for i, a := range call.Args {
			if a.Type().Kind != cfa.Pointer {
				continue
			}
			if _, lit := cfa.StringLiteral(a); lit {
				continue
			}
			t.memUnknown(ValidDeref, e, "%s may access memory through argument %d", name, i+1)
		}
	}
}

// rangeAccess checks n bytes at argument i.
func (t *tx) rangeAccess(e *cfa.Edge, call *cfa.Call, i int, n int64, nok bool) {
	if !nok {
		t.memUnknown(ValidDeref, e, "%s of an unknown length", call.Fn)
		return
	}
	if n == 0 {
		return
	}
	v, ok := t.eval(call.Args[i])
	t.checkPointer(e, call.Args[i].String(), v, ok, n)
}

// stringAccess checks that argument i points to a NUL-terminated string
// inside its object.
func (t *tx) stringAccess(e *cfa.Edge, call *cfa.Call, i int) {
	v, ok := t.eval(call.Args[i])
	if conc(v, ok) && memory.ObjKind(v.Obj) == memory.KindSeg {
		v, ok = t.segDeref(v) // materialise a list segment's block (lists.go)
	}
	if !conc(v, ok) || v.Obj == 0 {
		t.checkPointer(e, call.Args[i].String(), v, ok, 1)
		return
	}
	size, valid := t.objSize(e, v.Obj, call.Args[i].String())
	if !valid {
		return
	}
	off := memory.Sext(v.Bits, t.c.ptr)
	if size < 0 {
		t.memUnknown(ValidDeref, e, "the size of %s is unknown", t.c.objName(v.Obj, t.s.depth))
		return
	}
	for k := off; ; k++ {
		if k < 0 || k >= size {
			t.violation(ValidDeref, e, t.object(results.MemoryViolation{Problem: results.OutOfBounds, Func: call.Fn, Size: size}, v.Obj), "%s reads past the end of %s (%d bytes)", call.Fn, t.c.objName(v.Obj, t.s.depth), size)
			return
		}
		b, ok := t.loadByte(v.Obj, k)
		if !ok {
			t.memUnknown(ValidDeref, e, "%s reads bytes of %s that are unknown", call.Fn, t.c.objName(v.Obj, t.s.depth))
			return
		}
		if b == 0 {
			return
		}
	}
}

// objSize returns the size of obj in bytes (-1: unknown) and whether the
// object is valid; an invalid or undecidable object has been reported.
func (t *tx) objSize(e *cfa.Edge, obj uint64, what string) (int64, bool) {
	switch memory.ObjKind(obj) {
	case memory.KindGlobal, memory.KindLocal:
		return t.c.prog.Vars[memory.VarID(obj)].T.Size, true
	case memory.KindString:
		return int64(len(t.c.strVals[uint32(obj)])) + 1, true
	case memory.KindHeap:
		st, ok := t.metaGet(obj, memory.MetaStatus)
		switch {
		case !ok:
			t.memUnknownAs(UnknownValidity, ValidDeref, e, "the validity of %s (%s) is unknown", t.c.objName(obj, t.s.depth), what)
			return 0, false
		case st == memory.StFreed:
			t.violation(ValidDeref, e, t.object(results.MemoryViolation{Problem: results.UseAfterFree, Access: what}, obj), "access to %s after it was freed (%s)", t.c.objName(obj, t.s.depth), what)
			return 0, false
		case st == memory.StDead:
			t.violation(ValidDeref, e, results.MemoryViolation{Problem: results.DeadStack, Access: what}, "access to a stack object after its lifetime ended (%s)", what)
			return 0, false
		case st != memory.StHeap && st < memory.StAlloca:
			t.violation(ValidDeref, e, results.MemoryViolation{Problem: results.InvalidObject, Access: what}, "access to an invalid object (%s)", what)
			return 0, false
		}
		size, ok := t.metaGet(obj, memory.MetaSize)
		if !ok {
			return -1, true
		}
		return int64(size), true
	}
	t.memUnknown(ValidDeref, e, "access to %s (%s)", t.c.objName(obj, t.s.depth), what)
	return 0, false
}

// checkPointer checks an access of n bytes through the pointer value v.
func (t *tx) checkPointer(e *cfa.Edge, what string, v memory.Value, ok bool, n int64) {
	if ok && v.Obj != 0 && v.Sym != nil {
		t.checkAddr(e, what, symAddr(v), n) // a symbolic offset (symbolic mode)
		return
	}
	if conc(v, ok) && memory.ObjKind(v.Obj) == memory.KindSeg {
		v, ok = t.segDeref(v) // materialise a list segment's block (lists.go)
	}
	switch {
	case !conc(v, ok):
		t.memUnknownAs(UnknownPointer, ValidDeref, e, "unknown pointer %s", what)
		return
	case v.Obj == 0 && v.Bits == 0:
		t.violation(ValidDeref, e, results.MemoryViolation{Problem: results.NullDeref, Access: what}, "NULL pointer dereference (%s)", what)
		return
	case v.Obj == 0:
		t.memUnknownAs(IntegerAddress, ValidDeref, e, "access through the integer address %#x (%s)", v.Bits, what)
		return
	}
	t.checkAddr(e, what, Addr{Obj: v.Obj, Off: memory.Sext(v.Bits, t.c.ptr), Known: true, OffKnown: true}, n)
}

// checkAddr checks an access of n bytes at the known object a.Obj.
func (t *tx) checkAddr(e *cfa.Edge, what string, a Addr, n int64) {
	if a.SymOff != nil {
		t.c.sym.CheckOffset(Tx{t}, e, what, a, n) // symbolic mode
		return
	}
	if !a.OffKnown && a.Index == nil {
		t.memUnknown(ValidDeref, e, "unknown offset in %s", what)
		return
	}
	size, valid := t.objSize(e, a.Obj, what)
	if !valid {
		return
	}
	if a.Index == nil && a.Off < 0 && size < 0 {
		// before the object, whatever its (unknown) size
		t.violation(ValidDeref, e, t.object(results.MemoryViolation{Problem: results.OutOfBounds, Access: what, Bytes: n, Offset: a.Off}, a.Obj), "out-of-bounds access of %d bytes at offset %d of %s by %s", n, a.Off, t.c.objName(a.Obj, t.s.depth), what)
		return
	}
	if a.Index != nil || size < 0 {
		if t.c.sym == nil || !t.c.sym.CheckBounds(Tx{t}, e, what, a, n, size) {
			if a.Index != nil {
				t.memUnknown(ValidDeref, e, "unknown offset in %s", what)
			} else {
				t.memUnknown(ValidDeref, e, "the size of %s is unknown (%s)", t.c.objName(a.Obj, t.s.depth), what)
			}
		}
		return
	}
	if a.Off < 0 || a.Off+n > size {
		t.violation(ValidDeref, e, t.object(results.MemoryViolation{Problem: results.OutOfBounds, Access: what, Bytes: n, Offset: a.Off, Size: size}, a.Obj), "out-of-bounds access of %d bytes at offset %d of %s (%d bytes) by %s", n, a.Off, t.c.objName(a.Obj, t.s.depth), size, what)
	}
}

// accessWalker visits the memory accesses of expressions.
type accessWalker struct {
	t *tx
	e *cfa.Edge
}

// rval visits x evaluated as an rvalue.
func (w accessWalker) rval(x cfa.Expr) {
	switch x := x.(type) {
	case *cfa.Deref, *cfa.Member, *cfa.Index:
		w.addr(x)
		if k := x.Type().Kind; k != cfa.Array && k != cfa.Func {
			w.access(x, false)
		}
	case *cfa.AddrOf:
		w.addr(x.X)
	case *cfa.Cast:
		w.rval(x.X)
	case *cfa.Unary:
		w.rval(x.X)
	case *cfa.Binary:
		w.rval(x.X)
		w.rval(x.Y)
	}
}

// write visits the lvalue x written.
func (w accessWalker) write(x cfa.Expr) {
	w.addr(x)
	w.access(x, true)
}

// Addr visits the evaluation of the address of lvalue x.
func (w accessWalker) addr(x cfa.Expr) {
	switch x := x.(type) {
	case *cfa.Deref:
		w.rval(x.X)
	case *cfa.Member:
		w.addr(x.X)
	case *cfa.Index:
		w.addr(x.X)
		w.rval(x.I)
	}
}

// access checks the access of lvalue x (when it goes through a pointer
// or an array subscript).
func (w accessWalker) access(x cfa.Expr, write bool) {
	t := w.t
	if !t.mem().Deref {
		return
	}
	base, through := x, false
	for {
		switch y := base.(type) {
		case *cfa.Member:
			base = y.X
			continue
		case *cfa.Index:
			base, through = y.X, true
			continue
		case *cfa.Deref:
			through = true
		}
		break
	}
	if !through {
		return
	}
	_, viaPointer := base.(*cfa.Deref)
	n := x.Type().Size
	if mb, ok := x.(*cfa.Member); ok {
		if fld := mb.X.Type().Fields[mb.Field]; fld.BitWidth > 0 {
			n = fld.Bytes()
		}
	}
	if n <= 0 {
		n = 1
	}
	a := t.addrOf(x)
	if !a.Known {
		if d, ok := base.(*cfa.Deref); ok {
			v, vok := t.eval(d.X)
			if conc(v, vok) && v.Obj == 0 && v.Bits == 0 {
				t.violation(ValidDeref, w.e, results.MemoryViolation{Problem: results.NullDeref, Access: x.String()}, "NULL pointer dereference (%s)", x)
				return
			}
		}
		t.memUnknownAs(UnknownPointer, ValidDeref, w.e, "unknown pointer in %s", x)
		return
	}
	if viaPointer && memory.ObjKind(a.Obj) == memory.KindLocal && t.c.nestedLocal(t.c.prog.Vars[memory.VarID(a.Obj)]) {
		t.memUnknown(ValidDeref, w.e, "%s may outlive the block of %s (block lifetimes are not modelled)", x, t.c.prog.Vars[memory.VarID(a.Obj)].Name)
		return
	}
	if write && memory.ObjKind(a.Obj) == memory.KindString {
		t.memUnknown(ValidDeref, w.e, "write to a string literal (%s)", x)
		return
	}
	t.checkAddr(w.e, x.String(), a, n)
}

// memPost runs the checks after a step on the successor (and on the
// second successor of a failing malloc).
func (t *tx) memPost(step cfa.Step, before *State) {
	m := t.mem()
	if step.Kind == cfa.Leave {
		t.killFrame(before.depth)
		if call := step.Edge.Op.(*cfa.Call); call.Result != nil {
			w := accessWalker{t: t, e: step.Edge}
			w.write(call.Result)
		}
	}
	next := step.Next()
	atExit := next != nil && next.Func != nil && next.Func.Name == m.Entry && next == next.Func.Exit && t.s.depth == 0
	if step.Edge != nil && next != nil && next.Terminal {
		// A call that does not return leaves no frame: blocks that
		// locals of live frames reach are still pointed to, no
		// valid-memtrack violation (SV-COMP's rule: abort and exit are
		// no leak, sosy-lab/sv-benchmarks#388 and #647; list-ext's label
		// TRUE with __VERIFIER_error reachable; Valgrind's "still
		// reachable"). Only named locals of a function's top level
		// count: a front-end temporary (a malloc's result) or a local of
		// a nested block may be the last to hold a block the C program
		// has lost.
		if _, ok := step.Edge.Op.(*cfa.Call); ok && m.Memtrack && t.lostAtEnd() {
			t.memUnknown(ValidMemtrack, step.Edge, "the program ends with blocks that only temporaries or block-scoped locals reach")
		}
		if c, ok := step.Edge.Op.(*cfa.Call); ok && cfa.EndsProgram(c.Fn) {
			// exit, abort, a failed assert: the end of the program for
			// memcleanup (exit's atexit functions ran before, in the
			// front end's model).
			if m.Memcleanup {
				t.cleanup(step.Edge)
			}
			return
		} else if ok && m.Memcleanup && len(t.liveBlocks()) > 0 {
			// Other calls that do not return (a function declared
			// noreturn, pthread_exit) need not end the program.
			t.memUnknown(ValidMemcleanup, step.Edge, "%s does not return and need not end the program (blocks allocated)", c.Fn)
		}
	}
	e := step.Edge
	if e == nil {
		return
	}
	if m.Memtrack && (atExit || t.mayLosePointer(step, before)) {
		t.track(e, atExit)
	}
	if atExit && m.Memcleanup {
		t.cleanup(e)
	}
}

// killFrame turns pointers into the frame at depth d (just left) into
// pointers to dead objects, and the frame's alloca blocks dead.
func (t *tx) killFrame(d int) {
	lo, hi := memory.FrameRange(d)
	var deadAlloca []uint64
	t.s.mem.Each(func(n *memory.Node) bool {
		if memory.ObjKind(n.Obj) == memory.KindMeta && n.Off == memory.MetaStatus && n.Val.Obj == 0 && n.Val.Bits == memory.StAlloca+uint64(d) {
			deadAlloca = append(deadAlloca, memory.HeapOfMeta(n.Obj))
		}
		return true
	})
	for _, b := range deadAlloca {
		t.metaSet(b, memory.MetaStatus, memory.StDead)
	}
	t.killObjects(lo, hi)
}

// killObjects turns pointers to the local objects in [lo, hi) into
// pointers to dead objects.
func (t *tx) killObjects(lo, hi uint64) {
	changed := false
	t.s.mem.Each(func(n *memory.Node) bool {
		if n.Val.Obj >= lo && n.Val.Obj < hi {
			changed = true
			return false
		}
		return true
	})
	if !changed {
		return
	}
	var dead []uint64
	t.s.mem = t.s.mem.MapVals(func(v memory.Value) memory.Value {
		if v.Obj >= lo && v.Obj < hi {
			o := memory.HeapObj(memory.DeadSite, uint32(memory.VarID(v.Obj)))
			dead = append(dead, o)
			v.Obj = o
		}
		return v
	})
	for _, o := range dead {
		t.metaSet(o, memory.MetaStatus, memory.StDead)
		t.metaSet(o, memory.MetaSize, uint64(t.c.prog.Vars[int(uint32(o))].T.Size))
	}
}

// liveBlocks returns the blocks whose status is allocated (memory.StHeap).
func (t *tx) liveBlocks() []uint64 {
	var out []uint64
	t.s.mem.Each(func(n *memory.Node) bool {
		if memory.ObjKind(n.Obj) == memory.KindMeta && n.Off == memory.MetaStatus && n.Val.Obj == 0 && n.Val.Bits == memory.StHeap {
			out = append(out, memory.HeapOfMeta(n.Obj))
		}
		return true
	})
	return out
}

// reachableHeap returns the heap blocks reachable through known pointer
// cells from the cells root selects (transitively through the cells of
// reached blocks that are not known to be freed or dead); a list
// segment is keyed by the pointers that reach it, to its first block
// (seg) or its last (seg|memory.LastTag): smg.SegReached tells which of its blocks
// are reached.
func (t *tx) reachableHeap(root func(n *memory.Node) bool) map[uint64]bool {
	reached := map[uint64]bool{}
	var work []uint64
	visit := func(n *memory.Node) {
		o := n.Val.Obj
		if !memory.IsHeapish(o) || reached[o] {
			return
		}
		// The contents of a freed block or segment, or of a dead stack
		// object, are no roots: a block only they point to is lost.
		walk := true
		if st, ok := t.metaGet(o, memory.MetaStatus); ok && st != memory.StHeap && st < memory.StAlloca {
			walk = false
		}
		if memory.ObjKind(o) == memory.KindSeg {
			// a segment: o or o|memory.LastTag (smg.SegReached)
			visited := reached[memory.SegBase(o)] || reached[memory.SegBase(o)|memory.LastTag]
			reached[o] = true
			if !visited && walk {
				work = append(work, memory.SegBase(o)) // its cells, once
			}
			return
		}
		reached[o] = true
		if walk {
			work = append(work, o)
		}
	}
	t.s.mem.Each(func(n *memory.Node) bool {
		if root(n) {
			visit(n)
		}
		return true
	})
	for len(work) > 0 {
		o := work[len(work)-1]
		work = work[:len(work)-1]
		t.s.mem.Ascend(o, -1<<62, o+1, -1<<62, func(n *memory.Node) bool {
			visit(n)
			return true
		})
	}
	return reached
}

// track reports an allocated block that no known pointer reachable from
// the globals and the live frames (at the program's exit: without the
// entry's frame) designates.
func (t *tx) track(e *cfa.Edge, atExit bool) {
	live := t.liveBlocks()
	if len(live) == 0 {
		return
	}
	reached := t.reachableHeap(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal:
			return true
		case memory.KindLocal:
			return !atExit || memory.FrameOf(n.Obj) != 0
		}
		return false
	})
	for _, b := range live {
		switch smg.SegReached(t.s.mem, reached, b) {
		case smg.ReachNone:
			t.violation(ValidMemtrack, e, t.object(results.MemoryViolation{Problem: results.Leak}, b), "%s is allocated but no longer reachable", t.c.objName(b, t.s.depth))
			return
		case smg.ReachMaybe:
			t.memUnknown(ValidMemtrack, e, "the blocks of the list segment %s but its last may be unreachable", t.c.objName(b, t.s.depth))
		}
	}
}

// cleanup reports an allocated block at the end of the program.
func (t *tx) cleanup(e *cfa.Edge) {
	for _, b := range t.liveBlocks() {
		t.violation(ValidMemcleanup, e, t.object(results.MemoryViolation{Problem: results.NotFreed}, b), "%s is still allocated at the end of the program", t.c.objName(b, t.s.depth))
		return
	}
	unknown := false
	t.s.mem.Each(func(n *memory.Node) bool {
		if memory.ObjKind(n.Obj) == memory.KindMeta && n.Off == memory.MetaSize {
			if _, ok := t.metaGet(memory.HeapOfMeta(n.Obj), memory.MetaStatus); !ok {
				unknown = true
				return false
			}
		}
		return true
	})
	if unknown || t.s.allocs > 0 && t.anyUnknownBlock() {
		t.memUnknown(ValidMemcleanup, e, "a block whose status is unknown may still be allocated")
	}
}

// anyUnknownBlock reports whether some block allocated on the path has
// no status cell (forgotten by an unmodelled call or a join).
func (t *tx) anyUnknownBlock() bool {
	found := false
	t.s.mem.Each(func(n *memory.Node) bool {
		if memory.IsHeapish(n.Obj) {
			if _, ok := t.metaGet(n.Obj, memory.MetaStatus); !ok && uint32(n.Obj>>32)&0x1fffffff != memory.DeadSite {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// memPostAll runs memPost on the successor and on the second successor
// of a failing malloc.
func (t *tx) memPostAll(step cfa.Step, before *State) {
	t.memPost(step, before)
	if t.alt != nil {
		at := *t
		at.s, at.alt = *t.alt, nil
		at.memPost(step, before)
		st := at.s
		t.alt = &st
	}
}

// mayLosePointer reports whether step may overwrite or drop a pointer
// cell of before (only then can a block become unreachable): a frame
// left, a write to an lvalue whose old cells hold a pointer or whose
// address is unknown, a function without body that writes memory.
func (t *tx) mayLosePointer(step cfa.Step, before *State) bool {
	switch step.Kind {
	case cfa.Leave:
		return true
	case cfa.Enter:
		return false
	}
	var lv cfa.Expr
	switch op := step.Edge.Op.(type) {
	case *cfa.Assign:
		lv = op.LHS
	case *cfa.Havoc:
		lv = op.LHS
	case *cfa.Decl:
		lv = &cfa.VarRef{Var: op.Var}
	case *cfa.Return:
		if rv := step.Edge.From.Func.RetVar; rv != nil && op.X != nil {
			lv = &cfa.VarRef{Var: rv}
		}
	case *cfa.Call:
		switch op.Fn {
		case "malloc", "calloc", "alloca", "__builtin_alloca", "free":
			lv = op.Result
		default:
			return true
		}
	}
	if lv == nil {
		return false
	}
	bt := tx{c: t.c, s: *before, full: true}
	a := bt.addrOf(lv)
	if !a.Known || !a.OffKnown || a.Index != nil {
		return true
	}
	found := false
	size := lv.Type().Size
	// bt.s: before, with the segment lv's address went through
	// materialised (its fresh block holds the segment's pointers).
	bt.s.mem.Ascend(a.Obj, a.Off-7, a.Obj, a.Off+max(size, 1), func(n *memory.Node) bool {
		if n.Val.Obj != 0 && n.Off+int64(n.Size) > a.Off {
			found = true
			return false
		}
		return true
	})
	return found
}

// mayBeFreed reports whether obj is a heap block or dead object that is
// not known to be live: its address may be reused by a later
// allocation, so comparing it with another object's address has no
// known result.
func (t *tx) mayBeFreed(obj uint64) bool {
	if !memory.IsHeapish(obj) { // a list segment's blocks share its status
		return false
	}
	st, ok := t.metaGet(obj, memory.MetaStatus)
	return !ok || st != memory.StHeap && st < memory.StAlloca
}

// lostAtEnd reports whether some allocated block is reachable, through
// known pointer cells, neither from the globals nor from a named local
// of a live frame declared at its function's top level (not Temp, not
// nestedLocal).
func (t *tx) lostAtEnd() bool {
	live := t.liveBlocks()
	if len(live) == 0 {
		return false
	}
	reached := t.reachableHeap(func(n *memory.Node) bool {
		switch memory.ObjKind(n.Obj) {
		case memory.KindGlobal:
			return true
		case memory.KindLocal:
			v := t.c.prog.Vars[memory.VarID(n.Obj)]
			return !v.Temp && !t.c.nestedLocal(v)
		}
		return false
	})
	for _, b := range live {
		if smg.SegReached(t.s.mem, reached, b) != smg.ReachAll {
			return true
		}
	}
	return false
}

// nestedLocals are the locals whose declaration may lie in a nested
// block, computed once per program (nestedLocal).
var nestedLocals sync.Map // *cfa.Program → map[int]bool

// nestedLocal reports whether v is a local whose lifetime may end before
// its function returns: its Decl is not at the function's top level, as
// far as the CFA tells (some location reachable from the Decl other than
// the exit is reachable without passing it: the join after an if, a
// loop head). Blocks end nowhere in the CFA, so accesses through
// pointers to such locals cannot be proved valid.
func (c *CPA) nestedLocal(v *cfa.Var) bool {
	if v.Global || v.Param {
		return false
	}
	m, ok := nestedLocals.Load(c.prog)
	if !ok {
		m, _ = nestedLocals.LoadOrStore(c.prog, computeNested(c.prog))
	}
	return m.(map[int]bool)[v.ID]
}

func computeNested(p *cfa.Program) map[int]bool {
	out := map[int]bool{}
	for _, f := range p.Funcs {
		var dom *graph.DomTree
		for _, l := range f.Locs {
			for _, e := range l.Out {
				d, ok := e.Op.(*cfa.Decl)
				if !ok || d.Var.Global || !d.Var.AddrTaken {
					continue
				}
				if dom == nil {
					dom = graph.Dominators(f, f.Entry.Index)
				}
				top := e.To
				seen := map[*cfa.Location]bool{top: true}
				work := []*cfa.Location{top}
				for len(work) > 0 && !out[d.Var.ID] {
					x := work[len(work)-1]
					work = work[:len(work)-1]
					if x != f.Exit && !dom.Dominates(top.Index, x.Index) {
						out[d.Var.ID] = true
					}
					for _, o := range x.Out {
						if !seen[o.To] {
							seen[o.To] = true
							work = append(work, o.To)
						}
					}
				}
			}
		}
	}
	return out
}
