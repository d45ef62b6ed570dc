package smt_test

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// An unmodelled call may write every global and every address-taken
// local (also one whose address escaped at an earlier call), so a path
// on which they changed is feasible; a function declared pure writes
// nothing, and a non-escaped local keeps its value in any case.
func TestUnmodelledCallHavoc(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pure   bool
		target string // g (global register), v (address-taken local), x (register local)
		status smt.Result
	}{
		{"global", false, "g", smt.Sat},
		{"escaped local", false, "v", smt.Sat},
		{"register local", false, "x", smt.Unsat},
		{"global, pure", true, "g", smt.Unsat},
		{"escaped local, pure", true, "v", smt.Unsat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			if tc.pure {
				p.AssumePure = map[string]bool{"ext_keep": true, "ext": true}
			}
			g := p.NewVar(nil, "g", intT)
			m := function(p, "main", intT, &path)
			v, x := m.Local("v", intT), m.Local("x", intT)
			v.AddrTaken = true
			m.Op(assign(ref(g), c(0, intT)))
			m.Op(assign(ref(x), c(0, intT)))
			m.Op(&cfa.Call{Fn: "ext_keep", Args: []cfa.Expr{addr(ref(v), 64)}})
			m.Op(assign(ref(v), c(0, intT)))
			m.Op(&cfa.Call{Fn: "ext"})
			target := map[string]*cfa.Var{"g": g, "v": v, "x": x}[tc.target]
			m.Assume(bin(cfa.Ne, ref(target), c(0, intT), intT), true)
			if r := check(t, p, path); r.Status != tc.status {
				t.Fatalf("status %v (%s), want %v", r.Status, r.Reason, tc.status)
			}
		})
	}
}

// The string.h models: strlen of a known string, strcmp's sign.
func TestStringModels(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fn     string
		want   int64
		status smt.Result
	}{
		{"strlen is 3", "strlen", 3, smt.Sat},
		{"strlen is not 2", "strlen", 2, smt.Unsat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			n := m.Local("n", cfa.IntType(64, false))
			s := &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, 4), Val: "abc"}
			ptr := &cfa.AddrOf{X: index(s, c(0, intT)), T: cfa.PointerTo(cfa.CharType, 64)}
			m.Op(&cfa.Call{Fn: tc.fn, Args: []cfa.Expr{ptr}, Result: ref(n)})
			m.Assume(bin(cfa.Eq, ref(n), c(tc.want, cfa.IntType(64, false)), intT), true)
			if r := check(t, p, path); r.Status != tc.status {
				t.Fatalf("status %v (%s), want %v", r.Status, r.Reason, tc.status)
			}
		})
	}
}
