package bmc

import (
	"context"
	"fmt"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/timeslice"
)

// horn decides the property over the same merged encoding by an
// unbounded engine: the program is cut at its cut points (the loop heads
// of the entry function, in its frame) into loop-free segments, each
// encoded as one large block (the initial segment from the program's
// start, and one from an arbitrary state at every cut point, as
// k-induction's step case starts); the segments become constrained Horn
// clauses over one relation per cut point, whose arguments are the
// state Havoc makes arbitrary (smt.Merger.ShapeOf), and the clauses go
// to an IC3/PDR engine (smt.HornSolver: Z3's Spacer). A solution of the
// clauses is an inductive invariant at every cut point that excludes
// every error: TRUE. (Large blocks as in Beyer, Cimatti, Griggio,
// Keremoglu, Sebastiani, FMCAD 2009; the clauses as in Bjørner,
// Gurfinkel, McMillan, Rybalchenko, "Horn clause solvers for program
// verification", 2015; IC3/PDR over them as in Komuravelli, Gurfinkel,
// Chaki, CAV 2014; the unifying view of Beyer, Dangl, Wendler, JAR 2018.)
//
// Each segment's query clause makes false follow from every error arc,
// every step outside the encoding and every cut-off other than a cut
// point (a callee's loop or a recursion beyond u's bound), so a solution
// also shows these unreachable. Values that a segment reads from before
// its cut point and Havoc keeps (object sizes) are extra arguments of
// every relation, passed on unchanged.
//
// proved is true only for a solution, with the solution's conditions at
// the loop heads (hornInvariants); why says why there is none.
func horn(ctx context.Context, prog *cfa.Program, u *unroller, hs smt.HornSolver, sem smt.EncodeOptions) (proved bool, invs map[*cfa.Location][]cfa.Expr, why string, err error) {
	b := smt.NewBuilder()
	m := smt.NewMerger(b, prog, prog.Edges, sem)

	su := *u
	su.segment, su.step, su.stepStart = true, false, nil
	rels := map[*cfa.Location]*hornRel{}
	var order []*hornRel
	var segs []*hornSegment
	encodeSeg := func(from *hornRel) (string, error) {
		seg := &hornSegment{from: from, firstVar: b.NextID()}
		s := su
		var start *smt.SymState
		if from == nil {
			start = m.Initial()
		} else {
			s.step, s.stepStart = true, from.head
			start = m.Havoc(from.tmpl)
			seg.start = m.Vector(from.shape, start)
		}
		un, err := s.unroll(ctx)
		if err != nil {
			return unrollError(err, u.bound, u.maxNodes), nil
		}
		if f, at := allocatesInLoop(un, u); f != "" {
			return fmt.Sprintf("the loop at %s allocates memory (%s)", posOf(at), f), nil
		}
		mark := m.Mark()
		enc, err := encode(ctx, m, b, &s, un, start)
		if err != nil {
			return "", err
		}
		open := []*smt.Term{orHits(b, enc.hits[0])}
		for _, x := range enc.unsup {
			open = append(open, x.guard)
		}
		arriving := map[*cfa.Location][]*smt.SymState{}
		for _, a := range enc.cutArcs {
			if a.what != cutPoint {
				open = append(open, a.guard)
				continue
			}
			seg.arrivals = append(seg.arrivals, a)
			h := a.step.Edge.To
			if rels[h] == nil {
				arriving[h] = append(arriving[h], m.Clone(a.post))
			}
		}
		seg.conj = m.QuerySince(mark)
		seg.open = b.Or(open...)
		// a cut point reached for the first time gets its relation,
		// shaped by the states arriving at it here
		for _, l := range u.entry.Locs {
			sts := arriving[l]
			if len(sts) == 0 {
				continue
			}
			tmpl, err := m.Join(sts)
			if err != nil {
				return "the states arriving at the loop head at " + posOf(l) + " do not join: " + err.Error(), nil
			}
			sh := m.ShapeOf(tmpl)
			r := &hornRel{head: l, shape: sh, tmpl: tmpl, rel: &smt.Relation{Name: "inv " + posOf(l), Args: sh.Sorts()}}
			rels[l] = r
			order = append(order, r)
		}
		segs = append(segs, seg)
		return "", nil
	}
	if why, err := encodeSeg(nil); why != "" || err != nil {
		return false, nil, why, err
	}
	initEnd := b.NextID()
	for i := 0; i < len(order); i++ {
		if why, err := encodeSeg(order[i]); why != "" || err != nil {
			return false, nil, why, err
		}
	}
	// the clauses, with the inlined terms of each segment
	type pending struct {
		body   []smt.Atom
		constr *smt.Term
		head   *hornRel
		args   []*smt.Term
		seg    *hornSegment
	}
	var cls []pending
	for _, seg := range segs {
		conj := b.And(seg.conj...)
		var body []smt.Atom
		if seg.from != nil {
			body = []smt.Atom{{Rel: seg.from.rel, Args: seg.start}}
		}
		for _, a := range seg.arrivals {
			r := rels[a.step.Edge.To]
			args := m.Vector(r.shape, a.post)
			for i, t := range args {
				args[i] = m.Inline(t)
			}
			cls = append(cls, pending{body, b.And(conj, m.Inline(a.guard)), r, args, seg})
		}
		cls = append(cls, pending{body, b.And(conj, m.Inline(seg.open)), nil, nil, seg})
	}
	// values kept from before a segment (object sizes Havoc keeps) are
	// frozen: extra arguments of every relation, passed on unchanged; one
	// made by another segment would tie the segments, and is refused
	frozenSet := map[*smt.Term]bool{}
	var frozen []*smt.Term
	for _, c := range cls {
		if c.seg.from == nil {
			continue
		}
		start := map[*smt.Term]bool{}
		for _, t := range c.seg.start {
			start[t] = true
		}
		ts := append([]*smt.Term{c.constr}, c.args...)
		for _, v := range smt.Vars(ts...) {
			if v.ID >= c.seg.firstVar || start[v] || frozenSet[v] {
				continue
			}
			if v.ID >= initEnd {
				return false, nil, "a loop segment reads a value of another segment (" + v.Name + ")", nil
			}
			frozenSet[v] = true
			frozen = append(frozen, v)
		}
	}
	sys := &smt.HornSystem{}
	for _, r := range order {
		for _, v := range frozen {
			r.rel.Args = append(r.rel.Args, v.Sort)
		}
		sys.Relations = append(sys.Relations, r.rel)
	}
	for _, c := range cls {
		cl := smt.Clause{Constraint: c.constr}
		for _, a := range c.body {
			cl.Body = append(cl.Body, smt.Atom{Rel: a.Rel, Args: append(append([]*smt.Term(nil), a.Args...), frozen...)})
		}
		if c.head != nil {
			cl.Head = &smt.Atom{Rel: c.head.rel, Args: append(c.args, frozen...)}
		}
		sys.Clauses = append(sys.Clauses, cl)
	}
	r, sol, err := hs.SolveHorn(ctx, b, sys)
	switch r {
	case smt.Sat:
		return true, hornInvariants(b, order, sol, u.entry), "", nil
	case smt.Unsat:
		return false, nil, "the Horn clauses derive an error, a cut-off or a step outside the encoding", nil
	}
	if ctx.Err() != nil && err == nil {
		err = ctx.Err()
	}
	return false, nil, fmt.Sprintf("spacer: %v", err), nil
}

// hornTries are the Horn engine's tries in one Check: each may run at
// a bound whose unwinding assertions fail only in the entry function's
// loops (and k-induction fails) once the bound is at least bound or
// Check has spent the fraction after of the time it had, with its share
// of the time left and a cap on it (0: none); a try follows only one
// that ran out of time, and a try still pending when the bounds end
// undecided gets what is left (hornLast). Spacer answers most of what
// it proves within a few hundred milliseconds and some in seconds,
// while the unwinding assertions need the time for deeper bounds: the
// first try is short, the second waits for deep bounds or a quarter of
// the time (doc/perf/2026-11-30-horn.md).
var hornTries = []struct {
	bound        int
	after, share float64
	cap          time.Duration
}{{1, 0, 0.1, time.Second}, {64, 0.25, 0.25, 0}}

// hornDue reports whether a try may run at bound k: k reaches bound, or
// Check had total when it started (ok: it has a limit) and has spent
// the fraction after of it (left remains).
func hornDue(k, bound int, after float64, total, left time.Duration, ok bool) bool {
	if k >= bound {
		return true
	}
	return ok && after > 0 && total > 0 && float64(total-left) >= after*float64(total)
}

// hornTimeout bounds a try without a deadline.
const hornTimeout = 30 * time.Second

// hornContext bounds a try by its share of ctx's time, on ctx's clock:
// under a CPU budget the CPU time of the solver process that runs
// Spacer (timeslice.WithChildCPU, package solverproc, which also stops
// the process while the portfolio's other arms have their turns), with
// hornBackstop times that in wall time for a solver in this process;
// else wall time. Spacer runs outside the portfolio's turns, and while
// the other arms of `default` shared its core a wall-clock bound ended
// it after a fraction of its share: SV-COMP's nested6, whose first try
// Spacer proves in 0.6–1 s of its own CPU time, was left to
// predicate-cegar, 9–16 s in.
func hornContext(ctx context.Context, share float64, limit time.Duration) (context.Context, context.CancelFunc) {
	d := hornTimeout
	if left, ok := timeslice.Remaining(ctx); ok {
		d = time.Duration(float64(left) * share)
	}
	if limit > 0 {
		d = min(d, limit)
	}
	if timeslice.OnCPUClock(ctx) {
		return timeslice.WithChildCPU(ctx, d, hornBackstop*d)
	}
	return context.WithTimeout(ctx, d)
}

// hornBackstop bounds a try under a CPU budget in wall time, as a
// multiple of its CPU time.
const hornBackstop = 4

// hornRel is a cut point's relation with the shape of its state.
type hornRel struct {
	head  *cfa.Location
	rel   *smt.Relation
	shape *smt.Shape
	tmpl  *smt.SymState
}

// hornSegment is one encoded segment: its constraint, its start's
// vector (nil for the initial segment) and its arrivals at cut points.
type hornSegment struct {
	from     *hornRel
	start    []*smt.Term
	conj     []*smt.Term
	arrivals []*arc
	open     *smt.Term
	firstVar int
}

// allocatesInLoop returns an allocation function that a step of un
// calls where the entry function's frame is inside one of its loops (at
// a location of a loop body, or in a call made there), and that loop's
// head; or "". A segment that allocates there may run again in the same
// execution, and its clause would give the block of every run the same
// address. An allocation outside the entry function's loops runs at most
// once per execution (a reducible CFA: a location outside every natural
// loop is visited once per call).
func allocatesInLoop(un *unrolling, u *unroller) (string, *cfa.Location) {
	for _, n := range un.nodes {
		for _, a := range n.out {
			if a.step.Edge == nil || a.step.Kind != cfa.Intra {
				continue
			}
			c, ok := a.step.Edge.Op.(*cfa.Call)
			if !ok {
				continue
			}
			switch c.Fn {
			case "malloc", "calloc", "realloc", "alloca", "__builtin_alloca":
			default:
				continue
			}
			at := n.pt.loc
			if len(n.pt.frames) > 1 {
				at = n.pt.frames[1].call.From
			}
			for _, l := range u.entry.Locs {
				if body := u.loops.Body[l]; body != nil && body[at] {
					return c.Fn, l
				}
			}
		}
	}
	return "", nil
}
