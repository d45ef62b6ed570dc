package interp

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// maxHavocBytes is smt's bound of the same name: larger objects are not
// replayed.
const maxHavocBytes = 4096

// havocObject executes CBMC's __CPROVER_havoc_object(p)
// (cfa.HavocObject) as the SMT encoding states it: NULL (object 0)
// havocs nothing; otherwise every byte of p's object, from offset 0 to
// its size, takes the next input (unsigned char), in byte order. A dead
// object is undefined behaviour; a function, a pointer to no object and
// an object larger than maxHavocBytes stop the replay as unsupported.
func (m *machine) havocObject(c *cfa.Call, arg func(int) uint64) {
	if len(c.Args) != 1 {
		m.unsupported("%s called with %d arguments", c.Fn, len(c.Args))
	}
	id, _ := m.split(arg(0))
	if id == 0 {
		return
	}
	o := m.havocTarget(c, id)
	switch {
	case len(o.data) > maxHavocBytes:
		m.unsupported("%s of %s (%d bytes, more than %d)", c.Fn, o.name, len(o.data), maxHavocBytes)
	case !o.live:
		m.ub("invalid memory access: %s of %s, which is no longer live", c.Fn, o.name)
	}
	m.havocBytes(o, 0, uint64(len(o.data)))
}

// havocTarget returns the object numbered id that a havoc of c writes,
// stopping the replay as unsupported when it is no object or a function.
func (m *machine) havocTarget(c *cfa.Call, id uint64) *object {
	if id >= uint64(len(m.objs)) {
		m.unsupported("%s of a pointer to no object", c.Fn)
	}
	o := m.objs[id]
	if o.fn != "" {
		m.unsupported("%s of function %s", c.Fn, o.fn)
	}
	return o
}

// havocBytes gives the n bytes of o from off the next inputs (unsigned
// char), in byte order.
func (m *machine) havocBytes(o *object, off, n uint64) {
	for i := off; i < off+n; i++ {
		o.data[i] = byte(m.input(cfa.UCharType))
		o.init[i] = true
	}
	overwrite(o, int64(off), int64(n))
}

// havocSlice executes CBMC's __CPROVER_havoc_slice(p, n)
// (cfa.HavocSlice) as the SMT encoding states it: n = 0 writes nothing;
// otherwise each byte of the n from p takes the next input (unsigned
// char), in byte order. A range outside a live object (NULL included) is
// undefined behaviour; a function, a pointer to no object and a range of
// more than maxHavocBytes stop the replay as unsupported.
func (m *machine) havocSlice(c *cfa.Call, arg func(int) uint64) {
	if len(c.Args) != 2 {
		m.unsupported("%s called with %d arguments", c.Fn, len(c.Args))
	}
	id, off := m.split(arg(0))
	n := arg(1)
	switch {
	case n == 0:
		return
	case id == 0:
		m.ub("invalid memory access: %s of NULL", c.Fn)
	}
	o := m.havocTarget(c, id)
	switch {
	case n > maxHavocBytes:
		m.unsupported("%s of %d bytes (more than %d)", c.Fn, n, maxHavocBytes)
	case off > uint64(len(o.data)) || n > uint64(len(o.data))-off:
		m.ub("invalid memory access: %s of %d bytes at offset %d of %s (%d bytes)", c.Fn, n, off, o.name, len(o.data))
	case !o.live:
		m.ub("invalid memory access: %s of %s, which is no longer live", c.Fn, o.name)
	}
	m.havocBytes(o, off, n)
}

// uninterpreted executes a call of one of CBMC's uninterpreted functions
// (cfa.Uninterpreted) as the SMT encoding states it (a pure external
// function: its scalar arguments evaluated, the result an input), and
// checks that it is a function: a second call with the same argument
// values must give the same result, else the replay stops (unsupported),
// so no counterexample rests on two different results for one argument.
func (m *machine) uninterpreted(c *cfa.Call, arg func(int) uint64) {
	key := c.Fn
	for i, a := range c.Args {
		if !a.Type().IsScalar() {
			m.unsupported("%s with an aggregate argument %d", c.Fn, i+1)
		}
		key += fmt.Sprintf(" %#x", arg(i))
	}
	if c.Result == nil {
		return
	}
	lv := m.lval(c.Result)
	if lv.t.Kind == cfa.Pointer || !lv.t.IsScalar() {
		m.unsupported("external function %s returning a pointer or aggregate", c.Fn)
	}
	v := m.input(lv.t)
	if m.uf == nil {
		m.uf = map[string]uint64{}
	}
	if old, ok := m.uf[key]; ok && old != v {
		m.unsupported("%s gives %d and %d for the same arguments: no function", c.Fn, old, v)
	}
	m.uf[key] = v
	m.write(lv, v)
}
