package cegar

import (
	"context"
	"fmt"
	"slices"

	"github.com/reverify/reverify/engine/analysis/smg"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/graph"
)

// Scope is the granularity of the precision a value refinement adds.
type Scope uint8

// Precision scopes (seed 001, section 3.8.4, and its discussion of
// precision scopes; value.Entry).
const (
	// LocationScope tracks a variable of an interpolant at the location
	// where the interpolant holds: "main::x@main:+8:[y < 0]" in the text
	// form, the location named by its statement (π: L → 2^X as in Beyer
	// & Löwe's Refine).
	LocationScope Scope = iota
	// FunctionScope tracks it in the whole function of that location:
	// "main::x@main". Coarser, fewer refinements for loops, but a
	// variable needed before a loop is then tracked inside it too.
	FunctionScope
	// AdaptiveScope starts at location scope and widens a variable to its
	// whole function once AdaptiveRefinements refinements have had to
	// add it at new locations of that function (ScopeWidener). A
	// variable that one or two refinements settle keeps the location
	// scope, whose proofs avoid loops that do not need it (seed 000's
	// running example); one that every refinement adds at yet another
	// location (a flag tested all over a loop body, as in the locks and
	// ECA tasks) stops costing a refinement per location and per stale
	// ARG subtree.
	AdaptiveScope
)

// AdaptiveRefinements is the number of refinements that add a variable
// at new locations of one function before AdaptiveScope tracks it in the
// whole function.
const AdaptiveRefinements = 3

var scopeNames = [...]string{"location", "function", "adaptive"}

// ScopeWidener applies a Scope to the entries a refinement adds: the
// zero value is LocationScope; NewScopeWidener(AdaptiveScope) counts the
// refinements per variable and function.
type ScopeWidener struct {
	scope Scope
	count map[[2]string]int
	// loopFree, when set, names the variables (value.Entry names)
	// that no edge inside a loop assigns: AdaptiveScope widens them at
	// once, since tracking them in the whole function unrolls no loop.
	loopFree map[string]bool
}

// WidenLoopFree makes AdaptiveScope widen the variables that no loop of
// prog assigns at their first refinement: tracking such a variable in
// its whole function unrolls no loop (seed 001, section 3.8.5, scores
// loop-assigned variables as expensive for the same reason), and it
// spares the refinements that would learn it location by location.
// symex-cegar uses it (SV-COMP ECA and ssh tasks, doc/perf/2026-11-25-reachsafety.md); value-cegar
// does not (not measured).
func (w *ScopeWidener) WidenLoopFree(prog *cfa.Program) {
	lv := loopVars(prog)
	w.loopFree = map[string]bool{}
	for _, v := range prog.Vars {
		if v != nil && !lv[v.ID] && !v.AddrTaken {
			w.loopFree[v.QualName()] = true
		}
	}
}

// NewScopeWidener returns the widener of scope.
func NewScopeWidener(scope Scope) *ScopeWidener {
	return &ScopeWidener{scope: scope, count: map[[2]string]int{}}
}

// Widen maps the entries of one refinement (location-scoped entries and
// function- or program-scoped ones) to those the scope adds: unchanged
// under LocationScope, all widened to their function under FunctionScope,
// and under AdaptiveScope widened for the variables that reached
// AdaptiveRefinements refinements (this one counted once per variable).
// has reports whether the current precision already holds an entry; only
// new entries count.
func (w *ScopeWidener) Widen(entries []value.Entry, has func(value.Entry) bool) []value.Entry {
	if w == nil || w.scope == LocationScope {
		return entries
	}
	widen := func(e value.Entry) value.Entry {
		e.Loc, e.At = -1, ""
		return e
	}
	out := make([]value.Entry, 0, len(entries))
	if w.scope == FunctionScope {
		for _, e := range entries {
			if e.Func != "" {
				e = widen(e)
			}
			out = append(out, e)
		}
		return out
	}
	bumped := map[[2]string]bool{}
	for _, e := range entries {
		if e.Func == "" || e.Loc < 0 && e.At == "" || has(e) {
			continue
		}
		k := [2]string{e.Func, e.Name}
		if !bumped[k] {
			bumped[k] = true
			w.count[k]++
		}
	}
	for _, e := range entries {
		if e.Func != "" && (w.count[[2]string{e.Func, e.Name}] >= AdaptiveRefinements || w.loopFree[e.Name]) {
			e = widen(e)
		}
		out = append(out, e)
	}
	return out
}

func (s Scope) String() string { return scopeNames[s] }

// ParseScope parses "location", "function" or "adaptive".
func ParseScope(s string) (Scope, error) {
	for i, n := range scopeNames {
		if s == n {
			return Scope(i), nil
		}
	}
	return 0, fmt.Errorf("unknown precision scope %q (want location, function or adaptive)", s)
}

// Selection chooses among the refinements of the infeasible sliced
// prefixes of one error path (seed 001, section 3.8.5).
type Selection uint8

// Selection heuristics.
const (
	// SelectScore prefers the refinement whose tracked variables have the
	// lowest domain-type score (a variable assigned inside a loop costs
	// LoopScore, any other 1), then the narrowest (fewest positions with
	// a non-empty interpolant), then the shortest prefix.
	SelectScore Selection = iota
	// SelectShortest takes the shortest infeasible prefix (the first
	// contradiction on the path), i.e. plain Beyer & Löwe interpolation.
	SelectShortest
)

// LoopScore is the domain-type score of a variable assigned inside a
// loop (a loop counter, likely): tracking it makes the analysis unroll.
const LoopScore = 100

// DefaultMaxPrefixes bounds the sliced prefixes interpolated per
// refinement when ValueOptions.MaxPrefixes is 0.
const DefaultMaxPrefixes = 8

// ValueOptions configure the value-interpolation refiner.
type ValueOptions struct {
	Scope     Scope
	Selection Selection
	// MaxPrefixes bounds the infeasible sliced prefixes extracted from
	// one path (0: DefaultMaxPrefixes).
	MaxPrefixes int
}

// ValueStats count the work of a ValueRefiner.
type ValueStats struct {
	Refinements int
	// ShapeRefinements counts the refinements of the list abstraction
	// (refineShape; also counted in Refinements).
	ShapeRefinements int
	Prefixes         int // infeasible sliced prefixes interpolated
	Transfers        int // value transfers computed by interpolation
	// Fallbacks counts prefixes whose relevance-restricted interpolants
	// did not refute them (a dependence the relevance analysis missed),
	// interpolated again without restriction.
	Fallbacks int
}

// ValueRefiner refines the precision of the explicit-value analysis by
// value interpolation (Beyer & Löwe, FASE 2013; seed 001, sections
// 3.8.3–3.8.5) over infeasible sliced prefixes. It is a Refiner for a
// composite with a component named "value" (a *value.CPA) whose
// precisions are *value.ScopedPrecision (nil: nothing tracked).
//
// A ValueRefiner accumulates what it learns: every precision it returns
// includes all earlier ones. It is not safe for concurrent use.
type ValueRefiner struct {
	prog *cfa.Program
	v    *value.CPA
	idx  int
	opts ValueOptions
	prec *value.ScopedPrecision
	// loopVars are the IDs of variables assigned inside a loop.
	loopVars map[int]bool
	widener  *ScopeWidener
	Stats    ValueStats
}

// NewValueRefiner returns the value-interpolation refiner for comp.
func NewValueRefiner(prog *cfa.Program, comp *cpa.Composite, opts ValueOptions) (*ValueRefiner, error) {
	idx := comp.Index("value")
	if idx < 0 {
		return nil, fmt.Errorf("cegar: %s has no value component", comp.Name())
	}
	v, ok := comp.Components()[idx].(*value.CPA)
	if !ok {
		return nil, fmt.Errorf("cegar: component value is a %T, not a *value.CPA", comp.Components()[idx])
	}
	_, p := v.Initial()
	var prec *value.ScopedPrecision
	switch p := p.(type) {
	case *value.ScopedPrecision:
		prec = p
	case nil:
	default:
		return nil, fmt.Errorf("cegar: value interpolation refines a *value.ScopedPrecision, not a %T", p)
	}
	if opts.MaxPrefixes <= 0 {
		opts.MaxPrefixes = DefaultMaxPrefixes
	}
	return &ValueRefiner{prog: prog, v: v, idx: idx, opts: opts, prec: prec, loopVars: loopVars(prog), widener: NewScopeWidener(opts.Scope)}, nil
}

// Precision returns the precision learnt so far.
func (r *ValueRefiner) Precision() *value.ScopedPrecision { return r.prec }

// PrintPrecision implements PrecisionPrinter: the value precision's
// entries in their stable text form (value.ScopedPrecision.Format:
// "main::y@main:+8:[y < 0]" tracks y at the location before the test
// y < 0, 8 lines into main).
func (r *ValueRefiner) PrintPrecision(p *cpa.CompositePrecision) []string {
	switch vp := p.Comps[r.idx].(type) {
	case *value.ScopedPrecision:
		return vp.Format(r.prog)
	case nil:
		return nil
	default:
		return []string{fmt.Sprint(vp)}
	}
}

// prefix is an infeasible sliced prefix (seed 001, Algorithm 5): the
// path up to and including step end, whose value post-condition is ⊥,
// with the earlier contradicting assumptions in sliced replaced by no-ops.
type prefix struct {
	end    int
	sliced map[int]bool
}

// candidate is the refinement of one prefix.
type candidate struct {
	prefix
	// itp[i] are the variables of the interpolant after step i (the
	// state at nodes[i+1]); heap[i] whether it holds non-variable cells.
	itp  [][]*cfa.Var
	heap []bool
	// fields[i] are the byte offsets of the heap fields the interpolant
	// after step i holds (value.HeapFieldName), when heap[i] is not set.
	fields       [][]int64
	pivot        int // index of the pivot node; -1: no progress
	score, width int
}

// Refine implements Refiner by value interpolation: it extracts the
// infeasible sliced prefixes of the path under the value analysis with
// full precision, interpolates each, selects one (ValueOptions.Selection)
// and adds the variables of its interpolants to the precision at the
// locations (or functions) where they hold. The pivot is the parent of
// the first node on the path whose location gains a variable.
func (r *ValueRefiner) Refine(ctx context.Context, nodes []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	if len(nodes) < 2 {
		return nil, nil, ErrNotRefutable
	}
	steps := make([]cfa.Step, len(nodes)-1)
	for i := 1; i < len(nodes); i++ {
		steps[i-1] = nodes[i].Parents[0].Step
	}
	prefixes, err := r.slicedPrefixes(ctx, nodes, steps)
	if err != nil {
		return nil, nil, err
	}
	if len(prefixes) == 0 {
		return r.refineShape(ctx, nodes, steps)
	}
	var best *candidate
	for _, p := range prefixes {
		c, err := r.interpolate(ctx, nodes, steps, p)
		if err != nil {
			return nil, nil, err
		}
		r.Stats.Prefixes++
		if c.pivot < 0 {
			continue
		}
		if best == nil || r.better(c, best) {
			best = c
		}
		if r.opts.Selection == SelectShortest {
			break
		}
	}
	if best == nil {
		return nil, nil, fmt.Errorf("%w: the interpolants add no variable that the path's precision does not track", ErrNoProgress)
	}
	var entries []value.Entry
	for i, vars := range best.itp {
		l := steps[i].Next()
		for _, v := range vars {
			entries = append(entries, r.entry(v.QualName(), l))
		}
		if best.heap[i] {
			entries = append(entries, r.entry(value.HeapName, l))
		} else {
			// A heap field is tracked everywhere, not where the
			// interpolant needs it: blocks flow between locations, and a
			// chain whose blocks forgot a field at different locations
			// (one knows its prev pointer, the next does not) has unequal
			// data cells, which the list abstraction never merges, so
			// such chains grew without bound (lists_nested.c).
			for _, off := range best.fields[i] {
				entries = append(entries, value.Entry{Name: value.HeapFieldName(off)})
			}
		}
	}
	if r.opts.Scope == AdaptiveScope {
		entries = r.widener.Widen(entries, func(e value.Entry) bool { return r.prec != nil && r.prec.Contains(e) })
	}
	r.prec = r.prec.With(entries...)
	r.Stats.Refinements++
	target := nodes[len(nodes)-1]
	cp := &cpa.CompositePrecision{Comps: slices.Clone(target.Prec.Comps)}
	cp.Comps[r.idx] = r.prec
	return cp, nodes[best.pivot], nil
}

func (r *ValueRefiner) entry(name string, l *cfa.Location) value.Entry {
	if r.opts.Scope == FunctionScope {
		return value.Entry{Name: name, Func: l.Func.Name, Loc: -1}
	}
	return value.Entry{Name: name, Func: l.Func.Name, Loc: l.Index}
}

// better reports whether a is a better refinement than b.
func (r *ValueRefiner) better(a, b *candidate) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	if a.width != b.width {
		return a.width < b.width
	}
	return a.end < b.end
}

// post is the value transfer with full precision along step (the
// strongest post-condition of seed 001, section 3.8.2), or nil for ⊥.
// Of two successors (malloc that may fail) it takes the one the ARG node
// took.
func (r *ValueRefiner) post(s *value.State, step cfa.Step, n *cpa.Node) *value.State {
	return r.postWith(s, step, n, value.FullValues{Shape: r.shapeOf(n)})
}

// shapeOf is the list abstraction under which the ARG computed n: that
// of its parent's value precision (nil: the default).
func (r *ValueRefiner) shapeOf(n *cpa.Node) smg.ShapePrecision {
	if n == nil {
		return nil
	}
	if len(n.Parents) > 0 && n.Parents[0].Parent != nil {
		n = n.Parents[0].Parent
	}
	if n.Prec == nil || r.idx >= len(n.Prec.Comps) {
		return nil
	}
	sp, _ := n.Prec.Comps[r.idx].(smg.ShapePrecision)
	return sp
}

// postWith is post under precision p (full values, some list
// abstraction).
func (r *ValueRefiner) postWith(s *value.State, step cfa.Step, n *cpa.Node, p value.FullValues) *value.State {
	r.Stats.Transfers++
	succ, err := r.v.Successors(nil, s, step, p)
	if err != nil || len(succ) == 0 {
		return nil
	}
	if len(succ) > 1 {
		if ns, ok := n.State.Comps[r.idx].(*value.State); ok {
			for _, x := range succ {
				if r.v.LessOrEqual(x, ns) {
					return x.(*value.State)
				}
			}
		}
	}
	return succ[0].(*value.State)
}

func (r *ValueRefiner) initial() *value.State {
	s, _ := r.v.Initial()
	return s.(*value.State)
}

func isAssume(s cfa.Step) bool {
	if s.Kind != cfa.Intra || s.Edge == nil {
		return false
	}
	_, ok := s.Edge.Op.(*cfa.Assume)
	return ok
}

// slicedPrefixes is ExtractSlicedPrefixes (seed 001, Algorithm 5): run
// the value analysis with full precision along the path; at each step
// whose post-condition is ⊥ record the prefix up to it, replace the step
// (an assumption) by a no-op, and go on. It returns at most MaxPrefixes
// prefixes, none if the value domain finds the path feasible.
func (r *ValueRefiner) slicedPrefixes(ctx context.Context, nodes []*cpa.Node, steps []cfa.Step) ([]prefix, error) {
	var out []prefix
	cur := r.initial()
	sliced := map[int]bool{}
	for i, st := range steps {
		if i&1023 == 1023 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		next := r.post(cur, st, nodes[i+1])
		if next != nil {
			cur = next
			continue
		}
		out = append(out, prefix{end: i, sliced: clonedSet(sliced)})
		if !isAssume(st) || len(out) >= r.opts.MaxPrefixes {
			break
		}
		sliced[i] = true
	}
	return out, nil
}

func clonedSet(m map[int]bool) map[int]bool {
	c := make(map[int]bool, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// interpolate is Refine of seed 001, Algorithm 4, on one prefix: the
// interpolant after step i is Interpolate(Γ_{i-1} ∧ op_i, op_{i+1..end})
// (Algorithm 3): the post-condition of the previous interpolant, from
// which assignments are dropped as long as the rest of the prefix stays
// infeasible under the value transfer.
//
// Dropping one variable at a time and re-running the suffix each time is
// quadratic in the path length, too slow for paths of thousands of
// steps (deep recursion, unrolled loops). So the assignments of the
// variables whose values cannot flow into the contradiction (backward
// relevance along the path, relevance.go) are dropped first, all at
// once, without a test: the suffix never reads them before overwriting
// them, or reads them only in assumptions that constrain nothing
// relevant, so it stays infeasible without them. The one-at-a-time test
// then runs on the remaining variables while its budget of transfers
// (trialBudget per prefix) lasts. The sequence is inductive by
// construction (each Γ_i is a restriction of the post-condition of
// Γ_{i-1}); the last post-condition is checked to be ⊥, and should the
// relevance analysis have missed a dependence, the prefix is
// interpolated again by the plain algorithm.
func (r *ValueRefiner) interpolate(ctx context.Context, nodes []*cpa.Node, steps []cfa.Step, p prefix) (*candidate, error) {
	ds := depths(steps[:p.end+1])
	rel := make([]relevant, p.end) // rel[i]: relevant after step i
	cur := reads(steps[p.end], ds[p.end])
	for i := p.end - 1; i >= 0; i-- {
		rel[i] = cur
		if !p.sliced[i] {
			cur = back(steps[i], ds[i], cur)
		}
	}
	c, ok, err := r.interpolateWith(ctx, nodes, steps, p, rel, trialBudget)
	if err != nil || ok {
		return c, err
	}
	r.Stats.Fallbacks++
	c, _, err = r.interpolateWith(ctx, nodes, steps, p, nil, -1)
	return c, err
}

// trialBudget bounds the transfers that the one-variable-at-a-time
// minimization may spend on one prefix.
const trialBudget = 200_000

// interpolateWith computes the interpolants of prefix p, restricting
// each to rel[i] first (rel nil: no restriction) and then minimizing it
// by trial within budget transfers (negative: no bound). ok reports
// whether the last interpolant contradicts the prefix's last step.
func (r *ValueRefiner) interpolateWith(ctx context.Context, nodes []*cpa.Node, steps []cfa.Step, p prefix, rel []relevant, budget int) (*candidate, bool, error) {
	c := &candidate{prefix: p, itp: make([][]*cfa.Var, p.end), heap: make([]bool, p.end), fields: make([][]int64, p.end), pivot: -1}
	n := 0
	var cancelled error
	// infeasible reports whether the prefix from step `from` is ⊥ from s.
	infeasible := func(s *value.State, from int) bool {
		for k := from; k <= p.end; k++ {
			if n++; n&4095 == 0 && ctx.Err() != nil {
				cancelled = ctx.Err()
				return true
			}
			if p.sliced[k] {
				continue
			}
			if s = r.post(s, steps[k], nodes[k+1]); s == nil {
				return true
			}
		}
		return false
	}
	start := r.Stats.Transfers
	gamma := r.initial()
	seen := map[int]bool{}
	heapSeen, contradicted := false, false
	for i := 0; i < p.end; i++ {
		if i&1023 == 1023 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		s := gamma
		if !p.sliced[i] {
			s = r.post(gamma, steps[i], nodes[i+1])
		}
		if s == nil {
			// Γ_{i-1} ∧ op_i is already contradictory (not for a monotone
			// transfer): the interpolants from here on are false.
			contradicted = true
			break
		}
		changed := s != gamma
		if rel != nil {
			s = restrict(s, rel[i])
		}
		if changed && (budget < 0 || r.Stats.Transfers-start < budget) {
			vars, heap := s.KnownVars()
			for _, v := range vars {
				if t := s.Forget(v); infeasible(t, i+1) {
					s = t
				}
			}
			if heap {
				if t := s.Forget(nil); infeasible(t, i+1) {
					s = t
				} else {
					// Heap value refinement by field (seed 001,
					// section 4.2.9; value/smg_refine.go).
					fields, _ := s.HeapCells()
					for _, off := range fields {
						if t := s.ForgetHeapField(off); infeasible(t, i+1) {
							s = t
						}
					}
				}
			}
			if cancelled != nil {
				return nil, false, cancelled
			}
		}
		gamma = s
		vars, heap := gamma.KnownVars()
		fields, other := gamma.HeapCells()
		c.itp[i], c.heap[i], c.fields[i] = vars, other, fields
		if len(vars) > 0 || heap {
			c.width++
		}
		l := steps[i].Next()
		prec, _ := nodes[i].Prec.Comps[r.idx].(value.Precision)
		for _, v := range vars {
			if !seen[v.ID] {
				seen[v.ID] = true
				c.score++
				if r.loopVars[v.ID] {
					c.score += LoopScore - 1
				}
			}
			if c.pivot < 0 && (prec == nil || !prec.Tracks(l, v)) {
				c.pivot = i
			}
		}
		if heap {
			if !heapSeen {
				heapSeen = true
				c.score++
			}
			if c.pivot < 0 && (prec == nil || !prec.Tracks(l, nil)) {
				if other {
					c.pivot = i
				}
				hf, _ := prec.(value.HeapFieldPrecision)
				for _, off := range fields {
					if hf == nil || !hf.TracksHeapField(l, off) {
						c.pivot = i
					}
				}
			}
		}
	}
	ok := contradicted || r.post(gamma, steps[p.end], nodes[p.end+1]) == nil
	return c, ok, nil
}

// restrict drops from s the assignments of the variables without a
// relevant instance in rel (in every frame: value.State.Forget works on
// variables).
func restrict(s *value.State, rel relevant) *value.State {
	vars, heap := s.KnownVars()
	ids := rel.ids()
	for _, v := range vars {
		if !ids[v.ID] && !(rel.mem && v.AddrTaken) {
			s = s.Forget(v)
		}
	}
	if heap && !rel.mem {
		s = s.Forget(nil)
	}
	return s
}

// loopVars returns the IDs of the variables assigned on an edge inside a
// loop (both ends in one strongly connected component of its function
// with a cycle): the loop counters that selection avoids tracking.
func loopVars(prog *cfa.Program) map[int]bool {
	out := map[int]bool{}
	for _, f := range prog.Funcs {
		comps := graph.SCCs(f)
		idx := graph.ComponentIndex(comps, f.Len())
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if e.To.Func != f || idx[e.From.Index] != idx[e.To.Index] {
					continue
				}
				if len(comps[idx[e.From.Index]]) == 1 && e.From != e.To {
					continue
				}
				if v := written(e.Op); v != nil {
					out[v.ID] = true
				}
			}
		}
	}
	return out
}

// written returns the variable an operation writes to, if it writes to
// a variable (through an array index or member, too).
func written(op cfa.Op) *cfa.Var {
	return cfa.BaseVar(cfa.Stored(op))
}
