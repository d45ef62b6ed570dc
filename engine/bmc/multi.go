package bmc

import (
	"context"
	"fmt"
	"time"

	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Spec is one reachability property of CheckAll: its error edges and,
// when not nil, the call they must be inside (engine/spec.Property).
type Spec struct {
	ErrorEdges []*cfa.Edge
	Via        *cfa.Edge
}

// CheckAll decides several properties of one entry by bounded model
// checking over one unrolling per bound, as CBMC checks all the
// properties of a program in one formula: at each bound (1, 2, 4, … or
// opts.Unwind) the properties still open are checked together, a model
// violating any of them gives the counterexample of each it violates
// (confirmed by engine/cexcheck.CheckPathOpts, as in Check), and when no
// error, no step outside the encoding and no cut-off is reachable, every
// property still open is TRUE. The error edges of a property are
// ordinary edges for the others (a run of one property takes them).
// decide is called once per property decided, with its index and
// result; CheckAll returns the result of every property not decided, by
// index (UNKNOWN with the last bound's reason). opts.ErrorEdges, Via and
// KInduction are ignored.
func CheckAll(ctx context.Context, prog *cfa.Program, specs []Spec, opts Options, decide func(int, Result)) map[int]Result {
	return checkAllBounds(ctx, prog, specs, opts, decide, deferral{})
}

// checkAllBounds is CheckAll with the error queries' deferral def.
func checkAllBounds(ctx context.Context, prog *cfa.Program, specs []Spec, opts Options, decide func(int, Result), def deferral) map[int]Result {
	if opts.MaxUnwind <= 0 {
		opts.MaxUnwind = 1024
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 200_000
	}
	opts.Semantics.StringBytes = stringBytes(opts.Unwindset)
	cut := false
	rest := func(reason string, open map[int]bool) map[int]Result {
		out := map[int]Result{}
		for i := range open {
			out[i] = Result{Reason: reason, CutOff: cut}
		}
		return out
	}
	open := map[int]bool{}
	for i := range specs {
		open[i] = true
	}
	loc, err := location.New(prog, opts.Entry)
	if err != nil {
		return rest("bmc: "+err.Error(), open)
	}
	loops := cfa.NaturalLoops(prog)
	u := &unroller{prog: prog, loc: loc, loops: loops, entry: prog.Func(opts.Entry), floors: floorsOf(prog, loops, prog.Func(opts.Entry), opts.Unwindset),
		errors: map[*cfa.Edge][]int{}, via: make([]*cfa.Edge, len(specs)), maxNodes: opts.MaxNodes, escaped: prog.EscapedFuncs(), def: def}
	for i, sp := range specs {
		u.via[i] = sp.Via
		for _, e := range sp.ErrorEdges {
			u.errors[e] = append(u.errors[e], i)
		}
	}
	bounds := []int{opts.Unwind}
	if opts.Unwind <= 0 {
		bounds = nil
		for k := 1; k < opts.MaxUnwind; k *= 2 {
			bounds = append(bounds, k)
		}
		bounds = append(bounds, opts.MaxUnwind)
	}
	reason := "bmc: no bound tried"
	for i, k := range bounds {
		u.bound, u.def.final = k, i == len(bounds)-1
		var c bool
		reason, c = checkAll(ctx, prog, u, opts, open, decide)
		cut = cut || c
		if len(open) == 0 || !c {
			break
		}
	}
	return rest(reason, open)
}

// checkAll decides the open properties at u's bound, deleting each it
// decides from open; more says that a larger bound may decide the rest,
// reason why this one did not.
func checkAll(ctx context.Context, prog *cfa.Program, u *unroller, opts Options, open map[int]bool, decide func(int, Result)) (reason string, more bool) {
	k := u.bound
	un, err := u.unroll(ctx)
	if err != nil {
		return unrollError(err, k, u.maxNodes), false
	}
	b := smt.NewBuilder()
	m := smt.NewMerger(b, prog, prog.Edges, opts.Semantics)
	enc, err := encode(ctx, m, b, u, un, m.Initial())
	if err != nil {
		return "bmc: " + err.Error(), false
	}
	f := m.Formula()
	ses := &session{b: b, m: m, factory: opts.OneShot}
	if ses.factory == nil {
		ses.factory = opts.Solver
	}
	stats := func(r Result) Result {
		r.Bound, r.Nodes, r.Arcs, r.Conjuncts = k, len(un.nodes), un.arcs, len(f.Conjuncts)
		return r
	}
	reach := func() *smt.Term {
		var ts []*smt.Term
		for i := range open {
			ts = append(ts, orHits(b, enc.hits[i]))
		}
		return b.Or(ts...)
	}
	if !u.def.due() && len(enc.unsup) == 0 && len(enc.cutArcs) > 0 {
		what, _, r, err := ses.cutOff(ctx, enc.cutArcs, &u.def)
		switch r {
		case smt.Unknown:
			return fmt.Sprintf("bmc: solver: %v", err), false
		case smt.Sat:
			return deferredReason(u, what), true
		}
	}
	// errors without undefined behaviour: each model decides the
	// properties it violates (the UB conditions prune the solver's
	// search: asking first for any error at all is slower)
	t0 := time.Now()
	for len(open) > 0 {
		var hitBy []int
		paths := map[int][]cfa.Step{}
		r, err := ses.sat(ctx, []*smt.Term{reach(), f.NoUB(b)}, func(mod smt.Model) {
			for i := range open {
				if p := extract(mod, enc.hits[i]); p != nil {
					hitBy = append(hitBy, i)
					paths[i] = p
				}
			}
		})
		if r == smt.Unknown {
			return fmt.Sprintf("bmc: solver: %v", err), false
		}
		if r == smt.Unsat {
			break
		}
		if len(hitBy) == 0 {
			return "bmc: no execution could be read from the model", false
		}
		for _, i := range hitBy {
			path := paths[i]
			delete(open, i)
			ch := cexcheck.CheckPathOpts(ctx, prog, path, opts.Solver, opts.Semantics)
			if ch.Status == cexcheck.Feasible {
				decide(i, stats(Result{Status: False, Path: path, Inputs: ch.Inputs,
					Reason: fmt.Sprintf("bounded model checking to bound %d: counterexample of %d steps confirmed by SMT and concrete replay", k, len(path))}))
				continue
			}
			decide(i, stats(Result{Reason: "bmc: the execution the formula found is not confirmed: " + ch.Why()}))
		}
	}
	u.def.errorsChecked(k, time.Since(t0))
	if len(open) == 0 {
		return "", false
	}
	// what keeps the rest from a proof: a cut-off (a larger bound may
	// do), a step outside the encoding (all are UNKNOWN), or an error
	// only after undefined behaviour (that property is UNKNOWN); the
	// last is asked at the bound that leaves nothing else
	var ts []*smt.Term
	for _, x := range enc.unsup {
		ts = append(ts, x.guard)
	}
	for _, a := range enc.cutArcs {
		ts = append(ts, a.guard)
	}
	why, cut := "", false
	t1 := time.Now()
	r, err := ses.sat(ctx, []*smt.Term{b.Or(ts...)}, func(mod smt.Model) {
		holds := func(t *smt.Term) bool { v, _ := mod.Eval(t); return v == 1 }
		for _, x := range enc.unsup {
			if why == "" && holds(x.guard) {
				why = "bmc: reachable step outside the encoding: " + x.reason
			}
		}
		for _, a := range enc.cutArcs {
			if why == "" && holds(a.guard) {
				why = fmt.Sprintf("bmc: no error within bound %d, but the unwinding assertion of the %s fails", k, a.what)
				cut = true
			}
		}
	})
	u.def.cutChecked(time.Since(t1))
	switch r {
	case smt.Unknown:
		return fmt.Sprintf("bmc: solver: %v", err), false
	case smt.Sat:
		return why, cut
	}
	for len(open) > 0 {
		var ub []int
		r, err := ses.sat(ctx, []*smt.Term{reach()}, func(mod smt.Model) {
			for i := range open {
				if v, _ := mod.Eval(orHits(b, enc.hits[i])); v == 1 {
					ub = append(ub, i)
				}
			}
		})
		switch r {
		case smt.Unknown:
			return fmt.Sprintf("bmc: solver: %v", err), false
		case smt.Unsat:
			for i := range open {
				delete(open, i)
				decide(i, stats(Result{Status: True, Reason: fmt.Sprintf("bounded model checking: no error within bound %d, and no execution runs longer (unwinding assertions hold)", k)}))
			}
			return "", false
		}
		if len(ub) == 0 {
			return "bmc: no execution could be read from the model", false
		}
		for _, i := range ub {
			delete(open, i)
			decide(i, stats(Result{Reason: fmt.Sprintf("bmc: an error is reachable within bound %d only after undefined behaviour", k)}))
		}
	}
	return "", false
}
