package reduce

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// InlineLimit bounds inlining: a callee is inlined only while its body
// has at most InlineLimit edges, and a program grows by at most
// InlineGrowth edges in one run of InlinePass.
const (
	InlineLimit  = 200
	InlineGrowth = 20000
)

// InlinePass is function inlining (seed 002, section 2.3: "replacing a
// function call with the callee's body", so that intraprocedural passes
// and analyses see through the call). Callees are processed bottom-up
// over the direct call graph (callees first, so a copied body has its
// own calls inlined already). A Call edge calling f by name is replaced
// by a copy of f's body when
//   - f has a body, is not variadic, is not on a cycle of direct calls
//     (recursion stays a call) and has at most InlineLimit edges;
//   - no parameter or local of f has its address taken (their lifetime
//     ends at the return, which a copy living in the caller would not
//     model: a dangling pointer must stay dangling for memory safety);
//   - the result lvalue, if any, has the type of f's result;
//   - f does not contain the property's Via call (one call must stay one
//     call) unless the call is Via itself.
//
// Calls through pointers, calls of functions without a body (their
// effects, engine/cfa/extern.go) and the property's error calls (which
// may have a body, as reach_error in many SV-COMP tasks) are never
// inlined.
//
// The copy: each parameter and local of f becomes a fresh local of the
// caller ("f.x.3", its Orig the source name); the call edge becomes a
// Decl and an Assign per parameter (the call's arguments, evaluated in
// the caller before any binding, as a call does: the arguments read only
// the caller's variables); every edge of f is copied with its position
// and text, so counterexamples still name the callee's source lines;
// a Return edge becomes "result = X" (a Noop without result) to the
// location after the call. Terminal and Dead flags are copied. The
// semantics is the call's exactly, so the pass preserves every verdict.
//
// Targets: copies of an error edge are error edges when the property has
// no Via; copies made by inlining the Via call are the error edges and
// Via becomes nil. A function whose every call was inlined, that is not
// the entry and whose address is never taken is removed, with its error
// edges.
var InlinePass = Pass{Name: "inline", Run: inline}

func inline(p *cfa.Program, t *Target) {
	in := &inliner{p: p, t: t, isTarget: map[*cfa.Edge]bool{}, count: map[string]int{}}
	for _, e := range t.ErrorEdges {
		in.isTarget[e] = true
	}
	in.run()
}

type inliner struct {
	p        *cfa.Program
	t        *Target
	isTarget map[*cfa.Edge]bool
	count    map[string]int // copies made per callee, for names
	grown    int
}

// order returns the functions callees first and the set of functions
// on a cycle, in the call graph of the direct calls (cfa.CallGraph).
func (in *inliner) order() ([]*cfa.Function, map[*cfa.Function]bool) {
	cg := cfa.NewCallGraph(in.p, in.p.Edges, func(_ *cfa.Edge, c *cfa.Call) []string {
		if c.Fn == "" {
			return nil
		}
		return []string{c.Fn}
	})
	var post []*cfa.Function
	for _, f := range cg.BottomUp() {
		if f != in.p.Init { // the initialiser is not inlined into
			post = append(post, f)
		}
	}
	return post, cg.Recursive()
}

func (in *inliner) run() {
	post, cyclic := in.order()
	inlined := map[*cfa.Function]bool{}
	for _, f := range post {
		for _, l := range append([]*cfa.Location(nil), f.Locs...) {
			for _, e := range append([]*cfa.Edge(nil), l.Out...) {
				c, ok := e.Op.(*cfa.Call)
				if !ok || c.Fn == "" || in.isTarget[e] {
					continue // an error call stays the error edge
				}
				g := in.p.Func(c.Fn)
				if g == nil || g == f || cyclic[g] || !in.inlinable(g, c, e) {
					continue
				}
				in.copyInto(f, e, g)
				inlined[g] = true
			}
		}
	}
	in.removeDead(inlined)
}

// inlinable checks the conditions of InlinePass for the call e of g.
func (in *inliner) inlinable(g *cfa.Function, c *cfa.Call, e *cfa.Edge) bool {
	if g.T.Variadic || len(c.Args) != len(g.Params) || g.Entry == nil || g.Exit == nil {
		return false
	}
	size := 0
	for _, l := range g.Locs {
		size += len(l.Out)
		for _, x := range l.Out {
			if x == in.t.Via && e != in.t.Via {
				return false
			}
		}
	}
	if size > InlineLimit || in.grown+size > InlineGrowth {
		return false
	}
	for _, v := range append(append([]*cfa.Var(nil), g.Params...), g.Locals...) {
		if v.AddrTaken && !v.Global {
			return false
		}
	}
	if c.Result != nil && (g.RetVar == nil || !cfa.Same(c.Result.Type(), g.RetVar.T)) {
		return false
	}
	for i, a := range c.Args {
		if !cfa.Same(a.Type(), g.Params[i].T) {
			return false
		}
	}
	in.grown += size
	return true
}

// copyInto replaces the call edge e (in f) by a copy of g's body.
func (in *inliner) copyInto(f *cfa.Function, e *cfa.Edge, g *cfa.Function) {
	p := in.p
	c := e.Op.(*cfa.Call)
	in.count[g.Name]++
	k := in.count[g.Name]
	vars := map[*cfa.Var]*cfa.Var{}
	fresh := func(v *cfa.Var) *cfa.Var {
		if w, ok := vars[v]; ok {
			return w
		}
		w := p.NewVar(f, fmt.Sprintf("%s.%s.%d", g.Name, v.Name, k), v.T)
		w.Orig, w.Temp, w.Volatile, w.Pos = v.Orig, v.Temp, v.Volatile, v.Pos
		vars[v] = w
		return w
	}
	for _, v := range g.Params {
		fresh(v)
	}
	for _, v := range g.Locals {
		if !v.Global {
			fresh(v)
		}
	}
	locs := map[*cfa.Location]*cfa.Location{}
	for _, l := range g.Locs {
		if l == g.Exit {
			locs[l] = e.To
			continue
		}
		m := p.NewLocation(f)
		m.Terminal, m.Dead = l.Terminal, l.Dead
		locs[l] = m
	}
	// Parameter binding replaces the call edge (never an error edge: those
	// call functions without a body; Via is handled below).
	from := e.From
	unlink(e)
	cur := from
	step := func(op cfa.Op, to *cfa.Location) {
		p.AddEdge(cur, to, op, e.Pos, e.Text)
		cur = to
	}
	for i, v := range g.Params {
		w := vars[v]
		m := p.NewLocation(f)
		step(&cfa.Decl{Var: w}, m)
		var to *cfa.Location
		if i == len(g.Params)-1 {
			to = locs[g.Entry]
		} else {
			to = p.NewLocation(f)
		}
		step(&cfa.Assign{LHS: &cfa.VarRef{Var: w}, RHS: c.Args[i]}, to)
	}
	if cur != locs[g.Entry] {
		step(&cfa.Noop{Label: "call " + g.Name}, locs[g.Entry])
	}
	viaCall := e == in.t.Via
	conds := map[cfa.Expr]cfa.Expr{} // an Assume pair shares its condition
	for _, l := range g.Locs {
		for _, x := range l.Out {
			op := substOp(x.Op, vars)
			if a, ok := x.Op.(*cfa.Assume); ok {
				if c, ok := conds[a.Cond]; ok {
					op = &cfa.Assume{Cond: c, Truth: a.Truth}
				} else {
					conds[a.Cond] = op.(*cfa.Assume).Cond
				}
			}
			if r, ok := x.Op.(*cfa.Return); ok {
				switch {
				case c.Result != nil && r.X != nil:
					op = &cfa.Assign{LHS: c.Result, RHS: substExpr(r.X, vars)}
				default:
					op = &cfa.Noop{Label: "return from " + g.Name}
				}
			}
			y := p.AddEdge(locs[l], locs[x.To], op, x.Pos, x.Text)
			if o, ok := in.t.Orig[x]; ok {
				in.t.Orig[y] = o
			}
			if in.isTarget[x] && (in.t.Via == nil || viaCall) {
				in.isTarget[y] = true
				in.t.ErrorEdges = append(in.t.ErrorEdges, y)
			}
		}
	}
	if viaCall {
		// The property is now the copies of its error edges in this
		// caller: the originals (in g) are no longer targets.
		var keep []*cfa.Edge
		for _, x := range in.t.ErrorEdges {
			if x.From.Func == f {
				keep = append(keep, x)
			} else {
				delete(in.isTarget, x)
			}
		}
		in.t.ErrorEdges, in.t.Via = keep, nil
	}
}

// removeDead removes inlined functions no call and no FuncRef names any
// more, except the entry.
func (in *inliner) removeDead(inlined map[*cfa.Function]bool) {
	used := map[string]bool{in.t.Entry: true}
	for _, f := range functions(in.p) {
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if c, ok := e.Op.(*cfa.Call); ok && c.Fn != "" {
					used[c.Fn] = true
				}
				cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
					cfa.Walk(x, func(x cfa.Expr) bool {
						if r, ok := x.(*cfa.FuncRef); ok {
							used[r.Name] = true
						}
						return true
					})
				})
			}
		}
	}
	if in.t.Entry == "" {
		return // unknown entry: keep every function
	}
	if in.t.Via != nil {
		used[in.t.Via.From.Func.Name] = true
	}
	var funcs []*cfa.Function
	removed := map[*cfa.Function]bool{}
	for _, f := range in.p.Funcs {
		if inlined[f] && !used[f.Name] {
			removed[f] = true
			continue
		}
		funcs = append(funcs, f)
	}
	if len(removed) == 0 {
		return
	}
	in.p.Funcs = funcs
	var keep []*cfa.Edge
	for _, e := range in.t.ErrorEdges {
		if !removed[e.From.Func] {
			keep = append(keep, e)
		}
	}
	in.t.ErrorEdges = keep
}

// substOp returns op with the variables of m replaced (op itself when it
// names none).
func substOp(op cfa.Op, m map[*cfa.Var]*cfa.Var) cfa.Op {
	switch o := op.(type) {
	case *cfa.Decl:
		if w, ok := m[o.Var]; ok {
			return &cfa.Decl{Var: w}
		}
	case *cfa.Assign:
		return &cfa.Assign{LHS: substExpr(o.LHS, m), RHS: substExpr(o.RHS, m)}
	case *cfa.Havoc:
		return &cfa.Havoc{LHS: substExpr(o.LHS, m), Source: o.Source}
	case *cfa.Assume:
		return &cfa.Assume{Cond: substExpr(o.Cond, m), Truth: o.Truth}
	case *cfa.Call:
		d := *o
		d.FnPtr = substExpr(o.FnPtr, m)
		d.Args = make([]cfa.Expr, len(o.Args))
		for i, a := range o.Args {
			d.Args[i] = substExpr(a, m)
		}
		d.Result = substExpr(o.Result, m)
		return &d
	case *cfa.Return:
		return &cfa.Return{X: substExpr(o.X, m)}
	}
	return op
}

// substExpr returns x with the variables of m replaced; subexpressions
// that name none are shared.
func substExpr(x cfa.Expr, m map[*cfa.Var]*cfa.Var) cfa.Expr {
	switch e := x.(type) {
	case nil:
		return nil
	case *cfa.VarRef:
		if w, ok := m[e.Var]; ok {
			return &cfa.VarRef{Var: w}
		}
	case *cfa.Unary:
		if y := substExpr(e.X, m); y != e.X {
			d := *e
			d.X = y
			return &d
		}
	case *cfa.Binary:
		a, b := substExpr(e.X, m), substExpr(e.Y, m)
		if a != e.X || b != e.Y {
			d := *e
			d.X, d.Y = a, b
			return &d
		}
	case *cfa.Cast:
		if y := substExpr(e.X, m); y != e.X {
			return &cfa.Cast{X: y, T: e.T}
		}
	case *cfa.Deref:
		if y := substExpr(e.X, m); y != e.X {
			return &cfa.Deref{X: y, T: e.T}
		}
	case *cfa.AddrOf:
		if y := substExpr(e.X, m); y != e.X {
			return &cfa.AddrOf{X: y, T: e.T}
		}
	case *cfa.Member:
		if y := substExpr(e.X, m); y != e.X {
			return &cfa.Member{X: y, Field: e.Field, T: e.T}
		}
	case *cfa.Index:
		a, b := substExpr(e.X, m), substExpr(e.I, m)
		if a != e.X || b != e.I {
			return &cfa.Index{X: a, I: b, T: e.T}
		}
	}
	return x
}
