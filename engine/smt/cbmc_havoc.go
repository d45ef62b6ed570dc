package smt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// maxHavocBytes bounds the objects __CPROVER_havoc_object gives one input
// per byte (engine/interp consumes the same inputs); larger objects, and
// objects of non-constant size, get fresh contents that are no inputs.
const maxHavocBytes = 4096

// havocObject encodes CBMC's __CPROVER_havoc_object(p) (cfa.HavocObject):
// every byte of the object p points into gets any value. NULL (object
// part 0) havocs nothing; a function is unsupported (the encoding fails).
// When the object part of p is a constant and the object's size a
// constant of at most maxHavocBytes, its bytes 0..size-1 become inputs
// (source "extern __CPROVER_havoc_object", type unsigned char, in byte
// order), exactly what interp.Run consumes, and havocking an object
// that is no longer live is undefined behaviour ("invalid memory
// access"), as in the interpreter. Otherwise each object p may point to
// gets fresh contents that are no inputs: the encoding over-approximates
// the call, which refutes paths soundly; a counterexample through it
// fails its replay (the interpreter consumes inputs the formula does not
// list).
func (e *encoder) havocObject(c *cfa.Call, arg func(int) *Term) {
	b := e.b
	if len(c.Args) != 1 {
		e.fail("%s called with %d arguments", c.Fn, len(c.Args))
	}
	obj, _ := e.split(arg(0))
	obj = e.folded(obj)
	if obj.Op == BVConst {
		if obj.Hi == 0 && obj.Val == 0 {
			return // NULL
		}
		o := e.havocTarget(c, obj)
		if size := e.folded(o.size); o.arr != nil && size.Op == BVConst && size.Hi == 0 && size.Val <= maxHavocBytes {
			e.ub("invalid memory access", b.Not(o.live))
			e.havocInputs(c, o, 0, size.Val, "havoc ")
			return
		}
	}
	e.havocCandidates(c, obj)
}

// folded returns t with the SSA definitions of the path so far
// (PathFormula.Defs) substituted into it and constants folded, as
// PathFormula.Inline does for the whole formula: a term equal to t in
// every model, constant when the path fixes t's value (a pointer held in
// a variable along a path that assigns it one object, such as a
// parameter: load and store then access that one object instead of
// every object of the path). Only the definitions t depends on are
// substituted. The definitions and the folded terms are kept across
// calls (encoder.defs, foldMemo: SSA definitions never change), so
// folding every access of a path costs time linear in the terms it
// adds (aws-c-common's harness paths: one check of 509 steps built
// 138,901 terms without folding the accesses, 15,607 with;
// BenchmarkEncodePointerParams in fold_test.go).
func (e *encoder) folded(t *Term) *Term {
	if t.Op == BVConst || len(e.f.Defs) == 0 {
		return t
	}
	if e.defs == nil {
		e.defs, e.foldMemo = map[*Term]*Term{}, map[*Term]*Term{}
	}
	for ; e.ndefs < len(e.f.Defs); e.ndefs++ {
		d := e.f.Defs[e.ndefs]
		e.defs[d.Term] = d.Value
	}
	memo := e.foldMemo
	if r, ok := memo[t]; ok {
		return r
	}
	var vars []*Term
	seen := map[*Term]bool{}
	stack := []*Term{t}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if _, ok := memo[x]; ok {
			continue // folded before, with every definition below it
		}
		if v, ok := e.defs[x]; ok {
			vars = append(vars, x)
			stack = append(stack, v)
			continue
		}
		stack = append(stack, x.Args...)
	}
	// A definition's value is built before its variable (smaller ID),
	// so in ID order every variable a value uses is substituted first.
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	for _, v := range vars {
		memo[v] = e.b.rebuild(e.defs[v], memo)
	}
	return e.b.rebuild(t, memo)
}

// havocSlice encodes CBMC's __CPROVER_havoc_slice(p, n) (cfa.HavocSlice):
// the n bytes from p get any value, the rest of p's object keeps its
// contents. When p's object and offset and n are constants, the range
// lies in the object and n is at most maxHavocBytes, each byte of the
// range becomes an input (source "extern __CPROVER_havoc_slice", type
// unsigned char, in byte order), exactly what interp.Run consumes; a
// range outside the object, or in an object that is no longer live, is
// undefined behaviour ("invalid memory access"), as CBMC asserts
// __CPROVER_w_ok(p, n); n = 0 writes nothing. Otherwise each object p may
// point to gets fresh contents that are no inputs, as havocObject's
// over-approximation: the replay of a counterexample through it fails.
func (e *encoder) havocSlice(c *cfa.Call, arg func(int) *Term) {
	b := e.b
	if len(c.Args) != 2 {
		e.fail("%s called with %d arguments", c.Fn, len(c.Args))
	}
	obj, off := e.split(arg(0))
	obj, off = e.folded(obj), e.folded(off)
	n := e.folded(arg(1))
	if n.Op == BVConst && n.Hi == 0 && n.Val == 0 {
		return
	}
	if obj.Op == BVConst && off.Op == BVConst && n.Op == BVConst && n.Hi == 0 && off.Hi == 0 {
		if obj.Hi == 0 && obj.Val == 0 {
			e.ub("invalid memory access", b.True())
			return
		}
		o := e.havocTarget(c, obj)
		if size := e.folded(o.size); o.arr != nil && size.Op == BVConst && size.Hi == 0 && n.Val <= maxHavocBytes {
			if off.Val > size.Val || n.Val > size.Val-off.Val {
				e.ub("invalid memory access", b.True())
				return
			}
			e.ub("invalid memory access", b.Not(o.live))
			e.havocInputs(c, o, off.Val, n.Val, "havoc_slice ")
			return
		}
	}
	e.havocCandidates(c, obj)
}

// havocCandidates gives each object the object part obj may designate
// fresh contents that are no inputs (the over-approximation of
// havocObject and havocSlice).
func (e *encoder) havocCandidates(c *cfa.Call, obj *Term) {
	b := e.b
	for _, o := range e.candidates(obj) {
		if o.arr == nil {
			continue
		}
		fresh := b.FreshVar(c.Fn+" "+o.name, e.arraySort())
		if obj.Op == BVConst {
			o.arr = fresh
		} else {
			o.arr = b.Ite(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), fresh, o.arr)
		}
	}
}

// havocTarget returns the data object whose number is the constant obj
// (not NULL), failing the encoding for a function or no object.
func (e *encoder) havocTarget(c *cfa.Call, obj *Term) *object {
	if obj.Hi != 0 || obj.Val >= uint64(len(e.objs)) || e.objs[obj.Val] == nil || e.objs[obj.Val].fn {
		e.fail("%s of a pointer to no data object", c.Fn)
	}
	return e.objs[obj.Val]
}

// havocInputs gives the n bytes of o from off one input each (type
// unsigned char, source "extern " + the function, in byte order), the
// inputs interp.Run consumes; prefix starts their names.
func (e *encoder) havocInputs(c *cfa.Call, o *object, off, n uint64, prefix string) {
	b := e.b
	arr := o.arr
	base := prefix + strings.ReplaceAll(o.name, " ", "_")
	for i := off; i < off+n; i++ {
		in := e.input(fmt.Sprintf("%s[%d]", base, i), "extern "+c.Fn, cfa.UCharType)
		arr = b.Store(arr, b.BV(i, e.offBits), in)
	}
	o.arr = arr
}
