package kinduction

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/timeslice"
)

// Options configure Check.
type Options struct {
	// Entry is the entry function; required.
	Entry string
	// ErrorEdges are the Call edges whose execution violates the
	// property; Via, when not nil, restricts them to executions inside
	// that call (engine/spec.Property).
	ErrorEdges []*cfa.Edge
	Via        *cfa.Edge
	// Solver creates SMT solvers; required.
	Solver smt.Factory
	// Semantics is the variant of the C semantics (signed overflow).
	Semantics smt.EncodeOptions
	// MaxK is the largest k tried (0: 32).
	MaxK int
	// MaxPaths bounds the paths one run enumerates over all k (0:
	// 200,000); beyond it the answer is UNKNOWN. The invariant search
	// has a budget of its own of the same size (when it exhausts it, the
	// step goes on without invariants).
	MaxPaths int
	// NoInvariants disables the candidate-invariant strengthening of
	// the step case (for measuring it).
	NoInvariants bool
	// ProofInvariants asks, when a proof needed no invariants, for the
	// inductive candidates anyway (Result.Proved, for correctness
	// witnesses), searched after the proof within witnessPaths paths;
	// when the search fails or exceeds them, Proved stays empty.
	ProofInvariants bool
}

// witnessPaths bounds the paths of the invariant search that
// Options.ProofInvariants adds after a proof.
const witnessPaths = 20_000

// Status is the outcome of Check.
type Status uint8

// Outcomes.
const (
	Unknown Status = iota
	True
	False
)

func (s Status) String() string { return [...]string{"UNKNOWN", "TRUE", "FALSE"}[s] }

// Result is the outcome of Check.
type Result struct {
	Status Status
	// Reason names the evidence (TRUE, FALSE) or why there is none
	// (UNKNOWN), without the analysis's name (a portfolio prefixes its
	// arm's).
	Reason string
	// K is the k of the proof or counterexample (the last k tried for
	// UNKNOWN).
	K int
	// Path and Inputs are the counterexample of FALSE, confirmed by
	// engine/cexcheck.CheckPathOpts (bit-precise SMT and concrete replay).
	Path   []cfa.Step
	Inputs []smt.InputValue
	// Invariants are the candidate invariants proved inductive and
	// assumed in the step case, as C expressions per cut point
	// ("L3: x + y == n").
	Invariants []string
	// Proved holds the same invariants as cfa expressions, per cut
	// point (a loop head of the entry function), for correctness
	// witnesses; with Options.ProofInvariants and a proof that needed
	// none, the inductive candidates searched after the proof. Each
	// holds at every visit of its cut point by an execution that has
	// not reached an error edge yet; they need not imply the property
	// 1-inductively (the step case assumes the property at K earlier
	// iterations, not at the cut point).
	Proved map[*cfa.Location][]cfa.Expr
	// Paths is the number of paths enumerated.
	Paths int
}

// checker holds one Check's state.
type checker struct {
	prog   *cfa.Program
	entry  *cfa.Function
	opts   Options
	heads  map[*cfa.Location]bool
	order  []*cfa.Location   // cut points in location order
	read   map[*cfa.Var]bool // the variables some operation reads (readVars)
	errors map[*cfa.Edge]bool
	via    *cfa.Edge
	paths  int

	b      *smt.Builder
	solver smt.Solver
	flat   []*smt.Term // conjuncts asserted, in order
	levels []int       // len(flat) at each Push
	nextID int         // synthetic edge IDs (negative)
}

// Check decides whether an error edge of opts is reachable in prog by
// k-induction (see the package doc). It never returns TRUE outside the
// package's scope: those programs are UNKNOWN with the reason. Errors of
// the solver and cancellation of ctx are UNKNOWN with their reason too.
func Check(ctx context.Context, prog *cfa.Program, opts Options) (res Result) {
	if opts.MaxK == 0 {
		opts.MaxK = 32
	}
	if opts.MaxPaths == 0 {
		opts.MaxPaths = 200_000
	}
	entry := prog.Func(opts.Entry)
	if entry == nil {
		return unknown(0, "entry function %s has no body", opts.Entry)
	}
	c := &checker{prog: prog, entry: entry, opts: opts, heads: map[*cfa.Location]bool{},
		errors: map[*cfa.Edge]bool{}, via: opts.Via, b: smt.NewBuilder(), nextID: -1}
	for _, e := range opts.ErrorEdges {
		c.errors[e] = true
	}
	r, _, read := checkScope(prog, entry, c.errors)
	if r != "" {
		return unknown(0, "%s", r)
	}
	c.read = read
	for _, l := range entry.Locs {
		if l.LoopHead {
			c.heads[l] = true
			c.order = append(c.order, l)
		}
	}
	c.solver = opts.Solver(c.b)
	defer func() { c.solver.Close() }()
	defer func() { res.Paths = c.paths }()

	var inv map[*cfa.Location][]cfa.Expr
	var invErr error
	undecided := ""
	for k := 1; k <= opts.MaxK; k++ {
		if k == 2 {
			// k = 1 with the invariants decided nothing: 36 of its 38
			// proofs of 76 SV-COMP loop tasks come at k = 1 (one at
			// k = 2, one at k = 4), so a portfolio may give the time to
			// others (timeslice.Milestone)
			timeslice.Milestone(ctx)
		}
		base, err := c.base(ctx, k)
		if err != nil {
			return c.failed(k, err)
		}
		switch {
		case base.cex != nil:
			return Result{Status: False, K: k, Path: base.cex, Inputs: base.inputs,
				Reason: fmt.Sprintf("base case k=%d: error path confirmed by SMT and concrete replay", k)}
		case base.undecided != "":
			undecided = base.undecided
		case !base.bounded && undecided == "":
			return Result{Status: True, K: k, Reason: fmt.Sprintf("every execution visits at most %d loop heads and none reaches the error", k)}
		}
		if undecided != "" {
			// the base case is not established; deeper k cannot fix
			// that, but a deeper counterexample could still exist
			continue
		}
		// the plain step first (cheap), then strengthened by the
		// invariants, computed once when the plain step first fails
		ok, err := c.step(ctx, k, inv)
		if err != nil {
			return c.failed(k, err)
		}
		if !ok && inv == nil && invErr == nil && !opts.NoInvariants && len(c.order) > 0 {
			inv, invErr = c.invariants(ctx)
			switch {
			case invErr != nil && !errors.Is(invErr, errLimit):
				return c.failed(k, invErr)
			case invErr != nil:
				c.paths = 0 // the limit was the invariants'; the step goes on without them
			case c.anyInv(inv):
				if ok, err = c.step(ctx, k, inv); err != nil {
					return c.failed(k, err)
				}
			}
		}
		if ok {
			proved := inv
			if inv == nil && opts.ProofInvariants && !opts.NoInvariants && len(c.order) > 0 {
				proved = c.proofInvariants(ctx)
			}
			return Result{Status: True, K: k, Invariants: c.format(inv), Proved: proved,
				Reason: fmt.Sprintf("proved at k=%d%s", k, c.invNote(inv))}
		}
	}
	if undecided != "" {
		return unknown(opts.MaxK, "base case undecided: %s", undecided)
	}
	return unknown(opts.MaxK, "step case not inductive up to k=%d", opts.MaxK)
}

// proofInvariants runs the invariant search after a proof that needed
// none, within witnessPaths more paths; nil when it fails. The paths it
// enumerates are not counted in Result.Paths.
func (c *checker) proofInvariants(ctx context.Context) map[*cfa.Location][]cfa.Expr {
	paths, max := c.paths, c.opts.MaxPaths
	c.opts.MaxPaths = c.paths + witnessPaths
	defer func() { c.paths, c.opts.MaxPaths = paths, max }()
	inv, err := c.invariants(ctx)
	if err != nil {
		return nil
	}
	return inv
}

func unknown(k int, format string, args ...any) Result {
	return Result{Status: Unknown, K: k, Reason: fmt.Sprintf(format, args...)}
}

// failed turns a walk's error into UNKNOWN.
func (c *checker) failed(k int, err error) Result {
	var ee *smt.EncodeError
	switch {
	case errors.As(err, &ee):
		return unknown(k, "%v", err)
	case errors.Is(err, errLimit):
		return unknown(k, "%v at k=%d", err, k)
	}
	return unknown(k, "%v (at k=%d)", err, k)
}

func (c *checker) invNote(inv map[*cfa.Location][]cfa.Expr) string {
	n := 0
	for _, xs := range inv {
		n += len(xs)
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" with %d inductive invariant(s)", n)
}

func (c *checker) format(inv map[*cfa.Location][]cfa.Expr) []string {
	var out []string
	for _, h := range c.order {
		for _, x := range inv[h] {
			out = append(out, fmt.Sprintf("%s: %s", h, x))
		}
	}
	return out
}

// baseResult is the outcome of one base case.
type baseResult struct {
	cex       []cfa.Step
	inputs    []smt.InputValue
	bounded   bool   // a feasible path reached the (k+1)-th cut visit
	undecided string // an error path neither feasible nor infeasible
}

// base enumerates the paths from the program's start with at most k cut
// point visits; every error path is checked by cexcheck.CheckPathOpts.
func (c *checker) base(ctx context.Context, k int) (baseResult, error) {
	var r baseResult
	w := &walk{c: c, maxCuts: k}
	w.onError = func(path []cfa.Step, _ int) error {
		if r, err := c.feasible(ctx, path); err != nil || r == smt.Unsat {
			return err
		}
		ch := cexcheck.CheckPathOpts(ctx, c.prog, path, c.opts.Solver, c.opts.Semantics)
		switch ch.Status {
		case cexcheck.Feasible:
			r.cex, r.inputs = append([]cfa.Step(nil), path...), ch.Inputs
			return errStop
		case cexcheck.Undecided:
			if r.undecided == "" {
				r.undecided = ch.Reason
			}
		}
		return nil
	}
	w.onCut = func([]cfa.Step) error {
		r.bounded = true
		return nil
	}
	stack, loc := c.start()
	err := w.run(ctx, nil, stack, loc, 0, 0)
	if err == errStop {
		err = nil
	}
	return r, err
}

// start is the program's first frame and location (Init's entry, or the
// entry function's when Init has no edges; engine/analysis/location).
func (c *checker) start() ([]frame, *cfa.Location) {
	if len(c.prog.Init.Entry.Out) == 0 {
		return []frame{{fn: c.entry}}, c.entry.Entry
	}
	return []frame{{fn: c.prog.Init}}, c.prog.Init.Entry
}

// synthetic returns an edge at loc (loc to loc) that is not part of the
// program: a havoc of v, an assumption, or a no-op. Its negative ID marks
// it (walk.isStart).
func (c *checker) synthetic(loc *cfa.Location, op cfa.Op) *cfa.Edge {
	e := &cfa.Edge{ID: c.nextID, From: loc, To: loc, Op: op}
	c.nextID--
	return e
}

// arbitrary is the prefix of the step case: entering the entry function
// and havocking every global and every parameter and local of the entry
// function that some operation reads at cut point h, then assuming the
// invariants of h.
func (c *checker) arbitrary(h *cfa.Location, inv []cfa.Expr) []cfa.Step {
	path := []cfa.Step{{Kind: cfa.Enter, Callee: c.entry}}
	vars := append(append(append([]*cfa.Var{}, c.prog.Globals...), c.entry.Params...), c.entry.Locals...)
	if c.entry.RetVar != nil {
		vars = append(vars, c.entry.RetVar)
	}
	for _, v := range vars {
		if !c.read[v] {
			continue // its value reaches no operation
		}
		e := c.synthetic(h, &cfa.Havoc{LHS: &cfa.VarRef{Var: v}, Source: "k-induction"})
		path = append(path, cfa.Step{Edge: e})
	}
	for _, x := range inv {
		path = append(path, cfa.Step{Edge: c.synthetic(h, &cfa.Assume{Cond: x, Truth: true})})
	}
	return append(path, cfa.Step{Edge: c.synthetic(h, &cfa.Noop{Label: "k-induction start"})})
}

// step reports whether the step case for k holds at every cut point.
func (c *checker) step(ctx context.Context, k int, inv map[*cfa.Location][]cfa.Expr) (bool, error) {
	for _, h := range c.order {
		holds := true
		w := &walk{c: c, maxCuts: k + 1}
		w.onError = func(path []cfa.Step, cuts int) error {
			if cuts < k+1 {
				return nil // an earlier segment errs: excluded by the hypothesis
			}
			r, err := c.prove(ctx, path)
			if err != nil {
				return err
			}
			if r != smt.Unsat {
				holds = false
				return errStop
			}
			return nil
		}
		err := w.run(ctx, c.arbitrary(h, inv[h]), []frame{{fn: c.entry}}, h, 1, 0)
		if err != nil && err != errStop {
			return false, err
		}
		if !holds {
			return false, nil
		}
	}
	return true, nil
}

// prove decides path on the incremental solver and, when that does not
// answer Unsat within branchWork, on a one-shot solver (decide).
func (c *checker) prove(ctx context.Context, path []cfa.Step) (smt.Result, error) {
	r, err := c.feasible(ctx, path)
	if err != nil || r != smt.Unknown {
		return r, err
	}
	return c.decide(ctx, path)
}

// decide is feasible on a fresh one-shot solver over the formula with
// its SSA definitions substituted away (as smt.CheckPath solves it): Z3
// decides bit-vector arithmetic much faster outside incremental mode, so
// the step case's and the invariants' proof obligations go here, the
// many small branch checks to the incremental solver.
func (c *checker) decide(ctx context.Context, path []cfa.Step) (smt.Result, error) {
	pf, err := smt.EncodePathOpts(c.b, c.prog, path, c.opts.Semantics)
	if err != nil {
		return smt.Unknown, err
	}
	conj, _ := pf.Inline(c.b)
	s := c.opts.Solver(c.b)
	defer s.Close()
	for _, t := range conj {
		s.Assert(t)
	}
	r, err := s.Check(ctx)
	if r == smt.Unknown && ctx.Err() != nil {
		return r, ctx.Err()
	}
	return r, nil
}

// feasible decides the conjuncts of path's encoding on the incremental
// solver: Unsat proves the path infeasible whatever values undefined
// operations produce; Sat and Unknown are not distinguished by callers
// that need a proof.
func (c *checker) feasible(ctx context.Context, path []cfa.Step) (smt.Result, error) {
	pf, err := smt.EncodePathOpts(c.b, c.prog, path, c.opts.Semantics)
	if err != nil {
		return smt.Unknown, err
	}
	conj := pf.Conjuncts
	common := 0
	for common < len(c.flat) && common < len(conj) && c.flat[common] == conj[common] {
		common++
	}
	for len(c.levels) > 0 && len(c.flat) > common {
		c.solver.Pop()
		c.flat = c.flat[:c.levels[len(c.levels)-1]]
		c.levels = c.levels[:len(c.levels)-1]
	}
	if len(conj) > len(c.flat) {
		c.levels = append(c.levels, len(c.flat))
		c.solver.Push()
		for _, t := range conj[len(c.flat):] {
			c.solver.Assert(t)
			c.flat = append(c.flat, t)
		}
	}
	// Z3's incremental core is slow on some bit-vector arithmetic: a
	// branch check that takes more than branchWork is Unknown, and the
	// walk explores the branch (sound; decide settles what matters).
	r, err := smt.CheckBounded(ctx, c.solver, branchWork, branchBackstop)
	if r == smt.Unknown && ctx.Err() != nil {
		return r, ctx.Err()
	}
	if err != nil && !errors.Is(err, smt.ErrWorkLimit) {
		// An interrupted or failed incremental solver is not trusted
		// again (smt/z3: an interrupt can outlive its check and make a
		// later Pop fail, leaving stale assertions that answer Unsat
		// wrongly): start a fresh one; the next check re-asserts the
		// path. One stopped by its work bound stopped by itself and
		// keeps its stack (smt.ErrWorkLimit, TestCheckWork).
		c.solver.Close()
		c.solver = c.opts.Solver(c.b)
		c.flat, c.levels = nil, nil
	}
	return r, nil
}

// branchWork bounds one incremental branch check in Z3's resource units
// (smt.WorkLimiter): about 20 ms of CPU time on hard bit-vector
// arithmetic, and the same checks give up on a loaded machine as on an
// idle one. A bound in wall time gave up on more checks under load, each
// costing a new Z3 context and an exploration of its branch: `default`
// spent 10.5 s instead of 1.1 s of CPU time on SV-COMP's heapsort beside
// two other runs on two cores (doc/perf/2026-12-04-work-limits.md).
// branchBackstop bounds it in wall time, for what the resource units
// do not count (Z3's preprocessing of a large term).
const (
	branchWork     = 120_000
	branchBackstop = 200 * time.Millisecond
)
