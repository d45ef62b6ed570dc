package features

import "github.com/reverify/reverify/engine/cfa"

// taint is the input-dependent data of a program: variables, and memory
// written through pointers as one cell.
type taint struct {
	vars   map[*cfa.Var]bool
	memory bool
}

// reads reports whether e reads input-dependent data: an input-dependent
// or volatile variable, or memory through a pointer once memory is.
func (t *taint) reads(e cfa.Expr) bool {
	hit := false
	cfa.Walk(e, func(x cfa.Expr) bool {
		switch x := x.(type) {
		case *cfa.VarRef:
			if t.vars[x.Var] || x.Var.Volatile {
				hit = true
			}
		case *cfa.Deref:
			if t.memory {
				hit = true
			}
		case *cfa.AddrOf:
			return false // an address is not data
		}
		return !hit
	})
	return hit
}

// mark makes the lvalue lhs input-dependent; it reports whether that is
// new.
func (t *taint) mark(lhs cfa.Expr) bool {
	if v := base(lhs); v != nil {
		if t.vars[v] {
			return false
		}
		t.vars[v] = true
		return true
	}
	if t.memory {
		return false
	}
	t.memory = true
	return true
}

// base is the variable an lvalue designates part of (nil through a
// pointer).
func base(e cfa.Expr) *cfa.Var {
	for {
		switch x := e.(type) {
		case *cfa.VarRef:
			return x.Var
		case *cfa.Member:
			e = x.X
		case *cfa.Index:
			if x.X.Type() != nil && x.X.Type().Kind == cfa.Pointer {
				return nil
			}
			e = x.X
		case *cfa.Cast:
			e = x.X
		default:
			return nil
		}
	}
}

// inputs computes the input-dependent data of the reached functions to a
// fixed point (Of's rules), without the input assignments of skip
// (pinnedInputs).
func inputs(p *cfa.Program, root *cfa.Function, reached []*cfa.Function, skip map[*cfa.Edge]bool) *taint {
	t := &taint{vars: map[*cfa.Var]bool{}}
	for _, v := range root.Params {
		t.vars[v] = true
	}
	returns := map[string]bool{} // functions returning input-dependent data
	for changed := true; changed; {
		changed = false
		for _, fn := range append([]*cfa.Function{p.Init}, reached...) {
			for _, l := range fn.Locs {
				for _, e := range l.Out {
					switch op := e.Op.(type) {
					case *cfa.Havoc:
						if !skip[e] {
							changed = t.mark(op.LHS) || changed
						}
					case *cfa.Assign:
						if t.reads(op.RHS) {
							changed = t.mark(op.LHS) || changed
						}
					case *cfa.Return:
						if op.X != nil && !returns[fn.Name] && t.reads(op.X) {
							returns[fn.Name], changed = true, true
						}
					case *cfa.Call:
						g := p.Func(op.Fn)
						if op.Result != nil && (g == nil || returns[op.Fn]) && !skip[e] {
							changed = t.mark(op.Result) || changed
						}
						if g == nil {
							// A function without a body may write what its
							// pointer arguments reach.
							for _, a := range op.Args {
								if a.Type() != nil && a.Type().Kind == cfa.Pointer && !t.memory {
									t.memory, changed = true, true
								}
							}
							continue
						}
						for i, a := range op.Args {
							if i < len(g.Params) && !t.vars[g.Params[i]] && t.reads(a) {
								t.vars[g.Params[i]], changed = true, true
							}
						}
					}
				}
			}
		}
	}
	return t
}

type loopShape uint8

const (
	finite loopShape = iota
	counting
	inputBounded
)

// shape classifies a natural loop (Of's rules).
func shape(body map[*cfa.Location]bool, in *taint) loopShape {
	arithmetic := false
	smallExit, exits := false, 0
	for l := range body {
		for _, e := range l.Out {
			if !body[e.To] {
				exits++
				if a, ok := e.Op.(*cfa.Assume); ok && !in.reads(a.Cond) && constantsBelow(a.Cond, LargeBound) {
					smallExit = true
				}
				continue
			}
			if a, ok := e.Op.(*cfa.Assign); ok && operation(a.RHS) {
				arithmetic = true
			}
		}
	}
	switch {
	case !arithmetic:
		return finite
	case smallExit:
		return counting
	}
	return inputBounded
}

// operation reports whether e computes over variables: a unary or binary
// operation (through casts) that reads a variable.
func operation(e cfa.Expr) bool {
	e = uncast(e)
	switch e.(type) {
	case *cfa.Unary, *cfa.Binary:
		return len(cfa.Vars(e)) > 0
	}
	return false
}

// constantsBelow reports whether every integer constant in e has an
// absolute value of at most bound (read as signed for signed types).
func constantsBelow(e cfa.Expr, bound int64) bool {
	ok := true
	cfa.Walk(e, func(x cfa.Expr) bool {
		if c, isConst := x.(*cfa.Const); isConst {
			v := int64(c.V)
			if c.T != nil && c.T.IsSigned() && c.T.Bits > 0 && c.T.Bits < 64 {
				v = int64(c.V<<(64-c.T.Bits)) >> (64 - c.T.Bits) // sign-extend
			} else if c.V > uint64(bound) {
				ok = false
			}
			if v > bound || v < -bound {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// pinnedInputs returns the edges of root's prefix (from its entry to
// its first loop head, through branches whose other side returns at
// once) that assign an input to a variable which an assumption further
// on pins to a constant: `x = nondet(); if (x != 0) return 0;`, SV-COMP's
// way to start a loop from a fixed value. Those assignments make no
// data input-dependent (inputs skips them): after the pin the variable
// holds the constant on every path into a loop. A later input
// assignment of the prefix, before another pin, is not skipped.
func pinnedInputs(p *cfa.Program, root *cfa.Function, loops *cfa.Loops) map[*cfa.Edge]bool {
	skip := map[*cfa.Edge]bool{}
	pending := map[*cfa.Var][]*cfa.Edge{}
	pin := func(v *cfa.Var) {
		for _, e := range pending[v] {
			skip[e] = true
		}
		delete(pending, v)
	}
	seen := map[*cfa.Location]bool{}
	for l := root.Entry; l != nil && !seen[l] && loops.Body[l] == nil; {
		seen[l] = true
		switch len(l.Out) {
		case 1:
			e := l.Out[0]
			var lhs cfa.Expr
			switch op := e.Op.(type) {
			case *cfa.Havoc:
				lhs = op.LHS
			case *cfa.Call:
				if op.Result != nil && p.Func(op.Fn) == nil {
					lhs = op.Result
				}
			}
			if v, ok := lhs.(*cfa.VarRef); ok {
				pending[v.Var] = append(pending[v.Var], e)
			}
			l = e.To
		case 2:
			var next *cfa.Edge
			for k, e := range l.Out {
				if exitsAtOnce(root, l.Out[1-k].To) && !exitsAtOnce(root, e.To) {
					next = e
				}
			}
			if next == nil {
				return skip
			}
			a, ok := next.Op.(*cfa.Assume)
			if !ok {
				return skip
			}
			for _, v := range pins(a.Cond, a.Truth) {
				pin(v)
			}
			l = next.To
		default:
			return skip
		}
	}
	return skip
}

// exitsAtOnce reports whether every path from l reaches f's exit within a
// few steps without a branch (a return).
func exitsAtOnce(f *cfa.Function, l *cfa.Location) bool {
	for n := 0; n < 8 && l != nil; n++ {
		if l == f.Exit {
			return true
		}
		if len(l.Out) != 1 {
			return false
		}
		l = l.Out[0].To
	}
	return false
}

// pins returns the variables that cond, when it has value truth, pins
// to constants: x == c (either side, through casts), the negation of
// x != c, and conjunctions of them.
func pins(cond cfa.Expr, truth bool) []*cfa.Var {
	if u, ok := cond.(*cfa.Unary); ok && u.Op == cfa.LNot {
		return pins(u.X, !truth)
	}
	b, ok := cond.(*cfa.Binary)
	if !ok {
		return nil
	}
	switch {
	case b.Op == cfa.LAnd && truth, b.Op == cfa.LOr && !truth:
		return append(pins(b.X, truth), pins(b.Y, truth)...)
	case b.Op == cfa.Eq && truth, b.Op == cfa.Ne && !truth:
		x, y := uncast(b.X), uncast(b.Y)
		if _, c := y.(*cfa.Const); c {
			if v, ok := x.(*cfa.VarRef); ok {
				return []*cfa.Var{v.Var}
			}
		}
		if _, c := x.(*cfa.Const); c {
			if v, ok := y.(*cfa.VarRef); ok {
				return []*cfa.Var{v.Var}
			}
		}
	}
	return nil
}

// uncast returns e without the casts around it.
func uncast(e cfa.Expr) cfa.Expr {
	for {
		c, ok := e.(*cfa.Cast)
		if !ok {
			return e
		}
		e = c.X
	}
}
