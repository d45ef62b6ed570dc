package value_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

func TestEntryText(t *testing.T) {
	for _, tc := range []struct {
		text string
		e    value.Entry
	}{
		{"g", value.Entry{Name: "g", Loc: -1}},
		{"main::x@main", value.Entry{Name: "main::x", Func: "main", Loc: -1}},
		{"main::x@f:L12", value.Entry{Name: "main::x", Func: "f", Loc: 12}},
		{"<heap>@main:L0", value.Entry{Name: value.HeapName, Func: "main", Loc: 0}},
	} {
		e, err := value.ParseEntry(tc.text)
		if err != nil || e != tc.e {
			t.Errorf("ParseEntry(%q) = %+v, %v; want %+v", tc.text, e, err, tc.e)
		}
		if s := tc.e.String(); s != tc.text {
			t.Errorf("%+v.String() = %q, want %q", tc.e, s, tc.text)
		}
	}
	for _, bad := range []string{"", "@main", "x@", "x@main:L", "x@main:Lx", "x@:L3", "x@main:L-1"} {
		if _, err := value.ParseEntry(bad); err == nil {
			t.Errorf("ParseEntry(%q) succeeded", bad)
		}
	}
}

// precisionProgram has a global, locals of two functions, a static local
// and a heap block.
const precisionProgram = `
extern void *malloc(unsigned long);
int g;
int f(int a) { static int s; s = a; return s + 1; }
int main(void) {
	int x = 1;
	int *p = malloc(4);
	*p = 7;
	g = f(x);
	return g;
}`

func translateSrc(t *testing.T, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Config{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func varNamed(t *testing.T, p *cfa.Program, qual string) *cfa.Var {
	t.Helper()
	for _, v := range p.Vars {
		if v.QualName() == qual {
			return v
		}
	}
	t.Fatalf("no variable %s", qual)
	return nil
}

func TestScopedPrecision(t *testing.T) {
	p := translateSrc(t, precisionProgram)
	main, f := p.Func("main"), p.Func("f")
	x, g, a, s := varNamed(t, p, "main::x"), varNamed(t, p, "g"), varNamed(t, p, "f::a"), varNamed(t, p, "f::s")
	prec, err := value.ParseScopedPrecision([]string{"g", "main::x@main:L2", "f::a@f", "f::s@f:L2", "<heap>@main"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		l    *cfa.Location
		v    *cfa.Var
		want bool
	}{
		{main.Locs[2], x, true},
		{main.Locs[3], x, false},
		{f.Locs[2], x, false}, // another function's location index 2
		{f.Entry, g, true},
		{main.Locs[5], g, true},
		{f.Entry, a, true},
		{f.Locs[2], a, true},
		{main.Locs[3], a, false},
		{f.Locs[2], s, true}, // a static local is a global named "f::s"
		{f.Locs[1], s, false},
		{main.Locs[1], nil, true},
		{f.Entry, nil, false},
	} {
		if got := prec.Tracks(tc.l, tc.v); got != tc.want {
			t.Errorf("Tracks(%s:%s, %v) = %v, want %v", tc.l.Func.Name, tc.l, tc.v, got, tc.want)
		}
	}
	if got, want := strings.Join(prec.Strings(), " "), "<heap>@main f::a@f f::s@f:L2 g main::x@main:L2"; got != want {
		t.Errorf("Strings() = %q, want %q", got, want)
	}
	// Contained entries leave the precision as it is; a wider entry
	// subsumes narrower ones of the same variable.
	if q := prec.With(value.Entry{Name: "f::a", Func: "f", Loc: 7}, value.Entry{Name: "g", Func: "main", Loc: -1}); q != prec {
		t.Errorf("With(contained) = %v, want the same precision", q)
	}
	q := prec.With(value.Entry{Name: "main::x", Func: "main", Loc: -1}, value.Entry{Name: "main::x", Func: "f", Loc: 0})
	if got, want := strings.Join(q.Strings(), " "), "<heap>@main f::a@f f::s@f:L2 g main::x@f:L0 main::x@main"; got != want {
		t.Errorf("With(wider) = %q, want %q", got, want)
	}
	if prec.Tracks(main.Locs[3], x) || !q.Tracks(main.Locs[3], x) {
		t.Error("With modified its receiver or lost the wider entry")
	}
	if got := strings.Join(q.Vars(), " "); got != "<heap> f::a f::s g main::x" {
		t.Errorf("Vars() = %q", got)
	}
	var empty *value.ScopedPrecision
	if empty.Tracks(main.Entry, x) || empty.Len() != 0 || empty.String() != "{}" {
		t.Error("the nil precision tracks something")
	}
}

// TestForget follows main of precisionProgram with full precision and
// checks KnownVars and Forget on the final state.
func TestForget(t *testing.T) {
	p := translateSrc(t, precisionProgram)
	c := value.New(p, value.Options{})
	s0, _ := c.Initial()
	s := s0.(*value.State)
	step := func(st cfa.Step) {
		t.Helper()
		succ, err := c.Successors(nil, s, st, value.FullPrecision{})
		if err != nil || len(succ) != 1 {
			t.Fatalf("%v: %d successors, %v", st.Edge, len(succ), err)
		}
		s = succ[0].(*value.State)
	}
	for l := p.Init.Entry; len(l.Out) > 0; l = l.Out[0].To {
		step(cfa.Step{Edge: l.Out[0]})
	}
	main := p.Func("main")
	step(cfa.Step{Kind: cfa.Enter, Callee: main})
	for l := main.Entry; len(l.Out) > 0; l = l.Out[0].To {
		e := l.Out[0]
		if call, ok := e.Op.(*cfa.Call); ok && call.Fn == "f" {
			break // stop before the call: f's frame is not needed here
		}
		step(cfa.Step{Edge: e})
	}
	vars, heap := s.KnownVars()
	var names []string
	for _, v := range vars {
		names = append(names, v.QualName())
	}
	if got := strings.Join(names, " "); got != "g f::s main::x main::p main::__t0" || !heap {
		t.Fatalf("KnownVars = %q, heap %v; state %v", got, heap, s)
	}
	x := varNamed(t, p, "main::x")
	nx := s.Forget(x)
	if _, ok := nx.Int(x); ok {
		t.Errorf("Forget(x) = %v still knows x", nx)
	}
	if v, ok := s.Int(x); !ok || v != 1 {
		t.Errorf("Forget modified its receiver: %v", s)
	}
	if nh := s.Forget(nil); nh.Len() != s.Len()-1 {
		t.Errorf("Forget(nil) = %v, want %v without the heap cell", nh, s)
	}
	if s.Forget(varNamed(t, p, "f::a")) != s {
		t.Error("forgetting an unknown variable made a new state")
	}
}
