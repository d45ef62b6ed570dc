package validate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/csyntax"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// Options configure Validate.
type Options struct {
	Solver smt.Factory
	Entry  string // default "main"
	// Contents optionally maps file names to their text (else read from
	// disk), as witness.Task.Contents.
	Contents map[string]string
	// Properties are the program's properties (spec.Properties), to
	// resolve a correctness witness's "property: ID".
	Properties []*spec.Property
	// MaxPaths bounds the paths explored (0: 200000).
	MaxPaths int
}

// Validation is the outcome of Validate.
type Validation struct {
	Confirmed bool
	// Reason says what was confirmed, or why the witness was rejected
	// (which invariant at which location, which waypoint).
	Reason string
	// Path and Inputs are, for a confirmed violation witness, the
	// feasible error path the witness describes and the values of its
	// nondeterministic inputs in read order (for engine/witness/reproduce.Reproducer).
	Path   []cfa.Step
	Inputs []results.Input

	// depth is, for a correctness witness confirmed by a complete base
	// case (validateCorrectness), the most cut points a path from the
	// start passed; 0 otherwise.
	depth int
}

func bad(format string, args ...any) error {
	return &witness.BadWitnessError{Msg: fmt.Sprintf(format, args...)}
}

func rejected(format string, args ...any) Validation {
	return Validation{Reason: fmt.Sprintf(format, args...)}
}

// Validate checks witness w against prog by replay (DESIGN.md, layer 6):
// a violation witness must describe a bit-precisely feasible path to the
// target (ValidateViolation); a correctness witness's invariants must be
// inductive and imply the property (ValidateCorrectness). A
// *witness.BadWitnessError reports content it cannot use.
func Validate(ctx context.Context, prog *cfa.Program, w *witness.Witness, opts Options) (Validation, error) {
	if opts.Solver == nil {
		return Validation{}, errors.New("witness: no SMT solver")
	}
	if opts.Entry == "" {
		opts.Entry = "main"
	}
	if opts.MaxPaths == 0 {
		opts.MaxPaths = 200000
	}
	if prog.Func(opts.Entry) == nil {
		return Validation{}, bad("entry function %s has no body", opts.Entry)
	}
	src := witness.NewSources(opts.Contents)
	var md witness.YAMLMetadata
	if len(w.Violation) > 0 {
		md = w.Violation[0].Metadata
	} else {
		md = w.Correctness[0].Metadata
	}
	if err := checkTask(prog, src, md.Task); err != nil {
		return Validation{}, err
	}
	if len(w.Violation) > 0 {
		return validateViolation(ctx, prog, src, w.Violation[0], opts)
	}
	return validateCorrectness(ctx, prog, src, w.Correctness, opts)
}

// checkTask compares the witness's data model and file hashes with the
// program: a witness for other files or another data model is bad input.
func checkTask(prog *cfa.Program, src *witness.Sources, t witness.YAMLTask) error {
	if t.DataModel != "" && t.DataModel != prog.DataModel.String() {
		return bad("witness: data model %s, but the program was translated for %s (use --data-model)", t.DataModel, prog.DataModel)
	}
	for name, h := range t.InputFileHashes {
		for _, f := range prog.Files {
			if filepath.Base(f) != filepath.Base(name) {
				continue
			}
			text, ok := src.Text(f)
			if !ok {
				continue
			}
			sum := sha256.Sum256(text)
			if !strings.EqualFold(hex.EncodeToString(sum[:]), h) {
				return bad("witness: %s has SHA-256 %s, but the witness was written for %s", f, hex.EncodeToString(sum[:]), h)
			}
		}
	}
	return nil
}

// errorTarget decides which calls violate the property.
type errorTarget struct {
	edges map[*cfa.Edge]bool // error call edges
	via   *cfa.Edge          // when set: only inside this call
	funcs map[string]bool    // else: calls of these functions
}

func (t *errorTarget) hit(e *cfa.Edge, stack []*cfa.Edge) bool {
	if t.edges != nil {
		if !t.edges[e] {
			return false
		}
		if t.via == nil {
			return true
		}
		for _, s := range stack {
			if s == t.via {
				return true
			}
		}
		return false
	}
	c, ok := e.Op.(*cfa.Call)
	return ok && t.funcs[c.Fn]
}

// none reports whether no edge of prog is an error call: the
// property's error edges are none, or (a target by function names) no
// call names one of the functions and no call goes through a pointer
// (whose callee the validator does not resolve).
func (t *errorTarget) none(prog *cfa.Program) bool {
	if t.edges != nil {
		return len(t.edges) == 0
	}
	for _, e := range prog.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && (t.funcs[c.Fn] || c.FnPtr != nil) {
			return false
		}
	}
	return true
}

func targetOf(md witness.YAMLMetadata, props []*spec.Property) (*errorTarget, string, error) {
	if id, ok := witness.DescriptionField(md.Producer.Description, witness.PropertyKey); ok {
		for _, p := range props {
			if p.ID == id {
				t := &errorTarget{edges: map[*cfa.Edge]bool{}, via: p.Via}
				for _, e := range p.ErrorEdges {
					t.edges[e] = true
				}
				return t, "property " + id, nil
			}
		}
		return nil, "", bad("witness: property %s (producer.description) is not a property of the program", id)
	}
	funcs := witness.SpecErrorFuncs(md.Task.Specification)
	if len(funcs) == 0 {
		if strings.TrimSpace(md.Task.Specification) != "" {
			return nil, "", bad("witness: unsupported specification %q (supported: G ! call(f()))", md.Task.Specification)
		}
		funcs = spec.SVCompErrorFuncs
	}
	names := make([]string, 0, len(funcs))
	for f := range funcs {
		names = append(names, f+"()")
	}
	return &errorTarget{funcs: funcs}, "no call of " + strings.Join(names, ", "), nil
}

// ---------------------------------------------------------------------
// Correctness witnesses

// cutPoint is a loop head with its invariant.
type cutPoint struct {
	loc  *cfa.Location
	inv  cfa.Expr
	text string
	at   string // file:line:col (function)
	// cands, in Houdini mode (houdini), are the candidate conjuncts; inv
	// is the conjunction of the live ones (refresh).
	cands []candRef
}

// candidate is one conjunct a Houdini run may keep or drop; loop heads
// sharing one keyword share it, so that it dies at all of them at once.
type candidate struct {
	text string
	dead bool
}

// candRef is a candidate parsed in the scope of one loop head.
type candRef struct {
	c *candidate
	x cfa.Expr
}

// refresh sets inv and text to the conjunction of the live candidates
// (true when none lives).
func (c *cutPoint) refresh() {
	c.inv, c.text = nil, ""
	for _, r := range c.cands {
		if r.c.dead {
			continue
		}
		if c.inv == nil {
			c.inv, c.text = r.x, conjunct(r.c.text)
			continue
		}
		c.inv = &cfa.Binary{Op: cfa.LAnd, X: c.inv, Y: r.x, T: cfa.IntT}
		c.text += " && " + conjunct(r.c.text)
	}
	if c.inv == nil {
		c.inv, c.text = &cfa.Const{T: cfa.IntT, V: 1}, "1"
	}
}

// validateCorrectness checks the loop invariants by k-induction over the
// cut points, with k = 1 (Floyd's inductive assertions) unless the
// witness's producer.description names another ("k-induction: K",
// inductionDepth). For k = 1: the program
// is cut at every loop head carrying an invariant; every loop-free
// interprocedural path segment from the program start, or from a cut
// point under its invariant, to the next cut point must establish that
// cut point's invariant, and no segment may reach an error call. Each
// segment is decided bit-precisely by engine/smt (its SSA encoding with
// the start's invariant assumed and the end's negated must be
// unsatisfiable; values with undefined behaviour are not excluded, which
// only rejects more). Segments starting at a cut point begin with every
// global and every local in scope unconstrained but for the invariant.
// The witness is rejected, with the reason, when a check fails, when a
// loop carries no invariant (a segment would be unbounded), when the
// calling contexts of a loop in another function than the entry cannot
// be enumerated (callChains: its address is taken, recursion), when the
// entry function reads a non-integer parameter (entrySteps), or when a
// segment from a cut point dereferences a pointer or reads a global
// array, struct or union (their contents are not havocked there). A
// segment from a loop in a callee starts inside each chain of direct
// calls from the entry function with the callers' locals and the
// callee's parameters unconstrained (an over-approximation of every
// calling context) and continues into the caller on return. All
// segments from one start are first decided at once by their merged
// encoding (merged.go); the walk over single paths decides only what
// that leaves open, and names the path that fails.
//
// For k > 1 (the k-induction of Beyer, Dangl, Dietsch, Heizmann,
// Stahlbauer, "Witness validation and stepwise testification across
// software verifiers", FSE 2015, and Beyer, Dangl, Dietsch, Heizmann,
// "Correctness witnesses: exchanging verification results between
// verifiers", FSE 2016, over the same segments; engine/kinduction's two
// cases): a path no longer ends at its first cut point but passes k-1 of
// them, each under its invariant, and ends at the k-th. Base case: every
// path from the program start through at most k cut points must
// establish the invariant at each and reach no error call. Step case:
// from every cut point under its invariant, every path whose first k-1
// segments reach no error call (the hypothesis: errors there end the
// path unchecked, invariants at their ends are assumed) must reach no
// error call in its k-th segment and establish the invariant at its end.
// Any execution then has all its segments good by induction over their
// number (the window of k segments before segment m+1 starts at a cut
// point). When no feasible path from the start reaches a k-th cut point,
// the base case covered every execution and the step case is skipped:
// that is how a bounded model checking proof (unwinding assertions) is
// confirmed with the invariant "1" everywhere. For k > 1, loops without
// an invariant (do … while, goto loops) are cut points with the
// invariant "1" (more cut points with a true invariant only add
// obligations), so that the base case can unroll them; segments from
// the start may read memory, which segments from a cut point may not,
// so a bounded program that dereferences pointers in its loops is
// confirmed by a depth its base case exhausts.
func validateCorrectness(ctx context.Context, prog *cfa.Program, src *witness.Sources, entries []witness.YAMLCorrectnessEntry, opts Options) (Validation, error) {
	target, what, err := targetOf(entries[0].Metadata, opts.Properties)
	if err != nil {
		return Validation{}, err
	}
	if target.none(prog) {
		// As the verifier decides such a property (engine: "no error
		// call"), whatever the invariants say.
		return Validation{Confirmed: true, Reason: fmt.Sprintf("the program contains no error call, so every execution satisfies %s", what)}, nil
	}
	heads, sites := loopHeads(prog, src)
	cuts := map[*cfa.Location]*cutPoint{}
	for _, e := range entries {
		for _, it := range e.Content {
			inv := it.Invariant
			if inv.Type != witness.LoopInvariantType && inv.Type != witness.LocationInvariantType {
				return Validation{}, bad("witness: unsupported invariant type %q (supported: loop_invariant, location_invariant)", inv.Type)
			}
			if inv.Format != "" && inv.Format != "c_expression" {
				return Validation{}, bad("witness: unsupported invariant format %q (supported: c_expression)", inv.Format)
			}
			at := fmt.Sprintf("%s:%d:%d", inv.Location.FileName, inv.Location.Line, inv.Location.Column)
			var locs []*cfa.Location
			for _, l := range matchHeads(prog, heads, inv.Location) {
				if sites[l].Type() == inv.Type {
					locs = append(locs, l)
				}
			}
			if len(locs) == 0 {
				if inv.Type == witness.LocationInvariantType {
					return Validation{}, bad("witness: location invariant at %s: no loop without a while or for keyword has its head there (location invariants are validated at goto and do … while loop heads only)", at)
				}
				return Validation{}, bad("witness: loop invariant at %s: no while or for loop starts there", at)
			}
			for _, l := range locs {
				x, err := csyntax.ParseExpr(inv.Value, witness.Scope(prog, l.Func, sites[l]), nil, prog.DataModel)
				if err != nil {
					return Validation{}, bad("witness: loop invariant at %s: %v", at, err)
				}
				if c := cuts[l]; c != nil {
					c.inv = &cfa.Binary{Op: cfa.LAnd, X: c.inv, Y: x, T: cfa.IntT}
					c.text = "(" + c.text + ") && (" + inv.Value + ")"
					continue
				}
				cuts[l] = &cutPoint{loc: l, inv: x, text: inv.Value, at: at + " (" + l.Func.Name + ")"}
			}
		}
	}
	k := 1
	for _, e := range entries {
		ke, err := witness.InductionDepth(e.Metadata)
		if err != nil {
			return Validation{}, err
		}
		k = max(k, ke)
	}
	if k > 1 {
		// Loops without an invariant (do … while, goto loops) are cut
		// points with the invariant "1": the base case unrolls them,
		// the step case starts there from any state.
		for _, l := range prog.Locs {
			if l.LoopHead && l.Func != prog.Init && cuts[l] == nil {
				cuts[l] = &cutPoint{loc: l, inv: &cfa.Const{T: cfa.IntT, V: 1}, text: "1", at: l.Func.Name + ":" + posOf(l) + " (no invariant)"}
			}
		}
	}
	v := &segments{ctx: ctx, prog: prog, opts: opts, target: target, cuts: cuts, entry: prog.Func(opts.Entry), b: smt.NewBuilder(), k: k}
	// From the program start (the base case), then from every cut point
	// (the step case) unless no execution reaches the k-th cut point.
	if r, done := v.from(nil); done {
		return r, nil
	}
	if k > 1 && !v.reachedK {
		return Validation{Confirmed: true, depth: v.maxDepth, Reason: fmt.Sprintf("every execution ends before its %d-th loop head visit, and all satisfy %s (%d path segments checked)", k, what, v.paths)}, nil
	}
	for _, l := range prog.Locs {
		if c := cuts[l]; c != nil {
			if r, done := v.from(c); done {
				return r, nil
			}
		}
	}
	if k > 1 {
		return Validation{Confirmed: true, Reason: fmt.Sprintf("%d loop invariants are %d-inductive and imply %s (%d path segments checked)", len(cuts), k, what, v.paths)}, nil
	}
	return Validation{Confirmed: true, Reason: fmt.Sprintf("%d loop invariants are inductive and imply %s (%d path segments checked)", len(cuts), what, v.paths)}, nil
}

// loopHeads maps the keyword positions (posKey) of the program's while
// and for loops, and the statement positions of its other loops
// (witness.LoopSiteOf), to their CFA loop heads.
func loopHeads(prog *cfa.Program, src *witness.Sources) (map[string][]*cfa.Location, map[*cfa.Location]witness.LoopSite) {
	heads := map[string][]*cfa.Location{}
	sites := map[*cfa.Location]witness.LoopSite{}
	for _, l := range prog.Locs {
		if !l.LoopHead {
			continue
		}
		if s, ok := witness.LoopSiteOf(src, l); ok {
			k := posKey(s.Keyword.File, s.Keyword.Line, s.Keyword.Col)
			heads[k] = append(heads[k], l)
			sites[l] = s
		}
	}
	return heads, sites
}

// houdiniSite is a loop keyword with the candidate conjuncts of its
// invariant.
type houdiniSite struct {
	loc   witness.YAMLLocation
	cands []*candidate
}

// houdini runs Houdini's algorithm (C. Flanagan and K. R. M. Leino,
// "Houdini, an annotation assistant for ESC/Java", FME 2001) with the
// segments of validateCorrectness: every loop head is a cut point whose
// invariant is the conjunction of its live candidates; a candidate that
// some segment (from the program start, or from a cut point under its
// current invariant) does not establish dies, and the rounds repeat
// until none dies. The survivors are then inductive relative to each
// other (the invariant_set semantics of format 2.0: each invariant may
// assume the others); whether they imply the property is left to
// validateCorrectness. Candidates that do not parse in the scope of a
// loop head die at once. The result is an error when a segment is
// outside what the validator supports (a loop without a keyword,
// memory reads from a cut point, returns to unknown callers) or the
// path budget or ctx runs out.
func houdini(ctx context.Context, prog *cfa.Program, src *witness.Sources, target *errorTarget, hs []houdiniSite, opts Options) error {
	heads, sites := loopHeads(prog, src)
	cuts := map[*cfa.Location]*cutPoint{}
	for _, h := range hs {
		at := fmt.Sprintf("%s:%d:%d", h.loc.FileName, h.loc.Line, h.loc.Column)
		for _, l := range matchHeads(prog, heads, h.loc) {
			cp := &cutPoint{loc: l, at: at + " (" + l.Func.Name + ")"}
			names := witness.Scope(prog, l.Func, sites[l])
			for _, c := range h.cands {
				x, err := csyntax.ParseExpr(c.text, names, nil, prog.DataModel)
				if err != nil {
					c.dead = true
					continue
				}
				cp.cands = append(cp.cands, candRef{c: c, x: x})
			}
			cuts[l] = cp
		}
	}
	v := &segments{ctx: ctx, prog: prog, opts: opts, target: target, cuts: cuts, entry: prog.Func(opts.Entry), b: smt.NewBuilder(), houdini: true, k: 1}
	for round := 0; ; round++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("invariant selection interrupted in round %d: %w", round, err)
		}
		v.changed = false
		for _, cp := range cuts {
			cp.refresh()
		}
		if r, done := v.from(nil); done {
			return errors.New(r.Reason)
		}
		for _, l := range prog.Locs {
			c := cuts[l]
			if c == nil {
				continue
			}
			c.refresh()
			if r, done := v.from(c); done {
				return errors.New(r.Reason)
			}
		}
		if !v.changed {
			v.dropImplied()
			return nil
		}
	}
}

// dropImplied removes, longest text first, every live candidate that
// the other live candidates of its cut points imply (the conjunction
// with its negation unsatisfiable at each loop head holding it), which
// leaves each invariant's meaning unchanged. Undecided or unencodable
// checks keep the candidate.
func (v *segments) dropImplied() {
	var all []*candidate
	at := map[*candidate][]*cutPoint{}
	for _, l := range v.prog.Locs {
		cp := v.cuts[l]
		if cp == nil {
			continue
		}
		for _, r := range cp.cands {
			if len(at[r.c]) == 0 {
				all = append(all, r.c)
			}
			at[r.c] = append(at[r.c], cp)
		}
	}
	weight := func(c *candidate) int {
		w := len(c.text)
		if strings.Contains(c.text, "||") {
			w += 1 << 20
		}
		if strings.Contains(c.text, "==") {
			w -= 1 << 10 // keep "x == 6" rather than "x <= 6 && x >= 6"
		}
		return w
	}
	sort.SliceStable(all, func(i, j int) bool { return weight(all[i]) > weight(all[j]) })
	for _, c := range all {
		if c.dead {
			continue
		}
		implied := true
		for _, cp := range at[c] {
			var x cfa.Expr
			var path []cfa.Step
			for _, r := range cp.cands {
				if r.c == c {
					x = r.x
				} else if !r.c.dead {
					path = append(path, synth(cp.loc, &cfa.Assume{Cond: r.x, Truth: true}))
				}
			}
			path = append(path, synth(cp.loc, &cfa.Assume{Cond: x, Truth: false}))
			pf, err := smt.EncodePathContext(v.ctx, v.b, v.prog, path, smt.EncodeOptions{})
			if err != nil {
				implied = false
				break
			}
			conj, _ := pf.Inline(v.b)
			if r, _ := solve(v.ctx, v.b, v.opts.Solver, conj); r != smt.Unsat {
				implied = false
				break
			}
		}
		if implied {
			c.dead = true
		}
	}
}

func posKey(file string, line, col int) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Base(file), line, col)
}

// matchHeads finds the loop heads of a witness location: by file (base
// name), line and column; without a column, every loop starting on the
// line.
func matchHeads(prog *cfa.Program, heads map[string][]*cfa.Location, l witness.YAMLLocation) []*cfa.Location {
	if l.Column > 0 {
		return heads[posKey(l.FileName, l.Line, l.Column)]
	}
	var out []*cfa.Location
	prefix := posKey(l.FileName, l.Line, 0)
	prefix = prefix[:len(prefix)-1]
	for k, ls := range heads {
		if strings.HasPrefix(k, prefix) {
			out = append(out, ls...)
		}
	}
	return out
}

// segments enumerates and checks the path segments.
type segments struct {
	ctx    context.Context
	prog   *cfa.Program
	opts   Options
	target *errorTarget
	cuts   map[*cfa.Location]*cutPoint
	entry  *cfa.Function
	b      *smt.Builder
	paths  int
	// houdini: segment ends drop the candidates they do not establish
	// (changed records it) instead of rejecting, and error calls are
	// not checked.
	houdini bool
	changed bool
	// k is the induction depth (1: Floyd's inductive assertions);
	// reachedK records that a feasible path from the program start
	// reached the k-th cut point (else the base case covered every
	// execution).
	k        int
	reachedK bool
	// maxDepth is the most cut points a path of the base case passed.
	maxDepth int
	// loops are the program's natural loops (unrolled), once needed.
	loops *cfa.Loops
}

// flatten lists the operands of nested op (LAnd or LOr) in x.
func flatten(x cfa.Expr, op cfa.BinaryOp, out []cfa.Expr) []cfa.Expr {
	if b, ok := x.(*cfa.Binary); ok && b.Op == op {
		return flatten(b.Y, op, flatten(b.X, op, out))
	}
	return append(out, x)
}

type frameKey struct {
	loc   *cfa.Location
	stack string
	depth int // cut points passed
}

// from checks every segment starting at cut point c (nil: the program
// start). done is true when the witness is rejected.
func (v *segments) from(c *cutPoint) (Validation, bool) {
	chains := [][]*cfa.Edge{nil}
	var inv cfa.Expr
	if c != nil {
		inv = c.inv
		if c.loc.Func != v.entry {
			var why string
			chains, why = callChains(v.prog, v.entry, c.loc.Func)
			if why != "" {
				return rejected("loop invariant at %s: %s", c.at, why), true
			}
		}
	}
	for _, chain := range chains {
		// All paths at once first (merged.go); the walk decides what
		// that leaves open, and names the path of a refutation when it
		// finds one within a quarter of the time left.
		mctx, cancel := timeslice.Share(v.ctx, 2)
		if v.houdini {
			ok := v.houdiniMerged(mctx, c, inv, chain)
			cancel()
			if ok {
				continue
			}
		} else {
			res, why, n := v.merged(mctx, c, inv, chain)
			cancel()
			switch res {
			case mergedProved:
				v.paths += n
				continue
			case mergedRefuted:
				wctx, cancel := timeslice.Share(v.ctx, 4)
				w := *v
				w.ctx = wctx
				r, done := w.fromCase(c, inv, chain)
				named := done && wctx.Err() == nil && w.paths <= w.opts.MaxPaths
				cancel()
				if named {
					return r, true
				}
				return rejected("%s", why), true
			}
		}
		if r, done := v.fromCase(c, inv, chain); done {
			return r, true
		}
	}
	return Validation{}, false
}

// maxCallChains bounds the call chains callChains enumerates.
const maxCallChains = 64

// callChains returns the chains of direct call edges from entry to fn
// (outermost first). A segment from a loop head in fn starts inside
// each chain with the callers' locals unconstrained (an
// over-approximation of every calling context), so that a path returning
// from fn continues in a caller. why names the reason when the contexts
// cannot be enumerated: fn's address is taken (calls through pointers),
// recursion, or more than maxCallChains chains.
func callChains(p *cfa.Program, entry, fn *cfa.Function) (chains [][]*cfa.Edge, why string) {
	callers := map[string][]*cfa.Edge{}
	for _, e := range p.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && c.Fn != "" && e.From != nil && e.From.Func != p.Init {
			callers[c.Fn] = append(callers[c.Fn], e)
		}
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if r, ok := x.(*cfa.FuncRef); ok && r.Name == fn.Name && why == "" {
					why = fmt.Sprintf("the address of %s is taken at %s (calls through pointers are not supported at a cut point)", fn.Name, e.Pos.Start)
				}
				return true
			})
		})
	}
	if why != "" {
		return nil, why
	}
	var rec func(f *cfa.Function, suffix []*cfa.Edge, seen map[*cfa.Function]bool)
	rec = func(f *cfa.Function, suffix []*cfa.Edge, seen map[*cfa.Function]bool) {
		if why != "" {
			return
		}
		if f == entry {
			chains = append(chains, append([]*cfa.Edge(nil), suffix...))
			if len(chains) > maxCallChains {
				why = fmt.Sprintf("more than %d calling contexts of %s", maxCallChains, fn.Name)
			}
			return
		}
		if seen[f] {
			why = fmt.Sprintf("%s is recursive", f.Name)
			return
		}
		seen[f] = true
		defer delete(seen, f)
		for _, e := range callers[f.Name] {
			rec(e.From.Func, append([]*cfa.Edge{e}, suffix...), seen)
		}
	}
	rec(fn, nil, map[*cfa.Function]bool{})
	if why == "" && len(chains) == 0 {
		return nil, "" // fn is never called from entry: no segment starts there
	}
	return chains, why
}

// prefix returns where the segments from cut point c (nil: the
// program start) under inv in the calling context chain start: the
// location, the steps that set up the state there (entering the callers
// with their locals unconstrained, havocking the callee's parameters and
// the globals, assuming inv), the call stack, and a name for messages.
// bad is true, with the rejection, when the start is not supported.
func (v *segments) prefix(c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (start *cfa.Location, path []cfa.Step, stack []*cfa.Edge, startName string, r Validation, bad bool) {
	start = v.prog.Init.Entry
	startName = "the program start"
	if len(start.Out) == 0 {
		start = v.entry.Entry
	}
	if c != nil {
		start = c.loc
		startName = "the loop invariant at " + c.at
		if r, bad := v.unsupportedStart(c); bad {
			return nil, nil, nil, "", r, true
		}
		if len(chain) > 0 || c.loc.Func == v.entry && !plainParams(v.entry) {
			// Enter the callers (their locals unconstrained), then fn,
			// whose parameters the loop may have changed: havoc them.
			steps, why := v.entrySteps()
			if why != "" {
				return nil, nil, nil, "", rejected("%s", why), true
			}
			path = append(path, steps...)
			for _, e := range chain {
				path = append(path, cfa.Step{Edge: e, Kind: cfa.Enter, Callee: v.prog.Func(e.Op.(*cfa.Call).Fn)})
			}
			if len(chain) > 0 {
				for _, p := range c.loc.Func.Params {
					path = append(path, synth(c.loc, &cfa.Havoc{LHS: &cfa.VarRef{Var: p}, Source: "invariant"}))
				}
			}
			stack = append(stack, chain...)
		}
		path = append(path, v.havocInScope(c, inv)...)
	} else if start == v.entry.Entry && !plainParams(v.entry) {
		steps, why := v.entrySteps()
		if why != "" {
			return nil, nil, nil, "", rejected("%s", why), true
		}
		path = steps
	}
	return start, path, stack, startName, Validation{}, false
}

// fromCase checks the segments starting at cut point c (nil: the
// program start) under inv (c's invariant) in the calling context chain
// (call edges from the entry function to c's function, outermost first).
func (v *segments) fromCase(c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (Validation, bool) {
	start, path, stack, startName, r, bad := v.prefix(c, inv, chain)
	if bad {
		return r, true
	}
	inc := &incremental{b: v.b, prog: v.prog, s: v.opts.Solver(v.b)}
	defer inc.s.Close()
	onPath := map[frameKey]bool{}
	// nlSteps counts the steps of path that multiply two variables.
	nlSteps := 0
	if nonlinear(path) {
		nlSteps = 1
	}
	var walk func(l *cfa.Location, first bool) (Validation, bool)
	// descendAt extends the path by step and walks on from next (first:
	// next is where the path resumes past a cut point, not the end of
	// a segment), unless the extended path is infeasible (checked at
	// branches).
	var descendAt func(step cfa.Step, next *cfa.Location, first bool) (Validation, bool)
	descend := func(step cfa.Step, next *cfa.Location) (Validation, bool) { return descendAt(step, next, false) }
	descendAt = func(step cfa.Step, next *cfa.Location, first bool) (Validation, bool) {
		path = append(path, step)
		defer func() { path = path[:len(path)-1] }()
		branch := false
		if step.Edge != nil && step.Kind == cfa.Intra && len(step.Edge.From.Out) > 1 {
			_, branch = step.Edge.Op.(*cfa.Assume)
		}
		nl := nonlinear(path[len(path)-1:])
		if nl {
			nlSteps++
			defer func() { nlSteps-- }()
		}
		var feasible bool
		var err error
		if nlSteps > 0 {
			// A branch after a product of variables: the incremental
			// core may bit-blast it forever; the normalised check
			// decides it, or within nonlinearBranch leaves it feasible.
			feasible, _ = inc.push(v.ctx, path, false)
			if branch {
				bctx, cancel := context.WithTimeout(v.ctx, nonlinearBranch)
				r, _ := v.decideNormalizedCtx(bctx, path)
				cancel()
				feasible = r != smt.Unsat
			}
		} else {
			feasible, err = inc.push(v.ctx, path, branch)
		}
		defer inc.pop()
		if err != nil {
			return rejected("a segment from %s cannot be encoded: %v", startName, err), true
		}
		if !feasible {
			return Validation{}, false
		}
		return walk(next, first)
	}
	// depth counts the cut points passed since the start (k-induction:
	// segments before the k-th continue past their end).
	depth := 0
	walk = func(l *cfa.Location, first bool) (Validation, bool) {
		if err := v.ctx.Err(); err != nil {
			return rejected("validation cancelled: %v", err), true
		}
		if cp := v.cuts[l]; cp != nil && !first {
			// End of a segment: the cut point's invariant must hold.
			if v.houdini {
				return v.dropUnestablished(inc, path, cp)
			}
			last := depth+1 == v.k
			if c == nil {
				v.maxDepth = max(v.maxDepth, depth+1)
			}
			if c == nil || last {
				end := append(append([]cfa.Step(nil), path...), synth(l, &cfa.Assume{Cond: cp.inv, Truth: false}))
				if r, bad := v.check(inc, end, func() string {
					if c == nil {
						return fmt.Sprintf("loop invariant at %s does not hold when the loop is entered: a path from %s reaches it violating %q%s", cp.at, startName, cp.text, lines(path))
					}
					return fmt.Sprintf("loop invariant at %s is not inductive: a path from %s reaches %s violating %q%s", cp.at, startName, cp.at, cp.text, lines(path))
				}); bad {
					return r, true
				}
			}
			if !last {
				// A segment before the k-th: the invariant holds here
				// (checked in the base case, the hypothesis in the step
				// case); the path goes on into the next segment.
				depth++
				r, done := descendAt(synth(l, &cfa.Assume{Cond: cp.inv, Truth: true}), l, true)
				depth--
				return r, done
			}
			if c == nil && !v.reachedK {
				if v.k == 1 {
					v.reachedK = true
				} else if r, err := v.decide(inc, path); r != smt.Unsat || err != nil {
					v.reachedK = true
				}
			}
			return v.outside(path, startName)
		}
		key := frameKey{l, stackKey(stack), depth}
		if onPath[key] {
			return rejected("the loop at %s carries no invariant: the validator cannot cut it (from %s)", l.Func.Name+":"+posOf(l), startName), true
		}
		if len(stack) > 64 {
			return rejected("call depth above 64 from %s (recursion is not supported)", startName), true
		}
		onPath[key] = true
		defer delete(onPath, key)
		if len(l.Out) == 0 {
			if l != l.Func.Exit {
				return v.outside(path, startName) // abort, exit, failed assume
			}
			switch {
			case l.Func == v.prog.Init:
				steps, why := v.entrySteps()
				if why != "" {
					return rejected("%s", why), true
				}
				n := len(path)
				path = append(path, steps[:len(steps)-1]...)
				r, done := descend(steps[len(steps)-1], v.entry.Entry)
				path = path[:n]
				return r, done
			case len(stack) > 0:
				call := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				r, done := descend(cfa.Step{Kind: cfa.Leave, Edge: call, Callee: l.Func}, call.To)
				stack = append(stack, call)
				return r, done
			case l.Func == v.entry:
				return v.outside(path, startName) // the program ends
			default:
				return rejected("a path from %s returns from %s to an unknown caller (only loops of %s, or loops whose segments stay inside their function, are supported)", startName, l.Func.Name, v.entry.Name), true
			}
		}
		for _, e := range l.Out {
			if v.target.hit(e, stack) {
				if v.houdini || c != nil && depth+1 < v.k {
					// Houdini checks no property; in the step case an
					// error before the k-th segment is excluded by the
					// hypothesis.
					continue
				}
				if r, bad := v.check(inc, append(append([]cfa.Step(nil), path...), callStep(v.prog, e)), func() string {
					return fmt.Sprintf("the invariants do not imply the property: a path from %s reaches the error call at %s%s", startName, e.Pos.Start, lines(path))
				}); bad {
					return r, true
				}
				continue
			}
			call, isCall := e.Op.(*cfa.Call)
			if isCall && call.Fn == "" {
				for _, st := range pointerTargets(v.prog, e) {
					next := e.To
					if st.Kind == cfa.Enter {
						stack = append(stack, e)
						next = st.Callee.Entry
					}
					r, done := descend(st, next)
					if st.Kind == cfa.Enter {
						stack = stack[:len(stack)-1]
					}
					if done {
						return r, true
					}
				}
				continue
			}
			if isCall {
				if f := v.prog.Func(call.Fn); f != nil {
					stack = append(stack, e)
					r, done := descend(cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f}, f.Entry)
					stack = stack[:len(stack)-1]
					if done {
						return r, true
					}
					continue
				}
			}
			if c != nil {
				if r, bad := unsupportedOp(e); bad {
					return r, true
				}
			}
			r, done := descend(cfa.Step{Edge: e}, e.To)
			if done {
				return r, true
			}
		}
		return Validation{}, false
	}
	return walk(start, true)
}

func stackKey(stack []*cfa.Edge) string {
	var b strings.Builder
	for _, e := range stack {
		b.WriteString(strconv.Itoa(e.ID))
		b.WriteByte(',')
	}
	return b.String()
}

func posOf(l *cfa.Location) string {
	for _, e := range l.Out {
		if e.Pos.Start.Line > 0 {
			return e.Pos.Start.String()
		}
	}
	for _, e := range l.In {
		if e.Pos.End.Line > 0 {
			return e.Pos.End.String()
		}
	}
	return l.String()
}

// lines summarises the source lines a path passes.
func lines(path []cfa.Step) string {
	var ls []string
	last := 0
	for _, s := range path {
		if s.Edge == nil || s.Edge.Pos.Start.Line == 0 || s.Edge.Pos.Start.Line == last || s.Edge.ID < 0 {
			continue
		}
		last = s.Edge.Pos.Start.Line
		ls = append(ls, strconv.Itoa(last))
		if len(ls) == 30 {
			ls = append(ls, "…")
			break
		}
	}
	if len(ls) == 0 {
		return ""
	}
	return " (through lines " + strings.Join(ls, ", ") + ")"
}

// synth returns a step over a synthetic edge at l (ID -1: not in the
// program).
func synth(l *cfa.Location, op cfa.Op) cfa.Step {
	return cfa.Step{Edge: &cfa.Edge{ID: -1, From: l, To: l, Op: op}}
}

// havocInScope starts a segment at cut point c: every scalar global gets
// an unconstrained value (locals of c's function are unconstrained by
// the encoding until assigned), then the invariant is assumed.
func (v *segments) havocInScope(c *cutPoint, inv cfa.Expr) []cfa.Step {
	var path []cfa.Step
	for _, g := range v.prog.Vars {
		if g.Global && g.T.IsScalar() && g.T.Kind != cfa.Float {
			path = append(path, synth(c.loc, &cfa.Havoc{LHS: &cfa.VarRef{Var: g}, Source: "invariant"}))
		}
	}
	return append(path, synth(c.loc, &cfa.Assume{Cond: inv, Truth: true}))
}

// plainParams reports whether fn's parameters are all integers (the
// encoding enters such an entry function with unconstrained values).
func plainParams(fn *cfa.Function) bool {
	for _, p := range fn.Params {
		if !p.T.IsInteger() {
			return false
		}
	}
	return true
}

// entrySteps returns the steps that enter the entry function from Init.
// With integer parameters only, that is the encoding's entry step
// (unconstrained parameters). Otherwise (main(int argc, char **argv))
// each parameter is passed, by a synthetic call edge from Init, the
// value of a synthetic global that a Havoc leaves unconstrained; that
// is sound only while the function never reads a non-integer parameter
// (what argv points to is not modelled), so a read is reported (why,
// naming file:line) instead.
func (v *segments) entrySteps() (steps []cfa.Step, why string) {
	fn := v.entry
	if plainParams(fn) {
		return []cfa.Step{{Kind: cfa.Enter, Callee: fn}}, ""
	}
	isParam := map[*cfa.Var]bool{}
	for _, p := range fn.Params {
		if !p.T.IsInteger() {
			isParam[p] = true
		}
	}
	for _, e := range v.prog.Edges {
		if e.From == nil || e.From.Func != fn {
			continue
		}
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if r, ok := x.(*cfa.VarRef); ok && isParam[r.Var] && why == "" {
					why = fmt.Sprintf("parameter %s of %s (type %s) is used at %s; the validator does not model it", r.Var.Orig, fn.Name, r.Var.T, e.Pos.Start)
				}
				return why == ""
			})
		})
	}
	if why != "" {
		return nil, why
	}
	at := v.prog.Init.Exit
	var args []cfa.Expr
	for _, p := range fn.Params {
		g := &cfa.Var{Name: "__witness_arg_" + p.Name, T: p.T, Global: true, Temp: true}
		steps = append(steps, synth(at, &cfa.Havoc{LHS: &cfa.VarRef{Var: g}, Source: "param " + p.Name}))
		args = append(args, &cfa.VarRef{Var: g})
	}
	call := &cfa.Edge{ID: -1, From: at, To: at, Op: &cfa.Call{Fn: fn.Name, Args: args}}
	return append(steps, cfa.Step{Edge: call, Kind: cfa.Enter, Callee: fn}), ""
}

// unsupportedStart rejects cut points in functions whose parameters the
// encoding cannot leave unconstrained.
func (v *segments) unsupportedStart(c *cutPoint) (Validation, bool) {
	for _, p := range c.loc.Func.Params {
		if !p.T.IsInteger() && c.loc.Func != v.entry {
			return rejected("loop invariant at %s: parameter %s of type %s is not supported at a cut point", c.at, p.Orig, p.T), true
		}
	}
	return Validation{}, false
}

// unsupportedOp rejects, in segments from a cut point, reads of memory
// whose contents the segment start does not havoc.
func unsupportedOp(e *cfa.Edge) (Validation, bool) {
	var why string
	cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
		cfa.Walk(x, func(x cfa.Expr) bool {
			switch x := x.(type) {
			case *cfa.Deref:
				why = "a pointer dereference"
			case *cfa.VarRef:
				if x.Var.Global && !x.Var.T.IsScalar() {
					why = "the global " + x.Var.Orig + " of type " + x.Var.T.String()
				}
			}
			return why == ""
		})
	})
	if why != "" {
		return rejected("%s at %s is not supported in a segment from a loop invariant", why, e.Pos.Start), true
	}
	return Validation{}, false
}

// outside rejects the witness when path, a path that ends, can perform
// an access the encoding leaves out (smt.OutsideEncoding: a store
// through a pointer read from uninitialised memory may write anything),
// as the merged segments do; Houdini does not ask. An encoding error is
// left to the checks, which report it.
func (v *segments) outside(path []cfa.Step, startName string) (Validation, bool) {
	if v.houdini {
		return Validation{}, false
	}
	pf, err := smt.EncodePathContext(v.ctx, v.b, v.prog, path, smt.EncodeOptions{})
	if err != nil {
		return Validation{}, false
	}
	conj, ub := pf.Inline(v.b)
	var conds []*smt.Term
	var first *smt.UBCond
	for i, u := range pf.UB {
		if smt.OutsideEncoding(u.Kind) {
			conds = append(conds, ub[i])
			if first == nil {
				first = &pf.UB[i]
			}
		}
	}
	if len(conds) == 0 {
		return Validation{}, false
	}
	if r, _ := solve(v.ctx, v.b, v.opts.Solver, append(conj, v.b.Or(conds...))); r == smt.Unsat {
		return Validation{}, false
	}
	return rejected("a path from %s may perform an %s at %s, whose effect the encoding leaves out%s", startName, first.Kind, first.Pos, lines(path)), true
}

// check decides whether path is infeasible (good), incrementally on top
// of the conjuncts inc has asserted for its prefix when it can. A
// satisfiable or undecided formula rejects the witness with reason().
func (v *segments) check(inc *incremental, path []cfa.Step, reason func() string) (Validation, bool) {
	v.paths++
	if v.paths > v.opts.MaxPaths {
		return rejected("more than %d path segments: the validator gives up", v.opts.MaxPaths), true
	}
	r, err := v.decide(inc, path)
	if err != nil && r == smt.Unknown && strings.HasPrefix(err.Error(), "encode: ") {
		return rejected("%s; the segment cannot be encoded: %v", reason(), strings.TrimPrefix(err.Error(), "encode: ")), true
	}
	switch r {
	case smt.Unsat:
		return Validation{}, false
	case smt.Sat:
		return rejected("%s", reason()), true
	}
	return rejected("%s? (the solver could not decide: %v)", reason(), err), true
}

// dropUnestablished ends a Houdini segment at cp: every live candidate
// of cp that path does not establish (the path with its negation is
// satisfiable or undecided) dies. done is true when the path budget is
// exhausted or the segment cannot be encoded.
func (v *segments) dropUnestablished(inc *incremental, path []cfa.Step, cp *cutPoint) (Validation, bool) {
	for _, r := range cp.cands {
		if r.c.dead {
			continue
		}
		v.paths++
		if v.paths > v.opts.MaxPaths {
			return rejected("more than %d path segments: the validator gives up", v.opts.MaxPaths), true
		}
		end := append(append([]cfa.Step(nil), path...), synth(cp.loc, &cfa.Assume{Cond: r.x, Truth: false}))
		res, err := v.decide(inc, end)
		if err != nil && res == smt.Unknown && strings.HasPrefix(err.Error(), "encode: ") {
			return rejected("a segment to %s cannot be encoded: %v", cp.at, err), true
		}
		if res != smt.Unsat {
			r.c.dead = true
			v.changed = true
		}
	}
	return Validation{}, false
}

// decide returns whether path is feasible; an encoding error comes back
// as Unknown with an error starting "encode: ".
func (v *segments) decide(inc *incremental, path []cfa.Step) (smt.Result, error) {
	var r smt.Result
	var err error
	if nonlinear(path) {
		// Bit-blasting a product of two variables (ps2's y*y) can take
		// Z3's incremental core forever: normalise the whole segment
		// into sums of monomials instead (smt.Normalizer), where an
		// inductive polynomial invariant and its negated successor are
		// one term and its negation.
		return v.decideNormalized(path)
	}
	if !inc.broken {
		var feasible bool
		feasible, err = inc.push(v.ctx, path, true)
		r = smt.Unsat
		if feasible {
			r = inc.last
		}
		inc.pop()
	}
	if inc.broken || err != nil || r == smt.Unknown {
		// Encoding drift, or an incremental check Z3 gave up on: decide
		// the segment alone (one-shot solvers are often stronger).
		conj, eerr := pathConjuncts(v.ctx, v.b, v.prog, path)
		if eerr != nil {
			return smt.Unknown, fmt.Errorf("encode: %v", eerr)
		}
		return solve(v.ctx, v.b, v.opts.Solver, conj)
	}
	return r, err
}

// decideNormalized decides path alone on a solver that normalises its
// assertions (smt.Normalizer, when the factory's solvers are one; else
// plainly), the whole inlined formula as one conjunction.
func (v *segments) decideNormalized(path []cfa.Step) (smt.Result, error) {
	return v.decideNormalizedCtx(v.ctx, path)
}

// nonlinearBranch bounds the check of a branch on a path with a product
// of variables: a branch undecided within it is explored.
const nonlinearBranch = 2 * time.Second

// decideNormalizedCtx is decideNormalized under ctx.
func (v *segments) decideNormalizedCtx(ctx context.Context, path []cfa.Step) (smt.Result, error) {
	pf, err := smt.EncodePathContext(ctx, v.b, v.prog, path, smt.EncodeOptions{})
	if err != nil {
		return smt.Unknown, fmt.Errorf("encode: %v", err)
	}
	conj, _ := pf.Inline(v.b)
	f := v.b.And(conj...)
	if f.Op == smt.False {
		return smt.Unsat, nil
	}
	s := v.opts.Solver(v.b)
	defer s.Close()
	if n, ok := s.(smt.Normalizer); ok {
		n.Normalize()
	}
	s.Assert(f)
	return s.Check(ctx)
}

// nonlinear reports whether a step of path multiplies two operands
// neither of which is a constant.
func nonlinear(path []cfa.Step) bool {
	found := false
	for _, st := range path {
		if st.Edge == nil || found {
			continue
		}
		cfa.ForEachExpr(st.Edge.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if b, ok := x.(*cfa.Binary); ok && b.Op == cfa.Mul && !constant(b.X) && !constant(b.Y) {
					found = true
				}
				return !found
			})
		})
	}
	return found
}

// constant reports whether x is an integer constant, possibly cast.
func constant(x cfa.Expr) bool {
	for {
		switch e := x.(type) {
		case *cfa.Const:
			return true
		case *cfa.Cast:
			x = e.X
		default:
			return false
		}
	}
}

// incremental keeps the SSA conjuncts of the current DFS path asserted in
// one solver, one assertion level per step, so that a branch is checked
// by one incremental call and a backtrack is a pop. Encodings are
// deterministic, so the encoding of a longer path starts with the
// conjuncts of its prefix; should that ever fail (a variable moving into
// memory), broken turns pruning off and checks fall back to one solver
// per segment.
type incremental struct {
	b      *smt.Builder
	prog   *cfa.Program
	s      smt.Solver
	terms  []*smt.Term
	marks  []int
	broken bool
	last   smt.Result
}

// push asserts the new conjuncts of path in a new level; with check it
// decides them (feasible is false only for Unsat). Every push needs a pop.
func (in *incremental) push(ctx context.Context, path []cfa.Step, check bool) (feasible bool, err error) {
	in.marks = append(in.marks, len(in.terms))
	in.s.Push()
	if in.broken || !check {
		// Lazily: the conjuncts of unchecked steps are asserted by the
		// next check (at its level, so a pop still removes them).
		return true, nil
	}
	pf, err := smt.EncodePathContext(ctx, in.b, in.prog, path, smt.EncodeOptions{})
	if err != nil {
		return false, err
	}
	if len(pf.Conjuncts) < len(in.terms) {
		in.broken = true
		return true, nil
	}
	ren := map[string]string{}
	for i, t := range in.terms {
		if pf.Conjuncts[i] != t && !samePrefix(t, pf.Conjuncts[i], ren, map[[2]int]bool{}) {
			in.broken = true
			return true, nil
		}
	}
	for _, t := range pf.Conjuncts[len(in.terms):] {
		in.s.Assert(t)
		in.terms = append(in.terms, t)
	}
	r, err := in.s.Check(ctx)
	in.last = r
	if r == smt.Unknown && err != nil && ctx.Err() != nil {
		return true, nil
	}
	return r != smt.Unsat, nil
}

// pathConjuncts encodes path (smt.EncodePathContext, the default C
// semantics) and returns its conjuncts with the called functions'
// formulas inlined, undefined behaviour not excluded: what a segment or
// a branch decided alone is checked on.
func pathConjuncts(ctx context.Context, b *smt.Builder, prog *cfa.Program, path []cfa.Step) ([]*smt.Term, error) {
	pf, err := smt.EncodePathContext(ctx, b, prog, path, smt.EncodeOptions{})
	if err != nil {
		return nil, err
	}
	conj, _ := pf.Inline(b)
	return conj, nil
}

// samePrefix is how push compares an asserted conjunct with its new
// encoding (tests replace it to make encodings drift).
var samePrefix = sameUpToFresh

// sameUpToFresh reports whether a and b are the same term up to a
// consistent renaming (ren, from a's names to b's) of the fresh
// variables the encoding creates (smt.Builder.FreshVar: "undef!n" for
// undefined behaviour, "adjacent objects!n" for pointers compared across
// objects, …; numbered anew by every encoding), each to one of the same
// prefix. The conjuncts a path's encoding adds after such a prefix name
// only fresh variables newer than any the asserted prefix holds, so
// asserting them on top of the old prefix means the same formula (at
// worst a fresh variable of the new prefix is left unconstrained, which
// only admits more). same memoises pairs of term IDs found equal.
func sameUpToFresh(a, b *smt.Term, ren map[string]string, same map[[2]int]bool) bool {
	if a == b {
		return true
	}
	key := [2]int{a.ID, b.ID}
	if same[key] {
		return true
	}
	if a.Op != b.Op || a.Sort != b.Sort || len(a.Args) != len(b.Args) || a.Val != b.Val || a.Hi != b.Hi || a.Lo != b.Lo || a.HiBit != b.HiBit {
		return false
	}
	if a.Name != b.Name {
		pa, fa := freshPrefix(a.Name)
		pb, fb := freshPrefix(b.Name)
		if a.Op != smt.Var || !fa || !fb || pa != pb {
			return false
		}
		if r, ok := ren[a.Name]; ok && r != b.Name {
			return false
		} else if !ok {
			for _, r := range ren {
				if r == b.Name {
					return false // not a bijection
				}
			}
			ren[a.Name] = b.Name
		}
	}
	args := func(swap bool) bool {
		for i := range a.Args {
			j := i
			if swap {
				j = len(a.Args) - 1 - i
			}
			if !sameUpToFresh(a.Args[i], b.Args[j], ren, same) {
				return false
			}
		}
		return true
	}
	if len(a.Args) == 2 && orderedOp(a.Op) {
		// The builder orders the operands of these by creation: a
		// renamed operand can come second.
		// A failed attempt's renamings and the pairs it found equal
		// under them are rolled back.
		saved, savedSame := maps.Clone(ren), maps.Clone(same)
		if !args(false) {
			clear(ren)
			maps.Copy(ren, saved)
			clear(same)
			maps.Copy(same, savedSame)
			if !args(true) {
				return false
			}
		}
	} else if !args(false) {
		return false
	}
	same[key] = true
	return true
}

// freshPrefix splits the name of a variable that smt.Builder.FreshVar
// made ("prefix!n") into its prefix; ok is false for other names (the
// encoding's versions of program variables are "name@n").
func freshPrefix(name string) (prefix string, ok bool) {
	i := strings.LastIndexByte(name, '!')
	if i <= 0 || i == len(name)-1 {
		return "", false
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return name[:i], true
}

// orderedOp reports whether the smt.Builder orders the two operands of
// op (commutative operators, equality).
func orderedOp(op smt.Op) bool {
	switch op {
	case smt.And, smt.Or, smt.Eq, smt.Add, smt.Mul, smt.BAnd, smt.BOr, smt.BXor:
		return true
	}
	return false
}

func (in *incremental) pop() {
	n := in.marks[len(in.marks)-1]
	in.marks = in.marks[:len(in.marks)-1]
	in.terms = in.terms[:n]
	in.s.Pop()
}

func solve(ctx context.Context, b *smt.Builder, f smt.Factory, conj []*smt.Term) (smt.Result, error) {
	for _, c := range conj {
		if c.Op == smt.False {
			return smt.Unsat, nil
		}
	}
	s := f(b)
	defer s.Close()
	for _, c := range conj {
		s.Assert(c)
	}
	return s.Check(ctx)
}

// callStep is the step over call edge e: Enter when the callee has a
// body, else Intra.
func callStep(p *cfa.Program, e *cfa.Edge) cfa.Step {
	if c, ok := e.Op.(*cfa.Call); ok && c.Fn != "" {
		if f := p.Func(c.Fn); f != nil {
			return cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f}
		}
	}
	return cfa.Step{Edge: e}
}

// pointerTargets returns the steps a call through a function pointer may
// take, as the location CPA does: Enter into every function with a body
// whose address is taken and whose parameters fit the arguments, and an
// Intra step when the address of a function without a body is taken.
func pointerTargets(p *cfa.Program, e *cfa.Edge) []cfa.Step {
	call := e.Op.(*cfa.Call)
	taken := map[string]bool{}
	for _, x := range p.Edges {
		cfa.ForEachExpr(x.Op, func(ex cfa.Expr) {
			cfa.Walk(ex, func(ex cfa.Expr) bool {
				if r, ok := ex.(*cfa.FuncRef); ok {
					taken[r.Name] = true
				}
				return true
			})
		})
	}
	var steps []cfa.Step
	ext := false
	for name := range taken {
		if p.Func(name) == nil {
			ext = true
		}
	}
	for _, f := range p.Funcs {
		if taken[f.Name] && (len(f.Params) == len(call.Args) || f.T != nil && f.T.Variadic && len(call.Args) >= len(f.Params)) {
			steps = append(steps, cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f})
		}
	}
	if ext {
		steps = append(steps, cfa.Step{Edge: e})
	}
	return steps
}
