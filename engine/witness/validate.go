package witness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
)

// Witness is a parsed YAML witness (format 2.0): either violation
// sequences or invariant sets.
type Witness struct {
	Violation   []YAMLEntry
	Correctness []YAMLCorrectnessEntry
}

// BadWitnessError reports witness content the validator does not accept:
// syntax, unsupported entry or waypoint types, expressions it cannot
// parse, locations matching nothing in the program. `reverify validate`
// exits with status 2 on it.
type BadWitnessError struct{ Msg string }

func (e *BadWitnessError) Error() string { return e.Msg }

func bad(format string, args ...any) error {
	return &BadWitnessError{Msg: fmt.Sprintf(format, args...)}
}

// ReadWitness parses a YAML witness of format 2.0 with entries of type
// violation_sequence or invariant_set (not both).
func ReadWitness(r io.Reader) (*Witness, error) {
	var raw []struct {
		EntryType string       `yaml:"entry_type"`
		Metadata  YAMLMetadata `yaml:"metadata"`
		Content   yaml.Node    `yaml:"content"`
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(string(data)); strings.HasPrefix(t, "<") {
		return nil, bad("witness: a GraphML (XML) witness; only YAML witnesses (format 2.0) are supported")
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		if i := strings.Index(msg, " into "); i >= 0 {
			msg = msg[:i]
		}
		return nil, bad("witness: not a YAML witness (a list of entries): %s", msg)
	}
	w := &Witness{}
	for i, e := range raw {
		if e.Metadata.FormatVersion != FormatVersion {
			return nil, bad("witness: entry %d has format_version %q; only %q is supported", i+1, e.Metadata.FormatVersion, FormatVersion)
		}
		switch e.EntryType {
		case "violation_sequence":
			var c []YAMLContent
			if err := e.Content.Decode(&c); err != nil {
				return nil, bad("witness: entry %d: %v", i+1, err)
			}
			w.Violation = append(w.Violation, YAMLEntry{EntryType: e.EntryType, Metadata: e.Metadata, Content: c})
		case "invariant_set":
			var c []YAMLInvariantItem
			if err := e.Content.Decode(&c); err != nil {
				return nil, bad("witness: entry %d: %v", i+1, err)
			}
			w.Correctness = append(w.Correctness, YAMLCorrectnessEntry{EntryType: e.EntryType, Metadata: e.Metadata, Content: c})
		default:
			return nil, bad("witness: entry %d: unsupported entry_type %q (supported: violation_sequence, invariant_set)", i+1, e.EntryType)
		}
	}
	switch {
	case len(w.Violation) == 0 && len(w.Correctness) == 0:
		return nil, bad("witness: no entries")
	case len(w.Violation) > 0 && len(w.Correctness) > 0:
		return nil, bad("witness: mixes violation_sequence and invariant_set entries")
	case len(w.Violation) > 1:
		return nil, bad("witness: %d violation_sequence entries; only one is supported", len(w.Violation))
	}
	return w, nil
}

// ValidateOptions configure Validate.
type ValidateOptions struct {
	Solver smt.Factory
	Entry  string // default "main"
	// Contents optionally maps file names to their text (else read from
	// disk), as Task.Contents.
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
	// nondeterministic inputs in read order (for Reproducer).
	Path   []cfa.Step
	Inputs []Input
}

func rejected(format string, args ...any) Validation {
	return Validation{Reason: fmt.Sprintf(format, args...)}
}

// Validate checks witness w against prog by replay (DESIGN.md, layer 5):
// a violation witness must describe a bit-precisely feasible path to the
// target (ValidateViolation); a correctness witness's invariants must be
// inductive and imply the property (ValidateCorrectness). A
// *BadWitnessError reports content it cannot use.
func Validate(ctx context.Context, prog *cfa.Program, w *Witness, opts ValidateOptions) (Validation, error) {
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
	src := newSources(opts.Contents)
	var md YAMLMetadata
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
func checkTask(prog *cfa.Program, src *sources, t YAMLTask) error {
	if t.DataModel != "" && t.DataModel != prog.DataModel.String() {
		return bad("witness: data model %s, but the program was translated for %s (use --data-model)", t.DataModel, prog.DataModel)
	}
	for name, h := range t.InputFileHashes {
		for _, f := range prog.Files {
			if filepath.Base(f) != filepath.Base(name) {
				continue
			}
			sf := src.file(f)
			if sf == nil {
				continue
			}
			sum := sha256.Sum256(sf.text)
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

func targetOf(md YAMLMetadata, props []*spec.Property) (*errorTarget, string, error) {
	if id, ok := strings.CutPrefix(md.Producer.Description, propertyPrefix); ok {
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
	funcs := map[string]bool{}
	for _, m := range callRE.FindAllStringSubmatch(md.Task.Specification, -1) {
		funcs[m[1]] = true
	}
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
}

// validateCorrectness checks the loop invariants by k-induction with
// k = 1 over the cut points (Floyd's inductive assertions): the program
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
// loop carries no invariant (a segment would be unbounded), when a
// segment from a loop in another function than the entry returns to a
// caller (callers' states are not tracked), or when a segment from a cut
// point dereferences a pointer or reads a global array, struct or union
// (their contents are not havocked there).
func validateCorrectness(ctx context.Context, prog *cfa.Program, src *sources, entries []YAMLCorrectnessEntry, opts ValidateOptions) (Validation, error) {
	target, what, err := targetOf(entries[0].Metadata, opts.Properties)
	if err != nil {
		return Validation{}, err
	}
	// Loop heads by keyword position.
	heads := map[string][]*cfa.Location{}
	sites := map[*cfa.Location]loopSite{}
	for _, l := range prog.Locs {
		if !l.LoopHead {
			continue
		}
		if s, ok := loopSiteOf(src, l); ok {
			k := posKey(s.kw.File, s.kw.Line, s.kw.Col)
			heads[k] = append(heads[k], l)
			sites[l] = s
		}
	}
	cuts := map[*cfa.Location]*cutPoint{}
	for _, e := range entries {
		for _, it := range e.Content {
			inv := it.Invariant
			if inv.Type != LoopInvariantType {
				return Validation{}, bad("witness: unsupported invariant type %q (supported: loop_invariant)", inv.Type)
			}
			if inv.Format != "" && inv.Format != "c_expression" {
				return Validation{}, bad("witness: unsupported invariant format %q (supported: c_expression)", inv.Format)
			}
			at := fmt.Sprintf("%s:%d:%d", inv.Location.FileName, inv.Location.Line, inv.Location.Column)
			locs := matchHeads(prog, heads, inv.Location)
			if len(locs) == 0 {
				return Validation{}, bad("witness: loop invariant at %s: no while or for loop starts there", at)
			}
			for _, l := range locs {
				x, err := ParseCExpr(inv.Value, scope(prog, l.Func, sites[l]), nil, prog.DataModel)
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
	v := &segments{ctx: ctx, prog: prog, opts: opts, target: target, cuts: cuts, entry: prog.Func(opts.Entry), b: smt.NewBuilder()}
	// From the program start, then from every cut point.
	if r, done := v.from(nil); done {
		return r, nil
	}
	for _, l := range prog.Locs {
		if c := cuts[l]; c != nil {
			if r, done := v.from(c); done {
				return r, nil
			}
		}
	}
	return Validation{Confirmed: true, Reason: fmt.Sprintf("%d loop invariants are inductive and imply %s (%d path segments checked)", len(cuts), what, v.paths)}, nil
}

func posKey(file string, line, col int) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Base(file), line, col)
}

// matchHeads finds the loop heads of a witness location: by file (base
// name), line and column; without a column, every loop starting on the
// line.
func matchHeads(prog *cfa.Program, heads map[string][]*cfa.Location, l YAMLLocation) []*cfa.Location {
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
	opts   ValidateOptions
	target *errorTarget
	cuts   map[*cfa.Location]*cutPoint
	entry  *cfa.Function
	b      *smt.Builder
	paths  int
}

type frameKey struct {
	loc   *cfa.Location
	stack string
}

// from checks every segment starting at cut point c (nil: the program
// start). done is true when the witness is rejected.
func (v *segments) from(c *cutPoint) (Validation, bool) {
	var path []cfa.Step
	start := v.prog.Init.Entry
	startName := "the program start"
	if len(start.Out) == 0 {
		start = v.entry.Entry
	}
	if c != nil {
		start = c.loc
		startName = "the loop invariant at " + c.at
		path = v.havocInScope(c)
		if r, bad := v.unsupportedStart(c); bad {
			return r, true
		}
	}
	inc := &incremental{b: v.b, prog: v.prog, s: v.opts.Solver(v.b)}
	defer inc.s.Close()
	var stack []*cfa.Edge
	onPath := map[frameKey]bool{}
	// descend extends the path by step and walks on from next, unless the
	// extended path is infeasible (checked at branches).
	var walk func(l *cfa.Location, first bool) (Validation, bool)
	descend := func(step cfa.Step, next *cfa.Location) (Validation, bool) {
		path = append(path, step)
		defer func() { path = path[:len(path)-1] }()
		branch := false
		if step.Edge != nil && step.Kind == cfa.Intra && len(step.Edge.From.Out) > 1 {
			_, branch = step.Edge.Op.(*cfa.Assume)
		}
		feasible, err := inc.push(v.ctx, path, branch)
		defer inc.pop()
		if err != nil {
			return rejected("a segment from %s cannot be encoded: %v", startName, err), true
		}
		if !feasible {
			return Validation{}, false
		}
		return walk(next, false)
	}
	walk = func(l *cfa.Location, first bool) (Validation, bool) {
		if err := v.ctx.Err(); err != nil {
			return rejected("validation cancelled: %v", err), true
		}
		if cp := v.cuts[l]; cp != nil && !first {
			// End of a segment: the cut point's invariant must hold.
			end := append(append([]cfa.Step(nil), path...), synth(l, &cfa.Assume{Cond: cp.inv, Truth: false}))
			if r, bad := v.check(inc, end, func() string {
				if c == nil {
					return fmt.Sprintf("loop invariant at %s does not hold when the loop is entered: a path from %s reaches it violating %q%s", cp.at, startName, cp.text, lines(path))
				}
				return fmt.Sprintf("loop invariant at %s is not inductive: a path from %s reaches %s violating %q%s", cp.at, startName, cp.at, cp.text, lines(path))
			}); bad {
				return r, true
			}
			return Validation{}, false
		}
		key := frameKey{l, stackKey(stack)}
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
				return Validation{}, false // abort, exit, failed assume
			}
			switch {
			case l.Func == v.prog.Init:
				return descend(cfa.Step{Kind: cfa.Enter, Callee: v.entry}, v.entry.Entry)
			case len(stack) > 0:
				call := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				r, done := descend(cfa.Step{Kind: cfa.Leave, Edge: call, Callee: l.Func}, call.To)
				stack = append(stack, call)
				return r, done
			case l.Func == v.entry:
				return Validation{}, false // the program ends
			default:
				return rejected("a path from %s returns from %s to an unknown caller (only loops of %s, or loops whose segments stay inside their function, are supported)", startName, l.Func.Name, v.entry.Name), true
			}
		}
		for _, e := range l.Out {
			if v.target.hit(e, stack) {
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
func (v *segments) havocInScope(c *cutPoint) []cfa.Step {
	var path []cfa.Step
	for _, g := range v.prog.Vars {
		if g.Global && g.T.IsScalar() && g.T.Kind != cfa.Float {
			path = append(path, synth(c.loc, &cfa.Havoc{LHS: &cfa.VarRef{Var: g}, Source: "invariant"}))
		}
	}
	return append(path, synth(c.loc, &cfa.Assume{Cond: c.inv, Truth: true}))
}

// unsupportedStart rejects cut points in functions whose parameters the
// encoding cannot leave unconstrained.
func (v *segments) unsupportedStart(c *cutPoint) (Validation, bool) {
	for _, p := range c.loc.Func.Params {
		if !p.T.IsInteger() {
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

// check decides whether path is infeasible (good), incrementally on top
// of the conjuncts inc has asserted for its prefix when it can. A
// satisfiable or undecided formula rejects the witness with reason().
func (v *segments) check(inc *incremental, path []cfa.Step, reason func() string) (Validation, bool) {
	v.paths++
	if v.paths > v.opts.MaxPaths {
		return rejected("more than %d path segments: the validator gives up", v.opts.MaxPaths), true
	}
	var r smt.Result
	var err error
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
		var pf *smt.PathFormula
		pf, err = smt.EncodePath(v.b, v.prog, path)
		if err != nil {
			return rejected("%s; the segment cannot be encoded: %v", reason(), err), true
		}
		conj, _ := pf.Inline(v.b)
		r, err = solve(v.ctx, v.b, v.opts.Solver, conj)
	}
	switch r {
	case smt.Unsat:
		return Validation{}, false
	case smt.Sat:
		return rejected("%s", reason()), true
	}
	return rejected("%s? (the solver could not decide: %v)", reason(), err), true
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
	pf, err := smt.EncodePath(in.b, in.prog, path)
	if err != nil {
		return false, err
	}
	if len(pf.Conjuncts) < len(in.terms) {
		in.broken = true
		return true, nil
	}
	for i, t := range in.terms {
		if pf.Conjuncts[i] != t {
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
