package pdg

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// hashProgram builds a small program from a description and returns the
// hash of the slice of its error call. Options change it in the ways the
// tests need.
type hashOpts struct {
	lineShift   int    // add to every line
	swap        bool   // swap x = 1 and x = x * 2
	long        bool   // x is 64-bit (a typedef's width changed)
	unrelated   bool   // add a function nobody calls
	irrelevant  bool   // add an irrelevant statement before the relevant ones
	tempName    string // name of the temporary (renumbered temporaries)
	textSpacing bool   // different white space and a comment in the source text
	weaker      bool   // assume_abort_if_not(x < 100) instead of (x < 10)
	bound       int    // the constant in the assertion
}

func hashProgram(t *testing.T, o hashOpts) string {
	p := newTP(t)
	line := func(n int) string { return fmt.Sprintf(" @%d", n+o.lineShift) }
	a := p.fn("assume_abort_if_not", "void", "s0", "s9", "int cond")
	a.br("s0 s9 s1 cond" + line(1))
	a.e("s1 s2 call abort()" + line(1))
	a.term("s2")
	if o.unrelated {
		u := p.fn("helper", "int", "u0", "u9", "int a")
		u.e("u0 u9 return a + 1" + line(3))
	}
	m := p.fn("main", "int", "l0", "l9", "")
	if o.long {
		m.locals("long x; int z")
	} else {
		m.locals("int x z")
	}
	tmp := o.tempName
	if tmp == "" {
		tmp = "__t1"
	}
	m.locals("int " + tmp)
	m.f.Locals[len(m.f.Locals)-1].Temp = true
	m.f.Locals[len(m.f.Locals)-1].Orig = ""
	cur := "l0"
	if o.irrelevant {
		m.e("l0 l0a z = 42" + line(5))
		cur = "l0a"
	}
	first, second := "x = 1", "x = x * 2"
	if o.swap {
		first, second = second, first
	}
	m.e(cur + " l1 " + first + line(6))
	m.e("l1 l2 " + second + line(7))
	m.e("l2 l3 " + tmp + " = ?" + line(8))
	bound := "10"
	if o.weaker {
		bound = "100"
	}
	m.e("l3 l4 call assume_abort_if_not(" + tmp + " < " + bound + ")" + line(8))
	b := o.bound
	if b == 0 {
		b = 20
	}
	m.br(fmt.Sprintf("l4 l6 l5 x + %s < %d", tmp, b) + line(9))
	m.e("l5 l6 call reach_error()" + line(10))
	m.e("l6 l9 return 0" + line(11))
	p.done()
	for _, e := range p.p.Edges {
		// Source text never names temporaries.
		e.Text = strings.ReplaceAll(e.Text, tmp, "__VERIFIER_nondet_int()")
	}
	if o.textSpacing {
		for _, e := range p.p.Edges {
			e.Text = strings.ReplaceAll(e.Text, " ", "   ") + " /* note */"
		}
	}
	g := Build(p.p)
	s := g.Slice([]*cfa.Edge{m.edge("l5 l6")})
	return s.Hash("LP64", "main")
}

func TestSliceHash(t *testing.T) {
	base := hashProgram(t, hashOpts{})
	if len(base) != 64 {
		t.Fatalf("hash %q is not hex SHA-256", base)
	}
	same := []struct {
		name string
		o    hashOpts
	}{
		{"lines shifted down", hashOpts{lineShift: 17}},
		{"unrelated function added", hashOpts{unrelated: true}},
		{"irrelevant statement added", hashOpts{irrelevant: true}},
		{"temporary renumbered", hashOpts{tempName: "__t7"}},
		{"white space and comments", hashOpts{textSpacing: true}},
	}
	for _, c := range same {
		if h := hashProgram(t, c.o); h != base {
			t.Errorf("%s: hash changed", c.name)
		}
	}
	differ := []struct {
		name string
		o    hashOpts
	}{
		{"statements swapped", hashOpts{swap: true}},
		{"variable widened (typedef)", hashOpts{long: true}},
		{"assume_abort_if_not weakened", hashOpts{weaker: true}},
		{"assertion changed", hashOpts{bound: 30}},
	}
	for _, c := range differ {
		if h := hashProgram(t, c.o); h == base {
			t.Errorf("%s: hash did not change", c.name)
		}
	}
	if hashProgram(t, hashOpts{}) != base {
		t.Error("hash is not deterministic")
	}
}

func TestSliceHashExtra(t *testing.T) {
	p, m := runningExample(t)
	g := Build(p.p)
	s := g.Slice([]*cfa.Edge{m.edge("l13 l19")})
	if s.Hash("a", "b") == s.Hash("ab") || s.Hash("a") == s.Hash("b") || s.Hash("a") != s.Hash("a") {
		t.Error("extra strings do not enter the hash distinctly")
	}
	got := s.Normalized("LP64")
	checkText(t, "normalized slice", got, `
reverify-slice/2
extra "LP64"
func main fn()i32
  c0 -> c1  x#0:i32 = nondet __VERIFIER_nondet_int  |x=?
  c1 -> c2  y#0:i32 = 1:i32  |y=1
  c2 -> c3  [(x#0:i32 > 0:i32):i32]  |x>0
  c2 -> c4  [!(x#0:i32 > 0:i32):i32]  |x>0
  c4 -> c5  [((x#0:i32 < 0:i32):i32 && (y#0:i32 < 0:i32):i32):i32]  |x<0&&y<0
  c4 -> c6  [!((x#0:i32 < 0:i32):i32 && (y#0:i32 < 0:i32):i32):i32]  |x<0&&y<0
  c5 -> c6  call error()  |call error()  criterion
  c3 -> c2  x#0:i32 = (x#0:i32 - 1:i32):i32  |x=x-1
  exit c6
`)
}
