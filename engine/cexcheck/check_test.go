package cexcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// errorPath builds main: x = nondet; assume each of conds (over x) true;
// reach_error(), and returns the program and that path.
func errorPath(conds ...func(x cfa.Expr) cfa.Expr) (*cfa.Program, []cfa.Step) {
	var path []cfa.Step
	p := cfa.NewProgram(cfa.LP64)
	m := cfatest.Function(p, "main", cfa.IntT, &path)
	x := m.Local("x", cfa.IntT)
	m.Op(&cfa.Decl{Var: x})
	m.Op(cfatest.Havoc(cfatest.Ref(x)))
	for _, cond := range conds {
		m.Assume(cond(cfatest.Ref(x)), true)
	}
	m.Op(&cfa.Call{Fn: "reach_error"})
	return p, path
}

func cmp(op cfa.BinaryOp, v int64) func(x cfa.Expr) cfa.Expr {
	return func(x cfa.Expr) cfa.Expr {
		return cfatest.Bin(op, x, cfatest.Const(v, cfa.IntT), cfa.IntT)
	}
}

// TestCheckPath: x == 5 is Feasible with the nondeterministic input 5
// (the last one; the declaration's indeterminate value comes first); x > 100 ∧ x < 50
// is Infeasible; a cancelled check is Undecided with a reason.
func TestCheckPath(t *testing.T) {
	ctx := context.Background()
	p, path := errorPath(cmp(cfa.Eq, 5))
	chk := cexcheck.CheckPath(ctx, p, path, z3.Factory)
	if n := len(chk.Inputs); chk.Status != cexcheck.Feasible || n == 0 || chk.Inputs[n-1].Source != "__VERIFIER_nondet_int" || chk.Inputs[n-1].Value != 5 {
		t.Errorf("x == 5: %s %+v (%s), want feasible with the nondet input 5", chk.Status, chk.Inputs, chk.Reason)
	}
	p, path = errorPath(cmp(cfa.Gt, 100), cmp(cfa.Lt, 50))
	if chk := cexcheck.CheckPath(ctx, p, path, z3.Factory); chk.Status != cexcheck.Infeasible || !strings.Contains(chk.Why(), "infeasible") {
		t.Errorf("x > 100, x < 50: %s (%q), want infeasible, and said so", chk.Status, chk.Why())
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	p, path = errorPath(cmp(cfa.Eq, 5))
	if chk := cexcheck.CheckPath(cancelled, p, path, z3.Factory); chk.Status != cexcheck.Undecided || chk.Reason == "" {
		t.Errorf("cancelled: %s (%q), want undecided with a reason", chk.Status, chk.Reason)
	}
}

// TestCheckCacheKeys: a cache answers a repeated check of the same
// program, semantics and path, and checks anew for another path or
// semantics; a cache bound to another program, and a nil cache, check
// every time; an Undecided check of a cancelled context is not kept.
func TestCheckCacheKeys(t *testing.T) {
	ctx := context.Background()
	p, feasible := errorPath(cmp(cfa.Eq, 5))
	cache := cexcheck.NewCheckCache(p)
	want := []bool{false, true}
	for i, w := range want {
		chk, cached := cache.Check(ctx, p, feasible, z3.Factory, smt.EncodeOptions{})
		if chk.Status != cexcheck.Feasible || cached != w {
			t.Errorf("check %d: %s, cached %v; want feasible, cached %v", i, chk.Status, cached, w)
		}
	}
	if _, cached := cache.Check(ctx, p, feasible, z3.Factory, smt.EncodeOptions{AssumeNoSignedOverflow: true}); cached {
		t.Error("other semantics answered from the cache")
	}
	if _, cached := cache.Check(ctx, p, feasible[:len(feasible)-1], z3.Factory, smt.EncodeOptions{}); cached {
		t.Error("a prefix answered from the cache")
	}
	if hits, misses := cache.Stats(); hits != 1 || misses != 3 {
		t.Errorf("stats %d hits, %d misses; want 1, 3", hits, misses)
	}

	other, _ := errorPath(cmp(cfa.Eq, 5))
	bound := cexcheck.NewCheckCache(other)
	for i := 0; i < 2; i++ {
		if _, cached := bound.Check(ctx, p, feasible, z3.Factory, smt.EncodeOptions{}); cached {
			t.Errorf("check %d through the cache of another program was cached", i)
		}
	}
	var none *cexcheck.CheckCache
	if _, cached := none.Check(ctx, p, feasible, z3.Factory, smt.EncodeOptions{}); cached {
		t.Error("a nil cache answered")
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	fresh := cexcheck.NewCheckCache(nil)
	if chk, _ := fresh.Check(cancelled, p, feasible, z3.Factory, smt.EncodeOptions{}); chk.Status != cexcheck.Undecided {
		t.Fatalf("cancelled: %s, want undecided", chk.Status)
	}
	if chk, cached := fresh.Check(ctx, p, feasible, z3.Factory, smt.EncodeOptions{}); cached || chk.Status != cexcheck.Feasible {
		t.Errorf("after a cancelled check: %s, cached %v; want feasible, not cached", chk.Status, cached)
	}
}

// TestPathKey: equal steps give equal keys, another path another key.
func TestPathKey(t *testing.T) {
	_, a := errorPath(cmp(cfa.Eq, 5))
	if cexcheck.PathKey(a) != cexcheck.PathKey(append([]cfa.Step(nil), a...)) {
		t.Error("a copy of a path has another key")
	}
	if cexcheck.PathKey(a) == cexcheck.PathKey(a[:len(a)-1]) {
		t.Error("a prefix has the path's key")
	}
}
