package kinduction

import (
	"context"

	"github.com/reverify/reverify/engine/affine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// maxCandidates bounds the candidate invariants per cut point.
const maxCandidates = 48

// candidates returns the candidate invariants: every comparison of the
// entry function that is an Assume condition (loop conditions, branch
// conditions, assertion guards), a call argument (assertions) or an
// assigned value, its negation, and the non-strict form of < and >, and
// v >= 0 for each signed variable the entry function assigns (a
// counter's sign, which the absence of wrap-around in i + 1 or 3 * i
// often needs), over globals and the entry function's variables only.
func (c *checker) candidates() []cfa.Expr {
	seen := map[string]bool{}
	var out []cfa.Expr
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
				}
			}
		}
	}
	return out
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
