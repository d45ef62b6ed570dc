package memory

import (
	"math/rand"
	"sort"
	"testing"
)

type key struct {
	obj uint64
	off int64
}

func contents(t *Node) map[key]Value {
	m := map[key]Value{}
	t.Each(func(n *Node) bool {
		m[key{n.Obj, n.Off}] = n.Val
		return true
	})
	return m
}

// checkTreap verifies order and heap invariants.
func checkTreap(t *testing.T, n *Node) {
	t.Helper()
	var prev *Node
	n.Each(func(x *Node) bool {
		if prev != nil && !keyLess(prev.Obj, prev.Off, x.Obj, x.Off) {
			t.Fatalf("keys out of order")
		}
		prev = x
		for _, c := range []*Node{x.l, x.r} {
			if c != nil && higher(c, x) {
				t.Fatalf("heap order violated")
			}
		}
		return true
	})
}

// TestTreeAgainstMap runs random operations on the persistent treap and a
// map side by side, keeping old versions to check persistence.
func TestTreeAgainstMap(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var tr *Node
	ref := map[key]Value{}
	type version struct {
		t   *Node
		ref map[key]Value
	}
	var versions []version
	for i := 0; i < 5000; i++ {
		k := key{uint64(r.Intn(4)), int64(r.Intn(40) - 5)}
		switch op := r.Intn(10); {
		case op < 6:
			v := Value{Bits: uint64(r.Intn(5))}
			tr = tr.Put(k.obj, k.off, v, 4)
			ref[k] = v
		case op < 8:
			tr = tr.Del(k.obj, k.off)
			delete(ref, k)
		case op < 9:
			hi := k.off + int64(r.Intn(10))
			tr = tr.DelRange(k.obj, k.off, k.obj, hi)
			for x := range ref {
				if x.obj == k.obj && x.off >= k.off && x.off < hi {
					delete(ref, x)
				}
			}
		default:
			tr = tr.Filter(func(n *Node) bool { return n.Val.Bits != 0 })
			for x, v := range ref {
				if v.Bits == 0 {
					delete(ref, x)
				}
			}
		}
		if i%97 == 0 {
			cp := map[key]Value{}
			for k, v := range ref {
				cp[k] = v
			}
			versions = append(versions, version{tr, cp})
		}
		checkTreap(t, tr)
	}
	for _, v := range append(versions, version{tr, ref}) {
		got := contents(v.t)
		if len(got) != len(v.ref) || got == nil {
			t.Fatalf("size %d, want %d", len(got), len(v.ref))
		}
		for k, x := range v.ref {
			if got[k] != x {
				t.Fatalf("%v = %v, want %v", k, got[k], x)
			}
		}
	}
	// floor and ceil agree with a sorted key list.
	var keys []key
	for k := range ref {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keyLess(keys[i].obj, keys[i].off, keys[j].obj, keys[j].off) })
	for i := 0; i < 200; i++ {
		q := key{uint64(r.Intn(4)), int64(r.Intn(40) - 5)}
		j := sort.Search(len(keys), func(j int) bool { return !keyLess(keys[j].obj, keys[j].off, q.obj, q.off) })
		c := tr.Ceil(q.obj, q.off)
		if (j == len(keys)) != (c == nil) || (c != nil && (key{c.Obj, c.Off}) != keys[j]) {
			t.Fatalf("ceil(%v) = %v", q, c)
		}
		f := tr.Floor(q.obj, q.off)
		fj := j
		if j < len(keys) && keys[j] == q {
			fj = j + 1
		}
		if (fj == 0) != (f == nil) || (f != nil && (key{f.Obj, f.Off}) != keys[fj-1]) {
			t.Fatalf("floor(%v) = %v", q, f)
		}
	}
}

// TestCanonicalShape: the same cells inserted in different orders give
// structurally equal trees.
func TestCanonicalShape(t *testing.T) {
	var a, b *Node
	for i := int64(0); i < 50; i++ {
		a = a.Put(1, i, Value{Bits: uint64(i)}, 1)
		b = b.Put(1, 49-i, Value{Bits: uint64(49 - i)}, 1)
	}
	var shape func(*Node) string
	shape = func(n *Node) string {
		if n == nil {
			return "."
		}
		return "(" + shape(n.l) + string(rune('0'+n.Off%10)) + shape(n.r) + ")"
	}
	if shape(a) != shape(b) {
		t.Error("shapes differ")
	}
	if a.Put(1, 3, Value{Bits: 3}, 1) != a {
		t.Error("putting an equal cell copied the tree")
	}
}

// TestCovers checks Covers against its definition on random treaps that
// share structure (b derived from a by a few updates, and vice versa).
func TestCovers(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	naive := func(a, b *Node) bool {
		return b.Each(func(n *Node) bool {
			m := a.Get(n.Obj, n.Off)
			return m != nil && m.Val == n.Val && m.Size == n.Size
		})
	}
	mutate := func(x *Node, n int) *Node {
		for i := 0; i < n; i++ {
			k := key{uint64(r.Intn(3)), int64(r.Intn(60))}
			switch r.Intn(4) {
			case 0, 1:
				x = x.Put(k.obj, k.off, Value{Bits: uint64(r.Intn(3))}, uint8(1+r.Intn(2)))
			case 2:
				x = x.Del(k.obj, k.off)
			default:
				x = x.DelRange(k.obj, k.off, k.obj, k.off+int64(r.Intn(8)))
			}
		}
		return x
	}
	agree, disagree := 0, 0
	for i := 0; i < 3000; i++ {
		a := mutate(nil, r.Intn(150))
		b := mutate(a, r.Intn(6))
		if r.Intn(3) == 0 {
			b = b.Filter(func(n *Node) bool { return r.Intn(4) != 0 })
		}
		for _, p := range [][2]*Node{{a, b}, {b, a}, {a, a}, {b, nil}, {nil, b}} {
			want := naive(p[0], p[1])
			if got := Covers(p[0], p[1]); got != want {
				t.Fatalf("covers = %v, want %v", got, want)
			}
			if want {
				agree++
			} else {
				disagree++
			}
		}
	}
	if agree == 0 || disagree == 0 {
		t.Errorf("degenerate test: %d covered, %d not", agree, disagree)
	}
}
