package contract

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Contracted is one function with a contract in a translated program.
type Contracted struct {
	Func   string // the function's name in the program
	Suffix string // what the generated names end with (the name as written, expanded)
}

// CheckOf returns the name of the function that checks fn's contract in
// p, "" when fn has none.
func CheckOf(p *cfa.Program, fn string) string {
	for _, c := range Find(p) {
		if c.Func == fn {
			return c.Check()
		}
	}
	return ""
}

// Check is the name of the function that checks c's contract.
func (c Contracted) Check() string { return CheckPrefix + c.Suffix }

// Use is the name of c's contract as a function.
func (c Contracted) Use() string { return UsePrefix + c.Suffix }

// Find lists the functions with contracts of a program that Generate's
// text was translated in, from the OfPrefix globals' initialisers.
func Find(p *cfa.Program) []Contracted {
	var cs []Contracted
	for _, e := range p.Init.Locs {
		for _, e := range e.Out {
			a, ok := e.Op.(*cfa.Assign)
			if !ok {
				continue
			}
			v := cfa.BaseVar(a.LHS)
			if v == nil || !strings.HasPrefix(v.Name, OfPrefix) {
				continue
			}
			if fn, ok := cfa.StringLiteral(a.RHS); ok && fn != "" {
				cs = append(cs, Contracted{Func: fn, Suffix: strings.TrimPrefix(v.Name, OfPrefix)})
			}
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].Suffix < cs[j].Suffix })
	return cs
}

// Instrument makes p's contracts hold where Generate's text cannot:
//
//   - every call of a function with a contract, except the one in the
//     function's own check, calls the contract instead (CBMC's
//     --replace-call-with-contract for every contract);
//   - in every function a check may execute, every write to memory that
//     existed before the check called its function (globals, the objects
//     the requires clauses allocated) is preceded, while that check is
//     under way (ActivePrefix), by the test whether the contract's assigns
//     clause allows it, a property of its own at the write: "assigns
//     clause of f: *p is not assignable" (CBMC's
//     --enforce-contract; no assigns clause is an empty frame).
//
// use, when not nil, names the functions whose contracts their calls
// use (CBMC's --replace-call-with-contract for each); the other calls
// keep their bodies.
//
// Writes by functions without a body other than memcpy, memmove and
// memset are not checked (their effect on memory is not in the
// program).
func Instrument(p *cfa.Program, use map[string]bool) []Contracted {
	cs := Find(p)
	if len(cs) == 0 {
		return nil
	}
	replace := map[string]string{}
	for _, c := range cs {
		if p.Func(c.Use()) != nil && (use == nil || use[c.Func]) {
			replace[c.Func] = c.Use()
		}
	}
	for _, e := range p.Edges {
		call, ok := e.Op.(*cfa.Call)
		if !ok || replace[call.Fn] == "" {
			continue
		}
		if owner := e.From.Func.Name; strings.HasPrefix(owner, CheckPrefix) || strings.HasPrefix(owner, UsePrefix) {
			continue
		}
		call.Fn = replace[call.Fn]
	}
	var globals []*cfa.Var
	for _, g := range p.Globals {
		if g.AddrTaken && !cfa.Generated(g.Name) && !strings.HasPrefix(g.Name, "__CPROVER") {
			globals = append(globals, g)
		}
	}
	for _, c := range cs {
		active := findGlobal(p, ActivePrefix+c.Suffix)
		if p.Func(c.Check()) == nil || active == nil {
			continue
		}
		assignable := AssignablePrefix + c.Suffix
		if p.Func(assignable) == nil {
			continue
		}
		for _, f := range closure(p, c.Func) {
			in := &instrumenter{p: p, f: f, c: c, active: active, assignable: assignable, globals: globals}
			in.run()
		}
	}
	p.Finish()
	return cs
}

func findGlobal(p *cfa.Program, name string) *cfa.Var {
	for _, g := range p.Globals {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// closure lists the functions with a body that fn may call, fn included,
// through direct calls and calls through pointers (to any address-taken
// function), without the generated ones.
func closure(p *cfa.Program, fn string) []*cfa.Function {
	taken := p.AddressTaken()
	seen := map[string]bool{}
	var out []*cfa.Function
	work := []string{fn}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		f := p.Func(n)
		if seen[n] || f == nil || cfa.Generated(n) {
			continue
		}
		seen[n] = true
		out = append(out, f)
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if call, ok := e.Op.(*cfa.Call); ok {
					if call.Fn != "" {
						work = append(work, call.Fn)
					} else {
						work = append(work, taken...)
					}
				}
			}
		}
	}
	return out
}

type instrumenter struct {
	p          *cfa.Program
	f          *cfa.Function
	c          Contracted
	active     *cfa.Var
	assignable string
	globals    []*cfa.Var
}

// write is one write an edge makes: the address, the size in bytes, and
// whether it certainly is a global.
type write struct {
	addr   cfa.Expr
	size   cfa.Expr
	global bool
	text   string
}

func (in *instrumenter) run() {
	edges := []*cfa.Edge{}
	for _, l := range in.f.Locs {
		edges = append(edges, l.Out...)
	}
	for _, e := range edges {
		if w, ok := in.writeOf(e); ok {
			in.guard(e, w)
		}
	}
}

func (in *instrumenter) sizeT() *cfa.Type { return cfa.IntType(in.p.DataModel.PointerBits(), false) }
func (in *instrumenter) charPtr() *cfa.Type {
	return cfa.PointerTo(cfa.CharType, in.p.DataModel.PointerBits())
}

func (in *instrumenter) writeOf(e *cfa.Edge) (write, bool) {
	var lhs cfa.Expr
	switch op := e.Op.(type) {
	case *cfa.Assign:
		lhs = op.LHS
	case *cfa.Havoc:
		lhs = op.LHS
	case *cfa.Call:
		if op.Fn == "memcpy" || op.Fn == "memmove" || op.Fn == "memset" || op.Fn == "__builtin_memcpy" || op.Fn == "__builtin_memset" || op.Fn == "__builtin_memmove" {
			if len(op.Args) == 3 {
				return write{addr: &cfa.Cast{X: op.Args[0], T: in.charPtr()}, size: &cfa.Cast{X: op.Args[2], T: in.sizeT()}, text: e.Text}, true
			}
			return write{}, false
		}
		if op.Result == nil {
			return write{}, false
		}
		lhs = op.Result
	default:
		return write{}, false
	}
	if v := cfa.BaseVar(lhs); v != nil {
		if !v.Global || cfa.Generated(v.Name) || strings.HasPrefix(v.Name, "__CPROVER") {
			return write{}, false // a local: the check allows it
		}
		return write{addr: &cfa.Cast{X: &cfa.AddrOf{X: lhs, T: cfa.PointerTo(lhs.Type(), in.p.DataModel.PointerBits())}, T: in.charPtr()},
			size: cfa.NewConst(in.sizeT(), lhs.Type().Size), global: true, text: e.Text}, true
	}
	if lhs.Type().Size == 0 {
		return write{}, false
	}
	return write{addr: &cfa.Cast{X: &cfa.AddrOf{X: lhs, T: cfa.PointerTo(lhs.Type(), in.p.DataModel.PointerBits())}, T: in.charPtr()},
		size: cfa.NewConst(in.sizeT(), lhs.Type().Size), text: e.Text}, true
}

func (in *instrumenter) temp(t *cfa.Type) *cfa.Var {
	v := in.p.NewVar(in.f, fmt.Sprintf("__reverify_assigns%d", len(in.f.Locals)), t)
	v.Temp = true
	return v
}

// guard puts the assignable test of w before e.
func (in *instrumenter) guard(e *cfa.Edge, w write) {
	a := e.From
	z := in.p.NewLocation(in.f)
	// e now leaves z
	for i, o := range a.Out {
		if o == e {
			a.Out = append(a.Out[:i], a.Out[i+1:]...)
			break
		}
	}
	e.From = z
	z.Out = append(z.Out, e)
	rng, text := e.Pos, e.Text
	isActive := &cfa.Binary{Op: cfa.Ne, X: &cfa.VarRef{Var: in.active}, Y: cfa.NewConst(in.active.T, 0), T: cfa.IntT}
	cur := in.p.NewLocation(in.f)
	in.p.AddEdge(a, cur, &cfa.Assume{Cond: isActive, Truth: true}, rng, text)
	in.p.AddEdge(a, z, &cfa.Assume{Cond: isActive, Truth: false}, rng, text)
	vp := cfa.PointerTo(cfa.VoidType, in.p.DataModel.PointerBits())
	var global cfa.Expr = cfa.NewConst(cfa.BoolType, 0)
	if w.global {
		global = cfa.NewConst(cfa.BoolType, 1)
	} else {
		for _, g := range in.globals {
			t := in.temp(cfa.BoolType)
			next := in.p.NewLocation(in.f)
			addr := &cfa.Cast{X: &cfa.AddrOf{X: &cfa.VarRef{Var: g}, T: cfa.PointerTo(g.T, in.p.DataModel.PointerBits())}, T: vp}
			in.p.Externals["__CPROVER_same_object"] = &cfa.Type{Kind: cfa.Func, Result: cfa.BoolType, Params: []*cfa.Type{vp, vp}}
			in.p.AddEdge(cur, next, &cfa.Call{Fn: "__CPROVER_same_object", Args: []cfa.Expr{&cfa.Cast{X: w.addr, T: vp}, addr}, Result: &cfa.VarRef{Var: t}, Pos: rng.Start}, rng, text)
			cur = next
			global = &cfa.Binary{Op: cfa.Or, X: global, Y: &cfa.VarRef{Var: t}, T: cfa.BoolType}
		}
	}
	ok := in.temp(cfa.BoolType)
	next := in.p.NewLocation(in.f)
	in.p.AddEdge(cur, next, &cfa.Call{Fn: in.assignable, Args: []cfa.Expr{w.addr, w.size, global}, Result: &cfa.VarRef{Var: ok}, Pos: rng.Start}, rng, text)
	cur = next
	fail := in.p.NewLocation(in.f)
	cond := &cfa.VarRef{Var: ok}
	in.p.AddEdge(cur, z, &cfa.Assume{Cond: cond, Truth: true}, rng, text)
	in.p.AddEdge(cur, fail, &cfa.Assume{Cond: cond, Truth: false}, rng, text)
	// not blocking: the failure, or the write goes on (CBMC checks each
	// write on its own)
	choice := in.temp(cfa.IntT)
	chosen := in.p.NewLocation(in.f)
	in.p.AddEdge(fail, chosen, &cfa.Havoc{LHS: &cfa.VarRef{Var: choice}, Source: "contract check"}, rng, text)
	fail = in.p.NewLocation(in.f)
	pick := &cfa.Binary{Op: cfa.Ne, X: &cfa.VarRef{Var: choice}, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT}
	in.p.AddEdge(chosen, fail, &cfa.Assume{Cond: pick, Truth: true}, rng, text)
	in.p.AddEdge(chosen, z, &cfa.Assume{Cond: pick, Truth: false}, rng, text)
	term := in.p.NewLocation(in.f)
	term.Terminal = true
	cp := cfa.PointerTo(cfa.CharType, in.p.DataModel.PointerBits())
	in.p.Externals["__assert_fail"] = &cfa.Type{Kind: cfa.Func, Result: cfa.VoidType, Params: []*cfa.Type{cp, cp, cfa.UIntType, cp}}
	msg := fmt.Sprintf("assigns clause of %s: %s is assignable", in.c.Suffix, strings.TrimSuffix(strings.TrimSpace(w.text), ";"))
	in.p.AddEdge(fail, term, &cfa.Call{Fn: "__assert_fail", Args: []cfa.Expr{
		decay(msg, cp), decay(rng.Start.File, cp), cfa.NewConst(cfa.UIntType, int64(rng.Start.Line)), decay(in.f.Name, cp),
	}, Pos: rng.Start}, rng, text)
}

func decay(s string, cp *cfa.Type) cfa.Expr {
	lit := &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, int64(len(s))+1), Val: s}
	return &cfa.AddrOf{X: &cfa.Index{X: lit, I: cfa.NewConst(cfa.IntT, 0), T: cfa.CharType}, T: cp}
}
