package symval_test

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/analysis/symbolic/symval"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

// TestIndexedStore runs the value analysis in symbolic mode over the
// example of the package documentation: a store through a symbolic index
// into a small array writes every element by an if-then-else, a read of
// another element sees it, and an integer operation on the input is a
// term with the C semantics.
func TestIndexedStore(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	a := b.Local("a", cfa.ArrayOf(cfa.IntT, 4))
	a.AddrTaken = true
	i := b.Local("i", cfa.IntT)
	x := b.Local("x", cfa.IntT)
	y := b.Local("y", cfa.IntT)
	b.Havoc(b.V(i))
	b.Assign(b.Index(b.V(a), b.V(i)), b.I(7))
	b.Assign(b.V(x), b.Index(b.V(a), b.I(2)))
	b.Assign(b.V(y), b.Add(b.V(i), b.I(1)))
	b.Op(&cfa.Noop{Label: "end"})
	prog := b.Finish(t)
	sb := smt.NewBuilder()
	cfg := cpatest.Config{Value: value.Options{Symbolic: symval.New(prog, sb, symval.Options{})}}
	alg, st, _ := cpatest.Run(t, prog, cfg, cpa.Options{})
	if st != cpa.Safe {
		t.Fatal(st)
	}
	end := cpatest.ValueAfter(t, alg, "main", "end")
	in, ok := end.Term(i)
	if !ok || in.Op != smt.Var {
		t.Fatalf("i = %v, %v; want a symbol", in, ok)
	}
	xt, ok := end.Term(x)
	if !ok || xt.Op != smt.Ite {
		t.Fatalf("x = %v, %v; want an if-then-else over the index", xt, ok)
	}
	if yt, ok := end.Term(y); !ok || yt != sb.Add(in, sb.BV(1, 32)) {
		t.Errorf("y = %v, %v; want (bvadd i #x00000001)", yt, ok)
	}
	// Under i = 2, x is 7; under i = 3, x is a[2] as it was before the store.
	x2 := smt.Substitute(sb, xt, map[*smt.Term]*smt.Term{in: sb.BV(2, 32)})
	if x2 != sb.BV(7, 32) {
		t.Errorf("x under i = 2 is %v, want 7", x2)
	}
	if x3 := smt.Substitute(sb, xt, map[*smt.Term]*smt.Term{in: sb.BV(3, 32)}); x3.Op == smt.BVConst || x3 == xt {
		t.Errorf("x under i = 3 is %v, want a[2]'s symbol", x3)
	}
	if end.Syms() == 0 {
		t.Error("no symbols counted on the path")
	}
}
