package cegar

import (
	"github.com/reverify/reverify/results"

	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/timeslice"
)

// Refiner computes a more precise abstraction that excludes an error path
// its domain can prove infeasible (seed 001, Algorithm 2, line 15:
// π := π ∪ Refine(σ)). The loop asks it before the bit-precise check, so
// the path may also be feasible: Refine must then fail with
// ErrNotRefutable.
//
// path holds the ARG nodes from the root to the target (Node.PathNodes),
// arg the graph they belong to. Refine returns the composite precision to
// re-explore with and the pivot: the node of path whose successors must
// be recomputed under that precision (the last node whose own state the
// refinement leaves unchanged). With RestartRoot the loop re-explores
// from the root with the precision instead.
//
// Refine returns an error wrapping ErrNotRefutable when its abstract
// domain cannot prove the path infeasible (the loop then checks it
// bit-precisely: feasible is Unsafe, infeasible is excluded), and one
// wrapping ErrNoProgress when the new precision would not change any
// state on the path (the loop then gives up with UNKNOWN). Any other
// error ends the loop with UNKNOWN.
type Refiner interface {
	Refine(ctx context.Context, path []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error)
}

// PrecisionPrinter is an optional capability of a Refiner: the stable
// text form of the part of a composite precision it refines, one entry
// per string, sorted (for Result.Precision and results.json).
type PrecisionPrinter interface {
	PrintPrecision(p *cpa.CompositePrecision) []string
}

// Sentinel errors of Refiner.Refine.
var (
	ErrNotRefutable = errors.New("the abstract domain cannot refute the error path")
	ErrNoProgress   = errors.New("refinement made no progress")
)

// Restart says where exploration resumes after a refinement.
type Restart uint8

// Restart strategies.
const (
	// RestartPivot removes the subtrees below the refiner's pivot node and
	// re-expands the pivot with the new precision; the rest of the ARG
	// (with its older precisions) is kept.
	RestartPivot Restart = iota
	// RestartRoot discards the ARG and starts a new run from the initial
	// state with the new precision (seed 001, Algorithm 2, lines 16–17).
	RestartRoot
	// RestartPivotFrontier is RestartPivot that also gives the new
	// precision to every state on the waitlist.
	RestartPivotFrontier
)

var restartNames = [...]string{"pivot", "root", "pivot+frontier"}

func (r Restart) String() string { return restartNames[r] }

// DefaultMaxRefinements is the refinement limit when
// Options.MaxRefinements is 0.
const DefaultMaxRefinements = 5000

// Options configure Run.
type Options struct {
	// Algorithm configures each CPA algorithm run (order, merge, state
	// limit; the state limit bounds the states of one run).
	Algorithm cpa.Options
	// Solver creates the SMT solvers of the counterexample check;
	// required.
	Solver smt.Factory
	// Refiner refines the precision of spurious error paths; nil means no
	// refinement: each infeasible error path is excluded (its target
	// removed) and the run continues, which is the plain analysis with
	// counterexample checks.
	Refiner Refiner
	// MaxRefinements bounds the number of refinements (0:
	// DefaultMaxRefinements).
	MaxRefinements int
	// Restart selects where exploration resumes after a refinement.
	Restart Restart
	// CheckFirst checks every error path bit-precisely before refining
	// (a cross-check of the refiner: a path the SMT check and replay
	// confirm is Unsafe even if the refiner could refute it). By
	// default the refiner goes first and only the paths it cannot refute
	// are checked: its refutation is sound, and SMT checks of long paths
	// are expensive.
	CheckFirst bool
	// Semantics selects the C semantics of the counterexample check
	// (smt.EncodeOptions: AssumeNoSignedOverflow makes a path on which a
	// signed operation must overflow infeasible). The analyses
	// themselves wrap around, which over-approximates that semantics.
	Semantics smt.EncodeOptions
	// Cache, when not nil, answers counterexample checks that an earlier
	// run of the same verification call made on the same path
	// (cexcheck.CheckCache); nil: each run checks on its own (Run still
	// keeps the checks of its restarts).
	Cache *cexcheck.CheckCache
	// Logf, when not nil, receives one line per event of the loop
	// (checks, refinements, exclusions, restarts), for debugging.
	Logf func(format string, args ...any)
}

// Status is the outcome of Run.
type Status uint8

// Outcomes of Run.
const (
	// Safe: the CPA algorithm reached a fixed point without a target
	// state that was not refuted; the verdict is subject to the
	// Explanations of the last run.
	Safe Status = iota
	// Unsafe: Target's error path is feasible (cexcheck.CheckPath), with
	// Inputs.
	Unsafe
	// Incomplete: the CPA algorithm stopped early (state limit,
	// cancellation, a truncated path): Reason is the algorithm's.
	Incomplete
	// Unknown: the loop gave up (counterexample check undecided,
	// refinement limit, no progress, a refiner failure): Reason says why.
	Unknown
)

var statusNames = [...]string{"safe", "unsafe", "incomplete", "unknown"}

func (s Status) String() string { return statusNames[s] }

// Stats are the counters of one Run.
type Stats struct {
	Runs        int // CPA algorithm runs started (1 + root restarts)
	Refinements int
	// Excluded counts infeasible error paths removed from the ARG without
	// refinement: no refiner, or one that could not refute the path.
	Excluded int
	// NotRefutable counts paths the refiner could not refute although the
	// SMT check proved them infeasible (each is also Excluded).
	NotRefutable int
	Checks       int           // counterexample checks (SMT and replay)
	CachedChecks int           // checks answered by Options.Cache
	CheckTime    time.Duration // time in cexcheck.CheckPath
	RefineTime   time.Duration // time in Refiner.Refine
}

// Result is the outcome of Run.
type Result struct {
	Status Status
	Reason string
	// Limit is the limit that ended an Incomplete or Unknown run:
	// results.CauseStates (the CPA algorithm's state limit) or
	// results.CauseRefinements; "" for any other end (cancellation is
	// the caller's context's to tell).
	Limit results.CauseKind
	// UB, with Limit results.CauseUndefined, is the undefined operation
	// that the only error path found needs.
	UB *smt.UBCond
	// Target and Path are the error path of Unsafe; Inputs its inputs.
	Target *cpa.Node
	Path   []cfa.Step
	Inputs []smt.InputValue
	// Algorithm is the last run's CPA algorithm: its ARG, Explanations
	// and Stats.
	Algorithm *cpa.Algorithm
	// States is the number of reached states summed over all runs.
	States int
	// Precision is the latest precision: the initial one, or the one the
	// last refinement returned.
	Precision *cpa.CompositePrecision
	Stats     Stats
}

// undefined records that the run ended on an error path feasible only
// with undefined behaviour (ub; nil: another reason).
func (r *Result) undefined(ub *smt.UBCond) {
	if ub != nil {
		r.Limit, r.UB = results.CauseUndefined, ub
	}
}

// PrecisionText returns the stable text form of r.Precision through the
// refiner's PrecisionPrinter (nil when it has none).
func (r *Result) PrecisionText(ref Refiner) []string {
	if pp, ok := ref.(PrecisionPrinter); ok && r.Precision != nil {
		return pp.PrintPrecision(r.Precision)
	}
	return nil
}

// Run is the CEGAR loop (seed 001, Algorithm 2; seed 000, section 2.5)
// around the CPA algorithm over comp: run until a target state; refine
// the precision if the refiner refutes its error path and resume (from
// the pivot or the root); otherwise check the path bit-precisely:
// feasible is Unsafe, infeasible is excluded; until a fixed point (Safe),
// an incomplete run, or the loop gives up (Unknown). See the package
// documentation. A refinement limit that is hit, or
// a refinement that makes no progress (the same error path again under
// the same precision), is Unknown, never Safe.
func Run(ctx context.Context, prog *cfa.Program, comp *cpa.Composite, opts Options) *Result {
	res := &Result{}
	logf := func(format string, args ...any) {
		if opts.Logf != nil {
			opts.Logf(format, args...)
		}
	}
	maxRef := opts.MaxRefinements
	if maxRef <= 0 {
		maxRef = DefaultMaxRefinements
	}
	start := func(p *cpa.CompositePrecision) *cpa.Algorithm {
		alg := cpa.NewAlgorithm(comp, opts.Algorithm)
		if p != nil {
			alg.Reopen(alg.ARG().Root(), p)
		}
		res.Stats.Runs++
		return alg
	}
	alg := start(nil)
	res.Precision = alg.ARG().Root().Prec
	done := 0 // reached states of finished runs
	defer func() {
		res.Algorithm = alg
		res.States = done + alg.Stats().Reached
	}()
	// checked caches the verdicts of the counterexample check by path
	// (infeasible paths recur after a restart from the root); refined
	// remembers the (path, precision) pairs already refined.
	checked := map[string]cexcheck.Check{}
	refined := map[string]bool{}
	for {
		status, target, err := alg.Run(ctx)
		if err != nil {
			res.Status, res.Reason = Incomplete, err.Error()
			return res
		}
		switch status {
		case cpa.Safe:
			res.Status = Safe
			return res
		case cpa.Incomplete:
			res.Status, res.Reason = Incomplete, alg.Reason()
			if alg.StateLimited() {
				res.Limit = results.CauseStates
			}
			return res
		case cpa.Unsafe:
			res.Status, res.Reason = Unknown, "error states remain that were not checked"
			return res
		}
		path := target.Path()
		key := cexcheck.PathKey(path)
		check := func() cexcheck.Check {
			if chk, ok := checked[key]; ok {
				return chk
			}
			t0 := time.Now()
			chk, cached := opts.Cache.Check(ctx, prog, path, opts.Solver, opts.Semantics)
			res.Stats.CheckTime += time.Since(t0)
			if cached {
				res.Stats.CachedChecks++
			} else {
				res.Stats.Checks++
			}
			if chk.Status != cexcheck.Undecided || timeslice.Expired(ctx) == nil {
				checked[key] = chk
			}
			logf("target n%d (depth %d, %d states): %s", target.ID, target.Depth, alg.Stats().Reached, chk.Status)
			return chk
		}
		var chk cexcheck.Check
		if opts.Refiner == nil || opts.CheckFirst {
			if chk = check(); chk.Status == cexcheck.Feasible {
				res.Status, res.Target, res.Path, res.Inputs = Unsafe, target, path, chk.Inputs
				return res
			}
			if err := timeslice.Expired(ctx); err != nil {
				res.Status, res.Reason = Incomplete, "cancelled: "+err.Error()
				return res
			}
		}
		if opts.Refiner == nil {
			if chk.Status == cexcheck.Infeasible {
				// The analysis over-approximated: exclude this path.
				res.Stats.Excluded++
				alg.ExcludeTarget(target)
				continue
			}
			res.Status, res.Reason = Unknown, "counterexample check: "+chk.Reason
			res.undefined(chk.UB)
			return res
		}
		// Refine first: the refiner's refutation of the path is sound (its
		// domain over-approximates), and cheaper than the SMT check.
		rkey := key + "|" + fmt.Sprint(target.Prec.Comps)
		if refined[rkey] {
			res.Status, res.Reason = Unknown, "refinement made no progress: the same error path was found again under the same precision"
			return res
		}
		nodes := target.PathNodes()
		t0 := time.Now()
		prec, pivot, err := opts.Refiner.Refine(ctx, nodes, alg.ARG())
		res.Stats.RefineTime += time.Since(t0)
		switch {
		case errors.Is(err, ErrNotRefutable):
			// A real error path, or one infeasible only through relations
			// the abstract domain cannot express (x > 100 ∧ ¬(x > 50)
			// with x unknown): the bit-precise check decides.
			if !opts.CheckFirst {
				chk = check()
			}
			switch {
			case chk.Status == cexcheck.Feasible:
				res.Status, res.Target, res.Path, res.Inputs = Unsafe, target, path, chk.Inputs
				return res
			case timeslice.Expired(ctx) != nil:
				res.Status, res.Reason = Incomplete, "cancelled: "+timeslice.Expired(ctx).Error()
				return res
			case chk.Status == cexcheck.Infeasible:
				// Exclude this exact path, as the plain analysis does.
				logf("not refutable by the refiner; excluded")
				res.Stats.NotRefutable++
				res.Stats.Excluded++
				alg.ExcludeTarget(target)
				continue
			}
			res.Status, res.Reason = Unknown, "counterexample check: "+chk.Reason
			res.undefined(chk.UB)
			return res
		case err != nil && timeslice.Expired(ctx) != nil:
			res.Status, res.Reason = Incomplete, "cancelled: "+timeslice.Expired(ctx).Error()
			return res
		case errors.Is(err, ErrNoProgress):
			logf("no progress on path %v", nodes)
			res.Status, res.Reason = Unknown, err.Error()
			return res
		case err != nil:
			res.Status, res.Reason = Unknown, "refinement: "+err.Error()
			return res
		}
		if res.Stats.Refinements >= maxRef {
			res.Status, res.Reason = Unknown, fmt.Sprintf("refinement limit %d reached", maxRef)
			res.Limit = results.CauseRefinements
			return res
		}
		refined[rkey] = true
		res.Stats.Refinements++
		res.Precision = prec
		if opts.Logf != nil {
			where := "the root"
			if pivot != nil {
				where = fmt.Sprintf("n%d (depth %d)", pivot.ID, pivot.Depth)
			}
			logf("refinement %d: pivot %s, precision %s", res.Stats.Refinements, where, strings.Join(res.PrecisionText(opts.Refiner), " "))
		}
		if opts.Restart == RestartRoot || pivot == nil || pivot.ID == 0 {
			done += alg.Stats().Reached
			alg = start(prec)
			continue
		}
		// Remove every child's subtree, also below children that are
		// already removed: Remove leaves descendants in place.
		for _, c := range alg.ARG().Children(pivot) {
			alg.RemoveSubtree(c)
		}
		alg.Reopen(pivot, prec)
		if opts.Restart == RestartPivotFrontier {
			// The frontier elsewhere continues under the new precision
			// too: leaves of the reached set are the waitlist (and dead
			// ends, which expand to nothing again).
			arg := alg.ARG()
			for _, n := range alg.Reached() {
				if !n.IsTarget() && len(arg.Succs(n.ID)) == 0 && n.Prec != prec {
					alg.Reopen(n, prec)
				}
			}
		}
	}
}
