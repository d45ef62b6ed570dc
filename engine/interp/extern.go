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

// libModel executes the string.h and ctype.h functions of
// cfa.LibraryModels that callExtern does not; false for others.
func (m *machine) libModel(c *cfa.Call, arg func(int) uint64, setResult func(uint64, *cfa.Type)) bool {
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
