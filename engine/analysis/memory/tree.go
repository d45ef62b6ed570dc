package memory

// Node is a persistent treap from memory cells (object, byte offset) to
// values. Priorities are a hash of the key, so a set of keys has exactly
// one shape: equal maps built along different paths share structure, and
// every update copies only the path to the changed node (O(log n)
// expected). A nil *Node is the empty map. Nodes are never modified after
// they are published.
type Node struct {
	Obj  uint64
	Off  int64
	Val  Value
	Size uint8 // bytes (1..8)
	prio uint64
	l, r *Node
}

// Prio is the priority of the cell (obj, off) in the treap, a hash of
// its key (the value analysis also hashes cells with it).
func Prio(obj uint64, off int64) uint64 {
	x := obj*0x9e3779b97f4a7c15 ^ uint64(off)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	return x
}

func keyLess(ao uint64, aoff int64, bo uint64, boff int64) bool {
	return ao < bo || (ao == bo && aoff < boff)
}

func higher(a, b *Node) bool {
	return a.prio > b.prio || (a.prio == b.prio && keyLess(a.Obj, a.Off, b.Obj, b.Off))
}

// Get returns the cell at exactly (obj, off), or nil.
func (t *Node) Get(obj uint64, off int64) *Node {
	for t != nil {
		switch {
		case keyLess(obj, off, t.Obj, t.Off):
			t = t.l
		case keyLess(t.Obj, t.Off, obj, off):
			t = t.r
		default:
			return t
		}
	}
	return nil
}

// Floor returns the cell with the greatest key ≤ (obj, off), or nil.
func (t *Node) Floor(obj uint64, off int64) *Node {
	var best *Node
	for t != nil {
		if keyLess(obj, off, t.Obj, t.Off) {
			t = t.l
		} else {
			best = t
			t = t.r
		}
	}
	return best
}

// Ceil returns the cell with the least key ≥ (obj, off), or nil.
func (t *Node) Ceil(obj uint64, off int64) *Node {
	var best *Node
	for t != nil {
		if keyLess(t.Obj, t.Off, obj, off) {
			t = t.r
		} else {
			best = t
			t = t.l
		}
	}
	return best
}

// Put returns t with the cell (obj, off) set to (v, size).
func (t *Node) Put(obj uint64, off int64, v Value, size uint8) *Node {
	if old := t.Get(obj, off); old != nil && old.Val == v && old.Size == size {
		return t
	}
	return insert(t, &Node{Obj: obj, Off: off, Val: v, Size: size, prio: Prio(obj, off)})
}

func insert(t, n *Node) *Node {
	if t == nil {
		return n
	}
	if t.Obj == n.Obj && t.Off == n.Off {
		c := *t
		c.Val, c.Size = n.Val, n.Size
		return &c
	}
	if higher(n, t) {
		n.l, n.r = split(t, n.Obj, n.Off)
		return n
	}
	c := *t
	if keyLess(n.Obj, n.Off, t.Obj, t.Off) {
		c.l = insert(t.l, n)
	} else {
		c.r = insert(t.r, n)
	}
	return &c
}

// split returns the cells below and above (obj, off); a cell at exactly
// (obj, off) is dropped.
func split(t *Node, obj uint64, off int64) (l, r *Node) {
	if t == nil {
		return nil, nil
	}
	switch {
	case keyLess(t.Obj, t.Off, obj, off):
		c := *t
		c.r, r = split(t.r, obj, off)
		return &c, r
	case keyLess(obj, off, t.Obj, t.Off):
		c := *t
		l, c.l = split(t.l, obj, off)
		return l, &c
	}
	return t.l, t.r
}

// splitAt returns the cells below (obj, off) and those at or above it.
func splitAt(t *Node, obj uint64, off int64) (l, r *Node) {
	if t == nil {
		return nil, nil
	}
	if keyLess(t.Obj, t.Off, obj, off) {
		c := *t
		c.r, r = splitAt(t.r, obj, off)
		return &c, r
	}
	c := *t
	l, c.l = splitAt(t.l, obj, off)
	return l, &c
}

// join concatenates l and r, all of whose keys are below r's.
func join(l, r *Node) *Node {
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

// Del returns t without the cell (obj, off).
func (t *Node) Del(obj uint64, off int64) *Node {
	if t.Get(obj, off) == nil {
		return t
	}
	return del(t, obj, off)
}

func del(t *Node, obj uint64, off int64) *Node {
	switch {
	case keyLess(obj, off, t.Obj, t.Off):
		c := *t
		c.l = del(t.l, obj, off)
		return &c
	case keyLess(t.Obj, t.Off, obj, off):
		c := *t
		c.r = del(t.r, obj, off)
		return &c
	}
	return join(t.l, t.r)
}

// DelRange returns t without the cells with keys in [lo, hi).
func (t *Node) DelRange(loObj uint64, loOff int64, hiObj uint64, hiOff int64) *Node {
	c := t.Ceil(loObj, loOff)
	if c == nil || !keyLess(c.Obj, c.Off, hiObj, hiOff) {
		return t
	}
	l, m := splitAt(t, loObj, loOff)
	_, r := splitAt(m, hiObj, hiOff)
	return join(l, r)
}

// Ascend calls f on the cells with keys in [lo, hi) in key order until f
// returns false.
func (t *Node) Ascend(loObj uint64, loOff int64, hiObj uint64, hiOff int64, f func(*Node) bool) bool {
	if t == nil {
		return true
	}
	if keyLess(loObj, loOff, t.Obj, t.Off) {
		if !t.l.Ascend(loObj, loOff, hiObj, hiOff, f) {
			return false
		}
	}
	if !keyLess(t.Obj, t.Off, loObj, loOff) && keyLess(t.Obj, t.Off, hiObj, hiOff) {
		if !f(t) {
			return false
		}
	}
	if keyLess(t.Obj, t.Off, hiObj, hiOff) {
		return t.r.Ascend(loObj, loOff, hiObj, hiOff, f)
	}
	return true
}

// Each calls f on every cell in key order until f returns false.
func (t *Node) Each(f func(*Node) bool) bool {
	if t == nil {
		return true
	}
	return t.l.Each(f) && f(t) && t.r.Each(f)
}

// Filter returns the cells of t for which keep holds, sharing unchanged
// subtrees.
func (t *Node) Filter(keep func(*Node) bool) *Node {
	if t == nil {
		return nil
	}
	l := t.l.Filter(keep)
	r := t.r.Filter(keep)
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

// Len returns the number of cells (O(n)).
func (t *Node) Len() int {
	if t == nil {
		return 0
	}
	return 1 + t.l.Len() + t.r.Len()
}

// MapVals returns t with every value v replaced by f(v), sharing
// unchanged subtrees (the keys, and so the shape, stay the same).
func (t *Node) MapVals(f func(Value) Value) *Node {
	if t == nil {
		return nil
	}
	l := t.l.MapVals(f)
	r := t.r.MapVals(f)
	v := f(t.Val)
	if l == t.l && r == t.r && v == t.Val {
		return t
	}
	c := *t
	c.l, c.r, c.Val = l, r, v
	return &c
}

// Covers reports whether every cell of b is a cell of a with the same
// value and size. A node of b found in a as the same node heads a
// subtree that both share (nodes are immutable), so its descendants are
// skipped: comparing a state with one derived from it costs about the
// cells changed in between, not the size of the map, and allocates
// nothing.
func Covers(a, b *Node) bool {
	if b == nil || a == b {
		return true
	}
	m := a.Get(b.Obj, b.Off)
	if m == nil || m.Val != b.Val || m.Size != b.Size {
		return false
	}
	if m == b {
		return true
	}
	return Covers(a, b.l) && Covers(a, b.r)
}
