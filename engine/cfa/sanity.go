package cfa

import (
	"errors"
	"fmt"
)

// Check is the CFA sanity checker (in the manner of x/tools go/ssa's
// sanity.go). It reports every violation of these invariants, joined:
//   - IDs are dense and consistent with Program.Vars, Locs and Edges;
//   - every function has one entry (no in-edges) and one exit (no
//     out-edges); Return edges lead to the exit;
//   - every location is reachable from its function's entry or marked Dead;
//   - a location has no out-edge only if it is the exit or Terminal, one
//     out-edge that is not an Assume, or exactly two Assume edges with the
//     same condition and opposite Truth;
//   - edges agree with their locations' Out and In lists;
//   - operand types agree as documented on Expr.
func (p *Program) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for i, v := range p.Vars {
		if v.ID != i {
			bad("var %s has ID %d at index %d", v.QualName(), v.ID, i)
		}
	}
	for i, l := range p.Locs {
		if l.ID != i {
			bad("location %s of %s has ID %d at index %d", l, l.Func.Name, l.ID, i)
		}
	}
	for i, e := range p.Edges {
		if e.ID != i {
			bad("edge %s has ID %d at index %d", e, e.ID, i)
		}
	}
	if len(p.Init.Entry.Out) > 0 || len(p.Init.Locs) > 2 {
		checkFunction(p.Init, bad) // an untouched Init (no globals) is fine
	}
	for _, f := range p.Funcs {
		checkFunction(f, bad)
	}
	return errors.Join(errs...)
}

func checkFunction(f *Function, bad func(string, ...any)) {
	if f.Entry == nil || f.Exit == nil {
		bad("%s: missing entry or exit", f.Name)
		return
	}
	if len(f.Entry.In) > 0 {
		bad("%s: entry %s has in-edges", f.Name, f.Entry)
	}
	if len(f.Exit.Out) > 0 {
		bad("%s: exit %s has out-edges", f.Name, f.Exit)
	}
	seen := make([]bool, len(f.Locs))
	MarkReachable(f.Entry, seen, false)
	for i, l := range f.Locs {
		if l.Index != i || l.Func != f {
			bad("%s: location %s has index %d at %d", f.Name, l, l.Index, i)
		}
		if !seen[i] && !l.Dead && l != f.Exit {
			bad("%s: location %s is unreachable and not marked dead", f.Name, l)
		}
		for _, e := range l.Out {
			if e.From != l {
				bad("%s: edge %s in Out of %s", f.Name, e, l)
			}
			if !hasEdge(e.To.In, e) {
				bad("%s: edge %s missing from In of %s", f.Name, e, e.To)
			}
			if _, ok := e.Op.(*Return); ok && e.To != f.Exit {
				bad("%s: return edge %s does not lead to the exit", f.Name, e)
			}
			checkOp(f, e, bad)
		}
		for _, e := range l.In {
			if e.To != l || !hasEdge(e.From.Out, e) {
				bad("%s: edge %s inconsistent in In of %s", f.Name, e, l)
			}
		}
		switch len(l.Out) {
		case 0:
			if l != f.Exit && !l.Terminal && !l.Dead {
				bad("%s: location %s has no out-edge but is neither exit nor terminal", f.Name, l)
			}
		case 1:
			if _, ok := l.Out[0].Op.(*Assume); ok {
				bad("%s: location %s has a single assume edge", f.Name, l)
			}
		case 2:
			a, ok1 := l.Out[0].Op.(*Assume)
			b, ok2 := l.Out[1].Op.(*Assume)
			if !ok1 || !ok2 || a.Cond != b.Cond || a.Truth == b.Truth {
				bad("%s: location %s has two out-edges that are not a complementary assume pair", f.Name, l)
			}
		default:
			bad("%s: location %s has %d out-edges", f.Name, l, len(l.Out))
		}
	}
}

func hasEdge(es []*Edge, e *Edge) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

func checkOp(f *Function, e *Edge, bad func(string, ...any)) {
	check := func(x Expr) {
		Walk(x, func(x Expr) bool {
			if err := checkExpr(x); err != "" {
				bad("%s: edge %s: %s in %s", f.Name, e, err, x)
			}
			return true
		})
	}
	switch op := e.Op.(type) {
	case *Assign:
		check(op.LHS)
		check(op.RHS)
		if !IsLvalue(op.LHS) {
			bad("%s: edge %s: assignment to a non-lvalue", f.Name, e)
		}
	case *Havoc:
		check(op.LHS)
	case *Assume:
		check(op.Cond)
	case *Call:
		for _, a := range op.Args {
			check(a)
		}
		if op.Fn == "" && op.FnPtr == nil {
			bad("%s: edge %s: call without callee", f.Name, e)
		}
	case *Return:
		if op.X != nil {
			check(op.X)
		}
	}
}

func checkExpr(x Expr) string {
	if x.Type() == nil {
		return "untyped expression"
	}
	b, ok := x.(*Binary)
	if !ok {
		return ""
	}
	xt, yt := b.X.Type(), b.Y.Type()
	switch b.Op {
	case Shl, Shr, LAnd, LOr:
		return ""
	case Add, Sub:
		if xt.Kind == Pointer || yt.Kind == Pointer {
			return ""
		}
	case Eq, Ne, Lt, Le, Gt, Ge:
		if xt.Kind == Pointer && yt.Kind == Pointer {
			return ""
		}
	}
	if !Same(xt, yt) {
		return fmt.Sprintf("operand types %s and %s differ", xt, yt)
	}
	return ""
}

// MarkReachable sets seen[m.Index] for every location m of l's function
// reachable from l (l included): along Out edges, or along In edges when
// backward. seen has len(l.Func.Locs) entries; locations already marked
// are not walked again (their reachable set is marked already).
func MarkReachable(l *Location, seen []bool, backward bool) {
	seen[l.Index] = true
	stack := []*Location{l}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		edges := n.Out
		if backward {
			edges = n.In
		}
		for _, e := range edges {
			m := e.To
			if backward {
				m = e.From
			}
			if !seen[m.Index] {
				seen[m.Index] = true
				stack = append(stack, m)
			}
		}
	}
}
