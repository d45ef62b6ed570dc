package property_test

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// TestMulti runs the same step sequences through Multi over three
// properties (p0: the wrapper's error edge inside Via; p1: the same edge
// inside the other call site; p2: a direct error call) and checks each
// outcome: the targets named, and the continuation that the other
// properties follow.
func TestMulti(t *testing.T) {
	p := cfa.NewProgram(cfa.LP64)
	wrap := p.NewFunction("__VERIFIER_assert", &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType})
	l := p.NewLocation(wrap)
	errEdge := p.AddEdge(wrap.Entry, l, &cfa.Call{Fn: "reach_error"}, cfa.Range{}, "")
	p.AddEdge(l, wrap.Exit, &cfa.Noop{}, cfa.Range{}, "")
	main := p.NewFunction("main", &cfa.Type{Kind: cfa.Func, Result: cfa.IntT})
	m1, m2 := p.NewLocation(main), p.NewLocation(main)
	via0 := p.AddEdge(main.Entry, m1, &cfa.Call{Fn: "__VERIFIER_assert"}, cfa.Range{}, "")
	via1 := p.AddEdge(m1, m2, &cfa.Call{Fn: "__VERIFIER_assert"}, cfa.Range{}, "")
	direct := p.AddEdge(m2, main.Exit, &cfa.Call{Fn: "reach_error"}, cfa.Range{}, "")
	specs := []property.Spec{
		{Name: "p0", ErrorEdges: []*cfa.Edge{errEdge}, Via: via0},
		{Name: "p1", ErrorEdges: []*cfa.Edge{errEdge}, Via: via1},
		{Name: "p2", ErrorEdges: []*cfa.Edge{direct}},
	}
	type step = cfa.Step
	enter := func(e *cfa.Edge) step { return step{Edge: e, Kind: cfa.Enter, Callee: wrap} }
	leave := func(e *cfa.Edge) step { return step{Edge: e, Kind: cfa.Leave, Callee: wrap} }
	intra := func(e *cfa.Edge) step { return step{Edge: e} }
	for _, tc := range []struct {
		name     string
		inactive []int
		steps    []step
		// want lists the successors of the last step ("dead": none)
		want []string
	}{
		{"inside via0: p0 only, and a continuation", nil, []step{enter(via0), intra(errEdge)}, []string{"target[0]", "p0:via1"}},
		{"inside via1: p1 only", nil, []step{enter(via1), intra(errEdge)}, []string{"target[1]", "p1:via1"}},
		{"direct call: p2", nil, []step{intra(direct)}, []string{"target[2]", "ok"}},
		{"leaving via0", nil, []step{enter(via0), leave(via0)}, []string{"ok"}},
		{"nesting counts", nil, []step{enter(via0), enter(via1), leave(via1)}, []string{"p0:via1"}},
		{"nested via: both targets", nil, []step{enter(via0), enter(via1), intra(errEdge)}, []string{"target[0 1]", "p0:via2,p1:via1"}},
		{"deactivated p0: no target", []int{0}, []step{enter(via0), intra(errEdge)}, []string{"p0:via1"}},
		{"deactivated p0, nested: p1 only", []int{0}, []step{enter(via0), enter(via1), intra(errEdge)}, []string{"target[1]", "p0:via2,p1:via1"}},
	} {
		m := property.NewMulti(specs)
		for _, i := range tc.inactive {
			m.Deactivate(i)
		}
		s, _ := m.Initial()
		var out []cpa.State
		for k, st := range tc.steps {
			var err error
			out, err = m.Successors(nil, s, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) == 0 {
				break
			}
			s = out[len(out)-1] // the continuation
			if k < len(tc.steps)-1 && s.(cpa.Targetable).IsTarget() {
				t.Fatalf("%s: continuation is a target", tc.name)
			}
		}
		var got []string
		for _, x := range out {
			ms := x.(*property.MultiState)
			if ms.IsTarget() != (len(ms.Targets) > 0) {
				t.Errorf("%s: IsTarget disagrees", tc.name)
			}
			got = append(got, ms.String())
		}
		if len(out) == 0 {
			got = []string{"dead"}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	m := property.NewMulti(specs)
	a, _ := m.Initial()
	b, _ := m.Successors(nil, a, enter(via0), nil)
	c, _ := m.Successors(nil, a, enter(via0), nil)
	if !m.LessOrEqual(b[0], c[0]) || m.LessOrEqual(a, b[0]) {
		t.Errorf("LessOrEqual is not equality")
	}
	tg, _ := m.Successors(nil, a, intra(direct), nil)
	if after, _ := m.Successors(nil, tg[0], intra(direct), nil); !tg[0].(cpa.Targetable).IsTarget() || len(after) != 0 {
		t.Errorf("a target has successors %v", after)
	}
}
