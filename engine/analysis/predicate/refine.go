package predicate

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// ErrFeasible is returned by Interpolate when the path's block formulas
// are satisfiable (or cannot be replayed): the predicate domain cannot
// refute it.
var ErrFeasible = errors.New("predicate: the error path is not refuted by its block formulas")

// Boundary is one block boundary of an error path: after step Index (the
// step that reaches the abstraction location Loc), with the predicates
// over program variables that Interpolate found there.
type Boundary struct {
	Index int
	Loc   *cfa.Location
	Preds []*smt.Term
}

// Interpolate refines an error path (steps from the root of the ARG): it
// replays the path in symbolic execution at full precision and cuts it
// at every abstraction location into blocks, as the analysis does, but
// instead of abstracting it links the fresh symbol of every integer
// variable in scope to its value before the cut by an equality. The
// conjunction of the blocks' conditions and the links is then the SSA
// path formula of the path split at the block boundaries; when it is
// unsatisfiable, an unsat core of it (Z3's, over one assumption per
// conjunct) gives the sequence interpolants' atoms by weakest
// preconditions: at each boundary k, every core condition after k is
// rewritten over the symbols of boundary k by substituting the links
// after k (which is the weakest precondition of the assignments between),
// and every comparison in it whose symbols are all symbols of boundary k
// becomes a predicate at the boundary's location, renamed to predicate
// variables. (The conditions after k imply false together with what
// holds at k, so the atoms they contain over k's variables are the
// candidates of an interpolant at k; section "Refinement" of the
// package documentation discusses what is lost.)
//
// It returns ErrFeasible (wrapped, with the reason) when the formula is
// satisfiable or the replay cannot follow the path, and the cancellation
// when ctx ends.
func (c *CPA) Interpolate(ctx context.Context, steps []cfa.Step) ([]Boundary, error) {
	type conj struct {
		t     *smt.Term
		block int
	}
	var conds []conj
	var bounds []Boundary
	// links[j] maps the symbols of boundary j to their values before it;
	// syms[j] maps them to predicate variables.
	type pair struct{ after, before *smt.Term }
	var links [][]pair
	var syms []map[*smt.Term]*smt.Term
	v0, _ := c.val.Initial()
	v := v0.(*value.State)
	var buf [2]value.Succ
	for i, step := range steps {
		succ := c.val.Transfer(buf[:0], v, step, nil)
		if len(succ) == 0 {
			return nil, fmt.Errorf("%w: the replay stops at step %d (%s)", ErrFeasible, i, stepText(step))
		}
		// With two successors (an allocation that may fail) the first is
		// the success, the path's usual case; a wrong choice costs
		// precision, never soundness.
		sc := succ[0]
		v = sc.State
		for _, a := range sc.Assumed {
			conds = append(conds, conj{a, len(bounds)})
		}
		loc := step.Next()
		if !IsAbstractionLocation(loc) {
			continue
		}
		before := v
		for _, x := range scope(c.prog, loc) {
			before, _, _ = before.Materialize(x)
		}
		after := before.ForgetIntegers(before.Syms())
		var link []pair
		sym := map[*smt.Term]*smt.Term{}
		for _, x := range scope(c.prog, loc) {
			_, tb, ok := before.Materialize(x)
			if !ok {
				continue
			}
			var ta *smt.Term
			if after, ta, ok = after.Materialize(x); !ok {
				continue
			}
			link = append(link, pair{ta, tb})
			sym[ta] = c.b.Var(x.QualName(), ta.Sort)
		}
		v = after
		links = append(links, link)
		syms = append(syms, sym)
		bounds = append(bounds, Boundary{Index: i, Loc: loc})
	}
	// The path formula: conditions and links, one assumption each.
	var assume []*smt.Term
	for _, x := range conds {
		assume = append(assume, x.t)
	}
	for _, l := range links {
		for _, x := range l {
			assume = append(assume, c.b.Eq(x.after, x.before))
		}
	}
	core, err := c.core(ctx, assume)
	if err != nil {
		return nil, err
	}
	inCore := map[*smt.Term]bool{}
	for _, t := range core {
		inCore[t] = true
	}
	for k := range bounds {
		// Links after boundary k, composed down to k's symbols.
		sub := map[*smt.Term]*smt.Term{}
		for j := k + 1; j < len(links); j++ {
			for _, x := range links[j] {
				sub[x.after] = x.before
			}
		}
		var preds []*smt.Term
		for _, x := range conds {
			if x.block <= k || !inCore[x.t] {
				continue
			}
			t := x.t
			for range len(links) {
				n := smt.Substitute(c.b, t, sub)
				if n == t {
					break
				}
				t = n
			}
			for _, a := range atoms(t) {
				if !over(a, syms[k]) {
					continue
				}
				p := smt.Substitute(c.b, a, syms[k])
				if p.IsConst() {
					continue
				}
				preds, _ = with(preds, p)
			}
		}
		bounds[k].Preds = preds
	}
	return bounds, nil
}

// core checks the conjunction of assume and returns an unsat core of it.
func (c *CPA) core(ctx context.Context, assume []*smt.Term) ([]*smt.Term, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.opts.Solver(c.b)
	defer s.Close()
	r, core, err := s.CheckAssuming(ctx, assume)
	switch r {
	case smt.Unsat:
		return core, nil
	case smt.Sat:
		return nil, fmt.Errorf("%w: the path formula split at the block boundaries is satisfiable", ErrFeasible)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, fmt.Errorf("%w: the solver gave up on the path formula (%v)", ErrFeasible, err)
}

// atoms returns the comparisons (bit-vector equalities and orderings)
// occurring in t, in a deterministic order.
func atoms(t *smt.Term) []*smt.Term {
	var out []*smt.Term
	seen := map[*smt.Term]bool{}
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Op {
		case smt.Ult, smt.Ule, smt.Slt, smt.Sle:
			out = append(out, t)
		case smt.Eq:
			if t.Args[0].Sort.IsBV() {
				out = append(out, t)
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	walk(t)
	return out
}

// over reports whether every symbol of t is a key of m (and t has one).
func over(t *smt.Term, m map[*smt.Term]*smt.Term) bool {
	vs := smt.Vars(t)
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		if m[v] == nil {
			return false
		}
	}
	return true
}

// scope returns the integer variables visible at l that predicates may
// name: the globals and the locals and parameters of l's function.
func scope(p *cfa.Program, l *cfa.Location) []*cfa.Var {
	var out []*cfa.Var
	add := func(vs []*cfa.Var) {
		for _, v := range vs {
			if !v.Volatile && (v.T.Kind == cfa.Int || v.T.Kind == cfa.Bool) {
				out = append(out, v)
			}
		}
	}
	add(p.Globals)
	if f := l.Func; f != nil && f != p.Init {
		add(f.Params)
		add(f.Locals)
	}
	slices.SortFunc(out, func(a, b *cfa.Var) int { return a.ID - b.ID })
	return slices.CompactFunc(out, func(a, b *cfa.Var) bool { return a == b })
}

func stepText(s cfa.Step) string {
	if s.Edge == nil {
		return "enter " + s.Callee.Name
	}
	return s.Edge.String()
}
