package location_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
)

func steps(ss []cfa.Step) string {
	var out []string
	for _, s := range ss {
		out = append(out, fmt.Sprintf("%v:%s", s.Kind, cpa.StepString(s)))
	}
	return strings.Join(out, ", ")
}

func TestSteps(t *testing.T) {
	b := cfatest.New()
	g := b.Global("g", cfa.IntT)
	f := b.Func("f", cfa.IntT)
	b.Return(b.V(b.Param(0)))
	b.Func("h", cfa.IntT)
	b.Return(b.I(0))
	b.Func("main")
	call := b.Call(b.V(g), "f", b.I(1))
	ext := b.Call(nil, "ext")
	fp := b.P.NewVar(b.F, "fp", cfa.PointerTo(f.T, 64))
	b.Assign(&cfa.VarRef{Var: fp}, &cfa.FuncRef{Name: "f", T: f.T})
	ptrCall := b.Op(&cfa.Call{FnPtr: &cfa.VarRef{Var: fp}, Args: []cfa.Expr{b.I(2)}})
	prog := b.Finish(t)

	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := location.New(prog, "nope"); err == nil {
		t.Error("missing entry accepted")
	}
	cs := callstack.New(0)
	empty, _ := cs.Initial()
	init, _ := loc.Initial()
	if l := init.(location.State).L; l != prog.Init.Entry {
		t.Errorf("initial location %v", l)
	}
	pushed, _ := cs.Successors(nil, empty, cfa.Step{Edge: call, Kind: cfa.Enter, Callee: f}, nil)
	for _, tc := range []struct {
		name  string
		at    *cfa.Location
		stack cpa.State
		want  string
	}{
		{"init exit enters main", prog.Init.Exit, empty, "1:enter main"},
		{"call with body", call.From, empty, "1:enter f at L0"},
		{"external call", ext.From, empty, "0:ext()"},
		// ext is unmodelled, so a pointer may come from outside the
		// program (cfa.Program.OutsideFuncPointers): the Intra step
		// stands for a function without a body, and the value
		// analysis discards it while fp is known to be f.
		{"call through pointer", ptrCall.From, empty, "1:enter f at L4, 0:(*fp)(2)"},
		{"exit returns to caller", f.Exit, pushed[0], "2:leave f to L2"},
		{"entry function exit", prog.Func("main").Exit, empty, ""},
	} {
		got := steps(loc.Steps(nil, location.State{L: tc.at}, []cpa.State{location.State{L: tc.at}, tc.stack}))
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestStepsClosed: without a way for a pointer to come from outside the
// program (no unmodelled call, no nondeterministic pointer, no address
// of a bodiless function), a call through a pointer may enter only the
// functions with a body whose address is taken.
func TestStepsClosed(t *testing.T) {
	b := cfatest.New()
	f := b.Func("f", cfa.IntT)
	b.Return(b.V(b.Param(0)))
	b.Func("main")
	fp := b.P.NewVar(b.F, "fp", cfa.PointerTo(f.T, 64))
	b.Assign(&cfa.VarRef{Var: fp}, &cfa.FuncRef{Name: "f", T: f.T})
	ptrCall := b.Op(&cfa.Call{FnPtr: &cfa.VarRef{Var: fp}, Args: []cfa.Expr{b.I(2)}})
	prog := b.Finish(t)
	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	empty, _ := callstack.New(0).Initial()
	got := steps(loc.Steps(nil, location.State{L: ptrCall.From}, []cpa.State{location.State{L: ptrCall.From}, empty}))
	if want := "1:enter f at L2"; got != want {
		t.Errorf("closed program: %s, want %s", got, want)
	}
}
