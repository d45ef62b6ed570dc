package bmc

import (
	"context"
	"errors"
	"fmt"

	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/timeslice"
)

// Options configure Check.
type Options struct {
	// Entry is the entry function; required.
	Entry string
	// ErrorEdges are the edges whose execution violates the property;
	// Via, when not nil, restricts them to executions inside that call
	// (engine/spec.Property).
	ErrorEdges []*cfa.Edge
	Via        *cfa.Edge
	// Solver creates SMT solvers; required.
	Solver smt.Factory
	// Semantics is the variant of the C semantics (signed overflow).
	Semantics smt.EncodeOptions
	// Unwind, when positive, is the only bound tried (CBMC's --unwind);
	// otherwise the bounds 1, 2, 4, … up to MaxUnwind are tried in turn.
	Unwind int
	// MaxUnwind is the largest bound tried (0: 1024).
	MaxUnwind int
	// MaxNodes bounds the nodes of one unrolling (0: 200,000); beyond it
	// the answer is UNKNOWN.
	MaxNodes int
}

// Status is the outcome of Check.
type Status uint8

// Outcomes.
const (
	Unknown Status = iota
	True
	False
)

// Result is the outcome of Check.
type Result struct {
	Status Status
	// Reason names the evidence (TRUE, FALSE) or why there is none
	// (UNKNOWN), prefixed "bmc: " for UNKNOWN.
	Reason string
	// Bound is the unwinding bound of the proof or counterexample (the
	// last bound tried for UNKNOWN).
	Bound int
	// Path and Inputs are the counterexample of FALSE, confirmed by
	// engine/cegar.CheckPathOpts (bit-precise SMT and concrete replay).
	Path   []cfa.Step
	Inputs []smt.InputValue
	// Nodes, Arcs and Conjuncts measure the last unrolling and its
	// formula.
	Nodes, Arcs, Conjuncts int
}

// Check decides whether an error edge is reachable by bounded model
// checking over merged paths (CBMC, Clarke, Kroening, Lerda, TACAS 2004;
// the unifying view of Beyer, Dangl, Wendler, JAR 2018, section 4.1):
// the program is unrolled to a bound (loops and recursion), the
// unrolling is encoded as one formula by smt.Merger (large blocks: the
// paths meet at every join point in if-then-else terms), and the formula
// is checked for an error arc whose guard is satisfiable.
//
// A satisfying model's execution (its guards, followed back from the
// error arc) is confirmed by engine/cegar.CheckPathOpts: only then is the
// answer FALSE. When no error arc is reachable, the unwinding
// assertions decide: when neither a cut-off arc (a loop's back edge taken
// once more than the bound, a recursion one level deeper) nor a step
// outside the encoding is reachable, the unrolling holds every execution
// and the answer is TRUE; otherwise the next bound is tried. UNKNOWN
// says why none decided: the largest bound, the unrolling's size, a
// reachable step outside the encoding, or an error reachable only after
// undefined behaviour.
func Check(ctx context.Context, prog *cfa.Program, opts Options) (res Result) {
	if opts.MaxUnwind <= 0 {
		opts.MaxUnwind = 1024
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 200_000
	}
	loc, err := location.New(prog, opts.Entry)
	if err != nil {
		return Result{Reason: "bmc: " + err.Error()}
	}
	u := &unroller{prog: prog, loc: loc, loops: findLoops(prog), entry: prog.Func(opts.Entry),
		errors: map[*cfa.Edge]bool{}, via: opts.Via, maxNodes: opts.MaxNodes, escaped: prog.EscapedFuncs()}
	for _, e := range opts.ErrorEdges {
		u.errors[e] = true
	}
	bounds := []int{opts.Unwind}
	if opts.Unwind <= 0 {
		bounds = nil
		for k := 1; k < opts.MaxUnwind; k *= 2 {
			bounds = append(bounds, k)
		}
		bounds = append(bounds, opts.MaxUnwind)
	}
	res.Reason = "bmc: no bound tried"
	for _, k := range bounds {
		u.bound = k
		r, more := check(ctx, prog, u, opts)
		r.Bound = k
		res = r
		if !more {
			return res
		}
	}
	return res
}

// check decides the property at u's bound; more says that a larger bound
// may decide it.
func check(ctx context.Context, prog *cfa.Program, u *unroller, opts Options) (Result, bool) {
	k := u.bound
	un, err := u.unroll(ctx)
	switch {
	case errors.Is(err, errTooLarge):
		return Result{Reason: fmt.Sprintf("bmc: the unrolling to bound %d exceeds %d nodes", k, u.maxNodes)}, false
	case errors.Is(err, errCycle):
		return Result{Reason: "bmc: control flow that is not a loop of the depth-first search (irreducible)"}, false
	case err != nil:
		return Result{Reason: "bmc: " + err.Error()}, false
	}
	b := smt.NewBuilder()
	m := smt.NewMerger(b, prog, prog.Edges, opts.Semantics)
	var errArcs, cutArcs []*arc
	type unsupported struct {
		guard  *smt.Term
		reason string
	}
	var unsup []unsupported
	for i, n := range un.nodes {
		timeslice.Yield(ctx)
		if err := ctx.Err(); err != nil {
			return Result{Reason: "bmc: " + err.Error()}, false
		}
		var st *smt.SymState
		if i == 0 {
			st = m.Initial()
		} else {
			if len(n.pending) == 0 {
				continue // every arc into it failed to encode
			}
			var gs []*smt.Term
			for _, s := range n.pending {
				gs = append(gs, s.Guard())
			}
			st, err = m.Join(n.pending)
			n.pending = nil
			if err != nil {
				unsup = append(unsup, unsupported{b.Or(gs...), err.Error()})
				continue
			}
			m.NameGuard(st, fmt.Sprintf("reach!%d", n.id))
		}
		if st.Guard().Op == smt.False {
			continue
		}
		last := -1
		for j, a := range n.out {
			if a.kind != toError {
				last = j
			}
		}
		for j, a := range n.out {
			if a.kind == toError {
				a.guard = st.Guard()
				errArcs = append(errArcs, a)
				continue
			}
			s := st
			if j != last {
				s = m.Clone(st)
			}
			pre := s.Guard()
			if err := m.Apply(ctx, s, a.step); err != nil {
				if ctx.Err() != nil {
					return Result{Reason: "bmc: " + ctx.Err().Error()}, false
				}
				unsup = append(unsup, unsupported{pre, err.Error()})
				continue
			}
			a.guard = s.Guard()
			if a.guard.Op == smt.False {
				continue
			}
			if why := u.callback(a.step); why != "" {
				unsup = append(unsup, unsupported{pre, why})
			}
			if a.kind == toCutoff {
				cutArcs = append(cutArcs, a)
				continue
			}
			a.to.pending = append(a.to.pending, s)
		}
	}
	f := m.Formula()
	res := Result{Nodes: len(un.nodes), Arcs: un.arcs, Conjuncts: len(f.Conjuncts)}
	solver := opts.Solver(b)
	defer solver.Close()
	for _, c := range f.Conjuncts {
		solver.Assert(c)
	}
	guards := func(as []*arc) *smt.Term {
		var ts []*smt.Term
		for _, a := range as {
			ts = append(ts, a.guard)
		}
		return b.Or(ts...)
	}
	if len(errArcs) > 0 {
		reach := guards(errArcs)
		solver.Push()
		solver.Assert(reach)
		solver.Assert(f.NoUB(b))
		r, err := solver.Check(ctx)
		if r == smt.Sat {
			path := extract(solver.Model(), errArcs)
			solver.Pop()
			if path == nil {
				res.Reason = "bmc: no execution could be read from the model"
				return res, false
			}
			ch := cegar.CheckPathOpts(ctx, prog, path, opts.Solver, opts.Semantics)
			if ch.Status == cegar.Feasible {
				res.Status, res.Path, res.Inputs = False, path, ch.Inputs
				res.Reason = fmt.Sprintf("bounded model checking to bound %d: counterexample of %d steps confirmed by SMT and concrete replay", k, len(path))
				return res, false
			}
			res.Reason = "bmc: the execution the formula found is not confirmed: " + ch.Reason
			return res, false
		}
		solver.Pop()
		if r == smt.Unknown {
			res.Reason = fmt.Sprintf("bmc: solver: %v", err)
			return res, false
		}
		solver.Push()
		solver.Assert(reach)
		r, err = solver.Check(ctx)
		solver.Pop()
		switch r {
		case smt.Sat:
			res.Reason = fmt.Sprintf("bmc: an error is reachable within bound %d only after undefined behaviour", k)
			return res, false
		case smt.Unknown:
			res.Reason = fmt.Sprintf("bmc: solver: %v", err)
			return res, false
		}
	}
	for _, x := range unsup {
		solver.Push()
		solver.Assert(x.guard)
		r, err := solver.Check(ctx)
		solver.Pop()
		switch r {
		case smt.Sat:
			res.Reason = "bmc: reachable step outside the encoding: " + x.reason
			return res, false
		case smt.Unknown:
			res.Reason = fmt.Sprintf("bmc: solver: %v", err)
			return res, false
		}
	}
	if len(cutArcs) == 0 {
		res.Status = True
		res.Reason = fmt.Sprintf("bounded model checking: no error within bound %d, and no execution runs longer (unwinding assertions hold)", k)
		return res, false
	}
	solver.Push()
	solver.Assert(guards(cutArcs))
	r, err := solver.Check(ctx)
	switch r {
	case smt.Unsat:
		solver.Pop()
		res.Status = True
		res.Reason = fmt.Sprintf("bounded model checking: no error within bound %d, and no execution runs longer (unwinding assertions hold)", k)
		return res, false
	case smt.Unknown:
		solver.Pop()
		res.Reason = fmt.Sprintf("bmc: solver: %v", err)
		return res, false
	}
	what := ""
	mod := solver.Model()
	for _, a := range cutArcs {
		if v, _ := mod.Eval(a.guard); v == 1 {
			what = a.what
			break
		}
	}
	solver.Pop()
	res.Reason = fmt.Sprintf("bmc: no error within bound %d, but the unwinding assertion of the %s fails", k, what)
	return res, true
}

// extract returns the execution of a model in which an error arc's guard
// holds: the arcs whose guards hold, followed back from that arc to the
// start.
func extract(mod smt.Model, errArcs []*arc) []cfa.Step {
	holds := func(t *smt.Term) bool {
		if t == nil {
			return false
		}
		v, _ := mod.Eval(t)
		return v == 1
	}
	for _, a := range errArcs {
		if !holds(a.guard) {
			continue
		}
		rev := []cfa.Step{a.step}
		n := a.from
		for n.id != 0 {
			var in *arc
			for _, x := range n.in {
				if holds(x.guard) {
					in = x
					break
				}
			}
			if in == nil {
				return nil
			}
			rev = append(rev, in.step)
			n = in.from
		}
		path := make([]cfa.Step, len(rev))
		for i, s := range rev {
			path[len(rev)-1-i] = s
		}
		return path
	}
	return nil
}
