package smt

import (
	"github.com/reverify/reverify/engine/cfa"
)

// maxStringBytes bounds the objects a string function's model unrolls
// over (bytes); larger objects make the encoding fail.
const maxStringBytes = 1024

// maxReadCandidates bounds the objects readObject's view joins: a
// pointer whose value set is larger (or unknown: every object of the
// path) would make every byte read an if-then-else over all of them.
const maxReadCandidates = 8

// maxStrlenUnroll is the number of bytes strlen unrolls on a block of
// non-constant size (strObjectN): a longer string has any length of at
// least that many, and no counterexample may rest on it.
const maxStrlenUnroll = 64

// strUnroll is the number of bytes strlen, strncmp and memcmp unroll on
// an object of non-constant size: maxStrlenUnroll, or
// EncodeOptions.StringBytes up to maxStringBytes.
func (e *encoder) strUnroll() int64 {
	return int64(min(max(e.opts.StringBytes, maxStrlenUnroll), maxStringBytes))
}

// externArgs evaluates the scalar arguments of an external call (their
// undefined behaviour counts); pointer arguments are evaluated too, since
// a function without a body may read through them.
func (e *encoder) externArgs(c *cfa.Call) {
	for _, a := range c.Args {
		if a.Type().IsScalar() && a.Type().Kind != cfa.Float {
			e.rval(a)
		}
	}
}

// havocUnmodelled gives everything an unmodelled function (cfa.Extern)
// may write a fresh value: every global (registers get a fresh SSA
// version, memory objects fresh contents), the memory objects of
// address-taken variables of every frame (cfa.UnmodelledWrites) and
// every heap and alloca block. Fresh values are not Inputs: a path
// through an unmodelled call is only ever refuted (over-approximation),
// never confirmed (the interpreter stops there).
func (e *encoder) havocUnmodelled(fn string) {
	b := e.b
	e.envChanged = true // setenv, putenv (envCall)
	keep := map[*object]bool{}
	for _, o := range e.strs {
		keep[o] = true
	}
	for _, fr := range e.frames {
		for v, o := range fr.obj {
			if !cfa.UnmodelledWrites(v) {
				keep[o] = true
			}
		}
	}
	for _, v := range e.p.Vars {
		if !v.Global {
			continue
		}
		if e.mem[v] {
			if e.gobj[v] == nil {
				if v.T.Size <= 0 || v.T.Size >= 1<<uint(e.offBits) {
					continue // any access fails to encode (constSize)
				}
				e.allocVar(v, nil, false)
			}
			continue
		}
		if !v.T.IsScalar() || v.T.Kind == cfa.Float {
			continue
		}
		e.setReg(v, nil, b.FreshVar("extern "+fn+" "+v.Name, BVSort(e.width(v.T))))
	}
	for _, o := range e.objs[1:] {
		if o == nil || o.fn || keep[o] || o.arr == nil {
			continue
		}
		o.arr = b.FreshVar("extern "+fn+" "+o.name, e.arraySort())
	}
}

// havocPointee gives the objects p may point to fresh contents (a model
// that cannot be exact, e.g. memset of a non-constant size).
func (e *encoder) havocPointee(p *Term, why string) {
	obj, _ := e.split(p)
	for _, o := range e.candidates(obj) {
		if o.arr == nil {
			continue
		}
		fresh := e.b.FreshVar(why+" "+o.name, e.arraySort())
		if obj.Op == BVConst {
			o.arr = fresh
		} else {
			o.arr = e.b.Ite(e.b.Eq(obj, e.b.BV(uint64(o.id), e.objBits)), fresh, o.arr)
		}
	}
}

// strObject returns the one object a string argument p points into, its
// offset and the object's constant size; the encoding fails when p may
// point to several objects or the size is not a constant up to
// maxStringBytes, after the path's definitions are substituted (folded:
// a pointer or a size held in a variable).
func (e *encoder) strObject(p *Term, fn string) (*object, *Term, int64) {
	return e.strObjectN(p, fn, -1)
}

// oneObject returns the one object p designates (nil when p may
// designate several, or none), p's offset, and the object's size when it
// is a constant of at most maxStringBytes (ok false otherwise).
func (e *encoder) oneObject(p *Term) (o *object, off *Term, size int64, ok bool) {
	obj, off := e.split(p)
	obj = e.folded(obj) // a pointer variable the path assigns one object
	cands := e.candidates(obj)
	if obj.Op != BVConst || len(cands) != 1 {
		return nil, off, 0, false
	}
	sz := e.folded(cands[0].size)
	if sz.Op != BVConst || sz.Hi != 0 || sz.Val > maxStringBytes {
		return cands[0], off, 0, false
	}
	return cands[0], off, int64(sz.Val), true
}

// constSizeOf returns the size of the one object p designates when it
// is a constant of at most maxStringBytes.
func (e *encoder) constSizeOf(p *Term) (int64, bool) {
	o, _, n, ok := e.oneObject(p)
	return n, o != nil && ok
}

// strObjectN is strObject for a function that reads at most limit bytes
// (limit >= 0; -1: no bound): an object of non-constant size is accepted
// when limit is at most maxStringBytes, and its size is given as limit
// (the bytes to unroll; reading past the object's real end is the
// caller's "invalid memory access", beyond).
func (e *encoder) strObjectN(p *Term, fn string, limit int64) (*object, *Term, int64) {
	o, off, n, ok := e.oneObject(p)
	switch {
	case o == nil:
		e.fail("%s through a pointer to several objects", fn)
	case !ok && limit >= 0 && limit <= maxStringBytes:
		return o, off, limit
	case !ok:
		e.fail("%s on an object of non-constant or large size", fn)
	}
	return o, off, n
}

// readObject is strObjectN for a function that only reads: a pointer
// that is not a constant (one of the objects of its value set,
// candidates, or NULL or another object) reads the object it
// designates, as one object whose contents, size and liveness are
// if-then-else terms over the candidates (dead when it designates none
// of them: NULL, or an object outside the value set); its unrolled size
// is the largest constant size of the candidates, or limit (as
// strObjectN) when one has a non-constant or large size.
func (e *encoder) readObject(p *Term, fn string, limit int64) (*object, *Term, int64) {
	obj, off := e.split(p)
	obj = e.folded(obj)
	cands := e.candidates(obj)
	if obj.Op == BVConst || len(cands) == 0 || len(cands) > maxReadCandidates {
		return e.strObjectN(p, fn, limit)
	}
	b := e.b
	// a pointer to none of them reads any bytes (after the "invalid
	// memory access" its reader reports: no verdict rests on them)
	v := &object{name: fn + " operand", arr: b.FreshVar(fn+" no object", e.arraySort()), size: b.BV(0, e.ptrBits), live: b.False(), parts: cands}
	n := int64(0)
	for i := len(cands) - 1; i >= 0; i-- {
		o := cands[i]
		is := b.Eq(obj, b.BV(uint64(o.id), e.objBits))
		v.arr = b.Ite(is, o.arr, v.arr)
		v.size = b.Ite(is, o.size, v.size)
		v.live = b.Ite(is, o.live, v.live)
		size := e.folded(o.size)
		if n >= 0 && size.Op == BVConst && size.Hi == 0 && size.Val <= maxStringBytes {
			n = max(n, int64(size.Val))
		} else {
			n = -1
		}
	}
	if n < 0 {
		if limit < 0 || limit > maxStringBytes {
			e.fail("%s on an object of non-constant or large size", fn)
		}
		n = limit
	}
	return v, off, n
}

// boundedSize reports whether o's size (each candidate's, for readObject's
// objects) is a constant of at most maxStringBytes.
func (e *encoder) boundedSize(o *object) bool {
	parts := o.parts
	if parts == nil {
		parts = []*object{o}
	}
	for _, q := range parts {
		if size := e.folded(q.size); size.Op != BVConst || size.Hi != 0 || size.Val > maxStringBytes {
			return false
		}
	}
	return true
}

// byteAt is the byte at offset off+i of o.
func (e *encoder) byteAt(o *object, off *Term, i int64) *Term {
	return e.b.Select(o.arr, e.b.Add(off, e.b.BV(uint64(i), e.offBits)))
}

// beyond is the condition that reading need bytes (BV(ptrBits)) at off
// leaves the live object o.
func (e *encoder) beyond(o *object, off, need *Term) *Term {
	b := e.b
	return b.Or(b.Not(o.live), b.Ugt(b.Add(b.ZeroExt(off, e.ptrBits), need), o.size))
}

// firstIndex returns the smallest i < n with stop(i), or n (BV(ptrBits)).
func (e *encoder) firstIndex(n int64, stop func(i int64) *Term) *Term {
	b := e.b
	r := b.BV(uint64(n), e.ptrBits)
	for i := n - 1; i >= 0; i-- {
		r = b.Ite(stop(i), b.BV(uint64(i), e.ptrBits), r)
	}
	return r
}

// pick returns xs[k] for the index term k (the last element otherwise).
func (e *encoder) pick(k *Term, xs []*Term) *Term {
	b := e.b
	r := xs[len(xs)-1]
	for i := len(xs) - 2; i >= 0; i-- {
		r = b.Ite(b.Eq(k, b.BV(uint64(i), e.ptrBits)), xs[i], r)
	}
	return r
}

// constArg returns argument term x as a constant (the encoding fails
// otherwise).
func (e *encoder) constArg(x *Term, fn string) int64 {
	if x.Op != BVConst || x.Hi != 0 || x.Val > 1<<16 {
		e.fail("%s with a non-constant or large size", fn)
	}
	return int64(x.Val)
}

// compare models strcmp, strncmp and memcmp (C11 7.24.4): the sign of
// the difference of the first differing bytes (as unsigned char), 0 when
// none differs before a NUL (str*) or within n bytes; limit < 0 means no
// bound. The result is a fresh value with that sign (C fixes nothing
// more); reading beyond either object is undefined behaviour.
func (e *encoder) compare(c *cfa.Call, x, y *Term, limit int64, nul bool) *Term {
	b := e.b
	// strcmp stops at the other string's NUL at the latest, so a side of
	// constant size bounds the bytes read from one of any size (reading
	// past either object is still checked below)
	bx, by := limit, limit
	if limit < 0 && nul {
		if n, ok := e.constSizeOf(y); ok {
			bx = n
		}
		if n, ok := e.constSizeOf(x); ok {
			by = n
		}
	}
	ox, offx, sx := e.readObject(x, c.Fn, bx)
	oy, offy, sy := e.readObject(y, c.Fn, by)
	n := max(sx, sy)
	if limit >= 0 && limit < n {
		n = limit
	}
	xs := make([]*Term, n+1)
	ys := make([]*Term, n+1)
	for i := int64(0); i < n; i++ {
		xs[i], ys[i] = e.byteAt(ox, offx, i), e.byteAt(oy, offy, i)
	}
	xs[n], ys[n] = b.BV(0, 8), b.BV(0, 8)
	k := e.firstIndex(n, func(i int64) *Term {
		stop := b.Not(b.Eq(xs[i], ys[i]))
		if nul {
			stop = b.Or(stop, b.Eq(xs[i], b.BV(0, 8)))
		}
		return stop
	})
	// Bytes read: k+1, or n when the bound was reached.
	one := b.BV(1, e.ptrBits)
	need := b.Add(k, one)
	if limit >= 0 && limit <= max(sx, sy) {
		need = b.Ite(b.Eq(k, b.BV(uint64(n), e.ptrBits)), k, need)
	}
	e.ub("invalid memory access", b.Or(e.beyond(ox, offx, need), e.beyond(oy, offy, need)))
	ax, ay := e.pick(k, xs), e.pick(k, ys)
	w := e.width(cfa.IntT)
	r := b.FreshVar(c.Fn, BVSort(w))
	zero := b.BV(0, w)
	e.conj(b.Ite(b.Eq(ax, ay), b.Eq(r, zero), b.Ite(b.Ult(ax, ay), b.Slt(r, zero), b.Sgt(r, zero))))
	return r
}

// compareN models strncmp and memcmp with a size n that is not a
// constant (compare has the constant one): the bytes up to the larger
// object's constant size, or strUnroll of an object whose size is
// not constant, are compared; k is the first index where n is reached,
// the bytes differ or (strncmp) a NUL ends both strings. Reading beyond
// either object up to what is read is undefined behaviour ("invalid
// memory access"); a comparison that reaches the unrolled bytes with n
// larger ("comparison longer than the encoding's bound") has any result,
// so no counterexample rests on it and a proof still covers it.
func (e *encoder) compareN(c *cfa.Call, x, y, n *Term, nul bool) *Term {
	b := e.b
	ox, offx, sx := e.readObject(x, c.Fn, e.strUnroll())
	oy, offy, sy := e.readObject(y, c.Fn, e.strUnroll())
	u := max(sx, sy)
	xs := make([]*Term, u+1)
	ys := make([]*Term, u+1)
	for i := int64(0); i < u; i++ {
		xs[i], ys[i] = e.byteAt(ox, offx, i), e.byteAt(oy, offy, i)
	}
	xs[u], ys[u] = b.BV(0, 8), b.BV(0, 8)
	bv := func(i int64) *Term { return b.BV(uint64(i), e.ptrBits) }
	k := e.firstIndex(u, func(i int64) *Term {
		stop := b.Or(b.Uge(bv(i), n), b.Not(b.Eq(xs[i], ys[i])))
		if nul {
			stop = b.Or(stop, b.Eq(xs[i], b.BV(0, 8)))
		}
		return stop
	})
	equal := b.Eq(k, n) // the first n bytes are equal
	long := b.And(b.Eq(k, bv(u)), b.Ugt(n, bv(u)))
	need := b.Ite(equal, n, b.Ite(long, bv(u+1), b.Add(k, bv(1))))
	e.ub("invalid memory access", b.And(b.Distinct(need, bv(0)), b.Or(e.beyond(ox, offx, need), e.beyond(oy, offy, need))))
	e.ub("comparison longer than the encoding's bound", long)
	ax, ay := e.pick(k, xs), e.pick(k, ys)
	w := e.width(cfa.IntT)
	r := b.FreshVar(c.Fn, BVSort(w))
	zero := b.BV(0, w)
	e.conj(b.Or(long, b.Ite(b.Or(equal, b.Eq(ax, ay)), b.Eq(r, zero), b.Ite(b.Ult(ax, ay), b.Slt(r, zero), b.Sgt(r, zero)))))
	return r
}

// memoryQuery encodes CBMC's memory primitives (cfa.MemoryQueries)
// exactly over the objects of the path, as interp evaluates them: r_ok,
// w_ok and rw_ok(p, n) hold iff p's object is a live data object and
// offset <= size and n <= size - offset; same_object(p, q) compares the
// object parts; POINTER_OFFSET(p) is the offset part, zero-extended;
// POINTER_OBJECT(p) is 0 for NULL, else an input, equal for two calls
// exactly when their objects are (objectNumber; interp consumes the input
// and stops at a pointer other than NULL).
func (e *encoder) memoryQuery(c *cfa.Call, arg func(int) *Term, setResult func(*Term, *cfa.Type)) {
	b := e.b
	w := e.width(cfa.BoolType)
	bit := func(t *Term) *Term { return b.Ite(t, b.BV(1, w), b.BV(0, w)) }
	switch c.Fn {
	case "__CPROVER_same_object":
		x, _ := e.split(arg(0))
		y, _ := e.split(arg(1))
		setResult(bit(b.Eq(x, y)), cfa.BoolType)
	case "__CPROVER_POINTER_OFFSET":
		_, off := e.split(arg(0))
		setResult(b.ZeroExt(off, e.ptrBits), cfa.IntType(e.ptrBits, true))
	case "__CPROVER_POINTER_OBJECT":
		obj, _ := e.split(arg(0))
		if c.Result == nil {
			return
		}
		lv := e.lval(c.Result)
		in := e.input(e.inputBase(lv, c.Result), "extern "+c.Fn, lv.t)
		e.write(lv, e.objectNumber(obj, in))
	default: // r_ok, w_ok, rw_ok
		obj, off := e.split(arg(0))
		n := e.convert(arg(1), c.Args[1].Type(), cfa.IntType(e.ptrBits, false))
		start := b.ZeroExt(off, e.ptrBits)
		r := b.False()
		for _, o := range e.candidates(obj) {
			in := b.And(o.live, b.Ule(start, o.size), b.Ule(n, b.Sub(o.size, start)))
			if obj.Op != BVConst {
				in = b.And(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), in)
			}
			r = b.Or(r, in)
		}
		setResult(bit(r), cfa.BoolType)
	}
}

// objectNumber returns POINTER_OBJECT's result for the object part obj,
// given the input in made for it: 0 for NULL, and for every other object
// a number that is in when in is wide enough to number the objects
// injectively (CBMC numbers each object once, 0 being NULL). Each new
// number is tied to every earlier one of the encoding: equal exactly when
// the objects are equal. The numbers themselves stay inputs, so a
// verdict never rests on which number an object has, only on whether two
// objects share one; the constraints are satisfiable whatever the
// objects, so they only remove executions no numbering has. A result too
// narrow for the object encoding keeps the input unconstrained.
func (e *encoder) objectNumber(obj, in *Term) *Term {
	b := e.b
	w := in.Sort.Width
	zero := b.BV(0, w)
	if w <= e.objBits {
		return b.Ite(b.Eq(obj, b.BV(0, e.objBits)), zero, in)
	}
	isNull := b.Eq(obj, b.BV(0, e.objBits))
	e.conj(b.Eq(isNull, b.Eq(in, zero)))
	for _, n := range e.objNums {
		if n.num.Sort.Width == w {
			e.conj(b.Eq(b.Eq(obj, n.obj), b.Eq(in, n.num)))
		}
	}
	e.objNums = append(e.objNums, objNum{obj, in})
	return in
}

// An objNum is one POINTER_OBJECT result of an encoding (objectNumber).
type objNum struct{ obj, num *Term }

// libModel encodes the string.h and ctype.h models that callExtern does
// not (cfa.LibraryModels), and CBMC's memory primitives (memoryQuery);
// it reports false for other functions.
func (e *encoder) libModel(c *cfa.Call, arg func(int) *Term, setResult func(*Term, *cfa.Type)) bool {
	if cfa.MemoryQueries[c.Fn] != 0 {
		e.memoryQuery(c, arg, setResult)
		return true
	}
	if c.Fn == cfa.HavocObject {
		e.havocObject(c, arg) // cbmc_havoc.go
		return true
	}
	if c.Fn == cfa.HavocSlice {
		e.havocSlice(c, arg) // cbmc_havoc.go
		return true
	}
	b := e.b
	ptrT := cfa.PointerTo(cfa.VoidType, e.ptrBits)
	sizeT := cfa.IntType(e.ptrBits, false)
	size := func(i int) *Term { return e.convert(arg(i), c.Args[i].Type(), sizeT) }
	switch c.Fn {
	case "strlen":
		o, off, n := e.readObject(arg(0), c.Fn, e.strUnroll())
		k := e.firstIndex(n, func(i int64) *Term { return b.Eq(e.byteAt(o, off, i), b.BV(0, 8)) })
		e.ub("invalid memory access", e.beyond(o, off, b.Add(k, b.BV(1, e.ptrBits))))
		if !e.boundedSize(o) {
			// a block of symbolic size, n bytes unrolled: without a NUL
			// among them the length is some value >= n, and no
			// counterexample may rest on such a string
			long := b.Eq(k, b.BV(uint64(n), e.ptrBits))
			e.ub("string longer than the encoding's bound", long)
			any := b.FreshVar("strlen", BVSort(e.ptrBits))
			e.conj(b.Or(b.Not(long), b.Uge(any, b.BV(uint64(n), e.ptrBits))))
			k = b.Ite(long, any, k)
		}
		setResult(k, sizeT)
	case "strcmp":
		setResult(e.compare(c, arg(0), arg(1), -1, true), cfa.IntT)
	case "strncmp", "memcmp":
		if st := e.folded(size(2)); st.Op != BVConst || st.Hi != 0 || st.Val > 1<<16 {
			setResult(e.compareN(c, arg(0), arg(1), st, c.Fn == "strncmp"), cfa.IntT)
			return true
		}
		n := e.constArg(size(2), c.Fn)
		if n == 0 {
			arg(0)
			arg(1)
			setResult(b.BV(0, e.width(cfa.IntT)), cfa.IntT)
			return true
		}
		setResult(e.compare(c, arg(0), arg(1), n, c.Fn == "strncmp"), cfa.IntT)
	case "strchr":
		p := arg(0)
		o, off, n := e.strObject(p, c.Fn)
		ch := b.Extract(e.convert(arg(1), c.Args[1].Type(), cfa.IntT), 7, 0)
		xs := make([]*Term, n+1)
		for i := int64(0); i < n; i++ {
			xs[i] = e.byteAt(o, off, i)
		}
		xs[n] = b.BV(0, 8)
		k := e.firstIndex(n, func(i int64) *Term { return b.Or(b.Eq(xs[i], ch), b.Eq(xs[i], b.BV(0, 8))) })
		e.ub("invalid memory access", e.beyond(o, off, b.Add(k, b.BV(1, e.ptrBits))))
		objPart, _ := e.split(p)
		at := b.Concat(objPart, b.Add(off, b.Extract(k, e.offBits-1, 0)))
		setResult(b.Ite(b.Eq(e.pick(k, xs), ch), at, b.BV(0, e.ptrBits)), ptrT)
	case "strcpy", "strncpy":
		d, s := arg(0), arg(1)
		os, offs, ns := e.strObject(s, c.Fn)
		limit := int64(-1)
		if c.Fn == "strncpy" {
			limit = e.constArg(size(2), c.Fn)
		}
		n := ns
		if limit >= 0 && limit < n {
			n = limit
		}
		// the destination is written at most n bytes (strcpy: the
		// string and its NUL lie in the source's n bytes, or reading
		// past them is the invalid access below) or limit (strncpy):
		// an object of non-constant size is unrolled that far, its
		// real size bounding the write (beyond)
		bound := n
		if limit >= 0 {
			bound = limit
		}
		od, offd, _ := e.strObjectN(d, c.Fn, bound)
		if od == os {
			e.fail("%s within one object", c.Fn)
		}
		xs := make([]*Term, n)
		for i := int64(0); i < n; i++ {
			xs[i] = e.byteAt(os, offs, i)
		}
		// L: the string's length, or n when no NUL lies in the first n.
		L := e.firstIndex(n, func(i int64) *Term { return b.Eq(xs[i], b.BV(0, 8)) })
		one := b.BV(1, e.ptrBits)
		var readN, writeN *Term
		var count int64 // bytes written at most
		if limit < 0 {
			readN, writeN, count = b.Add(L, one), b.Add(L, one), n
		} else {
			readN = b.Ite(b.Ult(L, b.BV(uint64(limit), e.ptrBits)), b.Add(L, one), b.BV(uint64(limit), e.ptrBits))
			writeN, count = b.BV(uint64(limit), e.ptrBits), limit
		}
		e.ub("invalid memory access", b.Or(e.beyond(os, offs, readN), e.beyond(od, offd, writeN)))
		arr := od.arr
		for i := int64(0); i < count; i++ {
			var v *Term
			if i < n {
				v = b.Ite(b.Ult(b.BV(uint64(i), e.ptrBits), L), xs[i], b.BV(0, 8))
			} else {
				v = b.BV(0, 8)
			}
			idx := b.Add(offd, b.BV(uint64(i), e.offBits))
			if limit < 0 {
				// strcpy writes L+1 bytes only.
				v = b.Ite(b.Ule(b.BV(uint64(i), e.ptrBits), L), v, b.Select(od.arr, idx))
			}
			arr = b.Store(arr, idx, v)
		}
		od.arr = arr
		setResult(d, ptrT)
	case "toupper", "tolower", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isxdigit", "isprint":
		x := e.convert(arg(0), c.Args[0].Type(), cfa.IntT)
		w := x.Sort.Width
		// glibc's tables cover EOF and -128..255; other values are
		// undefined (C11 7.4p1).
		e.ub("ctype argument out of range", b.Or(b.Slt(x, b.BVInt(-128, w)), b.Sgt(x, b.BV(255, w))))
		// cfa.CtypeValue: glibc's and gcc's results in the "C" locale
		var r *Term
		if c.Fn == "toupper" || c.Fn == "tolower" {
			lo, hi, delta := uint64('a'), uint64('z'), int64(-32)
			if c.Fn == "tolower" {
				lo, hi, delta = 'A', 'Z', 32
			}
			in := b.And(b.Sge(x, b.BV(lo, w)), b.Sle(x, b.BV(hi, w)))
			neg := b.Slt(x, b.BVInt(-1, w))
			r = b.Ite(in, b.Add(x, b.BVInt(delta, w)), b.Ite(neg, b.Add(x, b.BV(256, w)), x))
		} else {
			truth, _ := cfa.CtypeTrue(c.Fn)
			in := b.False()
			for ch := uint64(0); ch < 128; ch++ {
				if cfa.CtypeClass(c.Fn, ch) {
					in = b.Or(in, b.Eq(x, b.BV(ch, w)))
				}
			}
			r = b.Ite(in, b.BV(truth, w), b.BV(0, w))
		}
		setResult(r, cfa.IntT)
	default:
		return false
	}
	return true
}

// maxFillBytes bounds the objects whose bytes fillRange rewrites one by
// one.
const maxFillBytes = 4096

// fillRange encodes memset and memcpy/memmove of the non-constant length
// n (a term of the pointer width) at the destination d exactly: byte k
// of each object d may designate becomes ite(off ≤ k ∧ k − off < n,
// byteAt(k − off), old byte k), off d's offset, every new byte computed
// from the contents before the call (memmove's semantics). The range
// [off, off + n) must lie in a live object ("invalid memory access"
// otherwise, as load and store check single accesses; a length of 0
// accesses nothing). It reports false, encoding nothing, when an object
// d may designate has no constant size of at most maxFillBytes: the
// caller then gives the objects fresh contents.
func (e *encoder) fillRange(d, n *Term, byteAt func(rel *Term) *Term) bool {
	b := e.b
	obj, off := e.split(d)
	cands := e.candidates(obj)
	if len(cands) == 0 {
		return false
	}
	for _, o := range cands {
		if o.arr == nil || o.size.Op != BVConst || o.size.Hi != 0 || o.size.Val > maxFillBytes {
			return false
		}
	}
	e.ub("invalid memory access", b.Not(e.validRange(obj, off, n, cands)))
	arrs := make([]*Term, len(cands))
	for i, o := range cands {
		arr := o.arr
		for k := uint64(0); k < o.size.Val; k++ {
			kt := b.BV(k, e.offBits)
			rel := b.Sub(kt, off)
			in := b.And(b.Ule(off, kt), b.Ult(b.ZeroExt(rel, n.Sort.Width), n))
			if in.Op == False {
				continue
			}
			arr = b.Store(arr, kt, b.Ite(in, byteAt(rel), b.Select(o.arr, kt)))
		}
		arrs[i] = arr
	}
	for i, o := range cands {
		if obj.Op == BVConst {
			o.arr = arrs[i]
		} else {
			o.arr = b.Ite(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), arrs[i], o.arr)
		}
	}
	return true
}

// validRange is the condition that the n bytes (n a term of the pointer
// width) at offset off of object obj lie in a live object of cands, or
// that n is 0.
func (e *encoder) validRange(obj, off, n *Term, cands []*object) *Term {
	b := e.b
	o64 := b.ZeroExt(off, e.ptrBits)
	r := b.Eq(n, b.BV(0, n.Sort.Width))
	for _, o := range cands {
		if o.arr == nil {
			continue
		}
		in := b.And(o.live, b.Ule(n, o.size), b.Ule(o64, b.Sub(o.size, n)))
		if obj.Op != BVConst {
			in = b.And(b.Eq(obj, b.BV(uint64(o.id), e.objBits)), in)
		}
		r = b.Or(r, in)
	}
	return r
}

// srcBytes returns the byte reader of fillRange for a copy from s: byte
// rel of the copy is the byte at s + rel, read from the contents before
// the call; nil when s designates no object. The source range is
// checked like the destination's.
func (e *encoder) srcBytes(s, n *Term) func(rel *Term) *Term {
	b := e.b
	obj, off := e.split(s)
	cands := e.candidates(obj)
	var live []*object
	for _, o := range cands {
		if o.arr != nil {
			live = append(live, o)
		}
	}
	if len(live) == 0 {
		return nil
	}
	arrs := make([]*Term, len(live))
	for i, o := range live {
		arrs[i] = o.arr
	}
	e.ub("invalid memory access", b.Not(e.validRange(obj, off, n, live)))
	return func(rel *Term) *Term {
		at := b.Add(off, rel)
		var v *Term
		for i := len(live) - 1; i >= 0; i-- {
			x := b.Select(arrs[i], at)
			if v == nil {
				v = x
			} else {
				v = b.Ite(b.Eq(obj, b.BV(uint64(live[i].id), e.objBits)), x, v)
			}
		}
		return v
	}
}
