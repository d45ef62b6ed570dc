package interp

import (
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
	switch {
	case id == 0:
		return
	case id >= uint64(len(m.objs)):
		m.unsupported("%s of a pointer to no object", c.Fn)
	}
	o := m.objs[id]
	switch {
	case o.fn != "":
		m.unsupported("%s of function %s", c.Fn, o.fn)
	case len(o.data) > maxHavocBytes:
		m.unsupported("%s of %s (%d bytes, more than %d)", c.Fn, o.name, len(o.data), maxHavocBytes)
	case !o.live:
		m.ub("invalid memory access: %s of %s, which is no longer live", c.Fn, o.name)
	}
	for i := range o.data {
		o.data[i] = byte(m.input(cfa.UCharType))
		o.init[i] = true
	}
	overwrite(o, 0, int64(len(o.data)))
}
