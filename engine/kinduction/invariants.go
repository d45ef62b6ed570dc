package kinduction

import (
	"context"

	"github.com/reverify/reverify/engine/affine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// maxCandidates bounds the candidate invariants per cut point.
const maxCandidates = 48

// candidates returns the candidate invariants: the congruences of the
// entry function's counters (congruences), every comparison of the
// entry function that is an Assume condition (loop conditions, branch
// conditions, assertion guards), a call argument (assertions) or an
// assigned value, its negation, and the non-strict form of < and >, and
// v >= 0 for each signed variable the entry function assigns (a
// counter's sign, which the absence of wrap-around in i + 1 or 3 * i
// often needs), and the relaxations of loop guards and of the
// comparisons that read their bounds (relaxations), over globals and the
// entry function's variables only.
func (c *checker) candidates() []cfa.Expr {
	seen := map[string]bool{}
	var out, posts []cfa.Expr // posts: the comparisons that are call arguments
	add := func(x cfa.Expr) {
		if len(out) < maxCandidates && !seen[x.String()] {
			seen[x.String()] = true
			out = append(out, x)
		}
	}
	consider := func(x cfa.Expr) {
		b, ok := x.(*cfa.Binary)
		if !ok || !b.Op.IsComparison() || !c.local(b) {
			return
		}
		add(b)
		add(&cfa.Binary{Op: b.Op.Negate(), X: b.X, Y: b.Y, T: b.T})
		switch b.Op {
		case cfa.Lt:
			add(&cfa.Binary{Op: cfa.Le, X: b.X, Y: b.Y, T: b.T})
		case cfa.Gt:
			add(&cfa.Binary{Op: cfa.Ge, X: b.X, Y: b.Y, T: b.T})
		}
	}
	order, counters := c.counters()
	for _, x := range c.congruences(order, counters) {
		add(x)
	}
	for _, l := range c.entry.Locs {
		for _, e := range l.Out {
			switch op := e.Op.(type) {
			case *cfa.Assign: // a signed counter's sign: v >= 0
				if r, ok := op.LHS.(*cfa.VarRef); ok && r.Var.T.IsSigned() && !r.Var.Temp && !r.Var.AddrTaken && c.local(r) {
					add(&cfa.Binary{Op: cfa.Ge, X: r, Y: &cfa.Const{T: r.Var.T}, T: cfa.IntT})
				}
				consider(op.RHS)
			case *cfa.Assume:
				if op.Truth {
					consider(op.Cond)
				}
			case *cfa.Call: // assertion arguments: __VERIFIER_assert(x == y)
				for _, a := range op.Args {
					consider(a)
					if b, ok := a.(*cfa.Binary); ok && b.Op.IsComparison() && c.local(b) {
						posts = append(posts, b)
					}
				}
			}
		}
	}
	for _, x := range c.relaxations(posts, counters) {
		add(x)
	}
	return out
}

// relaxations returns, for each guard i <= n or i < n of a loop head of
// the entry function whose counter i is a variable that only constants
// and i + 1 are stored into (counter.countsUp), the guard's relaxation i <= n + 1 (for <=;
// i <= n is a comparison's non-strict form already) and each comparison
// of posts (the assertions' arguments) that reads the bound variable n
// with n replaced by i's value at the loop's exit, i - 1 or i: the
// postcondition 2 * sum == n * (n + 1) becomes the invariant
// 2 * sum == (i - 1) * (i - 1 + 1) (constant relaxation: Furia and
// Meyer, "Inferring loop invariants using postconditions", 2010).
func (c *checker) relaxations(posts []cfa.Expr, counters map[*cfa.Var]*counter) []cfa.Expr {
	var out []cfa.Expr
	for _, h := range c.order {
		for _, e := range h.Out {
			as, ok := e.Op.(*cfa.Assume)
			if !ok || !as.Truth {
				continue
			}
			g, ok := as.Cond.(*cfa.Binary)
			if !ok || (g.Op != cfa.Le && g.Op != cfa.Lt) || !c.local(g) {
				continue
			}
			i, ok := g.X.(*cfa.VarRef)
			if !ok || !counters[i.Var].countsUp() || g.Y.Type() == nil || !g.Y.Type().IsInteger() {
				continue
			}
			exit := cfa.Expr(i) // i < n ends at i == n
			if g.Op == cfa.Le {
				t := g.Y.Type()
				out = append(out, &cfa.Binary{Op: cfa.Le, X: g.X, Y: &cfa.Binary{Op: cfa.Add, X: g.Y, Y: &cfa.Const{T: t, V: 1}, T: t}, T: g.T})
				exit = &cfa.Binary{Op: cfa.Sub, X: i, Y: &cfa.Const{T: i.Var.T, V: 1}, T: i.Var.T} // i <= n ends at i == n + 1
			}
			n, ok := g.Y.(*cfa.VarRef)
			if !ok || n.Var == i.Var {
				continue
			}
			if exit.Type() != n.Var.T {
				exit = &cfa.Cast{T: n.Var.T, X: exit}
			}
			for _, x := range posts {
				if y, changed := substitute(x, n.Var, exit); changed {
					out = append(out, y)
				}
			}
		}
	}
	return out
}

// substitute replaces each read of v in x (an expression c.local
// accepts) by by, and reports whether there was one.
func substitute(x cfa.Expr, v *cfa.Var, by cfa.Expr) (cfa.Expr, bool) {
	switch y := x.(type) {
	case *cfa.VarRef:
		if y.Var == v {
			return by, true
		}
	case *cfa.Binary:
		l, cl := substitute(y.X, v, by)
		r, cr := substitute(y.Y, v, by)
		if cl || cr {
			return &cfa.Binary{Op: y.Op, X: l, Y: r, T: y.T}, true
		}
	case *cfa.Unary:
		if z, ok := substitute(y.X, v, by); ok {
			return &cfa.Unary{Op: y.Op, X: z, T: y.T}, true
		}
	case *cfa.Cast:
		if z, ok := substitute(y.X, v, by); ok {
			return &cfa.Cast{T: y.T, X: z}, true
		}
	}
	return x, false
}

// counter is how an integer variable of the entry function is stored
// into (counters): the constant steps of its stores v = v + c and
// v = v - c (signed, in its type), the constants d of its stores v = d,
// and whether some other store (a havoc, a call's result, any other
// expression) makes it no counter.
type counter struct {
	steps  []int64
	inits  []uint64
	broken bool
}

// counters summarises every variable the entry function stores into, in
// the order of first store.
func (c *checker) counters() ([]*cfa.Var, map[*cfa.Var]*counter) {
	var order []*cfa.Var
	byVar := map[*cfa.Var]*counter{}
	for _, l := range c.entry.Locs {
		for _, e := range l.Out {
			r, ok := cfa.Stored(e.Op).(*cfa.VarRef)
			if !ok {
				continue
			}
			a := byVar[r.Var]
			if a == nil {
				a = &counter{}
				byVar[r.Var] = a
				order = append(order, r.Var)
			}
			as, ok := e.Op.(*cfa.Assign)
			if !ok {
				a.broken = true // a havoc or a call's result
				continue
			}
			if d, ok := constValue(as.RHS); ok {
				a.inits = append(a.inits, d)
			} else if step, ok := stepOf(as.RHS, r.Var); ok {
				a.steps = append(a.steps, step)
			} else {
				a.broken = true
			}
		}
	}
	return order, byVar
}

// countsUp reports whether a is a counter that its stores set to
// constants or step by +1.
func (a *counter) countsUp() bool {
	if a == nil || a.broken || len(a.steps) == 0 {
		return false
	}
	for _, s := range a.steps {
		if s != 1 {
			return false
		}
	}
	return true
}

// congruences returns, over the counters of the entry function (order
// and byVar from counters), v % g == r for each integer variable v
// whose every store is v = v + c or v = v - c for
// constants c, at least one of them, or v = d for a constant d, where g
// > 1 is the greatest common divisor of the steps c and every d leaves
// the remainder r (a counter that steps by 2 from 0 stays even:
// Granger, "Static analysis of arithmetical congruences", 1989, for one
// variable at a time). Wrap-around and C's truncating % on negative
// values may break such a candidate; the Houdini search then drops it.
func (c *checker) congruences(order []*cfa.Var, byVar map[*cfa.Var]*counter) []cfa.Expr {
	var out []cfa.Expr
	for _, v := range order {
		a := byVar[v]
		var g uint64
		for _, s := range a.steps {
			g = gcd(g, uint64(max(s, -s)))
		}
		if a.broken || g < 2 || len(a.inits) == 0 || v.T.Kind != cfa.Int || v.AddrTaken || v.Temp || !c.local(&cfa.VarRef{Var: v}) {
			continue
		}
		rem := a.inits[0] % g
		same := true
		for _, d := range a.inits[1:] {
			same = same && d%g == rem
		}
		if !same || (v.T.IsSigned() && cfa.SignExtend(a.inits[0], v.T.Width()) < 0) {
			continue // no common remainder, or a negative start
		}
		mod := &cfa.Binary{Op: cfa.Rem, X: &cfa.VarRef{Var: v}, Y: &cfa.Const{T: v.T, V: g}, T: v.T}
		out = append(out, &cfa.Binary{Op: cfa.Eq, X: mod, Y: &cfa.Const{T: v.T, V: rem}, T: cfa.IntT})
	}
	return out
}

// constValue is x's value when x is an integer constant (through
// casts), truncated to the outermost type.
func constValue(x cfa.Expr) (uint64, bool) {
	switch y := x.(type) {
	case *cfa.Cast:
		if !y.T.IsInteger() {
			return 0, false
		}
		v, ok := constValue(y.X)
		return cfa.Truncate(v, y.T.Width()), ok
	case *cfa.Const:
		return cfa.Truncate(y.V, y.T.Width()), true
	}
	return 0, false
}

// stepOf is c when x is v + c, and -c when it is v - c (through casts), c
// a constant read as a signed number in the operation's type when that
// type is signed.
func stepOf(x cfa.Expr, v *cfa.Var) (int64, bool) {
	b, ok := cfa.StripCasts(x).(*cfa.Binary)
	if !ok || (b.Op != cfa.Add && b.Op != cfa.Sub) || !isVar(b.X, v) {
		return 0, false
	}
	k, ok := constValue(b.Y)
	if !ok || b.T == nil {
		return 0, false
	}
	step := int64(k)
	if b.T.IsSigned() {
		step = cfa.SignExtend(k, b.T.Width())
	}
	if b.Op == cfa.Sub {
		step = -step
	}
	return step, step != 0
}

func isVar(x cfa.Expr, v *cfa.Var) bool {
	r, ok := cfa.StripCasts(x).(*cfa.VarRef)
	return ok && r.Var == v
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// local reports whether x reads only globals and variables of the entry
// function, without memory accesses or calls.
func (c *checker) local(x cfa.Expr) bool {
	ok := true
	cfa.Walk(x, func(x cfa.Expr) bool {
		switch x := x.(type) {
		case *cfa.VarRef:
			if !x.Var.Global && x.Var.Func != c.entry.Name {
				ok = false
			}
		case *cfa.Const, *cfa.Binary, *cfa.Cast, *cfa.Unary:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// invariants returns, per cut point, the candidates (the program's
// comparisons, and the affine equalities at the cut point that Karr's
// analysis finds: engine/affine) that are inductive
// invariants (Houdini): each holds at the first cut point visit of every
// path from the program's start, and, assuming all kept candidates at a
// cut point, at the next cut point visit of every segment that does not
// reach an error edge. The loop drops refuted candidates until nothing
// changes. An error (path limit, encoding) aborts it with no invariants.
func (c *checker) invariants(ctx context.Context) (map[*cfa.Location][]cfa.Expr, error) {
	all := c.candidates()
	eqs := affine.LoopEqualities(c.entry)
	inv := map[*cfa.Location][]cfa.Expr{}
	for _, h := range c.order {
		inv[h] = append(append([]cfa.Expr(nil), eqs[h]...), all...)
	}
	if !c.anyInv(inv) {
		return nil, nil
	}
	// filter drops the candidates at loc that path does not imply.
	changed := false
	filter := func(path []cfa.Step, loc *cfa.Location) error {
		var keep []cfa.Expr
		for _, x := range inv[loc] {
			neg := cfa.Step{Edge: c.synthetic(loc, &cfa.Assume{Cond: x, Truth: false})}
			r, err := c.prove(ctx, append(path[:len(path):len(path)], neg))
			if err != nil {
				return err
			}
			if r == smt.Unsat {
				keep = append(keep, x)
			} else {
				changed = true
			}
		}
		inv[loc] = keep
		return errPrune
	}
	ignore := func([]cfa.Step, int) error { return nil }
	w := &walk{c: c, maxCuts: 1, onError: ignore,
		onCutPoint: func(path []cfa.Step, loc *cfa.Location, _ int) error { return filter(path, loc) }}
	stack, loc := c.start()
	if err := w.run(ctx, nil, stack, loc, 0, 0); err != nil {
		return nil, err
	}
	for {
		changed = false
		for _, h := range c.order {
			if len(inv[h]) == 0 && !c.anyInv(inv) {
				continue
			}
			w := &walk{c: c, maxCuts: 2, onError: ignore,
				onCutPoint: func(path []cfa.Step, loc *cfa.Location, cut int) error {
					if cut < 2 {
						return nil
					}
					return filter(path, loc)
				}}
			if err := w.run(ctx, c.arbitrary(h, inv[h]), []frame{{fn: c.entry}}, h, 1, 0); err != nil {
				return nil, err
			}
		}
		if !changed {
			return inv, nil
		}
	}
}

func (c *checker) anyInv(inv map[*cfa.Location][]cfa.Expr) bool {
	for _, xs := range inv {
		if len(xs) > 0 {
			return true
		}
	}
	return false
}
