package cfatest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// B builds a whole program in structured style: globals (declared and
// initialised in Init), then one function at a time with straight-line
// operations, if, while, calls to reach_error and returns. Each Op has
// its own source line in file t.c (line n for the program's n-th
// operation), so tests can name edges by line. The tests of the CPA
// algorithm and of the analyses (which run it with
// engine/analysis/cpatest) use it; Path is the builder that records one
// path instead.
type B struct {
	P    *cfa.Program
	F    *cfa.Function
	Cur  *cfa.Location // nil after a return
	line int

	initCur *cfa.Location
}

// New returns a builder for an LP64 program.
func New() *B { return &B{P: cfa.NewProgram(cfa.LP64)} }

// Global adds a global variable, declared (zero-initialised) in Init,
// and assigned init when it is not nil.
func (b *B) Global(name string, t *cfa.Type, init ...cfa.Expr) *cfa.Var {
	v := b.P.NewVar(nil, name, t)
	if b.initCur == nil {
		b.initCur = b.P.Init.Entry
	}
	add := func(op cfa.Op) {
		l := b.P.NewLocation(b.P.Init)
		b.P.AddEdge(b.initCur, l, op, cfa.Range{}, "")
		b.initCur = l
	}
	add(&cfa.Decl{Var: v})
	for _, x := range init {
		add(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: x})
	}
	return v
}

// Func starts the function name, with an int result (its return
// variable __retval) and parameters a, b, … of the given types, closing
// the previous function (an open end returns 0).
func (b *B) Func(name string, params ...*cfa.Type) *cfa.Function {
	b.close()
	ft := &cfa.Type{Kind: cfa.Func, Result: cfa.IntT, Params: params}
	f := b.P.NewFunction(name, ft)
	for i, p := range params {
		v := b.P.NewVar(f, string(rune('a'+i)), p)
		v.Param = true
		f.Params = append(f.Params, v)
	}
	f.RetVar = b.P.NewVar(f, "__retval", cfa.IntT)
	f.RetVar.Temp = true
	b.F, b.Cur = f, f.Entry
	return f
}

// Param returns parameter i of the current function.
func (b *B) Param(i int) *cfa.Var { return b.F.Params[i] }

// Local adds a local variable to the current function and declares it.
func (b *B) Local(name string, t *cfa.Type) *cfa.Var {
	v := b.P.NewVar(b.F, name, t)
	b.Op(&cfa.Decl{Var: v})
	return v
}

// Op appends an edge with op from the current location to a new one and
// returns it.
func (b *B) Op(op cfa.Op) *cfa.Edge {
	if b.Cur == nil {
		b.Cur = b.P.NewLocation(b.F)
		b.Cur.Dead = true
	}
	l := b.P.NewLocation(b.F)
	b.line++
	e := b.P.AddEdge(b.Cur, l, op, cfa.Range{Start: cfa.Pos{File: "t.c", Line: b.line, Col: 1}}, op.String())
	b.Cur = l
	return e
}

// Assign appends lhs = rhs.
func (b *B) Assign(lhs, rhs cfa.Expr) *cfa.Edge { return b.Op(&cfa.Assign{LHS: lhs, RHS: rhs}) }

// Havoc appends lhs = __VERIFIER_nondet_int().
func (b *B) Havoc(lhs cfa.Expr) *cfa.Edge {
	return b.Op(&cfa.Havoc{LHS: lhs, Source: "__VERIFIER_nondet_int"})
}

// Call appends result = fn(args...) (result may be nil).
func (b *B) Call(result cfa.Expr, fn string, args ...cfa.Expr) *cfa.Edge {
	return b.Op(&cfa.Call{Fn: fn, Args: args, Result: result})
}

// Error appends reach_error() and ends the path (terminal location).
func (b *B) Error() *cfa.Edge {
	e := b.Call(nil, "reach_error")
	b.P.Externals["reach_error"] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType}
	b.Cur.Terminal = true
	b.Cur = nil
	return e
}

// Return appends return x (x may be nil) to the exit.
func (b *B) Return(x cfa.Expr) *cfa.Edge {
	if b.Cur == nil {
		b.Cur = b.P.NewLocation(b.F)
		b.Cur.Dead = true
	}
	e := b.P.AddEdge(b.Cur, b.F.Exit, &cfa.Return{X: x}, cfa.Range{}, "return")
	b.Cur = nil
	return e
}

// If appends if (cond) then else els (either may be nil).
func (b *B) If(cond cfa.Expr, then, els func()) {
	if b.Cur == nil {
		return
	}
	from := b.Cur
	lt, lf := b.P.NewLocation(b.F), b.P.NewLocation(b.F)
	b.P.AddEdge(from, lt, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "")
	b.P.AddEdge(from, lf, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "")
	join := b.P.NewLocation(b.F)
	b.Cur = lt
	if then != nil {
		then()
	}
	if b.Cur != nil {
		b.P.AddEdge(b.Cur, join, &cfa.Noop{}, cfa.Range{}, "")
	}
	b.Cur = lf
	if els != nil {
		els()
	}
	if b.Cur != nil {
		b.P.AddEdge(b.Cur, join, &cfa.Noop{}, cfa.Range{}, "")
	}
	b.Cur = join
	if len(join.In) == 0 {
		join.Dead = true
		b.Cur = nil
	}
}

// While appends while (cond) body.
func (b *B) While(cond cfa.Expr, body func()) {
	if b.Cur == nil {
		return
	}
	head := b.P.NewLocation(b.F)
	b.P.AddEdge(b.Cur, head, &cfa.Noop{Label: "while"}, cfa.Range{}, "")
	lt, lf := b.P.NewLocation(b.F), b.P.NewLocation(b.F)
	b.P.AddEdge(head, lt, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "")
	b.P.AddEdge(head, lf, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "")
	b.Cur = lt
	body()
	if b.Cur != nil {
		b.P.AddEdge(b.Cur, head, &cfa.Noop{}, cfa.Range{}, "")
	}
	b.Cur = lf
}

func (b *B) close() {
	if b.F != nil && b.Cur != nil {
		if b.F.RetVar != nil {
			b.Return(b.I(0))
		} else {
			b.Return(nil)
		}
	}
	b.F, b.Cur = nil, nil
}

// Finish closes the current function, finishes and checks the program.
func (b *B) Finish(t testing.TB) *cfa.Program {
	t.Helper()
	b.close()
	if b.initCur != nil {
		b.P.AddEdge(b.initCur, b.P.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
		b.initCur = nil
	} else if len(b.P.Init.Entry.Out) == 0 {
		b.P.AddEdge(b.P.Init.Entry, b.P.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
	}
	b.P.Finish()
	if err := b.P.Check(); err != nil {
		t.Fatalf("program check: %v\n%s", err, b.P.Text())
	}
	return b.P
}

// Expression helpers. Integer constants are int unless typed with C.

// V refers to v.
func (b *B) V(v *cfa.Var) cfa.Expr { return &cfa.VarRef{Var: v} }

// I is the int constant n.
func (b *B) I(n int64) cfa.Expr { return cfa.NewConst(cfa.IntT, n) }

// C is the constant n of type t.
func (b *B) C(t *cfa.Type, n int64) cfa.Expr { return cfa.NewConst(t, n) }

// Cast converts x to t.
func (b *B) Cast(x cfa.Expr, t *cfa.Type) cfa.Expr { return &cfa.Cast{X: x, T: t} }

// Bin is x op y with x's type (comparisons: int).
func (b *B) Bin(op cfa.BinaryOp, x, y cfa.Expr) cfa.Expr {
	t := x.Type()
	if op.IsComparison() || op == cfa.LAnd || op == cfa.LOr {
		t = cfa.IntT
	}
	return &cfa.Binary{Op: op, X: x, Y: y, T: t}
}

// Add, Sub, Lt, Eq, Ne are shorthands for Bin.
func (b *B) Add(x, y cfa.Expr) cfa.Expr { return b.Bin(cfa.Add, x, y) }
func (b *B) Sub(x, y cfa.Expr) cfa.Expr { return b.Bin(cfa.Sub, x, y) }
func (b *B) Lt(x, y cfa.Expr) cfa.Expr  { return b.Bin(cfa.Lt, x, y) }
func (b *B) Eq(x, y cfa.Expr) cfa.Expr  { return b.Bin(cfa.Eq, x, y) }
func (b *B) Ne(x, y cfa.Expr) cfa.Expr  { return b.Bin(cfa.Ne, x, y) }

// Addr is &x.
func (b *B) Addr(x cfa.Expr) cfa.Expr {
	return &cfa.AddrOf{X: x, T: cfa.PointerTo(x.Type(), 64)}
}

// Deref is *p.
func (b *B) Deref(p cfa.Expr) cfa.Expr { return &cfa.Deref{X: p, T: p.Type().Elem} }

// Index is a[i].
func (b *B) Index(a, i cfa.Expr) cfa.Expr { return &cfa.Index{X: a, I: i, T: a.Type().Elem} }

// Member is x.f (f by name).
func (b *B) Member(x cfa.Expr, f string) cfa.Expr {
	st := x.Type()
	for i, fl := range st.Fields {
		if fl.Name == f {
			return &cfa.Member{X: x, Field: i, T: fl.Type}
		}
	}
	panic("no field " + f)
}

// SourceFile writes the C text src to a file named name in a fresh
// temporary directory of t and returns its path, for tests that
// translate a program given as a string.
func SourceFile(t testing.TB, name, src string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
