package interp_test

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// pb builds a function's CFA and a path through it at the same time.
type pb struct {
	t    *testing.T
	p    *cfa.Program
	fn   *cfa.Function
	cur  *cfa.Location
	path *[]cfa.Step
}

func newProgram(m cfa.DataModel) *cfa.Program { return cfa.NewProgram(m) }

// function starts a function with a body; steps append to path.
func function(t *testing.T, p *cfa.Program, name string, result *cfa.Type, path *[]cfa.Step) *pb {
	fn := p.NewFunction(name, &cfa.Type{Kind: cfa.Func, Result: result})
	if result != nil && result.Kind != cfa.Void {
		fn.RetVar = p.NewVar(fn, "__retval", result)
		fn.RetVar.Temp = true
	}
	return &pb{t: t, p: p, fn: fn, cur: fn.Entry, path: path}
}

func (b *pb) local(name string, t *cfa.Type) *cfa.Var { return b.p.NewVar(b.fn, name, t) }

func (b *pb) param(name string, t *cfa.Type) *cfa.Var {
	v := b.p.NewVar(b.fn, name, t)
	v.Param = true
	b.fn.Params = append(b.fn.Params, v)
	b.fn.T.Params = append(b.fn.T.Params, t)
	return v
}

// op adds cur → new with op and takes it.
func (b *pb) op(o cfa.Op) *cfa.Edge {
	next := b.p.NewLocation(b.fn)
	e := b.p.AddEdge(b.cur, next, o, cfa.Range{Start: cfa.Pos{Line: len(b.fn.Locs)}}, o.String())
	b.cur = next
	if b.path != nil {
		*b.path = append(*b.path, cfa.Step{Edge: e, Kind: cfa.Intra})
	}
	return e
}

// assume adds the complementary assume pair on cond and takes the branch
// truth; the other branch ends in a terminal location.
func (b *pb) assume(cond cfa.Expr, truth bool) {
	yes, no := b.p.NewLocation(b.fn), b.p.NewLocation(b.fn)
	et := b.p.AddEdge(b.cur, yes, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, cond.String())
	ef := b.p.AddEdge(b.cur, no, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, cond.String())
	if truth {
		b.cur = yes
		no.Terminal = true
		*b.path = append(*b.path, cfa.Step{Edge: et, Kind: cfa.Intra})
	} else {
		b.cur = no
		yes.Terminal = true
		*b.path = append(*b.path, cfa.Step{Edge: ef, Kind: cfa.Intra})
	}
}

// call adds a call edge; when callee has a body the caller must add the
// Enter step and the callee's steps and the Leave step itself (see
// enter/leave).
func (b *pb) call(c *cfa.Call) *cfa.Edge {
	next := b.p.NewLocation(b.fn)
	e := b.p.AddEdge(b.cur, next, c, cfa.Range{}, c.String())
	b.cur = next
	return e
}

func (b *pb) ret(x cfa.Expr) {
	e := b.p.AddEdge(b.cur, b.fn.Exit, &cfa.Return{X: x}, cfa.Range{}, "return")
	b.cur = b.fn.Exit
	if b.path != nil {
		*b.path = append(*b.path, cfa.Step{Edge: e, Kind: cfa.Intra})
	}
}

// expression helpers
func c(v int64, t *cfa.Type) cfa.Expr { return cfa.NewConst(t, v) }
func ref(v *cfa.Var) cfa.Expr         { return &cfa.VarRef{Var: v} }
func bin(op cfa.BinaryOp, x, y cfa.Expr, t *cfa.Type) cfa.Expr {
	return &cfa.Binary{Op: op, X: x, Y: y, T: t}
}
func cast(x cfa.Expr, t *cfa.Type) cfa.Expr { return &cfa.Cast{X: x, T: t} }
func assign(l, r cfa.Expr) cfa.Op           { return &cfa.Assign{LHS: l, RHS: r} }
func havoc(l cfa.Expr) cfa.Op {
	return &cfa.Havoc{LHS: l, Source: "__VERIFIER_nondet_" + l.Type().Name}
}
func addr(x cfa.Expr, bits int) cfa.Expr {
	return &cfa.AddrOf{X: x, T: cfa.PointerTo(x.Type(), bits)}
}
func deref(p cfa.Expr) cfa.Expr { return &cfa.Deref{X: p, T: p.Type().Elem} }
func index(a, i cfa.Expr) cfa.Expr {
	return &cfa.Index{X: a, I: i, T: a.Type().Elem}
}
func member(x cfa.Expr, f int) cfa.Expr {
	return &cfa.Member{X: x, Field: f, T: x.Type().Fields[f].Type}
}

var (
	intT   = cfa.IntT
	uintT  = cfa.UIntType
	ucharT = cfa.UCharType
)
