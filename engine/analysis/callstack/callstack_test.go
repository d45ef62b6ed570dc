package callstack_test

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

func TestStack(t *testing.T) {
	p := cfa.NewProgram(cfa.LP64)
	f := p.NewFunction("f", &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType})
	l := p.NewLocation(f)
	e1 := p.AddEdge(f.Entry, l, &cfa.Call{Fn: "f"}, cfa.Range{}, "")
	e2 := p.AddEdge(l, f.Exit, &cfa.Call{Fn: "f"}, cfa.Range{}, "")
	c := callstack.New(2)
	s0, _ := c.Initial()
	next := func(s cpa.State, step cfa.Step) cpa.State {
		out, err := c.Successors(nil, s, step, nil)
		if err != nil || len(out) > 1 {
			t.Fatal(out, err)
		}
		if len(out) == 0 {
			return nil
		}
		return out[0]
	}
	enter := func(e *cfa.Edge) cfa.Step { return cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f} }
	s1 := next(s0, enter(e1))
	s1b := next(s0, enter(e1))
	if s1 != s1b {
		t.Error("equal stacks are not interned")
	}
	s2 := next(s1, enter(e2))
	if got := s2.(*callstack.Stack).String(); got != "[f@L0 f@L2]" {
		t.Errorf("stack %s", got)
	}
	if d := s2.(cpa.ReturnSiter).Depth(); d != 2 {
		t.Errorf("depth %d", d)
	}
	if next(s2, cfa.Step{Edge: e2, Kind: cfa.Leave, Callee: f}) != s1 {
		t.Error("leave does not pop")
	}
	if next(s2, cfa.Step{Edge: e1, Kind: cfa.Leave, Callee: f}) != nil {
		t.Error("leave to the wrong call site")
	}
	if next(s0, cfa.Step{Kind: cfa.Enter, Callee: f}) != s0 {
		t.Error("entering the entry function changes the stack")
	}
	s3 := next(s2, enter(e1))
	if r := s3.(cpa.Truncated).TruncatedReason(); r != "recursion depth 2 exceeded (f → f)" {
		t.Errorf("overflow reason %q", r)
	}
	if next(s3, cfa.Step{Edge: e1}) != nil {
		t.Error("overflow state has a successor")
	}
	if !c.LessOrEqual(s1, s1b) || c.LessOrEqual(s1, s2) {
		t.Error("LessOrEqual")
	}
	if callstack.New(0).MaxDepth() != callstack.DefaultMaxDepth {
		t.Error("default depth")
	}
}

// TestOverflowReason: the overflow's reason tells real recursion from a
// cycle made up by a call through an unresolved function pointer and
// from a deep chain of distinct functions.
func TestOverflowReason(t *testing.T) {
	p := cfa.NewProgram(cfa.LP64)
	fn := func(name string) *cfa.Function {
		return p.NewFunction(name, &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType})
	}
	call := func(in *cfa.Function, callee string) *cfa.Edge {
		return p.AddEdge(in.Entry, p.NewLocation(in), &cfa.Call{Fn: callee}, cfa.Range{}, "")
	}
	mainF, walk, leaf := fn("main"), fn("walk"), fn("leaf")
	mainWalk := call(mainF, "walk")
	walkPtr := call(walk, "") // hook(x): through a pointer
	walkLeaf := call(walk, "leaf")
	leafWalk := call(leaf, "walk")
	push := func(c *callstack.CPA, edges ...*cfa.Edge) cpa.State {
		s, _ := c.Initial()
		for _, e := range edges {
			out, _ := c.Successors(nil, s, cfa.Step{Edge: e, Kind: cfa.Enter}, nil)
			s = out[0]
		}
		return s
	}
	for _, tc := range []struct {
		edges []*cfa.Edge
		want  string
	}{
		{[]*cfa.Edge{mainWalk, walkPtr, walkPtr, walkPtr}, "call depth 3 exceeded through calls via function pointers whose target is not known (walk → (*)walk; the program may not recurse)"},
		{[]*cfa.Edge{mainWalk, walkLeaf, leafWalk, walkLeaf}, "recursion depth 3 exceeded (walk → leaf → walk)"},
	} {
		s := push(callstack.New(3), tc.edges...)
		if r := s.(cpa.Truncated).TruncatedReason(); r != tc.want {
			t.Errorf("reason %q\nwant %q", r, tc.want)
		}
	}
	var chain []*cfa.Edge
	prev := mainF
	for i := 0; i < 4; i++ {
		next := fn(string(rune('a' + i)))
		chain = append(chain, call(prev, next.Name))
		prev = next
	}
	s := push(callstack.New(3), chain...)
	if r, want := s.(cpa.Truncated).TruncatedReason(), "call depth 3 exceeded without recursion (a chain of 4 calls)"; r != want {
		t.Errorf("reason %q, want %q", r, want)
	}
}
