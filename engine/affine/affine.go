package affine

import (
	"math/big"

	"github.com/reverify/reverify/engine/cfa"
)

// MaxVars bounds the variables the analysis tracks in one function: the
// hull's operations cost cubic time in their number.
const MaxVars = 48

// MaxEqualities bounds the equalities reported at one location.
const MaxEqualities = 8

// LoopEqualities returns, for each loop head of f, the affine equalities
// among f's integer variables and the program's globals (neither
// address-taken, nor volatile, nor temporaries) that hold in every state
// of the hull reaching it, each as an Eq comparison with integer
// coefficients over variables of one width (the others are skipped),
// at most MaxEqualities per loop head (a loop head without any is not
// in the map). A function with more than MaxVars variables to track
// (temporaries included), with none, or whose analysis exceeds maxWork
// gets no equalities. The analysis is intraprocedural: a call makes its result
// and every global arbitrary.
func LoopEqualities(f *cfa.Function) map[*cfa.Location][]cfa.Expr {
	a := newAnalysis(f)
	if a == nil {
		return nil
	}
	if !a.run() {
		return nil
	}
	out := map[*cfa.Location][]cfa.Expr{}
	for _, l := range f.Locs {
		if !l.LoopHead {
			continue
		}
		if h := a.at[l.Index]; h != nil {
			if eqs := a.equalities(h); len(eqs) > 0 {
				out[l] = eqs
			}
		}
	}
	return out
}

// analysis is Karr's analysis of one function: vars are the tracked
// variables (index = dimension), at the hull per location (nil: no state
// reaches it yet).
type analysis struct {
	f     *cfa.Function
	vars  []*cfa.Var
	index map[*cfa.Var]int
	temps []int // dimensions that equalities must not mention
	at    []*hull
	work  int // rational vector entries written (maxWork)
}

func newAnalysis(f *cfa.Function) *analysis {
	a := &analysis{f: f, index: map[*cfa.Var]int{}, at: make([]*hull, len(f.Locs))}
	consider := func(v *cfa.Var) {
		if _, ok := a.index[v]; ok || v.T == nil || v.T.Kind != cfa.Int || v.AddrTaken || v.Volatile {
			return
		}
		if v.Func != f.Name && !v.Global {
			return
		}
		a.index[v] = len(a.vars)
		if v.Temp {
			a.temps = append(a.temps, len(a.vars))
		}
		a.vars = append(a.vars, v)
	}
	for _, l := range f.Locs {
		for _, e := range l.Out {
			if v := assigned(e.Op); v != nil {
				consider(v)
			}
			eachVar(e.Op, consider)
		}
	}
	if len(a.vars) == 0 || len(a.vars) > MaxVars {
		return nil
	}
	return a
}

// assigned is the variable op writes as a whole, if any.
func assigned(op cfa.Op) *cfa.Var {
	if d, ok := op.(*cfa.Decl); ok {
		return d.Var
	}
	if r, ok := cfa.Stored(op).(*cfa.VarRef); ok {
		return r.Var
	}
	return nil
}

// eachVar calls f on the variables op reads.
func eachVar(op cfa.Op, f func(*cfa.Var)) {
	walk := func(x cfa.Expr) {
		if x == nil {
			return
		}
		cfa.Walk(x, func(x cfa.Expr) bool {
			if r, ok := x.(*cfa.VarRef); ok {
				f(r.Var)
			}
			return true
		})
	}
	switch op := op.(type) {
	case *cfa.Assign:
		walk(op.RHS)
	case *cfa.Assume:
		walk(op.Cond)
	case *cfa.Call:
		for _, x := range op.Args {
			walk(x)
		}
	}
}

// maxWork bounds the work of one analysis, in rational vector entries
// the transfers write: testdata/examples/pktparse's build_packet (91
// locations) takes about 125,000 and 70 ms.
const maxWork = 500_000

// run iterates the transfer relation to the least fixed point: the
// hulls only grow, and each growth raises a dimension (at most
// len(vars)+1 per location), so the worklist empties. It reports false
// when the work exceeds maxWork before (no equalities then).
func (a *analysis) run() bool {
	n := len(a.vars)
	a.at[a.f.Entry.Index] = a.entry(n)
	// the queued location first in reverse postorder goes next, so that
	// a loop's body sees its head's growth once per round
	rpo := reversePostorder(a.f)
	queued := make([]bool, len(a.f.Locs))
	queued[a.f.Entry.Index] = true
	for {
		next := -1
		for i, q := range queued {
			if q && (next < 0 || rpo[i] < rpo[next]) {
				next = i
			}
		}
		if next < 0 {
			return true
		}
		if a.work > maxWork {
			return false
		}
		queued[next] = false
		l := a.f.Locs[next]
		for _, e := range l.Out {
			if h := a.at[l.Index]; h != nil {
				a.work += (len(h.dirs) + 1) * len(a.vars)
			}
			h := a.transfer(a.at[l.Index], e.Op)
			if h == nil {
				continue
			}
			to := e.To.Index
			if a.at[to] == nil {
				a.at[to] = h.copy() // transfer may return its argument: no hull is shared
			} else if !a.at[to].join(h) {
				continue
			}
			queued[to] = true
		}
	}
}

// reversePostorder numbers f's locations in reverse postorder of a
// depth-first search from the entry (unreached ones last).
func reversePostorder(f *cfa.Function) []int {
	num := make([]int, len(f.Locs))
	seen := make([]bool, len(f.Locs))
	next := len(f.Locs)
	var visit func(l *cfa.Location)
	visit = func(l *cfa.Location) {
		seen[l.Index] = true
		for _, e := range l.Out {
			if !seen[e.To.Index] {
				visit(e.To)
			}
		}
		next--
		num[l.Index] = next
	}
	visit(f.Entry)
	for i := range num {
		if !seen[i] {
			num[i] = len(f.Locs) + i
		}
	}
	return num
}

// entry is the hull at the function's entry: every variable is
// arbitrary (parameters, globals of unknown value and locals not yet
// declared alike).
func (a *analysis) entry(n int) *hull {
	h := &hull{p: zeros(n)}
	for i := range n {
		h.add(unit(n, i))
	}
	return h
}

// transfer is the hull after op from h (nil: no state passes).
func (a *analysis) transfer(h *hull, op cfa.Op) *hull {
	if h == nil {
		return nil
	}
	switch op := op.(type) {
	case *cfa.Assign:
		v := assigned(op)
		if v == nil {
			return h
		}
		i, ok := a.index[v]
		if !ok {
			return h
		}
		if coef, c, ok := a.linear(op.RHS); ok {
			return h.assign(i, coef, c)
		}
		return h.havoc(i)
	case *cfa.Decl, *cfa.Havoc:
		if i, ok := a.index[assigned(op)]; ok {
			return h.havoc(i)
		}
	case *cfa.Call:
		// the callee may write any global; the result is arbitrary
		out, res := h.copy(), assigned(op)
		for i, v := range a.vars {
			if v.Global || v == res {
				out.add(unit(len(a.vars), i))
			}
		}
		return out
	}
	return h
}

// linear reads x as Σ coef[i]·vars[i] + c over the rationals; ok is
// false for anything else (a product of variables, a division, a cast
// between widths, a memory access, an untracked variable).
func (a *analysis) linear(x cfa.Expr) (coef []*big.Rat, c *big.Rat, ok bool) {
	n := len(a.vars)
	switch x := x.(type) {
	case *cfa.Const:
		if x.T == nil || x.T.Kind != cfa.Int {
			return nil, nil, false
		}
		return zeros(n), new(big.Rat).SetInt64(signedValue(x)), true
	case *cfa.VarRef:
		i, ok := a.index[x.Var]
		if !ok {
			return nil, nil, false
		}
		return unit(n, i), new(big.Rat), true
	case *cfa.Cast:
		if x.T == nil || x.T.Kind != cfa.Int || x.X.Type() == nil || x.X.Type().Kind != cfa.Int || x.X.Type().Bits != x.T.Bits {
			return nil, nil, false
		}
		return a.linear(x.X)
	case *cfa.Unary:
		if x.Op != cfa.Neg {
			return nil, nil, false
		}
		co, c, ok := a.linear(x.X)
		if !ok {
			return nil, nil, false
		}
		return scale(co, big.NewRat(-1, 1)), c.Neg(c), true
	case *cfa.Binary:
		cx, kx, ok := a.linear(x.X)
		if !ok {
			return nil, nil, false
		}
		cy, ky, ok := a.linear(x.Y)
		if !ok {
			return nil, nil, false
		}
		switch x.Op {
		case cfa.Add:
			return addv(cx, cy, 1), kx.Add(kx, ky), true
		case cfa.Sub:
			return addv(cx, cy, -1), kx.Sub(kx, ky), true
		case cfa.Mul:
			switch {
			case isZero(cx):
				return scale(cy, kx), ky.Mul(ky, kx), true
			case isZero(cy):
				return scale(cx, ky), kx.Mul(kx, ky), true
			}
		}
	}
	return nil, nil, false
}

// signedValue is c's value read in its type's signedness.
func signedValue(c *cfa.Const) int64 {
	bits := c.T.Bits
	v := c.V
	if bits < 64 {
		v &= 1<<bits - 1
		if c.T.Signed && v&(1<<(bits-1)) != 0 {
			return int64(v) - 1<<bits
		}
	}
	return int64(v)
}
