package interp

import (
	"github.com/reverify/reverify/engine/cfa"
)

// unmodelledMayWrite reports whether an unmodelled call may change
// memory the program reads (cfa.UnmodelledWrites: globals, address-taken
// variables, heap blocks): then the replay cannot continue.
func (m *machine) unmodelledMayWrite() bool {
	for _, v := range m.p.Vars {
		if cfa.UnmodelledWrites(v) {
			return true
		}
	}
	for _, o := range m.objs {
		if o.heap && o.live {
			return true
		}
	}
	return false
}

// cstring returns the bytes of the NUL-terminated string at p (without
// the NUL), reading at most limit bytes when limit >= 0 (then without
// requiring a NUL).
func (m *machine) cstring(p uint64, limit int64) []byte {
	var out []byte
	for i := uint64(0); limit < 0 || int64(i) < limit; i++ {
		b := byte(m.load(m.ptrAdd(p, i, false, 1), cfa.UCharType))
		if b == 0 {
			break
		}
		out = append(out, b)
	}
	return out
}

// compareBytes is strcmp's result on two byte strings: the difference of
// the first differing bytes as unsigned char (glibc), 0 when equal.
func compareBytes(x, y []byte) uint64 {
	for i := 0; ; i++ {
		var a, b byte
		if i < len(x) {
			a = x[i]
		}
		if i < len(y) {
			b = y[i]
		}
		if a != b {
			return uint64(int64(a) - int64(b))
		}
		if i >= len(x) || i >= len(y) {
			return 0
		}
	}
}

// memoryQuery evaluates one of CBMC's memory primitives
// (cfa.MemoryQueries) exactly on the concrete memory: r_ok, w_ok and
// rw_ok(p, n) are 1 iff p points into a live data object (not NULL, not
// a function, not freed, not out of its lifetime) with at least n bytes
// from p's offset; same_object(p, q) compares the objects (NULL is its
// own object); POINTER_OFFSET(p) is p's offset; POINTER_OBJECT(p)
// consumes an input (as the SMT encoding makes one) and is 0 for NULL;
// for any other pointer it stops the replay as unsupported (the numbers
// CBMC gives objects are its own). A pointer made from an
// integer that names no object stops the replay too.
func (m *machine) memoryQuery(c *cfa.Call, arg func(int) uint64, setResult func(uint64, *cfa.Type)) {
	sizeT := cfa.IntType(m.ptrBits, false)
	object := func(p uint64) (id, off uint64) {
		id, off = m.split(p)
		if id >= uint64(len(m.objs)) {
			m.unsupported("%s of a pointer to no object (%#x)", c.Fn, p)
		}
		return id, off
	}
	switch c.Fn {
	case "__CPROVER_same_object":
		a, _ := object(arg(0))
		b, _ := object(arg(1))
		setResult(b2u(a == b), cfa.BoolType)
	case "__CPROVER_POINTER_OFFSET":
		_, off := object(arg(0))
		setResult(off, cfa.IntType(m.ptrBits, true))
	case "__CPROVER_POINTER_OBJECT":
		id, _ := object(arg(0))
		if c.Result == nil {
			return
		}
		lv := m.lval(c.Result)
		m.input(lv.t) // the SMT encoding's input for a pointer other than NULL
		if id != 0 {
			m.unsupported("%s of a pointer other than NULL: the object numbers are CBMC's", c.Fn)
		}
		m.write(lv, 0)
	default: // r_ok, w_ok, rw_ok
		id, off := object(arg(0))
		n := m.convert(arg(1), c.Args[1].Type(), sizeT)
		ok := false
		if id != 0 {
			o := m.objs[id]
			ok = o.fn == "" && o.live && off <= uint64(len(o.data)) && n <= uint64(len(o.data))-off
		}
		setResult(b2u(ok), cfa.BoolType)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// libModel executes the string.h and ctype.h functions of
// cfa.LibraryModels, and CBMC's memory primitives (memoryQuery), that
// callExtern does not; false for others.
func (m *machine) libModel(c *cfa.Call, arg func(int) uint64, setResult func(uint64, *cfa.Type)) bool {
	if cfa.MemoryQueries[c.Fn] != 0 {
		m.memoryQuery(c, arg, setResult)
		return true
	}
	if c.Fn == cfa.HavocObject {
		m.havocObject(c, arg) // cbmc_havoc.go
		return true
	}
	if c.Fn == cfa.HavocSlice {
		m.havocSlice(c, arg) // cbmc_havoc.go
		return true
	}
	ptrT := cfa.PointerTo(cfa.VoidType, m.ptrBits)
	sizeT := cfa.IntType(m.ptrBits, false)
	size := func(i int) int64 {
		n := m.convert(arg(i), c.Args[i].Type(), sizeT)
		if n >= 1<<uint(m.offBits) {
			m.ub("invalid memory access: %s of %d bytes", c.Fn, n)
		}
		return int64(n)
	}
	switch c.Fn {
	case "strcmp":
		setResult(compareBytes(m.cstring(arg(0), -1), m.cstring(arg(1), -1)), cfa.IntT)
	case "strncmp":
		x, y := arg(0), arg(1)
		n := size(2)
		r := uint64(0)
		for i := int64(0); i < n; i++ {
			a := byte(m.load(m.ptrAdd(x, uint64(i), false, 1), cfa.UCharType))
			b := byte(m.load(m.ptrAdd(y, uint64(i), false, 1), cfa.UCharType))
			if a != b {
				r = uint64(int64(a) - int64(b))
				break
			}
			if a == 0 {
				break
			}
		}
		setResult(r, cfa.IntT)
	case "memcmp":
		x, y := arg(0), arg(1)
		n := size(2)
		r := uint64(0)
		if n > 0 {
			bx, by := m.readBlock(x, n), m.readBlock(y, n)
			for i := int64(0); i < n; i++ {
				if !bx.init[i] || !by.init[i] {
					m.unsupported("memcmp of uninitialised memory (its value is no input)")
				}
				if bx.data[i] != by.data[i] {
					r = uint64(int64(bx.data[i]) - int64(by.data[i]))
					break
				}
			}
		}
		setResult(r, cfa.IntT)
	case "strchr":
		p := arg(0)
		ch := byte(m.convert(arg(1), c.Args[1].Type(), cfa.IntT))
		for i := uint64(0); ; i++ {
			q := m.ptrAdd(p, i, false, 1)
			b := byte(m.load(q, cfa.UCharType))
			if b == ch {
				setResult(q, ptrT)
				break
			}
			if b == 0 {
				setResult(0, ptrT)
				break
			}
		}
	case "strcpy", "strncpy":
		d, s := arg(0), arg(1)
		dobj, _ := m.split(d)
		sobj, _ := m.split(s)
		if dobj == sobj {
			m.ub("%s within one object", c.Fn)
		}
		if c.Fn == "strcpy" {
			str := m.cstring(s, -1)
			for i, b := range append(str, 0) {
				m.store(m.ptrAdd(d, uint64(i), false, 1), uint64(b), cfa.UCharType)
			}
		} else {
			n := size(2)
			str := m.cstring(s, n)
			for i := int64(0); i < n; i++ {
				b := byte(0)
				if i < int64(len(str)) {
					b = str[i]
				}
				m.store(m.ptrAdd(d, uint64(i), false, 1), uint64(b), cfa.UCharType)
			}
		}
		setResult(d, ptrT)
	case "toupper", "tolower", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isxdigit", "isprint":
		x := cfa.SignExtend(m.convert(arg(0), c.Args[0].Type(), cfa.IntT), 32)
		v, ok := cfa.CtypeValue(c.Fn, x)
		if !ok {
			m.ub("%s of %d: outside EOF and unsigned char", c.Fn, x)
		}
		setResult(uint64(v), cfa.IntT)
	default:
		return false
	}
	return true
}
