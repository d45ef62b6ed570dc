package value

// tree is a persistent treap from memory cells (object, byte offset) to
// values. Priorities are a hash of the key, so a set of keys has exactly
// one shape: equal maps built along different paths share structure, and
// every update copies only the path to the changed node (O(log n)
// expected). A nil *node is the empty map. Nodes are never modified after
// they are published.
type node struct {
	obj  uint64
	off  int64
	val  Value
	size uint8 // bytes (1..8)
	prio uint64
	l, r *node
}

func prio(obj uint64, off int64) uint64 {
	x := obj*0x9e3779b97f4a7c15 ^ uint64(off)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return x
}

func keyLess(ao uint64, aoff int64, bo uint64, boff int64) bool {
	return ao < bo || (ao == bo && aoff < boff)
}

func higher(a, b *node) bool {
	return a.prio > b.prio || (a.prio == b.prio && keyLess(a.obj, a.off, b.obj, b.off))
}

// get returns the cell at exactly (obj, off), or nil.
func (t *node) get(obj uint64, off int64) *node {
	for t != nil {
		switch {
		case keyLess(obj, off, t.obj, t.off):
			t = t.l
		case keyLess(t.obj, t.off, obj, off):
			t = t.r
		default:
			return t
		}
	}
	return nil
}

// floor returns the cell with the greatest key ≤ (obj, off), or nil.
func (t *node) floor(obj uint64, off int64) *node {
	var best *node
	for t != nil {
		if keyLess(obj, off, t.obj, t.off) {
			t = t.l
		} else {
			best = t
			t = t.r
		}
	}
	return best
}

// ceil returns the cell with the least key ≥ (obj, off), or nil.
func (t *node) ceil(obj uint64, off int64) *node {
	var best *node
	for t != nil {
		if keyLess(t.obj, t.off, obj, off) {
			t = t.r
		} else {
			best = t
			t = t.l
		}
	}
	return best
}

// put returns t with the cell (obj, off) set to (v, size).
func (t *node) put(obj uint64, off int64, v Value, size uint8) *node {
	if old := t.get(obj, off); old != nil && old.val == v && old.size == size {
		return t
	}
	return insert(t, &node{obj: obj, off: off, val: v, size: size, prio: prio(obj, off)})
}

func insert(t, n *node) *node {
	if t == nil {
		return n
	}
	if t.obj == n.obj && t.off == n.off {
		c := *t
		c.val, c.size = n.val, n.size
		return &c
	}
	if higher(n, t) {
		n.l, n.r = split(t, n.obj, n.off)
		return n
	}
	c := *t
	if keyLess(n.obj, n.off, t.obj, t.off) {
		c.l = insert(t.l, n)
	} else {
		c.r = insert(t.r, n)
	}
	return &c
}

// split returns the cells below and above (obj, off); a cell at exactly
// (obj, off) is dropped.
func split(t *node, obj uint64, off int64) (l, r *node) {
	if t == nil {
		return nil, nil
	}
	switch {
	case keyLess(t.obj, t.off, obj, off):
		c := *t
		c.r, r = split(t.r, obj, off)
		return &c, r
	case keyLess(obj, off, t.obj, t.off):
		c := *t
		l, c.l = split(t.l, obj, off)
		return l, &c
	}
	return t.l, t.r
}

// splitAt returns the cells below (obj, off) and those at or above it.
func splitAt(t *node, obj uint64, off int64) (l, r *node) {
	if t == nil {
		return nil, nil
	}
	if keyLess(t.obj, t.off, obj, off) {
		c := *t
		c.r, r = splitAt(t.r, obj, off)
		return &c, r
	}
	c := *t
	l, c.l = splitAt(t.l, obj, off)
	return l, &c
}

// join concatenates l and r, all of whose keys are below r's.
func join(l, r *node) *node {
	if l == nil {
		return r
	}
	if r == nil {
		return l
	}
	if higher(l, r) {
		c := *l
		c.r = join(l.r, r)
		return &c
	}
	c := *r
	c.l = join(l, r.l)
	return &c
}

// del returns t without the cell (obj, off).
func (t *node) del(obj uint64, off int64) *node {
	if t.get(obj, off) == nil {
		return t
	}
	return del(t, obj, off)
}

func del(t *node, obj uint64, off int64) *node {
	switch {
	case keyLess(obj, off, t.obj, t.off):
		c := *t
		c.l = del(t.l, obj, off)
		return &c
	case keyLess(t.obj, t.off, obj, off):
		c := *t
		c.r = del(t.r, obj, off)
		return &c
	}
	return join(t.l, t.r)
}

// delRange returns t without the cells with keys in [lo, hi).
func (t *node) delRange(loObj uint64, loOff int64, hiObj uint64, hiOff int64) *node {
	c := t.ceil(loObj, loOff)
	if c == nil || !keyLess(c.obj, c.off, hiObj, hiOff) {
		return t
	}
	l, m := splitAt(t, loObj, loOff)
	_, r := splitAt(m, hiObj, hiOff)
	return join(l, r)
}

// ascend calls f on the cells with keys in [lo, hi) in key order until f
// returns false.
func (t *node) ascend(loObj uint64, loOff int64, hiObj uint64, hiOff int64, f func(*node) bool) bool {
	if t == nil {
		return true
	}
	if keyLess(loObj, loOff, t.obj, t.off) {
		if !t.l.ascend(loObj, loOff, hiObj, hiOff, f) {
			return false
		}
	}
	if !keyLess(t.obj, t.off, loObj, loOff) && keyLess(t.obj, t.off, hiObj, hiOff) {
		if !f(t) {
			return false
		}
	}
	if keyLess(t.obj, t.off, hiObj, hiOff) {
		return t.r.ascend(loObj, loOff, hiObj, hiOff, f)
	}
	return true
}

// each calls f on every cell in key order until f returns false.
func (t *node) each(f func(*node) bool) bool {
	if t == nil {
		return true
	}
	return t.l.each(f) && f(t) && t.r.each(f)
}

// filter returns the cells of t for which keep holds, sharing unchanged
// subtrees.
func (t *node) filter(keep func(*node) bool) *node {
	if t == nil {
		return nil
	}
	l := t.l.filter(keep)
	r := t.r.filter(keep)
	if !keep(t) {
		return join(l, r)
	}
	if l == t.l && r == t.r {
		return t
	}
	c := *t
	c.l, c.r = l, r
	return &c
}

// len returns the number of cells (O(n)).
func (t *node) len() int {
	if t == nil {
		return 0
	}
	return 1 + t.l.len() + t.r.len()
}

// mapVals returns t with every value v replaced by f(v), sharing
// unchanged subtrees (the keys, and so the shape, stay the same).
func (t *node) mapVals(f func(Value) Value) *node {
	if t == nil {
		return nil
	}
	l := t.l.mapVals(f)
	r := t.r.mapVals(f)
	v := f(t.val)
	if l == t.l && r == t.r && v == t.val {
		return t
	}
	c := *t
	c.l, c.r, c.val = l, r, v
	return &c
}

// covers reports whether every cell of b is a cell of a with the same
// value and size. A node of b found in a as the same node heads a
// subtree that both share (nodes are immutable), so its descendants are
// skipped: comparing a state with one derived from it costs about the
// cells changed in between, not the size of the map, and allocates
// nothing.
func covers(a, b *node) bool {
	if b == nil || a == b {
		return true
	}
	m := a.get(b.obj, b.off)
	if m == nil || m.val != b.val || m.size != b.size {
		return false
	}
	if m == b {
		return true
	}
	return covers(a, b.l) && covers(a, b.r)
}
