package cfatest

import "github.com/reverify/reverify/engine/cfa"

// Path builds the CFA of one function and a path through it at the same
// time: every edge it adds by Op, Assume or Ret leaves Cur, becomes the
// next step of *Steps (unless Steps is nil) and moves Cur to its target.
// Tests may set Cur to continue from another location.
type Path struct {
	P     *cfa.Program
	Fn    *cfa.Function
	Cur   *cfa.Location
	Steps *[]cfa.Step
}

// Function adds a function with a body named name to p and returns its
// builder at the entry location; a non-void result gets the function's
// return variable __retval. steps (nil: none recorded) receives the
// path's steps.
func Function(p *cfa.Program, name string, result *cfa.Type, steps *[]cfa.Step) *Path {
	fn := p.NewFunction(name, &cfa.Type{Kind: cfa.Func, Result: result})
	if result != nil && result.Kind != cfa.Void {
		fn.RetVar = p.NewVar(fn, "__retval", result)
		fn.RetVar.Temp = true
	}
	return &Path{P: p, Fn: fn, Cur: fn.Entry, Steps: steps}
}

// Local adds a local variable of type t (no Decl edge; add one with Op
// where the test needs it).
func (b *Path) Local(name string, t *cfa.Type) *cfa.Var { return b.P.NewVar(b.Fn, name, t) }

// Param adds a parameter of type t to the function and its type.
func (b *Path) Param(name string, t *cfa.Type) *cfa.Var {
	v := b.P.NewVar(b.Fn, name, t)
	v.Param = true
	b.Fn.Params = append(b.Fn.Params, v)
	b.Fn.T.Params = append(b.Fn.T.Params, t)
	return v
}

// step records e as the next step of the path.
func (b *Path) step(e *cfa.Edge) {
	if b.Steps != nil {
		*b.Steps = append(*b.Steps, cfa.Step{Edge: e, Kind: cfa.Intra})
	}
}

// Op adds the edge Cur → new location with o (source line: the number of
// the function's locations so far), takes it and returns it.
func (b *Path) Op(o cfa.Op) *cfa.Edge {
	next := b.P.NewLocation(b.Fn)
	e := b.P.AddEdge(b.Cur, next, o, cfa.Range{Start: cfa.Pos{Line: len(b.Fn.Locs)}}, o.String())
	b.Cur = next
	b.step(e)
	return e
}

// Assume adds the complementary pair of assume edges on cond from Cur and
// takes the branch truth; the other branch ends in a terminal location.
func (b *Path) Assume(cond cfa.Expr, truth bool) {
	yes, no := b.P.NewLocation(b.Fn), b.P.NewLocation(b.Fn)
	et := b.P.AddEdge(b.Cur, yes, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, cond.String())
	ef := b.P.AddEdge(b.Cur, no, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, cond.String())
	if truth {
		b.Cur = yes
		no.Terminal = true
		b.step(et)
	} else {
		b.Cur = no
		yes.Terminal = true
		b.step(ef)
	}
}

// Call adds the call edge Cur → new location and moves Cur, but records
// no step: when the callee has a body, the test adds the Enter step, the
// callee's steps and the Leave step itself; otherwise it adds the
// Intra step of the call.
func (b *Path) Call(c *cfa.Call) *cfa.Edge {
	next := b.P.NewLocation(b.Fn)
	e := b.P.AddEdge(b.Cur, next, c, cfa.Range{}, c.String())
	b.Cur = next
	return e
}

// Ret adds the edge Cur → exit returning x (nil: no value), takes it and
// records it.
func (b *Path) Ret(x cfa.Expr) {
	e := b.P.AddEdge(b.Cur, b.Fn.Exit, &cfa.Return{X: x}, cfa.Range{}, "return")
	b.Cur = b.Fn.Exit
	b.step(e)
}

// Const is the constant v of type t.
func Const(v int64, t *cfa.Type) cfa.Expr { return cfa.NewConst(t, v) }

// Ref reads v.
func Ref(v *cfa.Var) cfa.Expr { return &cfa.VarRef{Var: v} }

// Bin is x op y of type t (t is the result type; the caller converts the
// operands).
func Bin(op cfa.BinaryOp, x, y cfa.Expr, t *cfa.Type) cfa.Expr {
	return &cfa.Binary{Op: op, X: x, Y: y, T: t}
}

// Cast converts x to t.
func Cast(x cfa.Expr, t *cfa.Type) cfa.Expr { return &cfa.Cast{X: x, T: t} }

// Assign is the operation l = r.
func Assign(l, r cfa.Expr) cfa.Op { return &cfa.Assign{LHS: l, RHS: r} }

// Havoc is the operation l = __VERIFIER_nondet_T() for l's type T.
func Havoc(l cfa.Expr) cfa.Op {
	return &cfa.Havoc{LHS: l, Source: "__VERIFIER_nondet_" + l.Type().Name}
}

// AddrOf is &x as a pointer of the given width in bits.
func AddrOf(x cfa.Expr, bits int) cfa.Expr {
	return &cfa.AddrOf{X: x, T: cfa.PointerTo(x.Type(), bits)}
}

// Deref is *p.
func Deref(p cfa.Expr) cfa.Expr { return &cfa.Deref{X: p, T: p.Type().Elem} }

// Index is a[i].
func Index(a, i cfa.Expr) cfa.Expr { return &cfa.Index{X: a, I: i, T: a.Type().Elem} }

// Member is field number f of the struct or union x.
func Member(x cfa.Expr, f int) cfa.Expr {
	return &cfa.Member{X: x, Field: f, T: x.Type().Fields[f].Type}
}
