package witnesstest

import (
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Translate builds a program from C source with the front end.
func Translate(t *testing.T, dm cfa.DataModel, name, src string) *cfa.Program {
	t.Helper()
	p, err := frontend.TranslateSources(frontend.Options{DataModel: dm}, []frontend.Source{{Name: name, Content: src}})
	if err != nil {
		t.Fatalf("frontend: %v", err)
	}
	return p
}

// frame is an activation of a function in the test executor.
type frame struct {
	fn   *cfa.Function
	vars map[*cfa.Var]uint64
	call *cfa.Edge // the call edge that entered it
}

// ExecOpts configure the test executor (Execute).
type ExecOpts struct {
	// Decls, when not nil, gives the value of every uninitialised local
	// (recorded as an input of its Decl step).
	Decls *uint64
	// Extern gives the result of external calls (recorded as inputs)
	// when not nil.
	Extern *uint64
}

// Execute runs p concretely from Init and then entry, taking the values of
// __VERIFIER_nondet_* calls from vals in order, until the first call of an
// error function (the last step of the returned path). reached is false
// when the run ends otherwise.
func Execute(t *testing.T, p *cfa.Program, entry string, vals []uint64, o ExecOpts) (path []cfa.Step, inputs []results.Input, reached bool) {
	t.Helper()
	globals := map[*cfa.Var]uint64{}
	stack := []*frame{{fn: p.Init, vars: map[*cfa.Var]uint64{}}}
	cur := p.Init.Entry
	k := 0
	for n := 0; n < 100000; n++ {
		fr := stack[len(stack)-1]
		if cur == fr.fn.Exit {
			if fr.fn == p.Init {
				main := p.Func(entry)
				path = append(path, cfa.Step{Kind: cfa.Enter, Callee: main})
				stack = []*frame{{fn: main, vars: map[*cfa.Var]uint64{}}}
				cur = main.Entry
				continue
			}
			if len(stack) == 1 {
				return path, inputs, false
			}
			stack = stack[:len(stack)-1]
			caller := stack[len(stack)-1]
			path = append(path, cfa.Step{Kind: cfa.Leave, Edge: fr.call, Callee: fr.fn})
			if c := fr.call.Op.(*cfa.Call); c.Result != nil && fr.fn.RetVar != nil {
				store(t, caller, globals, c.Result, fr.vars[fr.fn.RetVar])
			}
			cur = fr.call.To
			continue
		}
		if len(cur.Out) == 0 {
			return path, inputs, false
		}
		e := cur.Out[0]
		if a, ok := e.Op.(*cfa.Assume); ok {
			v := eval(t, fr, globals, a.Cond) != 0
			for _, x := range cur.Out {
				if x.Op.(*cfa.Assume).Truth == v {
					e = x
				}
			}
		}
		step := cfa.Step{Kind: cfa.Intra, Edge: e}
		switch op := e.Op.(type) {
		case *cfa.Decl:
			fr.vars[op.Var] = 0
			if o.Decls != nil && !op.Var.Global && fr.fn != p.Init {
				fr.vars[op.Var] = *o.Decls
				inputs = append(inputs, results.Input{Source: "uninitialised " + op.Var.Name, Type: op.Var.T, Bits: *o.Decls, Step: len(path)})
			}
		case *cfa.Assign:
			store(t, fr, globals, op.LHS, eval(t, fr, globals, op.RHS))
		case *cfa.Havoc:
			var v uint64
			if k < len(vals) {
				v = vals[k]
			}
			k++
			v = cfa.Truncate(v, op.LHS.Type().Width())
			inputs = append(inputs, results.Input{Source: op.Source, Type: op.LHS.Type(), Bits: v, Step: len(path)})
			store(t, fr, globals, op.LHS, v)
		case *cfa.Call:
			callee := p.Func(op.Fn)
			if callee != nil {
				step.Kind, step.Callee = cfa.Enter, callee
			}
			if spec.ErrorFuncs[op.Fn] {
				return append(path, step), inputs, true
			}
			if callee != nil {
				nf := &frame{fn: callee, vars: map[*cfa.Var]uint64{}, call: e}
				for i, a := range op.Args {
					if i < len(callee.Params) {
						nf.vars[callee.Params[i]] = eval(t, fr, globals, a)
					}
				}
				path = append(path, step)
				stack = append(stack, nf)
				cur = callee.Entry
				continue
			}
			if op.Result != nil {
				var v uint64
				if o.Extern != nil {
					v = *o.Extern
					inputs = append(inputs, results.Input{Source: "extern " + op.Fn, Type: op.Result.Type(), Bits: v, Step: len(path)})
				}
				store(t, fr, globals, op.Result, v)
			}
		case *cfa.Return:
			if op.X != nil {
				fr.vars[fr.fn.RetVar] = eval(t, fr, globals, op.X)
			}
		}
		path = append(path, step)
		cur = e.To
	}
	t.Fatal("execute: step limit")
	return nil, nil, false
}

func lookup(fr *frame, globals map[*cfa.Var]uint64, v *cfa.Var) map[*cfa.Var]uint64 {
	if v.Global {
		return globals
	}
	return fr.vars
}

func store(t *testing.T, fr *frame, globals map[*cfa.Var]uint64, lhs cfa.Expr, v uint64) {
	r, ok := lhs.(*cfa.VarRef)
	if !ok {
		t.Fatalf("execute: unsupported lvalue %s", lhs)
	}
	lookup(fr, globals, r.Var)[r.Var] = cfa.Truncate(v, r.Var.T.Width())
}

func signed(v uint64, t *cfa.Type) int64 {
	if t.IsSigned() {
		return cfa.SignExtend(v, t.Width())
	}
	return int64(v)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func eval(t *testing.T, fr *frame, globals map[*cfa.Var]uint64, e cfa.Expr) uint64 {
	switch e := e.(type) {
	case *cfa.Const:
		return e.V
	case *cfa.VarRef:
		return lookup(fr, globals, e.Var)[e.Var]
	case *cfa.Cast:
		x := eval(t, fr, globals, e.X)
		if e.T.Kind == cfa.Bool {
			return b2u(x != 0)
		}
		return cfa.Truncate(uint64(signed(x, e.X.Type())), e.T.Width())
	case *cfa.Unary:
		x := eval(t, fr, globals, e.X)
		switch e.Op {
		case cfa.Neg:
			return cfa.Truncate(-x, e.T.Width())
		case cfa.BNot:
			return cfa.Truncate(^x, e.T.Width())
		case cfa.LNot:
			return b2u(x == 0)
		}
	case *cfa.Binary:
		if e.Op == cfa.LAnd {
			return b2u(eval(t, fr, globals, e.X) != 0 && eval(t, fr, globals, e.Y) != 0)
		}
		if e.Op == cfa.LOr {
			return b2u(eval(t, fr, globals, e.X) != 0 || eval(t, fr, globals, e.Y) != 0)
		}
		x, y := eval(t, fr, globals, e.X), eval(t, fr, globals, e.Y)
		xt := e.X.Type()
		sx, sy := signed(x, xt), signed(y, e.Y.Type())
		w := e.T.Width()
		lt := func() bool {
			if xt.IsSigned() {
				return sx < sy
			}
			return x < y
		}
		switch e.Op {
		case cfa.Add:
			return cfa.Truncate(x+y, w)
		case cfa.Sub:
			return cfa.Truncate(x-y, w)
		case cfa.Mul:
			return cfa.Truncate(x*y, w)
		case cfa.Div:
			if xt.IsSigned() {
				return cfa.Truncate(uint64(sx/sy), w)
			}
			return x / y
		case cfa.Rem:
			if xt.IsSigned() {
				return cfa.Truncate(uint64(sx%sy), w)
			}
			return x % y
		case cfa.And:
			return x & y
		case cfa.Or:
			return x | y
		case cfa.Xor:
			return x ^ y
		case cfa.Shl:
			return cfa.Truncate(x<<y, w)
		case cfa.Shr:
			if xt.IsSigned() {
				return cfa.Truncate(uint64(sx>>y), w)
			}
			return x >> y
		case cfa.Eq:
			return b2u(x == y)
		case cfa.Ne:
			return b2u(x != y)
		case cfa.Lt:
			return b2u(lt())
		case cfa.Ge:
			return b2u(!lt())
		case cfa.Gt:
			return b2u(!lt() && x != y)
		case cfa.Le:
			return b2u(lt() || x == y)
		}
	}
	t.Fatalf("execute: unsupported expression %s (%T)", e, e)
	return 0
}
