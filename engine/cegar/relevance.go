package cegar

import (
	"github.com/reverify/reverify/engine/cfa"
)

// relevant is a set of variable instances whose values may flow into the
// contradiction at the end of an infeasible prefix, and mem for
// everything reachable through pointers (every variable whose address is
// taken, arrays included, heap blocks and string literals). A local's
// instance is its frame: under recursion a callee's write to its own x
// does not kill the caller's x.
type relevant struct {
	vars map[vkey]bool
	mem  bool
}

// vkey is a variable instance: a local in the frame at depth, or a
// global (depth -1).
type vkey struct{ id, depth int }

func key(v *cfa.Var, depth int) vkey {
	if v.Global {
		depth = -1
	}
	return vkey{v.ID, depth}
}

func newRelevant() relevant { return relevant{vars: map[vkey]bool{}} }

func (r relevant) clone() relevant {
	c := relevant{vars: make(map[vkey]bool, len(r.vars)), mem: r.mem}
	for k := range r.vars {
		c.vars[k] = true
	}
	return c
}

func (r relevant) empty() bool { return len(r.vars) == 0 && !r.mem }

// has reports whether the value of v in the frame at depth is relevant.
func (r relevant) has(v *cfa.Var, depth int) bool {
	return r.vars[key(v, depth)] || (r.mem && v.AddrTaken)
}

// ids returns the IDs of the variables with some relevant instance.
func (r relevant) ids() map[int]bool {
	m := make(map[int]bool, len(r.vars))
	for k := range r.vars {
		m[k.id] = true
	}
	return m
}

func (r *relevant) add(u relevant) {
	for k := range u.vars {
		r.vars[k] = true
	}
	r.mem = r.mem || u.mem
}

func (r relevant) intersects(u relevant) bool {
	if (u.mem && (r.mem || len(r.vars) > 0)) || (r.mem && len(u.vars) > 0) {
		return true // conservative: mem may alias anything address-taken
	}
	for k := range u.vars {
		if r.vars[k] {
			return true
		}
	}
	return false
}

// uses returns the variable instances whose values evaluating x in the
// frame at depth reads.
func uses(x cfa.Expr, depth int) relevant {
	u := newRelevant()
	u.expr(x, depth)
	return u
}

func (u *relevant) expr(x cfa.Expr, d int) {
	switch x := x.(type) {
	case nil:
	case *cfa.VarRef:
		u.vars[key(x.Var, d)] = true
	case *cfa.Deref:
		u.mem = true
		u.expr(x.X, d)
	case *cfa.AddrOf:
		u.addr(x.X, d) // &x reads no value of x
	case *cfa.Index:
		u.expr(x.X, d)
		u.expr(x.I, d)
	case *cfa.Member:
		u.expr(x.X, d)
	case *cfa.Unary:
		u.expr(x.X, d)
	case *cfa.Binary:
		u.expr(x.X, d)
		u.expr(x.Y, d)
	case *cfa.Cast:
		u.expr(x.X, d)
	}
}

// addr adds what computing the address of the lvalue x reads: index
// expressions and pointers, not the object itself.
func (u *relevant) addr(x cfa.Expr, d int) {
	switch x := x.(type) {
	case *cfa.Deref:
		u.expr(x.X, d)
	case *cfa.Index:
		u.addr(x.X, d)
		u.expr(x.I, d)
	case *cfa.Member:
		u.addr(x.X, d)
	}
}

// lvalue returns the variable a write to x modifies (nil through a
// pointer) and what computing its address reads.
func lvalue(x cfa.Expr, d int) (base *cfa.Var, addr relevant) {
	addr = newRelevant()
	addr.addr(x, d)
	for {
		switch y := x.(type) {
		case *cfa.VarRef:
			return y.Var, addr
		case *cfa.Member:
			x = y.X
		case *cfa.Index:
			x = y.X
		default:
			return nil, addr
		}
	}
}

// wholeVar reports whether the lvalue x is a variable itself.
func wholeVar(x cfa.Expr) (*cfa.Var, bool) {
	if v, ok := x.(*cfa.VarRef); ok {
		return v.Var, true
	}
	return nil, false
}

// assign is the backward transfer of lhs := (something reading rhs),
// lhs in the frame at depth d.
func (r *relevant) assign(lhs cfa.Expr, d int, rhs relevant) {
	if lhs == nil {
		return
	}
	base, addr := lvalue(lhs, d)
	if base == nil {
		if r.mem { // a write through a pointer may hit anything in mem
			r.add(rhs)
			r.add(addr)
		}
		return
	}
	if !r.has(base, d) {
		return
	}
	if v, whole := wholeVar(lhs); whole {
		delete(r.vars, key(v, d)) // the old value is dead; mem keeps it if address-taken
	}
	r.add(rhs)
	r.add(addr)
}

// back is the backward relevance transfer of one step taken in the frame
// at depth d (for Enter the caller's, for Leave the callee's): the
// variable instances relevant before step, given those relevant after
// it. It over-approximates data dependence along the path (seed 000,
// section 2.4's flow dependence, on one path): a step that writes a
// relevant variable makes what it reads relevant; an assumption that
// reads a relevant variable makes all it reads relevant (the value
// analysis refines unknowns from equalities); calls of functions without
// a body make their arguments (and, for pointer arguments, mem)
// relevant.
func back(step cfa.Step, d int, after relevant) relevant {
	r := after.clone()
	switch step.Kind {
	case cfa.Enter:
		if step.Edge == nil {
			return r
		}
		call := step.Edge.Op.(*cfa.Call)
		for i, p := range step.Callee.Params {
			if i < len(call.Args) && r.has(p, d+1) {
				delete(r.vars, key(p, d+1))
				r.add(uses(call.Args[i], d))
			}
		}
		return r
	case cfa.Leave:
		call := step.Edge.Op.(*cfa.Call)
		if ret := step.Callee.RetVar; ret != nil && call.Result != nil {
			r.assign(call.Result, d-1, relevant{vars: map[vkey]bool{key(ret, d): true}})
		}
		return r
	}
	switch op := step.Edge.Op.(type) {
	case *cfa.Decl:
		delete(r.vars, key(op.Var, d))
	case *cfa.Assign:
		r.assign(op.LHS, d, uses(op.RHS, d))
	case *cfa.Havoc:
		if v, whole := wholeVar(op.LHS); whole && !(r.mem && v.AddrTaken) {
			delete(r.vars, key(v, d))
		}
	case *cfa.Assume:
		if u := uses(op.Cond, d); r.intersects(u) {
			r.add(u)
		}
	case *cfa.Return:
		if ret := step.Edge.From.Func.RetVar; ret != nil && op.X != nil {
			r.assign(&cfa.VarRef{Var: ret}, d, uses(op.X, d))
		}
	case *cfa.Call:
		if r.empty() {
			break
		}
		for _, a := range op.Args {
			r.add(uses(a, d))
			if t := a.Type(); t != nil && t.Kind == cfa.Pointer {
				r.mem = true
			}
		}
		r.add(uses(op.FnPtr, d))
	}
	return r
}

// reads returns what the contradicting step of a prefix reads: its
// condition, or every expression of its operation.
func reads(step cfa.Step, d int) relevant {
	u := newRelevant()
	if step.Edge == nil {
		return u
	}
	switch op := step.Edge.Op.(type) {
	case *cfa.Assume:
		u.expr(op.Cond, d)
	case *cfa.Assign:
		u.expr(op.RHS, d)
		u.addr(op.LHS, d)
	case *cfa.Call:
		if step.Kind == cfa.Leave {
			if ret := step.Callee.RetVar; ret != nil {
				u.vars[key(ret, d)] = true
			}
			u.addr(op.Result, d-1)
			break
		}
		for _, a := range op.Args {
			u.expr(a, d)
			if t := a.Type(); t != nil && t.Kind == cfa.Pointer {
				u.mem = true
			}
		}
		u.expr(op.FnPtr, d)
	case *cfa.Return:
		u.expr(op.X, d)
	}
	return u
}

// depths returns the frame depth in which each step of path is taken:
// an Enter step in the caller's frame, a Leave step in the callee's.
func depths(path []cfa.Step) []int {
	ds := make([]int, len(path))
	d := 0
	for i, s := range path {
		switch s.Kind {
		case cfa.Enter:
			ds[i] = d
			d++
		case cfa.Leave:
			ds[i] = d
			d--
		default:
			ds[i] = d
		}
	}
	return ds
}
