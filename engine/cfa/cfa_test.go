package cfa_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// build returns a program with main: L0 -[decl x]-> L2 -[x = 0]-> L3,
// a complementary assume pair at L3 and a return to the exit.
func build() (*cfa.Program, *cfa.Function, *cfa.Var) {
	p := cfa.NewProgram(cfa.LP64)
	f := p.NewFunction("main", &cfa.Type{Kind: cfa.Func, Result: cfa.IntT})
	x := p.NewVar(f, "x", cfa.IntT)
	l2, l3, l4 := p.NewLocation(f), p.NewLocation(f), p.NewLocation(f)
	p.AddEdge(f.Entry, l2, &cfa.Decl{Var: x}, cfa.Range{}, "int x")
	p.AddEdge(l2, l3, &cfa.Assign{LHS: &cfa.VarRef{Var: x}, RHS: cfa.NewConst(cfa.IntT, 0)}, cfa.Range{}, "x = 0")
	cond := &cfa.Binary{Op: cfa.Lt, X: &cfa.VarRef{Var: x}, Y: cfa.NewConst(cfa.IntT, 10), T: cfa.IntT}
	p.AddEdge(l3, l4, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "x < 10")
	p.AddEdge(l3, f.Exit, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "x < 10")
	p.AddEdge(l4, l3, &cfa.Assign{LHS: &cfa.VarRef{Var: x}, RHS: &cfa.Binary{Op: cfa.Add, X: &cfa.VarRef{Var: x}, Y: cfa.NewConst(cfa.IntT, 1), T: cfa.IntT}}, cfa.Range{}, "x++")
	p.Finish()
	return p, f, x
}

func TestTextAndLoopHeads(t *testing.T) {
	p, _, _ := build()
	if err := p.Check(); err != nil {
		t.Fatalf("Check: %v", err)
	}
	got := p.Text()
	wantText := `
func main() int
  entry L0 exit L1
  L0 -> L2  decl int x
  L2 -> L3*  x = 0
  L3 -> L4  [x < 10]
  L3 -> L1  [!(x < 10)]
  L4 -> L3*  x = x + 1
`
	if got != wantText {
		t.Errorf("Text:\n%s\nwant:\n%s", got, wantText)
	}
}

func TestCheckFindsViolations(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(p *cfa.Program, f *cfa.Function, x *cfa.Var)
		want   string
	}{
		{"unreachable location", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			l := p.NewLocation(f)
			p.AddEdge(l, f.Exit, &cfa.Noop{}, cfa.Range{}, "")
		}, "unreachable and not marked dead"},
		{"single assume", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			f.Locs[3].Out = f.Locs[3].Out[:1]
		}, "single assume edge"},
		{"entry with in-edge", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			p.AddEdge(f.Locs[4], f.Entry, &cfa.Noop{}, cfa.Range{}, "")
		}, "entry L0 has in-edges"},
		{"dangling location", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			l := p.NewLocation(f)
			f.Locs[4].Out[0].To = l
			l.In = append(l.In, f.Locs[4].Out[0])
		}, "has no out-edge but is neither exit nor terminal"},
		{"operand types differ", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			e := f.Locs[4].Out[0]
			e.Op = &cfa.Assign{LHS: &cfa.VarRef{Var: x}, RHS: &cfa.Binary{Op: cfa.Add, X: &cfa.VarRef{Var: x}, Y: cfa.NewConst(cfa.CharType, 1), T: cfa.IntT}}
		}, "operand types int and char differ"},
		{"assignment to rvalue", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			f.Locs[2].Out[0].Op = &cfa.Assign{LHS: cfa.NewConst(cfa.IntT, 1), RHS: cfa.NewConst(cfa.IntT, 0)}
		}, "assignment to a non-lvalue"},
		{"return not to exit", func(p *cfa.Program, f *cfa.Function, x *cfa.Var) {
			f.Locs[4].Out[0].Op = &cfa.Return{X: cfa.NewConst(cfa.IntT, 0)}
		}, "does not lead to the exit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, f, x := build()
			tt.break_(p, f, x)
			err := p.Check()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Check() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestConstSemantics(t *testing.T) {
	tests := []struct {
		c    *cfa.Const
		want string
		i64  int64
	}{
		{cfa.NewConst(cfa.CharType, 200), "-56", -56},
		{cfa.NewConst(cfa.UCharType, 260), "4U", 4},
		{cfa.NewConst(cfa.ShortType, 70000), "4464", 4464},
		{cfa.NewConst(cfa.UIntType, -1), "4294967295U", 4294967295},
		{cfa.NewConst(cfa.LLType, -1), "-1", -1},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want || tt.c.Int64() != tt.i64 {
			t.Errorf("%v: String %q Int64 %d, want %q %d", tt.c.T, got, tt.c.Int64(), tt.want, tt.i64)
		}
	}
}

func TestParseDataModel(t *testing.T) {
	for _, s := range []string{"ILP32", "lp64"} {
		if _, err := cfa.ParseDataModel(s); err != nil {
			t.Errorf("ParseDataModel(%q): %v", s, err)
		}
	}
	if _, err := cfa.ParseDataModel("LP32"); err == nil {
		t.Error("ParseDataModel(LP32) succeeded")
	}
}

// TestStored: the lvalue each operation stores into.
func TestStored(t *testing.T) {
	_, _, x := build()
	ref := &cfa.VarRef{Var: x}
	for _, c := range []struct {
		op   cfa.Op
		want cfa.Expr
	}{
		{&cfa.Assign{LHS: ref, RHS: &cfa.Const{T: cfa.IntT}}, ref},
		{&cfa.Havoc{LHS: ref, Source: "volatile"}, ref},
		{&cfa.Call{Fn: "f", Result: ref}, ref},
		{&cfa.Call{Fn: "f"}, nil},
		{&cfa.Decl{Var: x}, nil},
		{&cfa.Assume{Cond: ref, Truth: true}, nil},
	} {
		if got := cfa.Stored(c.op); got != c.want {
			t.Errorf("Stored(%v) = %v, want %v", c.op, got, c.want)
		}
	}
}

// TestStripCasts: nested casts go, an expression under them stays whole.
func TestStripCasts(t *testing.T) {
	_, _, x := build()
	ref := &cfa.VarRef{Var: x}
	sum := &cfa.Binary{Op: cfa.Add, X: &cfa.Cast{T: cfa.IntT, X: ref}, Y: &cfa.Const{T: cfa.IntT, V: 1}, T: cfa.IntT}
	u := cfa.IntType(32, false)
	for _, c := range []struct{ in, want cfa.Expr }{
		{ref, ref},
		{&cfa.Cast{T: u, X: ref}, ref},
		{&cfa.Cast{T: cfa.IntT, X: &cfa.Cast{T: u, X: sum}}, sum},
	} {
		if got := cfa.StripCasts(c.in); got != c.want {
			t.Errorf("StripCasts(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
