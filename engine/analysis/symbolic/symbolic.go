package symbolic

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/analysis/symbolic/symval"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/ctxsolver"
)

// Options configure symbolic execution.
type Options struct {
	// Solver creates the one solver that checks path constraints during
	// a run (required; the engine passes Config.Solver).
	Solver smt.Factory
	// Precision is the initial precision; nil means FullPrecision().
	Precision *Precision
	// Value configures the memory model (MallocMayFail, MaxBlockBytes,
	// Memory); its Symbolic and Precision fields are ignored: symbolic
	// mode is engine/analysis/symbolic/symval's, with its defaults.
	Value value.Options
	// ImplicationStop lets stop also cover a state by one with the same
	// memory whose constraints are implied by the state's (one solver
	// call per such pair), besides the syntactic subset test.
	ImplicationStop bool
	// NoRenaming turns off the canonical renaming of symbols and the
	// removal of dead constraints at loop heads (see canonical), which
	// let stop compare states up to renaming.
	NoRenaming bool
}

// CPA is symbolic execution (seed 000, sections 2.3 and 2.6.6): the
// memory model of engine/analysis/value in symbolic mode plus path
// constraints checked by an SMT solver.
type CPA struct {
	prog *cfa.Program
	opts Options
	b    *smt.Builder
	val  *value.CPA

	mu    sync.Mutex            // guards everything below
	sol   ctxsolver.Solver      // the run's solver, under mu
	sat   map[string]smt.Result // feasibility of constraint sets, by key
	impl  map[string]bool       // implications checked by stop
	vars  map[*smt.Term][]*smt.Term
	stats Stats
}

// Stats count the solver work of a run.
type Stats struct {
	// Checks is the number of feasibility questions asked (after the
	// syntactic shortcuts), CacheHits how many the cache answered,
	// Solves how many went to the solver; Unsat and Unknown count the
	// answers (Unknown: the solver gave up and the branch was kept).
	Checks, CacheHits, Solves, Unsat, Unknown int
	// Implications counts solver calls of stop (ImplicationStop).
	Implications int
	// SolverTime is the time spent in the solver.
	SolverTime time.Duration
	// UnknownReason is the solver's last explanation of Unknown.
	UnknownReason string
}

// New returns symbolic execution for prog.
func New(prog *cfa.Program, opts Options) (*CPA, error) {
	if opts.Solver == nil {
		return nil, errors.New("symbolic: no SMT solver factory")
	}
	if opts.Precision == nil {
		opts.Precision = FullPrecision()
	}
	if opts.Precision.Vars == nil || opts.Precision.Constraints == nil {
		return nil, errors.New("symbolic: precision without Vars or Constraints")
	}
	b := smt.NewBuilder()
	vo := opts.Value
	vo.Symbolic = symval.New(prog, b, symval.Options{})
	vo.Precision = opts.Precision.Vars
	c := &CPA{
		prog: prog, opts: opts, b: b, val: value.New(prog, vo),
		sat: map[string]smt.Result{}, impl: map[string]bool{}, vars: map[*smt.Term][]*smt.Term{},
	}
	c.sol = ctxsolver.Solver{Mu: &c.mu, Factory: opts.Solver, B: b}
	return c, nil
}

// Name returns "symbolic".
func (c *CPA) Name() string { return "symbolic" }

// Builder returns the term builder of the analysis's values and
// constraints.
func (c *CPA) Builder() *smt.Builder { return c.b }

// Value returns the underlying memory model (the value analysis in
// symbolic mode).
func (c *CPA) Value() *value.CPA { return c.val }

// Stats returns the solver statistics so far.
func (c *CPA) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// UseContext sets the context that solver calls run under
// (cpa.ContextUser): cancelling it interrupts Z3, and once it is done the
// solver is released (Close), so a run's solver lives as long as the
// run's context.
func (c *CPA) UseContext(ctx context.Context) { c.sol.UseContext(ctx) }

// Close releases the solver; a later check creates a new one.
func (c *CPA) Close() { c.sol.Close() }

// State is a symbolic execution state (v, pc): the memory (a value
// analysis state whose integer values may be terms) and the path
// constraints, a set of Bool terms whose conjunction is satisfiable (or
// was not refuted: the solver may answer unknown). States are immutable.
type State struct {
	v  *value.State
	pc constraints
}

// Memory returns the memory part of s.
func (s *State) Memory() *value.State { return s.v }

// Constraints returns the path constraints of s, ordered by term ID. The
// result must not be modified.
func (s *State) Constraints() []Constraint { return s.pc }

// Explain returns the memory's reasons (cpa.Explainer).
func (s *State) Explain() []cpa.Explanation { return s.v.Explain() }

// IsTarget reports whether the memory part violates a memory-safety
// property (value.State.IsTarget; only with value.Options.Memory).
func (s *State) IsTarget() bool { return s.v.IsTarget() }

// Features returns the memory's features (cpa.Featured): stop requires
// equal memory, so they index coverage candidates.
func (s *State) Features(buf []uint64) []uint64 { return s.v.Features(buf) }

// String prints the memory and the constraints:
// "{x=$x#0, y=5} | (bvsgt x#0 #x00000064)".
func (s *State) String() string {
	if len(s.pc) == 0 {
		return s.v.String()
	}
	return s.v.String() + " | " + s.pc.String()
}

// Initial returns the empty state (no memory known, no constraints) and
// the configured precision.
func (c *CPA) Initial() (cpa.State, cpa.Precision) {
	v, _ := c.val.Initial()
	return &State{v: v.(*value.State)}, c.opts.Precision
}

// Successors computes the successors of s for step (seed 000, section
// 2.6.6, the transfer relation of SE): the memory transfer of the value
// analysis in symbolic mode, then each condition it assumed is added to
// the path constraints, and a successor whose constraints are
// unsatisfiable is dropped. An Unknown answer keeps the successor (and
// is counted in Stats); a cancelled solver call is returned as the error.
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, p cpa.Precision) ([]cpa.State, error) {
	st := s.(*State)
	prec, _ := p.(*Precision)
	if prec == nil {
		prec = c.opts.Precision
	}
	var buf [2]value.Succ
	for _, sc := range c.val.Transfer(buf[:0], st.v, step, prec.Vars) {
		pc := st.pc
		var added []*smt.Term
		for _, a := range sc.Assumed {
			if pc.has(a) || !prec.Constraints.TracksConstraint(step.Edge) {
				continue
			}
			pc = pc.with(Constraint{Term: a, Edge: step.Edge})
			added = append(added, a)
		}
		if len(added) > 0 {
			r, err := c.feasible(pc, added)
			if err != nil {
				return dst, err
			}
			if r == smt.Unsat {
				continue
			}
		}
		ns := st
		if sc.State != st.v || len(pc) != len(st.pc) {
			ns = &State{v: sc.State, pc: pc}
		}
		if !c.opts.NoRenaming && step.Next().LoopHead {
			c.mu.Lock()
			ns = c.canonical(ns)
			c.mu.Unlock()
		}
		dst = append(dst, ns)
	}
	return dst, nil
}

// LessOrEqual is the stop order (seed 000, section 2.6.6): a ⊑ b when
// b's memory is a's or less (every cell b knows, a knows with the same
// value: the same hash-consed term; frames and allocations equal) and
// b's constraints are a subset of a's, or, with ImplicationStop, are
// implied by a's. Then every assignment of symbols satisfying a's
// constraints satisfies b's and gives the same values to b's cells, so
// ⟦a⟧ ⊆ ⟦b⟧. Constraint sets are never compared by anything weaker.
func (c *CPA) LessOrEqual(a, b cpa.State) bool {
	x, y := a.(*State), b.(*State)
	if x == y {
		return true
	}
	if !c.val.LessOrEqual(x.v, y.v) {
		return false
	}
	if y.pc.subsetOf(x.pc) {
		return true
	}
	return c.opts.ImplicationStop && c.implies(x.pc, y.pc)
}

// feasible decides whether pc, which is the constraints of a feasible
// state plus added, is satisfiable. Only the constraints connected to
// added through shared symbols are asked (the rest was satisfiable and
// shares nothing with them), and answers are cached by that set.
func (c *CPA) feasible(pc constraints, added []*smt.Term) (smt.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range added {
		if pc.has(c.b.Not(a)) {
			c.stats.Unsat++
			return smt.Unsat, nil
		}
	}
	c.stats.Checks++
	comp := c.component(pc, added)
	key := keyOf(comp)
	if r, ok := c.sat[key]; ok {
		c.stats.CacheHits++
		if r == smt.Unsat {
			c.stats.Unsat++
		}
		return r, nil
	}
	r, err := c.solve(comp, nil)
	switch {
	case r == smt.Unknown && c.sol.Context().Err() != nil:
		return r, fmt.Errorf("symbolic: solver cancelled: %w", c.sol.Context().Err())
	case r == smt.Unknown:
		c.stats.Unknown++
		if err != nil {
			c.stats.UnknownReason = err.Error()
		}
	case r == smt.Unsat:
		c.stats.Unsat++
	}
	c.sat[key] = r
	return r, nil
}

// implies reports whether the conjunction of p implies that of q
// (ImplicationStop): p ∧ ¬(q \ p) is unsatisfiable. Unknown is false.
func (c *CPA) implies(p, q constraints) bool {
	var rest []*smt.Term
	for _, x := range q {
		if !p.has(x.Term) {
			rest = append(rest, x.Term)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := keyOf(p.terms()) + "|" + keyOf(rest)
	if r, ok := c.impl[key]; ok {
		return r
	}
	c.stats.Implications++
	r, _ := c.solve(p.terms(), c.b.Not(c.b.And(rest...)))
	c.impl[key] = r == smt.Unsat
	return r == smt.Unsat
}

// solve checks the conjunction of ts (and extra, when not nil) with the
// run's solver, under the run's context. c.mu is held.
func (c *CPA) solve(ts []*smt.Term, extra *smt.Term) (smt.Result, error) {
	c.stats.Solves++
	start := time.Now()
	r, err := c.sol.Check(ts, extra)
	c.stats.SolverTime += time.Since(start)
	return r, err
}

// component returns the terms of pc connected to added through shared
// symbols (added included), ordered by ID. c.mu is held.
func (c *CPA) component(pc constraints, added []*smt.Term) []*smt.Term {
	live := map[*smt.Term]bool{}
	for _, a := range added {
		for _, v := range c.varsOf(a) {
			live[v] = true
		}
	}
	in := make([]bool, len(pc))
	for _, a := range added {
		in[pc.find(a.ID)] = true // pc holds added
	}
	for changed := true; changed; {
		changed = false
		for i, x := range pc {
			if in[i] {
				continue
			}
			vs := c.varsOf(x.Term)
			hit := false
			for _, v := range vs {
				if live[v] {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			in[i], changed = true, true
			for _, v := range vs {
				live[v] = true
			}
		}
	}
	var out []*smt.Term
	for i, x := range pc {
		if in[i] {
			out = append(out, x.Term)
		}
	}
	return out
}

// varsOf returns the symbols of t in the order of smt.Vars (first
// occurrence, depth first), memoized for every subterm, so the symbols
// of a term that extends an earlier one (s + x in a loop) cost only its
// new nodes. c.mu is held.
func (c *CPA) varsOf(t *smt.Term) []*smt.Term {
	if vs, ok := c.vars[t]; ok {
		return vs
	}
	var vs []*smt.Term
	switch {
	case t.Op == smt.Var:
		vs = []*smt.Term{t}
	case len(t.Args) > 0:
		vs = c.varsOf(t.Args[0])
		for _, a := range t.Args[1:] {
			vs = union(vs, c.varsOf(a))
		}
	}
	c.vars[t] = vs
	return vs
}

// union returns xs followed by the elements of ys not in xs (xs itself
// when there are none; the result must not be modified).
func union(xs, ys []*smt.Term) []*smt.Term {
	var out []*smt.Term
	for _, y := range ys {
		dup := false
		for _, x := range xs {
			if x == y {
				dup = true
				break
			}
		}
		if !dup {
			if out == nil {
				out = append(make([]*smt.Term, 0, len(xs)+len(ys)), xs...)
			}
			out = append(out, y)
		}
	}
	if out == nil {
		return xs
	}
	return out
}

// keyOf identifies a set of terms sorted by ID.
func keyOf(ts []*smt.Term) string {
	buf := make([]byte, 0, 8*len(ts))
	for _, t := range ts {
		buf = strconv.AppendInt(buf, int64(t.ID), 36)
		buf = append(buf, ',')
	}
	return string(buf)
}

var (
	_ cpa.CPA         = (*CPA)(nil)
	_ cpa.ContextUser = (*CPA)(nil)
	_ cpa.Explainer   = (*State)(nil)
	_ cpa.Featured    = (*State)(nil)
)
