package reduce

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// ConstPass is constant propagation and folding (seed 002, "constant
// propagation"; the classic must-analysis of Kildall, "A unified approach
// to global program optimization", POPL 1973), intraprocedural: for each
// function, a forward data-flow analysis over its CFA finds, at each
// location, the tracked variables that hold the same constant on every
// path from the entry; every read of such a variable in an edge's
// operation is replaced by the constant, and every constant integer
// subexpression is folded with the bit-precise semantics of engine/cfa/csem.
//
// Tracked variables are the function's integer locals and parameters that
// are not volatile, whose address is never taken and that are not global:
// no call and no write through a pointer can change them, so only an
// Assign, Havoc, Decl or call result naming the variable does, and an
// Unsupported edge, which may write any variable, forgets every constant. Parameters
// and declared locals start unknown. An operation whose folding has
// undefined behaviour (csem.UB) or overflows a signed integer is left
// as it is, so --signed-overflow assume-none still cuts the path.
var ConstPass = Pass{Name: "constprop", Run: constProp}

// env maps tracked variables to constants; a variable absent is unknown.
// A nil env is "not reached yet".
type env map[*cfa.Var]uint64

func tracked(f *cfa.Function, v *cfa.Var) bool {
	return v.Func == f.Name && !v.Global && !v.Volatile && !v.AddrTaken && v.T.IsInteger() && csem.Supported(v.T)
}

func constProp(p *cfa.Program, _ *Target) {
	for _, f := range functions(p) {
		constPropFunc(f)
	}
}

func constPropFunc(f *cfa.Function) {
	in := make([]env, len(f.Locs))
	in[f.Entry.Index] = env{}
	work := []*cfa.Location{f.Entry}
	queued := make([]bool, len(f.Locs))
	queued[f.Entry.Index] = true
	for len(work) > 0 {
		l := work[0]
		work = work[1:]
		queued[l.Index] = false
		for _, e := range l.Out {
			out := transfer(f, e, in[l.Index])
			if out == nil {
				continue // an Assume that folds to false
			}
			t := e.To.Index
			var changed bool
			if in[t] == nil {
				in[t], changed = out, true
			} else {
				for v, c := range in[t] {
					if oc, ok := out[v]; !ok || oc != c {
						delete(in[t], v)
						changed = true
					}
				}
			}
			if changed && !queued[t] {
				queued[t] = true
				work = append(work, e.To)
			}
		}
	}
	for _, l := range f.Locs {
		if in[l.Index] == nil {
			continue
		}
		conds := map[cfa.Expr]cfa.Expr{} // a branch's two Assume edges share their condition
		for _, e := range l.Out {
			if a, ok := e.Op.(*cfa.Assume); ok {
				c, seen := conds[a.Cond]
				if !seen {
					c = fold(f, a.Cond, in[l.Index])
					conds[a.Cond] = c
				}
				if c != a.Cond {
					replace(e, &cfa.Assume{Cond: c, Truth: a.Truth})
				}
				continue
			}
			if op := rewriteOp(f, e.Op, in[l.Index]); op != e.Op {
				replace(e, op)
			}
		}
	}
}

// transfer is the environment after e from s (a copy), or nil when e is
// an Assume whose condition is constant and does not hold.
func transfer(f *cfa.Function, e *cfa.Edge, s env) env {
	out := make(env, len(s))
	for v, c := range s {
		out[v] = c
	}
	set := func(lv cfa.Expr, val cfa.Expr) {
		r, ok := lv.(*cfa.VarRef)
		if !ok || !tracked(f, r.Var) {
			return
		}
		delete(out, r.Var)
		if val == nil {
			return
		}
		if c, ok := eval(f, val, s); ok {
			out[r.Var] = csem.Convert(c, val.Type(), r.Var.T)
		}
	}
	switch op := e.Op.(type) {
	case *cfa.Decl:
		delete(out, op.Var)
	case *cfa.Assign:
		if csem.Supported(op.RHS.Type()) {
			set(op.LHS, op.RHS)
		} else {
			set(op.LHS, nil)
		}
	case *cfa.Havoc:
		set(op.LHS, nil)
	case *cfa.Return:
		if f.RetVar != nil {
			delete(out, f.RetVar)
		}
	case *cfa.Call:
		if op.Result != nil {
			set(op.Result, nil)
		}
	case *cfa.Assume:
		if c, ok := eval(f, op.Cond, s); ok && csem.Truth(c) != op.Truth {
			return nil
		}
	case *cfa.Unsupported:
		// It may write any variable (engine/pdg's rule): nothing is known
		// after it.
		return env{}
	}
	return out
}

// eval evaluates x when every variable it reads is a tracked constant in
// s and no operation has undefined behaviour or signed overflow.
func eval(f *cfa.Function, x cfa.Expr, s env) (uint64, bool) {
	if !csem.Supported(x.Type()) {
		return 0, false
	}
	switch x := x.(type) {
	case *cfa.Const:
		return x.V, true
	case *cfa.VarRef:
		if !tracked(f, x.Var) {
			return 0, false
		}
		c, ok := s[x.Var]
		return c, ok
	case *cfa.Cast:
		v, ok := eval(f, x.X, s)
		if !ok {
			return 0, false
		}
		return csem.Convert(v, x.X.Type(), x.T), true
	case *cfa.Unary:
		v, ok := eval(f, x.X, s)
		if !ok || (x.Op == cfa.Neg && csem.NegOverflow(v, x.X.Type(), x.T)) {
			return 0, false
		}
		return csem.Unary(x.Op, v, x.X.Type(), x.T), true
	case *cfa.Binary:
		if !x.X.Type().IsInteger() || !x.Y.Type().IsInteger() {
			return 0, false // no pointer arithmetic or pointer comparison
		}
		a, ok := eval(f, x.X, s)
		if !ok {
			return 0, false
		}
		b, ok := eval(f, x.Y, s)
		if !ok || csem.SignedOverflow(x.Op, a, b, x.X.Type(), x.Y.Type(), x.T) {
			return 0, false
		}
		v, ub := csem.Binary(x.Op, a, b, x.X.Type(), x.Y.Type(), x.T)
		if ub != csem.NoUB {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

// rewriteOp returns op with every constant read folded under s (op itself
// when nothing changes). Lvalues stay lvalues: only their subscripts and
// pointer operands are rewritten.
func rewriteOp(f *cfa.Function, op cfa.Op, s env) cfa.Op {
	rv := func(x cfa.Expr) cfa.Expr { return fold(f, x, s) }
	switch op := op.(type) {
	case *cfa.Assign:
		l, r := lvalue(f, op.LHS, s), rv(op.RHS)
		if l != op.LHS || r != op.RHS {
			return &cfa.Assign{LHS: l, RHS: r}
		}
	case *cfa.Havoc:
		if l := lvalue(f, op.LHS, s); l != op.LHS {
			return &cfa.Havoc{LHS: l, Source: op.Source}
		}
	case *cfa.Return:
		if op.X != nil {
			if x := rv(op.X); x != op.X {
				return &cfa.Return{X: x}
			}
		}
	case *cfa.Call:
		c := *op
		changed := false
		c.Args = make([]cfa.Expr, len(op.Args))
		for i, a := range op.Args {
			c.Args[i] = rv(a)
			changed = changed || c.Args[i] != a
		}
		if op.Result != nil {
			c.Result = lvalue(f, op.Result, s)
			changed = changed || c.Result != op.Result
		}
		if changed {
			return &c
		}
	}
	return op
}

// lvalue rewrites the subexpressions of an lvalue that are read.
func lvalue(f *cfa.Function, x cfa.Expr, s env) cfa.Expr {
	switch x := x.(type) {
	case *cfa.Index:
		a, i := lvalue(f, x.X, s), fold(f, x.I, s)
		if a != x.X || i != x.I {
			return &cfa.Index{X: a, I: i, T: x.T}
		}
	case *cfa.Member:
		if a := lvalue(f, x.X, s); a != x.X {
			c := *x
			c.X = a
			return &c
		}
	case *cfa.Deref:
		if a := fold(f, x.X, s); a != x.X {
			return &cfa.Deref{X: a, T: x.T}
		}
	}
	return x
}

// fold replaces x by a constant when eval succeeds and x has integer
// type, else rewrites its operands.
func fold(f *cfa.Function, x cfa.Expr, s env) cfa.Expr {
	if _, ok := x.(*cfa.Const); ok {
		return x
	}
	if x.Type().IsInteger() {
		if v, ok := eval(f, x, s); ok {
			return &cfa.Const{T: x.Type(), V: cfa.Truncate(v, x.Type().Width())}
		}
	}
	switch x := x.(type) {
	case *cfa.Cast:
		if a := fold(f, x.X, s); a != x.X {
			return &cfa.Cast{X: a, T: x.T}
		}
	case *cfa.Unary:
		if a := fold(f, x.X, s); a != x.X {
			return &cfa.Unary{Op: x.Op, X: a, T: x.T}
		}
	case *cfa.Binary:
		a, b := fold(f, x.X, s), fold(f, x.Y, s)
		if a != x.X || b != x.Y {
			c := *x
			c.X, c.Y = a, b
			return &c
		}
	case *cfa.AddrOf:
		if a := lvalue(f, x.X, s); a != x.X {
			c := *x
			c.X = a
			return &c
		}
	case *cfa.Index, *cfa.Member, *cfa.Deref:
		return lvalue(f, x, s)
	}
	return x
}
