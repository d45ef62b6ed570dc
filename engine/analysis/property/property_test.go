package property_test

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

func TestProperty(t *testing.T) {
	p := cfa.NewProgram(cfa.LP64)
	wrap := p.NewFunction("__VERIFIER_assert", &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType})
	l := p.NewLocation(wrap)
	errEdge := p.AddEdge(wrap.Entry, l, &cfa.Call{Fn: "reach_error"}, cfa.Range{}, "")
	other := p.AddEdge(l, wrap.Exit, &cfa.Noop{}, cfa.Range{}, "")
	main := p.NewFunction("main", &cfa.Type{Kind: cfa.Func, Result: cfa.IntT})
	m1 := p.NewLocation(main)
	via := p.AddEdge(main.Entry, m1, &cfa.Call{Fn: "__VERIFIER_assert"}, cfa.Range{}, "")
	notVia := p.AddEdge(m1, main.Exit, &cfa.Call{Fn: "__VERIFIER_assert"}, cfa.Range{}, "")
	if got := property.ErrorCalls(p, "reach_error"); len(got) != 1 || got[0] != errEdge {
		t.Fatalf("ErrorCalls = %v", got)
	}

	type step = cfa.Step
	enter := func(e *cfa.Edge) step { return step{Edge: e, Kind: cfa.Enter, Callee: wrap} }
	leave := func(e *cfa.Edge) step { return step{Edge: e, Kind: cfa.Leave, Callee: wrap} }
	intra := func(e *cfa.Edge) step { return step{Edge: e} }
	for _, tc := range []struct {
		name  string
		via   *cfa.Edge
		steps []step
		want  string // final state, "dead" if no successor
	}{
		{"no via: error edge is target", nil, []step{intra(errEdge)}, "target"},
		{"no via: other edge", nil, []step{intra(other)}, "ok"},
		{"via: outside is no target", via, []step{enter(notVia), intra(errEdge)}, "ok"},
		{"via: inside is target", via, []step{enter(via), intra(errEdge)}, "target"},
		{"via: nested calls stay inside", via, []step{enter(via), enter(notVia), intra(errEdge)}, "target"},
		{"via: after leaving", via, []step{enter(via), leave(via), intra(errEdge)}, "ok"},
		{"via: nesting counts", via, []step{enter(via), enter(notVia), leave(notVia)}, "via1"},
		{"target has no successor", nil, []step{intra(errEdge), intra(other)}, "dead"},
	} {
		c := property.New(property.Spec{Name: "p", ErrorEdges: []*cfa.Edge{errEdge}, Via: tc.via})
		s, _ := c.Initial()
		got := ""
		for _, st := range tc.steps {
			out, err := c.Successors(nil, s, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) == 0 {
				got = "dead"
				break
			}
			s = out[0]
		}
		if got == "" {
			got = s.(*property.State).String()
			if s.(cpa.Targetable).IsTarget() != (got == "target") {
				t.Errorf("%s: IsTarget disagrees", tc.name)
			}
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
