package validate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// maxCandidates bounds the candidate conjuncts of one loop invariant.
const maxCandidates = 320

// maxDisjunctCandidate bounds the disjuncts of the reached-set invariant
// when it is itself a candidate.
const maxDisjunctCandidate = 16

// Select chooses, before the witness is written, invariants that the
// validator proves: the reached set's invariant at a loop head holds
// there, but it need not be inductive in isolation (facts over variables
// out of scope or not tracked by the precision are missing) and can be a
// disjunction over thousands of states. Select therefore runs Houdini
// (validate.go, houdini) over compact candidate conjuncts per loop
// keyword (candidates) and keeps the surviving conjunction when
// validateCorrectness confirms it (each invariant inductive relative to
// the others, and the property implied); otherwise the reached-set
// invariants stay (witness.InvariantText) and the result says why. opts are as
// for Validate (Solver required; Properties resolve c.Property); ctx
// bounds the work. With an induction depth c.K > 1, the invariants are
// first tried without it (a smaller depth is cheaper to validate: the
// paths of a segment multiply), then the Houdini survivors with depth 1
// and c.K (within half the time left), then the invariants as given
// with c.K (within half the time left), then the invariant "1" at every
// loop with a base case that covers every execution (bounded loops;
// within baseCaseShare);
// c.K is set to the depth of the confirmed choice. The Validation reports what the written witness
// achieves: Confirmed only after a full validateCorrectness run of the
// chosen invariants.
func Select(ctx context.Context, c *witness.Correctness, opts Options) (Validation, error) {
	if opts.Solver == nil {
		return Validation{}, errors.New("witness: no SMT solver")
	}
	if opts.Entry == "" {
		opts.Entry = c.Task.Entry
	}
	if opts.Entry == "" {
		opts.Entry = "main"
	}
	if opts.MaxPaths == 0 {
		opts.MaxPaths = 200000
	}
	if c.Program == nil || c.Program.Func(opts.Entry) == nil {
		return Validation{}, fmt.Errorf("witness: entry function %s has no body", opts.Entry)
	}
	if opts.Contents == nil {
		opts.Contents = c.Task.Contents
	}
	src := witness.NewSources(opts.Contents)
	c.Chosen = nil
	md := witness.YAMLMetadata{Producer: witness.YAMLProducer{Description: witness.Description(c.Property, c.K)},
		Task: witness.YAMLTask{Specification: witness.SpecFormula(c.Task.Specification)}}
	target, _, err := targetOf(md, opts.Properties)
	if err != nil {
		return Validation{}, err
	}
	locs := c.Locate(src)
	if len(locs) == 0 {
		return rejected("no loop invariant to choose"), nil
	}
	entryOf := func(texts []string, k int) []witness.YAMLCorrectnessEntry {
		md := md
		md.Producer.Description = witness.Description(c.Property, k)
		e := witness.YAMLCorrectnessEntry{EntryType: "invariant_set", Metadata: md}
		for i, l := range locs {
			e.Content = append(e.Content, witness.YAMLInvariantItem{Invariant: witness.YAMLInvariant{Type: l.Site.Type(),
				Location: l.Site.Location(),
				Value:    texts[i], Format: "c_expression"}})
		}
		return []witness.YAMLCorrectnessEntry{e}
	}
	if c.K > 1 {
		// A k-induction proof's invariants may be inductive on their
		// own (bmc proves test_locks_N with k = 1 where the loop body
		// resets every lock): a witness without a depth is validated
		// with one segment per path instead of 2^N per iteration.
		texts := make([]string, len(locs))
		for i, l := range locs {
			texts[i] = l.Text
		}
		if r, err := validateCorrectness(ctx, c.Program, src, entryOf(texts, 1), opts); err == nil && r.Confirmed {
			c.K = 1
			return r, nil
		}
	}
	var hs []houdiniSite
	for _, l := range locs {
		names := witness.Scope(c.Program, l.Inv.Loc.Func, l.Site)
		var cs []*candidate
		for _, t := range candidates(c.Program, l, names) {
			cs = append(cs, &candidate{text: t})
		}
		hs = append(hs, houdiniSite{loc: l.Site.Location(), cands: cs})
	}
	why := ""
	// Houdini and its survivors get half of the time left, so that the
	// bounded base case and the reached-set invariants below still run
	// where Houdini's candidates are many (a reached set of many states).
	hctx, hcancel := timeslice.Share(ctx, 2)
	defer hcancel()
	if err := runHoudini(hctx, c.Program, src, target, hs, opts); err != nil {
		why = "Houdini: " + err.Error()
	} else {
		texts := make([]string, len(locs))
		for i, h := range hs {
			var live []string
			for _, cd := range h.cands {
				if !cd.dead {
					live = append(live, conjunct(cd.text))
				}
			}
			texts[i] = "1"
			if len(live) > 0 {
				texts[i] = strings.Join(live, " && ")
			}
		}
		// Inductive survivors need no induction depth; else they may
		// still strengthen the proof's k-induction.
		ks := []int{1}
		if c.K > 1 {
			ks = append(ks, c.K)
		}
		var r Validation
		var err error
		for _, k := range ks {
			r, err = validateCorrectness(hctx, c.Program, src, entryOf(texts, k), opts)
			if err == nil && r.Confirmed {
				c.Chosen = map[cfa.Pos]string{}
				for i, l := range locs {
					c.Chosen[l.Site.Keyword] = texts[i]
				}
				c.K = k
				return r, nil
			}
		}
		why = "the inductive candidates do not imply the property: " + r.Reason
		if err != nil {
			why = err.Error()
		}
	}
	hcancel()
	texts := make([]string, len(locs))
	for i, l := range locs {
		texts[i] = l.Text
	}
	rctx, rcancel := timeslice.Share(ctx, 2)
	defer rcancel()
	r, err := validateCorrectness(rctx, c.Program, src, entryOf(texts, c.K), opts)
	rcancel()
	if err == nil && r.Confirmed {
		return r, nil
	}
	// Last, a base case that covers every execution: when the loops
	// are bounded, the paths from the start end before any depth, and
	// segments from the start may read memory that segments from an
	// invariant cannot (pointer dereferences). This confirms the value
	// analysis's proofs whose error paths were excluded by SMT checks
	// that the reached set does not record (SV-COMP's byte_add_1-1).
	// The invariants are "1", and the depth written is one more than
	// the most loop heads a path passed (at least 2, which skips the
	// step case). On a loop that runs without bound (a list built while
	// an input says so) this search never ends, so it gets at most
	// baseCaseShare of the time left: the base cases that end take
	// seconds at most (SV-COMP's byte_add_1-1: 0.17 s; afnp2014, 1,001
	// loop head visits: 0.8 s; input_read.c's read loops: 2.5 s).
	ones := make([]string, len(locs))
	for i := range ones {
		ones[i] = "1"
	}
	bctx, bcancel := baseCaseShare(ctx)
	defer bcancel()
	if e, err := validateCorrectness(bctx, c.Program, src, entryOf(ones, witness.MaxK), opts); err == nil && e.Confirmed && e.depth < witness.MaxK {
		c.Chosen = map[cfa.Pos]string{}
		for _, l := range locs {
			c.Chosen[l.Site.Keyword] = "1"
		}
		c.K = max(2, e.depth+1)
		return e, nil
	}
	if err != nil {
		return rejected("%s; reached-set invariants: %v", why, err), nil
	}
	r.Reason = why + "; reached-set invariants: " + r.Reason
	return r, nil
}

// baseCaseShare returns ctx bounded to the time Select's last try, a
// base case over every execution, may take: a quarter of the time ctx
// has left, at least minBaseCase (and at most all of it).
func baseCaseShare(ctx context.Context) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, max(minBaseCase, time.Until(d)/4))
}

// minBaseCase is the least time baseCaseShare gives: twice what the
// base cases of read's model loops take (input_read.c: 160 path
// segments in about 2.5 s on a loaded machine).
const minBaseCase = 5 * time.Second

// candidates returns the candidate conjuncts (C expressions over names)
// of the invariant at l's keyword, from two sources:
//
//   - the reached states at its loop heads: facts every state has; when
//     there are at most 64 states, every fact of one; for each integer
//     variable every state fixes, the bounds of the interval hull of its
//     values ("lo <= x", "x <= hi") and, with 2 to 8 values, their
//     disjunction; for two such variables the comparisons (<, <=, ==,
//     >=, >) that all states satisfy; the reached-set invariant itself
//     when it has at most maxDisjunctCandidate disjuncts ("0" for a loop head
//     no state reaches);
//   - the program: the comparisons in the conditions of the loop's
//     function and in the integer arguments of its calls (such as
//     __VERIFIER_assert(x >= 10)), negated, and < and > relaxed to <=
//     and >=; with at most maxPairAtoms of them, also the disjunctions of
//     two.
//
// Candidates are deduplicated and bounded by maxCandidates; those that do
// not hold or are not inductive die in Houdini.
func candidates(p *cfa.Program, l witness.Located, names map[string]*cfa.Var) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && t != "1" && !seen[t] && len(out) < maxCandidates {
			seen[t] = true
			out = append(out, t)
		}
	}
	inScope := func(e cfa.Expr) bool {
		ok := true
		cfa.Walk(e, func(x cfa.Expr) bool {
			switch x := x.(type) {
			case *cfa.VarRef:
				if names[x.Var.Orig] != x.Var {
					ok = false
				}
			case *cfa.Deref, *cfa.Index, *cfa.Member, *cfa.FuncRef:
				ok = false
			}
			return ok
		})
		return ok
	}
	var states [][]results.Fact
	for _, inv := range l.Invs {
		states = append(states, inv.States...)
	}
	if len(states) == 0 {
		return []string{"0"}
	}
	if n := strings.Count(l.Text, "||") + 1; n > 1 && n <= maxDisjunctCandidate {
		add(l.Text)
	}
	// Facts: shared ones, and all when there are few states.
	count := map[string]int{}
	var order []string
	type fixed struct {
		v    *cfa.Var
		vals []int64
	}
	fix := map[*cfa.Var]*fixed{}
	var fixOrder []*cfa.Var
	for i, st := range states {
		done := map[string]bool{}
		for _, f := range st {
			if !inScope(f.Expr) {
				continue
			}
			t, ok := witness.CExpr(f.Expr)
			if !ok || done[t] {
				continue
			}
			done[t] = true
			if count[t] == 0 {
				order = append(order, t)
			}
			count[t]++
			if b := witness.EqFact([]results.Fact{f}, t); b != nil {
				v := b.X.(*cfa.VarRef).Var
				if !v.T.IsInteger() || v.T.Kind == cfa.Bool || (!v.T.IsSigned() && b.Y.(*cfa.Const).V > 1<<62) {
					continue
				}
				x := int64(b.Y.(*cfa.Const).V)
				if v.T.IsSigned() {
					x = cfa.SignExtend(b.Y.(*cfa.Const).V, v.T.Width())
				}
				fx := fix[v]
				if fx == nil {
					if i > 0 {
						continue // not fixed in an earlier state
					}
					fx = &fixed{v: v}
					fix[v] = fx
					fixOrder = append(fixOrder, v)
				}
				if len(fx.vals) == i {
					fx.vals = append(fx.vals, x)
				}
			}
		}
	}
	for _, t := range order {
		if count[t] == len(states) || len(states) <= 64 {
			add(t)
		}
	}
	var vars []*fixed
	for _, v := range fixOrder {
		if fx := fix[v]; len(fx.vals) == len(states) {
			vars = append(vars, fx)
		}
	}
	lit := func(v *cfa.Var, x int64) string { return witness.CValue(v.T, uint64(x)) }
	for _, fx := range vars {
		lo, hi := fx.vals[0], fx.vals[0]
		distinct := map[int64]bool{}
		for _, x := range fx.vals {
			lo, hi = min(lo, x), max(hi, x)
			distinct[x] = true
		}
		name := fx.v.Orig
		if lo == hi {
			add(name + " == " + lit(fx.v, lo))
			continue
		}
		add(lit(fx.v, lo) + " <= " + name)
		add(name + " <= " + lit(fx.v, hi))
		if len(distinct) <= 8 {
			var vs []int64
			for x := range distinct {
				vs = append(vs, x)
			}
			sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
			var ds []string
			for _, x := range vs {
				ds = append(ds, name+" == "+lit(fx.v, x))
			}
			add(strings.Join(ds, " || "))
		}
	}
	for i, a := range vars {
		for _, b := range vars[i+1:] {
			if a.v.T.IsSigned() != b.v.T.IsSigned() {
				continue
			}
			lt, le, eq, ge, gt := true, true, true, true, true
			for k := range a.vals {
				x, y := a.vals[k], b.vals[k]
				lt, le, eq, ge, gt = lt && x < y, le && x <= y, eq && x == y, ge && x >= y, gt && x > y
			}
			for _, r := range []struct {
				ok bool
				op string
			}{{eq, "=="}, {lt, "<"}, {le, "<="}, {gt, ">"}, {ge, ">="}} {
				if r.ok {
					add(a.v.Orig + " " + r.op + " " + b.v.Orig)
				}
			}
		}
	}
	// Comparisons of the program.
	fn := l.Inv.Loc.Func
	var atoms []string
	atom := func(e cfa.Expr) {
		b, ok := e.(*cfa.Binary)
		if !ok || !inScope(e) {
			return
		}
		switch b.Op {
		case cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge, cfa.Eq, cfa.Ne:
		default:
			return
		}
		for _, x := range []*cfa.Binary{b, {Op: b.Op.Negate(), X: b.X, Y: b.Y, T: b.T}} {
			if t, ok := witness.CExpr(x); ok {
				add(t)
				atoms = append(atoms, t)
			}
			relax := map[cfa.BinaryOp]cfa.BinaryOp{cfa.Lt: cfa.Le, cfa.Gt: cfa.Ge}
			if op, ok := relax[x.Op]; ok {
				if t, ok := witness.CExpr(&cfa.Binary{Op: op, X: x.X, Y: x.Y, T: x.T}); ok {
					add(t)
					atoms = append(atoms, t)
				}
			}
		}
	}
	for _, e := range p.Edges {
		if e.From == nil || e.From.Func != fn {
			continue
		}
		switch op := e.Op.(type) {
		case *cfa.Assume:
			for _, x := range flatten(op.Cond, cfa.LAnd, nil) {
				for _, y := range flatten(x, cfa.LOr, nil) {
					atom(y)
				}
			}
		case *cfa.Call:
			for _, a := range op.Args {
				atom(a)
			}
		}
	}
	// Implications between two comparisons ("a || b"), for invariants
	// that relate a branch to a loop's progress (y % 2 != 0 || x % 2 ==
	// y % 2); only for few comparisons.
	if len(atoms) <= maxPairAtoms {
		for i, a := range atoms {
			for _, b := range atoms[i+1:] {
				if a != b {
					add(conjunct(a) + " || " + conjunct(b))
				}
			}
		}
	}
	return out
}

// maxPairAtoms bounds the program comparisons (with negations and
// relaxations) whose pairwise disjunctions become candidates.
const maxPairAtoms = 16

// conjunct parenthesises a candidate with a top-level || (or anything
// but a comparison chain of && alone) for use as an operand of &&.
func conjunct(t string) string {
	if strings.Contains(t, "||") {
		return "(" + t + ")"
	}
	return t
}

// runHoudini is houdini; tests replace it.
var runHoudini = houdini
