package features_test

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/features"
)

// TestClasses: one program per class, built by hand, with the counts
// behind its class.
func TestClasses(t *testing.T) {
	u := cfa.IntType(32, false)
	cases := []struct {
		name  string
		build func(b *cfatest.B)
		want  string
	}{
		{"no loop", func(b *cfatest.B) {
			x := b.Local("x", cfa.IntT)
			b.Havoc(b.V(x))
			b.If(b.Lt(b.V(x), b.I(0)), func() { b.Error() }, nil)
		}, "loop-free: 7 edges"},
		{"flags only (lock-step)", func(b *cfatest.B) {
			c, lk := b.Local("c", cfa.IntT), b.Local("lk", cfa.IntT)
			b.Havoc(b.V(c))
			b.While(b.Ne(b.V(c), b.I(0)), func() {
				b.Assign(b.V(lk), b.I(1))
				b.Havoc(b.V(c))
				b.Assign(b.V(lk), b.I(0))
			})
		}, "finite-state: 1 loop (1 finite), 11 edges"},
		{"counting to a constant", func(b *cfatest.B) {
			i, n := b.Local("i", cfa.IntT), b.Local("n", cfa.IntT)
			b.Havoc(b.V(n))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.I(1024)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.I(2))); b.Assign(b.V(n), b.Add(b.V(n), b.V(i))) })
		}, "counting: 1 loop (1 counting), 11 edges"},
		{"a step that is an input bounds the loop by it", func(b *cfatest.B) {
			i, n := b.Local("i", cfa.IntT), b.Local("n", cfa.IntT)
			b.Havoc(b.V(n))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.I(1024)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.V(n))) })
		}, "invariant: 1 loop (1 input-bounded), 10 edges"},
		{"bound is an input", func(b *cfatest.B) {
			i, n := b.Local("i", cfa.IntT), b.Local("n", cfa.IntT)
			b.Havoc(b.V(n))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.V(n)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.I(1))) })
		}, "invariant: 1 loop (1 input-bounded), 10 edges"},
		{"input reaches the bound through a copy and a call", func(b *cfatest.B) {
			i, n, m := b.Local("i", cfa.IntT), b.Local("n", cfa.IntT), b.Local("m", cfa.IntT)
			b.Call(b.V(n), "read_config")
			b.Assign(b.V(m), b.V(n))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.V(m)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.I(1))) })
		}, "affine: 1 loop (1 input-bounded), 1 affine equality, 12 edges"}, // m == n
		{"a loop that moves two variables together", func(b *cfatest.B) {
			x, y, n := b.Local("x", cfa.IntT), b.Local("y", cfa.IntT), b.Local("n", cfa.IntT)
			b.Havoc(b.V(n))
			b.Assign(b.V(x), b.V(n))
			b.Assign(b.V(y), b.I(0))
			b.While(b.Lt(b.I(0), b.V(x)), func() {
				b.Assign(b.V(x), b.Sub(b.V(x), b.I(1)))
				b.Assign(b.V(y), b.Add(b.V(y), b.I(1)))
			})
		}, "affine: 1 loop (1 input-bounded), 1 affine equality, 13 edges"}, // n == x + y
		{"bound over 65,536", func(b *cfatest.B) {
			x := b.Local("x", u)
			b.Assign(b.V(x), b.C(u, 0))
			b.While(b.Lt(b.V(x), b.C(u, 0x0fffffff)), func() { b.Assign(b.V(x), b.Add(b.V(x), b.C(u, 2))) })
		}, "invariant: 1 loop (1 input-bounded), 8 edges"},
		{"a buffer bounds an input-bounded loop", func(b *cfatest.B) {
			i, n := b.Local("i", cfa.IntT), b.Local("n", cfa.IntT)
			buf := b.Local("buf", cfa.ArrayOf(cfa.IntT, 8))
			b.Havoc(b.V(n))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.V(n)), func() {
				b.Assign(b.Index(b.V(buf), b.V(i)), b.I(0))
				b.Assign(b.V(i), b.Add(b.V(i), b.I(1)))
			})
		}, "counting: 1 loop (1 input-bounded), arrays, 12 edges"},
		{"a counting loop over an array of constant length", func(b *cfatest.B) {
			i := b.Local("i", cfa.IntT)
			buf := b.Local("buf", cfa.ArrayOf(cfa.IntT, 8))
			b.Assign(b.V(i), b.I(0))
			b.While(b.Lt(b.V(i), b.I(8)), func() {
				b.Assign(b.Index(b.V(buf), b.V(i)), b.V(i))
				b.Assign(b.V(i), b.Add(b.V(i), b.I(1)))
			})
		}, "arrays: 1 loop (1 counting), arrays, 10 edges"},
		{"an input pinned to a constant by the early return after it", func(b *cfatest.B) {
			i, c := b.Local("i", cfa.IntT), b.Local("c", cfa.IntT)
			b.Havoc(b.V(i))
			b.Havoc(b.V(c))
			b.If(b.Bin(cfa.LAnd, b.Eq(b.V(c), b.I(0)), b.Eq(b.V(i), b.I(0))), nil, func() { b.Return(b.I(0)) })
			b.While(b.Lt(b.V(i), b.I(100)), func() { b.Assign(b.V(c), b.Add(b.V(c), b.V(i))); b.Assign(b.V(i), b.Add(b.V(i), b.I(1))) })
		}, "counting: 1 loop (1 counting), 15 edges"},
		{"an input pinned and then read again", func(b *cfatest.B) {
			i := b.Local("i", cfa.IntT)
			b.Havoc(b.V(i))
			b.If(b.Ne(b.V(i), b.I(0)), func() { b.Return(b.I(0)) }, nil)
			b.Havoc(b.V(i))
			b.While(b.Lt(b.V(i), b.I(100)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.I(1))) })
		}, "invariant: 1 loop (1 input-bounded), 13 edges"},
		{"a negative bound is small", func(b *cfatest.B) {
			x := b.Local("x", cfa.IntT)
			b.Assign(b.V(x), b.I(0))
			b.While(b.Lt(b.I(-100), b.V(x)), func() { b.Assign(b.V(x), b.Sub(b.V(x), b.I(1))) })
		}, "counting: 1 loop (1 counting), 8 edges"},
	}
	for _, c := range cases {
		b := cfatest.New()
		b.Func("main")
		c.build(b)
		p := b.Finish(t)
		if got := features.Of(p, "main").String(); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHeapAndRecursion: allocation makes a program with loops Heap, a
// function that calls itself is recursion, and a function the entry does
// not reach is not counted.
func TestHeapAndRecursion(t *testing.T) {
	b := cfatest.New()
	b.Func("walk", cfa.IntT)
	b.If(b.Lt(b.V(b.Param(0)), b.I(1)), func() { b.Return(b.I(0)) }, nil)
	r := b.Local("r", cfa.IntT)
	b.Call(b.V(r), "walk", b.Sub(b.V(b.Param(0)), b.I(1)))
	b.Return(b.V(r))
	b.Func("unreached")
	k := b.Local("k", cfa.IntT)
	b.While(b.Lt(b.V(k), b.I(3)), func() { b.Assign(b.V(k), b.Add(b.V(k), b.I(1))) })
	b.Func("main")
	p, n := b.Local("p", cfa.PointerTo(cfa.IntT, 32)), b.Local("n", cfa.IntT)
	b.Call(b.V(p), "malloc", b.I(4))
	b.Havoc(b.V(n))
	b.While(b.Ne(b.V(n), b.I(0)), func() { b.Call(b.V(n), "walk", b.V(n)) })
	prog := b.Finish(t)
	f := features.Of(prog, "main")
	if !f.Heap || !f.Recursion || f.Loops != 1 || f.Class() != features.Heap {
		t.Errorf("got %s (heap %v, recursion %v), want a heap program with recursion and 1 loop", f, f.Heap, f.Recursion)
	}
	if got := features.Of(prog, "nosuch"); got.Edges != 0 {
		t.Errorf("no entry: got %s, want the zero features", got)
	}
}
