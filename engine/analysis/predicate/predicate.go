package predicate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/analysis/symbolic/symval"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/ctxsolver"
)

// Options configure the predicate analysis.
type Options struct {
	// Solver creates the one solver of a run (required; the engine
	// passes Config.Solver).
	Solver smt.Factory
	// Precision is the initial precision; nil means no predicates.
	Precision *Precision
	// Value configures the memory model (MallocMayFail, MaxBlockBytes,
	// Memory); its Symbolic and Precision fields are ignored: symbolic
	// mode is engine/analysis/symbolic/symval's, with its defaults.
	Value value.Options
	// Cartesian selects the Cartesian abstraction (the conjunction of
	// the implied predicate literals) instead of the Boolean one (the
	// disjunction of all satisfiable predicate minterms).
	Cartesian bool
	// MaxMinterms bounds the minterms of a Boolean abstraction; beyond
	// it (or when the solver gives up) the abstraction falls back to the
	// Cartesian one, which is coarser and therefore sound. 0 means
	// DefaultMaxMinterms.
	MaxMinterms int
}

// DefaultMaxMinterms is Options.MaxMinterms when it is 0.
const DefaultMaxMinterms = 16

// CPA is predicate abstraction with adjustable-block encoding (see the
// package documentation).
type CPA struct {
	prog *cfa.Program
	opts Options
	b    *smt.Builder
	val  *value.CPA
	// vars maps the name of a predicate variable ("main::x") to the
	// program variable.
	vars map[string]*cfa.Var

	mu    sync.Mutex       // guards everything below
	sol   ctxsolver.Solver // the run's solver, under mu
	stats Stats
}

// Stats count the solver work of a run.
type Stats struct {
	// Checks counts feasibility checks of block formulas, Abstractions
	// the abstraction computations, Implications the solver calls they
	// made (two per predicate at most: p and ¬p), Unknown the answers
	// the solver gave up on (treated as satisfiable or not implied).
	Checks, Abstractions, Implications, Unknown int
	// SolverTime is the time spent in the solver.
	SolverTime time.Duration
}

// New returns the predicate analysis for prog.
func New(prog *cfa.Program, opts Options) (*CPA, error) {
	if opts.Solver == nil {
		return nil, errors.New("predicate: no SMT solver factory")
	}
	if opts.Precision == nil {
		opts.Precision = &Precision{}
	}
	b := smt.NewBuilder()
	vo := opts.Value
	vo.Symbolic = symval.New(prog, b, symval.Options{})
	vo.Precision = nil
	vars := map[string]*cfa.Var{}
	for _, v := range prog.Vars {
		vars[v.QualName()] = v
	}
	c := &CPA{prog: prog, opts: opts, b: b, val: value.New(prog, vo), vars: vars}
	c.sol = ctxsolver.Solver{Mu: &c.mu, Factory: opts.Solver, B: b}
	return c, nil
}

// Name returns "predicate".
func (c *CPA) Name() string { return "predicate" }

// Builder returns the term builder of the analysis's terms and
// predicates.
func (c *CPA) Builder() *smt.Builder { return c.b }

// Program returns the analysed program.
func (c *CPA) Program() *cfa.Program { return c.prog }

// Stats returns the solver statistics so far.
func (c *CPA) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// UseContext sets the context of the solver calls (cpa.ContextUser):
// cancelling it interrupts Z3; once it is done the solver is closed.
func (c *CPA) UseContext(ctx context.Context) { c.sol.UseContext(ctx) }

// Close releases the solver; a later check creates a new one.
func (c *CPA) Close() { c.sol.Close() }

// State is an abstract state: the memory of engine/analysis/value in
// symbolic mode (values are terms over the symbols of the current block)
// and the block formula pc, a set of Bool terms over those symbols. At
// an abstraction location, pc is the abstraction: the predicate literals
// (p or ¬p) that held, instantiated with the symbols that the memory
// holds for their variables, and the memory holds no integer but those
// symbols. States are immutable.
type State struct {
	v   *value.State
	pc  []*smt.Term // sorted by ID, no duplicates
	abs bool
}

// Memory returns the memory part of s.
func (s *State) Memory() *value.State { return s.v }

// Formula returns the block formula (the abstraction at an abstraction
// location), ordered by term ID. The result must not be modified.
func (s *State) Formula() []*smt.Term { return s.pc }

// Abstraction reports whether s is an abstraction state (the state at a
// block boundary).
func (s *State) Abstraction() bool { return s.abs }

// Explain returns the memory's reasons (cpa.Explainer).
func (s *State) Explain() []cpa.Explanation { return s.v.Explain() }

// String prints the memory and the block formula.
func (s *State) String() string {
	var b strings.Builder
	if s.abs {
		b.WriteString("abs ")
	}
	b.WriteString(s.v.String())
	for i, t := range s.pc {
		if i == 0 {
			b.WriteString(" | ")
		} else {
			b.WriteString(" ∧ ")
		}
		b.WriteString(t.String())
	}
	return b.String()
}

// Initial returns the empty state and the configured precision.
func (c *CPA) Initial() (cpa.State, cpa.Precision) {
	v, _ := c.val.Initial()
	return &State{v: v.(*value.State)}, c.opts.Precision
}

// LessOrEqual is coverage by implication: a ⊑ b when b's memory is less
// precise than a's (value analysis order: every cell b knows, a knows
// with the same value or term) and a's formula implies b's: every
// conjunct of b's is one of a's, or, for two abstraction states, the
// solver refutes a ∧ ¬b (Unknown is no). Then every assignment of the
// symbols satisfying a's formula satisfies b's and gives the cells of b
// their values in a, so ⟦a⟧ ⊆ ⟦b⟧. Abstraction states name their
// symbols after the variables in a fixed order, so states with the same
// predicates hold the same terms.
func (c *CPA) LessOrEqual(a, b cpa.State) bool {
	x, y := a.(*State), b.(*State)
	if x == y {
		return true
	}
	if !c.val.LessOrEqual(x.v, y.v) {
		return false
	}
	if subset(y.pc, x.pc) {
		return true
	}
	if !x.abs || !y.abs {
		return false
	}
	r, err := c.check(x.pc, c.b.Not(c.b.And(y.pc...)))
	return err == nil && r == smt.Unsat
}

// subset reports whether every term of a (sorted by ID) is in b (sorted).
func subset(a, b []*smt.Term) bool {
	i := 0
	for _, t := range a {
		for i < len(b) && b[i].ID < t.ID {
			i++
		}
		if i == len(b) || b[i] != t {
			return false
		}
	}
	return true
}

// with returns pc with t added (sorted by ID), and whether it was new.
func with(pc []*smt.Term, t *smt.Term) ([]*smt.Term, bool) {
	i := sort.Search(len(pc), func(i int) bool { return pc[i].ID >= t.ID })
	if i < len(pc) && pc[i] == t {
		return pc, false
	}
	return slices.Insert(slices.Clone(pc), i, t), true
}

// Successors computes the successors of s for step: the memory transfer
// of the value analysis in symbolic mode, the conditions it assumed
// conjoined to the block formula (a successor whose block formula is
// unsatisfiable is dropped; Unknown keeps it), and, when the step leads
// to an abstraction location (a loop head), the abstraction of the
// result under the predicates the precision gives that location.
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, p cpa.Precision) ([]cpa.State, error) {
	st := s.(*State)
	prec, _ := p.(*Precision)
	if prec == nil {
		prec = c.opts.Precision
	}
	var buf [2]value.Succ
	for _, sc := range c.val.Transfer(buf[:0], st.v, step, nil) {
		pc, added := st.pc, false
		for _, a := range sc.Assumed {
			var n bool
			pc, n = with(pc, a)
			added = added || n
		}
		if added {
			r, err := c.check(pc, nil)
			if err != nil {
				return dst, err
			}
			if r == smt.Unsat {
				continue
			}
		}
		ns := &State{v: sc.State, pc: pc}
		if loc := step.Next(); IsAbstractionLocation(loc) {
			var err error
			if ns, err = c.abstract(ns, loc, prec); err != nil {
				return dst, err
			}
		}
		dst = append(dst, ns)
	}
	return dst, nil
}

// IsAbstractionLocation reports whether the analysis abstracts at l: the
// loop heads (adjustable-block encoding with blocks ending at loop heads,
// seed 004, section 2; every cycle of a CFA passes a loop head, so
// blocks are loop-free).
func IsAbstractionLocation(l *cfa.Location) bool { return l.LoopHead }

// check decides the conjunction of pc and extra. A cancelled solver call
// is returned as the error; Unknown otherwise.
func (c *CPA) check(pc []*smt.Term, extra *smt.Term) (smt.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range pc {
		if t.Op == smt.False {
			return smt.Unsat, nil
		}
	}
	if extra == nil {
		c.stats.Checks++
	} else {
		c.stats.Implications++
	}
	start := time.Now()
	r, _ := c.sol.Check(pc, extra)
	c.stats.SolverTime += time.Since(start)
	if r == smt.Unknown {
		if err := c.sol.Context().Err(); err != nil {
			return r, fmt.Errorf("predicate: solver cancelled: %w", err)
		}
		c.stats.Unknown++
	}
	return r, nil
}

// abstract computes the Cartesian predicate abstraction of s at loc: for
// each predicate p of the precision at loc, instantiated with the terms
// s holds for its variables, it asks whether the block formula implies p
// or ¬p; the result forgets every integer of the memory (addresses
// stay), gives the predicates' variables fresh symbols named after them
// (in variable order), and has the implied literals, instantiated with
// those symbols, as its formula.
func (c *CPA) abstract(s *State, loc *cfa.Location, prec *Precision) (*State, error) {
	c.mu.Lock()
	c.stats.Abstractions++
	c.mu.Unlock()
	preds := prec.At(loc)
	vars := c.predVars(preds)
	old := make(map[*smt.Term]*smt.Term, len(vars))
	v := s.v
	for _, pv := range vars {
		var t *smt.Term
		var ok bool
		if v, t, ok = v.Materialize(c.vars[pv.Name]); ok && t.Sort == pv.Sort {
			old[pv] = t
		}
	}
	nv := s.v.ForgetIntegers(0)
	cur := make(map[*smt.Term]*smt.Term, len(vars))
	for _, pv := range vars {
		var t *smt.Term
		var ok bool
		if nv, t, ok = nv.Materialize(c.vars[pv.Name]); ok && t.Sort == pv.Sort {
			cur[pv] = t
		}
	}
	var pos, pns []*smt.Term
	for _, p := range preds {
		if !covers(p, old) || !covers(p, cur) {
			continue
		}
		pos = append(pos, smt.Substitute(c.b, p, old))
		pns = append(pns, smt.Substitute(c.b, p, cur))
	}
	if !c.opts.Cartesian && len(pos) > 0 {
		f, ok, err := c.boolean(s.pc, pos, pns)
		if err != nil {
			return nil, err
		}
		if ok {
			var pc []*smt.Term
			if f.Op != smt.True {
				pc = []*smt.Term{f}
			}
			return &State{v: nv, pc: pc, abs: true}, nil
		}
	}
	var lits []*smt.Term
	for i, po := range pos {
		pn := pns[i]
		for _, lit := range [2][2]*smt.Term{{po, pn}, {c.b.Not(po), c.b.Not(pn)}} {
			r, err := c.check(s.pc, c.b.Not(lit[0]))
			if err != nil {
				return nil, err
			}
			if r == smt.Unsat {
				lits, _ = with(lits, lit[1])
				break
			}
		}
	}
	return &State{v: nv, pc: lits, abs: true}, nil
}

// boolean computes the Boolean predicate abstraction of the block
// formula pc: the disjunction, over the assignments of truth values to
// the instantiated predicates pos that are satisfiable together with pc
// (enumerated by the solver with blocking clauses), of the minterms over
// the predicates pns. ok is false when there are more than MaxMinterms
// of them or the solver gave up.
func (c *CPA) boolean(pc, pos, pns []*smt.Term) (f *smt.Term, ok bool, err error) {
	max := c.opts.MaxMinterms
	if max <= 0 {
		max = DefaultMaxMinterms
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	solver, ctx := c.sol.Solver(), c.sol.Context()
	start := time.Now()
	defer func() { c.stats.SolverTime += time.Since(start) }()
	solver.Push()
	defer solver.Pop()
	for _, t := range pc {
		solver.Assert(t)
	}
	var minterms []*smt.Term
	for {
		c.stats.Implications++
		r, _ := solver.Check(ctx)
		switch r {
		case smt.Unsat:
			return c.b.Or(minterms...), true, nil
		case smt.Unknown:
			if err := ctx.Err(); err != nil {
				return nil, false, fmt.Errorf("predicate: solver cancelled: %w", err)
			}
			c.stats.Unknown++
			return nil, false, nil
		}
		if len(minterms) == max {
			return nil, false, nil
		}
		m := solver.Model()
		olds := make([]*smt.Term, len(pos))
		news := make([]*smt.Term, len(pos))
		for i, po := range pos {
			if lo, _ := m.Eval(po); lo != 0 {
				olds[i], news[i] = po, pns[i]
			} else {
				olds[i], news[i] = c.b.Not(po), c.b.Not(pns[i])
			}
		}
		minterms = append(minterms, c.b.And(news...))
		solver.Assert(c.b.Not(c.b.And(olds...)))
	}
}

// covers reports whether m maps every variable of p.
func covers(p *smt.Term, m map[*smt.Term]*smt.Term) bool {
	for _, v := range smt.Vars(p) {
		if m[v] == nil {
			return false
		}
	}
	return true
}

// predVars returns the predicate variables of preds that name program
// variables, ordered by variable ID.
func (c *CPA) predVars(preds []*smt.Term) []*smt.Term {
	vs := smt.Vars(preds...)
	out := vs[:0:0]
	for _, v := range vs {
		if c.vars[v.Name] != nil {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return c.vars[out[i].Name].ID < c.vars[out[j].Name].ID })
	return out
}
