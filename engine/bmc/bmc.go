package bmc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/arrayelim"
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
	// Solver creates SMT solvers; required. OneShot, when not nil,
	// creates the solvers of the unrolling's queries (one check each:
	// engine/smt/z3.OneShotFactory).
	Solver, OneShot smt.Factory
	// Semantics is the variant of the C semantics (signed overflow).
	Semantics smt.EncodeOptions
	// Unwind, when positive, is the only bound tried (CBMC's --unwind);
	// otherwise the bounds 1, 2, 4, … up to MaxUnwind are tried in turn.
	Unwind int
	// Unwindset are per-loop bounds in CBMC's form (--unwindset): CBMC
	// loop ids "function.N" (the N-th loop of function in the order in
	// which the loops end in the source, from 0) with CBMC's bound, one
	// more than the iterations unrolled. A listed loop is unrolled at
	// least that far at every bound (floors.go); ids that name no loop
	// are ignored.
	Unwindset map[string]int
	// MaxUnwind is the largest bound tried (0: 1024).
	MaxUnwind int
	// MaxNodes bounds the nodes of one unrolling (0: 200,000); beyond it
	// the answer is UNKNOWN.
	MaxNodes int
	// KInduction, at every bound whose unwinding assertions fail, tries
	// k-induction's step case over the same merged encoding (its cut
	// points are the entry function's loop heads).
	KInduction bool
	// Horn, when not nil and with KInduction, decides the Horn clauses
	// of the unbounded engine (horn.go: IC3/PDR over the loop-free
	// segments between cut points), tried where k-induction fails
	// (hornTries).
	Horn smt.HornSolver
}

// stringFuncs are the functions whose models unroll over the bytes of
// a string or block (engine/smt.EncodeOptions.StringBytes), by the
// CBMC loop id of their loop in CBMC's library.
var stringFuncs = []string{"strlen.0", "strncmp.0", "memcmp.0"}

// stringBytes is the number of bytes the string models unroll on an
// object of non-constant size under the unwinding bounds: the largest
// bound of the loop of strlen, strncmp or memcmp less one (the loop runs
// once per byte and once more to end), or 0 (the encoding's default).
func stringBytes(unwindset map[string]int) int {
	n := 0
	for _, id := range stringFuncs {
		n = max(n, unwindset[id]-1)
	}
	return n
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
	// Checked is, for UNKNOWN, the largest bound whose unrolling was
	// checked whole without an error (0: none was): how far the
	// bounds got when the time ran out.
	Checked int
	// Path and Inputs are the counterexample of FALSE, confirmed by
	// engine/cexcheck.CheckPathOpts (bit-precise SMT and concrete replay).
	Path   []cfa.Step
	Inputs []smt.InputValue
	// KInduction says, for TRUE, that the proof is k-induction's step
	// case with k = Bound (else the unwinding assertions hold at Bound).
	KInduction bool
	// Horn says, for TRUE, that the proof is a solution of the Horn
	// clauses over the segments between cut points (horn.go), with
	// callees unrolled to Bound; Invariants are the solution's
	// conditions that C can state, per loop head of the entry function
	// (candidates for a correctness witness, not all of the solution).
	Horn       bool
	Invariants map[*cfa.Location][]cfa.Expr
	// CutOff says, for UNKNOWN, that a bound's unwinding assertions
	// failed (Check: the last bound's; CheckAll: any bound's) (a larger bound, or k-induction, may decide).
	CutOff bool
	// Nodes, Arcs and Conjuncts measure the last unrolling and its
	// formula.
	Nodes, Arcs, Conjuncts int
	// Memory says, for UNKNOWN, that the solver reached its memory limit
	// (an error wrapping smt.ErrMemory).
	Memory bool
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
// error arc) is confirmed by engine/cexcheck.CheckPathOpts: only then is the
// answer FALSE. When no error arc is reachable, the unwinding
// assertions decide: when neither a cut-off arc (a loop's back edge taken
// once more than the bound, a recursion one level deeper) nor a step
// outside the encoding is reachable, the unrolling holds every execution
// and the answer is TRUE; otherwise the next bound is tried. UNKNOWN
// says why none decided: the largest bound, the unrolling's size, a
// reachable step outside the encoding, or an error reachable only after
// undefined behaviour.
func Check(ctx context.Context, prog *cfa.Program, opts Options) (res Result) {
	return checkBounds(ctx, prog, opts, deferral{})
}

// checkBounds is Check with the error queries' deferral def.
func checkBounds(ctx context.Context, prog *cfa.Program, opts Options, def deferral) (res Result) {
	if opts.MaxUnwind <= 0 {
		opts.MaxUnwind = 1024
	}
	if opts.MaxNodes <= 0 {
		opts.MaxNodes = 200_000
	}
	opts.Semantics.StringBytes = stringBytes(opts.Unwindset)
	loc, err := location.New(prog, opts.Entry)
	if err != nil {
		return Result{Reason: "bmc: " + err.Error()}
	}
	loops := cfa.NaturalLoops(prog)
	u := &unroller{prog: prog, loc: loc, loops: loops, entry: prog.Func(opts.Entry), floors: floorsOf(prog, loops, prog.Func(opts.Entry), opts.Unwindset),
		errors: map[*cfa.Edge][]int{}, via: []*cfa.Edge{opts.Via}, sinks: true, maxNodes: opts.MaxNodes, escaped: prog.EscapedFuncs(), def: def}
	u.budget, u.hasBudget = timeslice.Remaining(ctx)
	for _, e := range opts.ErrorEdges {
		u.errors[e] = []int{0}
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
	checked := 0
	for i, k := range bounds {
		u.bound, u.def.final = k, i == len(bounds)-1
		r, more := check(ctx, prog, u, opts)
		if more {
			checked = u.def.checked // no error within it; a larger bound may decide
		}
		r.Bound, r.Checked = k, checked
		res = r
		if !more {
			break
		}
	}
	if res.Status == Unknown && opts.Horn != nil && u.hornBound > 0 && u.hornTry < len(hornTries) && ctx.Err() == nil {
		// the bounds ended undecided while a Horn try that ran out of
		// time is pending: it gets what is left, at its last bound
		u.bound = u.hornBound
		if proved, invs, why, _ := tryHorn(ctx, prog, u, opts, hornLast, 0); proved {
			return hornResult(u, invs)
		} else if why != "" {
			res.Reason += "; Horn clauses: " + why
		}
	}
	return res
}

// hornLast is the share of the time left that a pending Horn try gets
// once the bounds end undecided.
const hornLast = 0.8

// hornResult is the TRUE of a Horn proof at u's bound.
func hornResult(u *unroller, invs map[*cfa.Location][]cfa.Expr) Result {
	return Result{Status: True, Horn: true, Invariants: invs, Bound: u.bound,
		Reason: fmt.Sprintf("IC3/PDR (Spacer) over merged loop-free segments: the Horn clauses between the loop heads of %s have inductive invariants that exclude every error (callees unrolled to bound %d)", u.entry.Name, u.bound)}
}

// unsupported is a step outside the encoding (or a join of states that
// disagree on an object), with the guard under which it is reached.
type unsupported struct {
	guard  *smt.Term
	reason string
}

// hit is an error arc with the guard under which an execution reaches
// its step.
type hit struct {
	a     *arc
	guard *smt.Term
}

// encoding is the symbolic pass over one unrolling.
type encoding struct {
	// hits are the error arcs by property.
	hits    [][]hit
	cutArcs []*arc
	unsup   []unsupported
	// template is the state at the first node of each cut point
	// (a loop head of the entry function, in its frame).
	template map[*cfa.Location]*smt.SymState
}

// encode runs the symbolic pass over un from the state start: every node
// joins the states arriving over its in-arcs, and every arc applies its
// step to a copy.
func encode(ctx context.Context, m *smt.Merger, b *smt.Builder, u *unroller, un *unrolling, start *smt.SymState) (*encoding, error) {
	enc := &encoding{template: map[*cfa.Location]*smt.SymState{}, hits: make([][]hit, len(u.via))}
	firstUB := len(m.Formula().UB)
	defer func() {
		// an access the value sets leave out is a step outside the
		// encoding: no proof while one is reachable
		for _, x := range m.Formula().UB[firstUB:] {
			if smt.OutsideEncoding(x.Kind) {
				enc.unsup = append(enc.unsup, unsupported{x.Cond, fmt.Sprintf("%s at %s", x.Kind, x.Pos)})
			}
		}
	}()
	for i, n := range un.nodes {
		timeslice.Yield(ctx)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var st *smt.SymState
		if i == 0 {
			st = start
		} else {
			if len(n.pending) == 0 {
				continue // every arc into it failed to encode
			}
			var gs []*smt.Term
			for _, s := range n.pending {
				gs = append(gs, s.Guard())
			}
			var err error
			st, err = m.Join(n.pending)
			n.pending = nil
			if err != nil {
				enc.unsup = append(enc.unsup, unsupported{b.Or(gs...), err.Error()})
				continue
			}
			m.NameGuard(st, fmt.Sprintf("reach!%d", n.id))
		}
		if st.Guard().Op == smt.False {
			continue
		}
		if len(n.pt.frames) == 1 && n.pt.frames[0].fn == u.entry && u.loops.Body[n.pt.loc] != nil && enc.template[n.pt.loc] == nil {
			enc.template[n.pt.loc] = m.Clone(st)
		}
		last := -1
		for j, a := range n.out {
			if a.kind != toError {
				last = j
			}
		}
		for j, a := range n.out {
			for _, i := range a.errorOf {
				enc.hits[i] = append(enc.hits[i], hit{a, st.Guard()})
			}
			if a.kind == toError {
				continue
			}
			s := st
			if j != last {
				s = m.Clone(st)
			}
			if err := m.Apply(ctx, s, a.step); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				// s's guard is the condition under which the step reaches
				// what failed to encode: the arc's guard and what the step
				// assumed before it (a call through a pointer that is none
				// of the functions with a body)
				enc.unsup = append(enc.unsup, unsupported{s.Guard(), err.Error()})
				continue
			}
			a.guard = s.Guard()
			if a.guard.Op == smt.False {
				continue
			}
			if why := u.callback(a.step); why != "" {
				enc.unsup = append(enc.unsup, unsupported{a.guard, why})
			}
			if a.kind == toCutoff {
				if u.segment && a.what == cutPoint {
					a.post = s
				}
				enc.cutArcs = append(enc.cutArcs, a)
				continue
			}
			a.to.pending = append(a.to.pending, s)
		}
	}
	return enc, nil
}

// session is one bound's formula: every query is decided by a fresh
// solver from Options.OneShot over all the merger's conjuncts (Z3's
// incremental core internalises a large formula at every push, its
// one-shot solver bit-blasts it once).
type session struct {
	b       *smt.Builder
	m       *smt.Merger
	factory smt.Factory
	queries int
}

// sat decides the formula with the extra assertions (arrayelim.Solve);
// for Sat, eval sees the model.
func (s *session) sat(ctx context.Context, extra []*smt.Term, eval func(smt.Model)) (smt.Result, error) {
	s.queries++
	return arrayelim.Solve(ctx, s.b, s.factory, s.m, eval, extra...)
}

// cutOff asks whether a cut-off arc is reachable (the unwinding
// assertions alone, for a bound whose error queries wait: deferral.go),
// timing the query in d: what names the first reachable one, inner says
// that one lies outside the entry function's frame.
func (s *session) cutOff(ctx context.Context, arcs []*arc, d *deferral) (what string, inner bool, r smt.Result, err error) {
	t0 := time.Now()
	r, err = s.sat(ctx, []*smt.Term{s.or(arcs)}, func(mod smt.Model) {
		for _, a := range arcs {
			if v, _ := mod.Eval(a.guard); v == 1 {
				if what == "" {
					what = a.what
				}
				inner = inner || !a.inEntry
			}
		}
	})
	d.cutChecked(time.Since(t0))
	return what, inner, r, err
}

// deferredReason is the reason of a bound that skipped its error
// queries and whose unwinding assertion of the loop what fails.
func deferredReason(u *unroller, what string) string {
	return fmt.Sprintf("bmc: no error within bound %d, and the unwinding assertion of the %s fails at bound %d", u.def.checked, what, u.bound)
}

func (s *session) or(as []*arc) *smt.Term {
	var ts []*smt.Term
	for _, a := range as {
		ts = append(ts, a.guard)
	}
	return s.b.Or(ts...)
}

// check decides the property at u's bound with two queries at most: an
// error without undefined behaviour (a counterexample), then anything
// that keeps the unrolling from being a proof (an error after undefined
// behaviour, a step outside the encoding, a cut-off). more says that a
// larger bound may decide it.
func check(ctx context.Context, prog *cfa.Program, u *unroller, opts Options) (Result, bool) {
	k := u.bound
	un, err := u.unroll(ctx)
	if err != nil {
		return Result{Reason: unrollError(err, k, u.maxNodes)}, false
	}
	b := smt.NewBuilder()
	m := smt.NewMerger(b, prog, prog.Edges, opts.Semantics)
	enc, err := encode(ctx, m, b, u, un, m.Initial())
	if err != nil {
		return Result{Reason: "bmc: " + err.Error()}, false
	}
	f := m.Formula()
	res := Result{Nodes: len(un.nodes), Arcs: un.arcs, Conjuncts: len(f.Conjuncts)}
	ses := &session{b: b, m: m, factory: opts.OneShot}
	if ses.factory == nil {
		ses.factory = opts.Solver
	}
	solverErr := func(err error) (Result, bool) {
		res.Reason = fmt.Sprintf("bmc: solver: %v", err)
		res.Memory = errors.Is(err, smt.ErrMemory)
		return res, false
	}
	hits := enc.hits[0]
	reach := orHits(b, hits)
	if len(hits) > 0 && !u.def.due() && len(enc.unsup) == 0 && len(enc.cutArcs) > 0 {
		what, inner, r, err := ses.cutOff(ctx, enc.cutArcs, &u.def)
		if r == smt.Unknown {
			return solverErr(err)
		}
		if r == smt.Sat && (inner || !opts.KInduction) {
			// k-induction's base case needs this bound's error query
			res.Reason = deferredReason(u, what)
			return res, true
		}
	}
	t0 := time.Now()
	if len(hits) > 0 {
		var path []cfa.Step
		r, err := ses.sat(ctx, []*smt.Term{reach, f.NoUB(b)}, func(mod smt.Model) { path = extract(mod, hits) })
		switch r {
		case smt.Sat:
			if path == nil {
				res.Reason = "bmc: no execution could be read from the model"
				return res, false
			}
			ch := cexcheck.CheckPathOpts(ctx, prog, path, opts.Solver, opts.Semantics)
			if ch.Status == cexcheck.Feasible {
				res.Status, res.Path, res.Inputs = False, path, ch.Inputs
				res.Reason = fmt.Sprintf("bounded model checking to bound %d: counterexample of %d steps confirmed by SMT and concrete replay", k, len(path))
				return res, false
			}
			res.Reason = "bmc: the execution the formula found is not confirmed: " + ch.Why()
			return res, false
		case smt.Unknown:
			return solverErr(err)
		}
	}
	u.def.errorsChecked(k, time.Since(t0))
	var open []*smt.Term
	open = append(open, reach)
	for _, x := range enc.unsup {
		open = append(open, x.guard)
	}
	open = append(open, ses.or(enc.cutArcs))
	var why string
	cut, innerCut := false, false
	t1 := time.Now()
	r, err := ses.sat(ctx, []*smt.Term{b.Or(open...)}, func(mod smt.Model) {
		holds := func(t *smt.Term) bool { v, _ := mod.Eval(t); return v == 1 }
		if holds(reach) {
			why = fmt.Sprintf("bmc: an error is reachable within bound %d only after undefined behaviour", k)
			return
		}
		for _, x := range enc.unsup {
			if holds(x.guard) {
				why = "bmc: reachable step outside the encoding: " + x.reason
				return
			}
		}
		for _, a := range enc.cutArcs {
			if holds(a.guard) {
				if !cut {
					why = fmt.Sprintf("bmc: no error within bound %d, but the unwinding assertion of the %s fails", k, a.what)
				}
				cut = true
				innerCut = innerCut || !a.inEntry
			}
		}
	})
	u.def.cutChecked(time.Since(t1))
	switch r {
	case smt.Unsat:
		res.Status = True
		res.Reason = fmt.Sprintf("bounded model checking: no error within bound %d, and no execution runs longer (unwinding assertions hold)", k)
		return res, false
	case smt.Unknown:
		return solverErr(err)
	}
	res.Reason = why
	if !cut {
		return res, false
	}
	if opts.KInduction && !innerCut {
		proved, why, err := kinduction(ctx, ses, u, enc)
		switch {
		case err != nil:
			res.Reason = "bmc: " + err.Error()
			return res, false
		case proved:
			res.Status, res.KInduction = True, true
			res.Reason = fmt.Sprintf("k-induction over merged paths with k = %d: no error within bound %d, and from any state at a loop head of %s, %d error-free iterations are followed by an error-free one", k, k, u.entry.Name, k)
			return res, false
		case why != "":
			res.Reason += "; k-induction: " + why
		}
		left, _ := timeslice.Remaining(ctx)
		if opts.Horn != nil && u.hornTry < len(hornTries) && hornDue(k, hornTries[u.hornTry].bound, hornTries[u.hornTry].after, u.budget, left, u.hasBudget) {
			idx := u.hornTry
			try := hornTries[idx]
			u.hornTry = len(hornTries) // no further try unless this one ran out of time
			proved, invs, why, timedOut := tryHorn(ctx, prog, u, opts, try.share, try.cap)
			switch {
			case proved:
				h := hornResult(u, invs)
				h.Nodes, h.Arcs, h.Conjuncts = res.Nodes, res.Arcs, res.Conjuncts
				return h, false
			case timedOut:
				u.hornTry, u.hornBound = idx+1, k
			}
			if why != "" {
				res.Reason += "; Horn clauses: " + why
			}
		}
	}
	return res, true
}

// tryHorn runs horn with share of ctx's time (at most limit, when
// positive), when opts.Solver's
// solvers are smt.HornSolvers; timedOut says that the try ran out of
// its time (a later try with more time may succeed).
func tryHorn(ctx context.Context, prog *cfa.Program, u *unroller, opts Options, share float64, limit time.Duration) (proved bool, invs map[*cfa.Location][]cfa.Expr, why string, timedOut bool) {
	hctx, cancel := hornContext(ctx, share, limit)
	defer cancel()
	proved, invs, why, err := horn(hctx, prog, u, opts.Horn, opts.Semantics)
	if err != nil {
		why = err.Error()
	}
	return proved, invs, why, !proved && hctx.Err() != nil && ctx.Err() == nil
}

// unrollError is the reason of an unrolling that failed.
func unrollError(err error, k, maxNodes int) string {
	switch {
	case errors.Is(err, errTooLarge):
		return fmt.Sprintf("bmc: the unrolling to bound %d exceeds %d nodes", k, maxNodes)
	case errors.Is(err, errCycle):
		return "bmc: control flow that is not a loop of the depth-first search (irreducible)"
	}
	return "bmc: " + err.Error()
}

// kinduction tries the step case of k-induction at u's bound over the
// base case ses holds (no error within the bound, enc): for every cut
// point h (a loop head of the entry function), from an arbitrary state at
// h with the objects of its first visit (smt.Merger.Havoc), every
// execution through k further cut point visits without an error must be
// unable to reach an error before the (k+2)-th visit (Donaldson, Haller,
// Kroening, Rümmer, SAS 2011; as engine/kinduction, over merged paths).
// The base case must be complete up to the cut points: no reachable
// cut-off in a callee's loop or recursion. why says why there is no
// proof.
func kinduction(ctx context.Context, ses *session, u *unroller, enc *encoding) (bool, string, error) {
	// the base case: besides the entry function's loops, nothing may
	// be cut off or fall outside the encoding, and no error may be
	// reachable (not even after undefined behaviour)
	open := []*smt.Term{orHits(ses.b, enc.hits[0])}
	for _, x := range enc.unsup {
		open = append(open, x.guard)
	}
	for _, a := range enc.cutArcs {
		if !a.inEntry {
			open = append(open, a.guard)
		}
	}
	switch r, err := ses.sat(ctx, []*smt.Term{ses.b.Or(open...)}, nil); r {
	case smt.Sat:
		return false, "the base case is not complete (a loop of a callee or a recursion runs beyond the bound, or a step falls outside the encoding)", nil
	case smt.Unknown:
		return false, "", err
	}
	var heads []*cfa.Location
	for _, l := range u.entry.Locs {
		if u.loops.Body[l] != nil {
			heads = append(heads, l)
		}
	}
	for _, h := range heads {
		tmpl := enc.template[h]
		if tmpl == nil {
			return false, fmt.Sprintf("the loop head %s is not reached within the bound", posOf(h)), nil
		}
		su := *u
		su.step, su.stepStart = true, h
		un, err := su.unroll(ctx)
		if err != nil {
			return false, unrollError(err, u.bound, u.maxNodes), nil
		}
		if f := allocates(un); f != "" {
			// an object allocated in an earlier iteration is not in
			// the arbitrary state, and an access through a pointer to
			// it would read another object's bytes
			return false, fmt.Sprintf("the loop at %s allocates memory (%s)", posOf(h), f), nil
		}
		step, err := encode(ctx, ses.m, ses.b, &su, un, ses.m.Havoc(tmpl))
		if err != nil {
			return false, "", err
		}
		var last []hit
		for _, h := range step.hits[0] {
			if h.a.from.pt.frames[0].cuts == u.bound+1 {
				last = append(last, h)
			}
		}
		open := []*smt.Term{orHits(ses.b, last)}
		for _, x := range step.unsup {
			open = append(open, x.guard)
		}
		for _, a := range step.cutArcs {
			if a.what != "step case" {
				open = append(open, a.guard)
			}
		}
		switch r, err := ses.sat(ctx, []*smt.Term{ses.b.Or(open...)}, nil); r {
		case smt.Sat:
			return false, fmt.Sprintf("the step case from the loop head at %s fails", posOf(h)), nil
		case smt.Unknown:
			return false, "", err
		}
	}
	return true, "", nil
}

// allocates returns the allocation function that a step of un calls,
// or "".
func allocates(un *unrolling) string {
	for _, n := range un.nodes {
		for _, a := range n.out {
			if a.step.Edge == nil || a.step.Kind != cfa.Intra {
				continue
			}
			if c, ok := a.step.Edge.Op.(*cfa.Call); ok {
				switch c.Fn {
				case "malloc", "calloc", "realloc", "alloca", "__builtin_alloca":
					return c.Fn
				}
			}
		}
	}
	return ""
}

// orHits is the disjunction of the hits' guards.
func orHits(b *smt.Builder, hs []hit) *smt.Term {
	ts := make([]*smt.Term, len(hs))
	for i, h := range hs {
		ts[i] = h.guard
	}
	return b.Or(ts...)
}

// extract returns the execution of a model in which a hit's guard holds:
// the arcs whose guards hold, followed back from that hit to the start,
// then the hit's step.
func extract(mod smt.Model, hits []hit) []cfa.Step {
	holds := func(t *smt.Term) bool {
		if t == nil {
			return false
		}
		v, _ := mod.Eval(t)
		return v == 1
	}
	for _, h := range hits {
		if !holds(h.guard) {
			continue
		}
		rev := []cfa.Step{h.a.step}
		n := h.a.from
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
