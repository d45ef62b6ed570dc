package arrayelim

import (
	"slices"

	"github.com/reverify/reverify/engine/smt"
)

// DefaultMaxPairs is the number of Ackermann constraints one array
// variable may get (its reads at pairs of indexes not both constant);
// above it the array's reads stay selects from the array, linked to
// their element variables by equalities.
const DefaultMaxPairs = 4096

// Eliminator rewrites Boolean terms over arrays of bit-vectors into
// terms without arrays (read-over-write and if-then-else pushed into the
// reads, then Ackermann's reduction of the reads of array variables;
// Kroening, Strichman, "Decision Procedures", 2nd ed., sections 7.3 and
// 3.3.1). The result is equisatisfiable with the input when arrays occur
// only as the array argument of a select or store, as a branch of an
// if-then-else of array sort, as an array variable or as a constant
// array (no equality of arrays: the theory without extensionality); a
// model of the result evaluates every rewritten term (Rewrite) to the
// value the input term has in the corresponding model of the input.
//
// An Eliminator is for one query: Eliminate once, then Rewrite terms to
// evaluate in its model. It is not safe for concurrent use.
type Eliminator struct {
	b *smt.Builder
	// MaxTerms bounds the terms the rewrite may create (a measure of
	// the result's size); 0 means twice the input's distinct terms plus
	// 5,000, at most a million (about 200 MB of terms). Above it
	// Eliminate gives up: reads at symbolic indexes through long store
	// chains at symbolic indexes grow quadratically, and Z3's array
	// solver decides such a query faster (aws-c-common's
	// aws_byte_cursor_eq_byte_buf_ignore_case: 3,184 terms became
	// 18,254, and a query of under a second took 11 s; the array-list
	// proofs' queries shrink or stay the same size).
	MaxTerms int
	// MaxPairs is DefaultMaxPairs when 0.
	MaxPairs int

	memo  map[*smt.Term]*smt.Term    // rewritten terms without arrays
	sel   map[[2]*smt.Term]*smt.Term // (array term, rewritten index) → element
	reads map[*smt.Term][]read       // array variable → its reads, in order
	elem  map[[2]*smt.Term]*smt.Term // (array variable, index) → element variable
	done  bool                       // Eliminate has finished
	limit int                        // b.Len() above which Eliminate gives up
	over  bool                       // the limit was reached
	bad   bool                       // an array occurs where the reduction does not apply
}

// read is one read of an array variable: its index and the fresh
// variable that stands for the element.
type read struct{ idx, x *smt.Term }

// New returns an Eliminator building with b.
func New(b *smt.Builder) *Eliminator {
	return &Eliminator{b: b, memo: map[*smt.Term]*smt.Term{}, sel: map[[2]*smt.Term]*smt.Term{},
		reads: map[*smt.Term][]read{}, elem: map[[2]*smt.Term]*smt.Term{}}
}

// Eliminate returns assertions (Bool terms) rewritten without arrays,
// followed by the constraints of the element variables; ok is false (and
// out nil) when an array occurs outside the forms the reduction covers
// or the result would exceed MaxTerms: then the input is to be solved
// as it is. Inputs without arrays come back unchanged.
func (e *Eliminator) Eliminate(assertions []*smt.Term) (out []*smt.Term, ok bool) {
	max := e.MaxTerms
	if max == 0 {
		max = min(2*smt.DistinctTerms(assertions)+5_000, 1_000_000)
	}
	e.limit = e.b.Len() + max
	for _, a := range assertions {
		r := e.rewrite(a)
		if e.bad || e.over {
			return nil, false
		}
		if r.Op != smt.True {
			out = append(out, r)
		}
	}
	maxPairs := e.MaxPairs
	if maxPairs == 0 {
		maxPairs = DefaultMaxPairs
	}
	for _, arr := range e.order() {
		rs := e.reads[arr]
		pairs := 0
		for i := range rs {
			for j := 0; j < i; j++ {
				if rs[i].idx.Op != smt.BVConst || rs[j].idx.Op != smt.BVConst {
					pairs++
				}
			}
		}
		if pairs > maxPairs {
			for _, r := range rs {
				out = append(out, e.b.Eq(r.x, e.b.Select(arr, r.idx)))
			}
			continue
		}
		for i := range rs {
			for j := 0; j < i; j++ {
				if rs[i].idx.Op == smt.BVConst && rs[j].idx.Op == smt.BVConst {
					continue
				}
				if c := e.b.Implies(e.b.Eq(rs[i].idx, rs[j].idx), e.b.Eq(rs[i].x, rs[j].x)); c.Op != smt.True {
					out = append(out, c)
				}
			}
		}
		if e.b.Len() > e.limit {
			return nil, false
		}
	}
	e.done = true
	return out, true
}

// Rewrite returns t (a term over the input's terms, without array
// equalities) rewritten as Eliminate rewrote the assertions: its value in
// a model of Eliminate's result is t's value in the input's model. A read
// of an array variable that the assertions did not read becomes a select
// from the array after Eliminate has finished.
func (e *Eliminator) Rewrite(t *smt.Term) *smt.Term {
	e.limit = int(^uint(0) >> 1)
	return e.rewrite(t)
}

// order returns the array variables read, in the order of their IDs.
func (e *Eliminator) order() []*smt.Term {
	var vs []*smt.Term
	for v := range e.reads {
		vs = append(vs, v)
	}
	// deterministic: by the ID of the variable
	slices.SortFunc(vs, func(x, y *smt.Term) int { return x.ID - y.ID })
	return vs
}

// rewrite rebuilds the non-array term root bottom-up without
// recursion on its depth; a select is resolved by element.
func (e *Eliminator) rewrite(root *smt.Term) *smt.Term {
	type item struct {
		t    *smt.Term
		done bool
	}
	if r, ok := e.memo[root]; ok {
		return r
	}
	stack := []item{{root, false}}
	for len(stack) > 0 && !e.bad && !e.over {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t := it.t
		if _, ok := e.memo[t]; ok {
			continue
		}
		if t.Sort.IsArray() {
			e.bad = true // an array outside a select
			break
		}
		args := t.Args
		if t.Op == smt.Select {
			args = t.Args[1:]
		}
		if len(t.Args) == 0 {
			e.memo[t] = t
			continue
		}
		if !it.done {
			stack = append(stack, item{t, true})
			for _, a := range args {
				if _, ok := e.memo[a]; !ok {
					stack = append(stack, item{a, false})
				}
			}
			continue
		}
		if t.Op == smt.Select {
			e.memo[t] = e.element(t.Args[0], e.memo[t.Args[1]])
			continue
		}
		nargs := make([]*smt.Term, len(args))
		changed := false
		for i, a := range args {
			nargs[i] = e.memo[a]
			changed = changed || nargs[i] != a
		}
		if !changed {
			e.memo[t] = t
			continue
		}
		e.memo[t] = e.b.Apply(t, nargs)
		if e.b.Len() > e.limit {
			e.over = true
		}
	}
	if e.bad || e.over {
		return root
	}
	return e.memo[root]
}

// element returns the element of the array term arr at the rewritten
// index j, as a term without arrays: a store's value when its index
// equals j, the element of the array below otherwise; an if-then-else's
// branches' elements under its condition; a constant array's value; for
// an array variable, the variable standing for its element at j.
func (e *Eliminator) element(arr, j *smt.Term) *smt.Term {
	key := [2]*smt.Term{arr, j}
	if r, ok := e.sel[key]; ok {
		return r
	}
	a := arr
	// stores at indexes that certainly differ from j are skipped
	// without a memo entry of their own
	for a.Op == smt.Store {
		i := e.rewrite(a.Args[1])
		if e.bad || e.over {
			return e.b.BV(0, arr.Sort.Width)
		}
		if i == j {
			break
		}
		if !differ(i, j) {
			break
		}
		a = a.Args[0]
	}
	if a != arr {
		if r, ok := e.sel[[2]*smt.Term{a, j}]; ok {
			e.sel[key] = r
			return r
		}
	}
	var r *smt.Term
	switch a.Op {
	case smt.Store:
		i, v := e.rewrite(a.Args[1]), e.rewrite(a.Args[2])
		if i == j {
			r = v
		} else {
			r = e.b.Ite(e.b.Eq(i, j), v, e.element(a.Args[0], j))
		}
	case smt.Ite:
		c := e.rewrite(a.Args[0])
		switch c.Op {
		case smt.True:
			r = e.element(a.Args[1], j)
		case smt.False:
			r = e.element(a.Args[2], j)
		default:
			r = e.b.Ite(c, e.element(a.Args[1], j), e.element(a.Args[2], j))
		}
	case smt.ConstArray:
		r = e.rewrite(a.Args[0])
	case smt.Var:
		r = e.readVar(a, j)
	default:
		e.bad = true
		return e.b.BV(0, arr.Sort.Width)
	}
	if e.b.Len() > e.limit {
		e.over = true
	}
	e.sel[key] = r
	if a != arr {
		e.sel[[2]*smt.Term{a, j}] = r
	}
	return r
}

// readVar returns the element variable of the array variable arr at j.
func (e *Eliminator) readVar(arr, j *smt.Term) *smt.Term {
	key := [2]*smt.Term{arr, j}
	if x, ok := e.elem[key]; ok {
		return x
	}
	if e.done {
		return e.b.Select(arr, j)
	}
	x := e.b.FreshVar("elem", smt.BVSort(arr.Sort.Width))
	e.elem[key] = x
	e.reads[arr] = append(e.reads[arr], read{j, x})
	return x
}

// differ reports whether the bit-vectors i and j certainly differ: two
// different constants, or the same term plus different constants.
func differ(i, j *smt.Term) bool {
	d, ok := smt.ConstDiff(i, j)
	return ok && d != 0
}
