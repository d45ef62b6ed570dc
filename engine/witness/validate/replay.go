package validate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/csyntax"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/results"
)

// maxReplaySteps bounds the length of a replayed path.
const maxReplaySteps = 20000

// replay searches for a path through the program that follows the
// waypoints of a violation witness.
type replay struct {
	ctx   context.Context
	prog  *cfa.Program
	src   *witness.Sources
	opts  Options
	wps   []witness.YAMLWaypoint
	entry *cfa.Function
	errs  map[string]bool
	b     *smt.Builder
	nodes int
	best  int // most waypoints passed on any path
	found *Validation
	why   string // reason of the last dead end after the best waypoint
	// sticky: why is an error call that missed the target (errorCallEnd)
	sticky bool
	names  map[*cfa.Function]map[string]*cfa.Var
	inc    *incremental
}

// validateViolation restricts the program to the witness's waypoints and
// searches for a bit-precisely feasible path that passes them all in
// order (a depth-first search over the interprocedural CFA; each
// waypoint is matched the first time the path reaches its location, as
// the writers place them):
//
//   - assumption: the constraint (a C expression over the variables of
//     the waypoint's function) is assumed before the first edge of that
//     function at or after the waypoint's position;
//   - branching: the branch statement whose keyword is at the location
//     must take the given direction (conditions split by && and || are
//     combined as the writers do);
//   - function_enter: a call entered at the location (its closing
//     parenthesis);
//   - function_return: "\result == v" constrains the value of the call
//     of a __VERIFIER_nondet_* or external function at the location;
//   - target: a call of the specification's error function starting at
//     the location ends the path.
//
// Branches no waypoint decides are both explored, pruned by SMT
// feasibility; the complete path is checked by smt.CheckPath (bit-precise,
// without undefined behaviour). avoid waypoints are not supported.
func validateViolation(ctx context.Context, prog *cfa.Program, src *witness.Sources, e witness.YAMLEntry, opts Options) (Validation, error) {
	r := &replay{ctx: ctx, prog: prog, src: src, opts: opts, entry: prog.Func(opts.Entry), b: smt.NewBuilder(),
		names: map[*cfa.Function]map[string]*cfa.Var{}}
	for i, seg := range e.Content {
		for j, it := range seg.Segment {
			wp := it.Waypoint
			if wp.Action != witness.Follow {
				return Validation{}, bad("witness: segment %d, waypoint %d: action %q is not supported (only follow)", i+1, j+1, wp.Action)
			}
			switch wp.Type {
			case witness.Assumption, witness.Branching, witness.FunctionEnter, witness.FunctionReturn, witness.Target:
			default:
				return Validation{}, bad("witness: segment %d: unsupported waypoint type %q", i+1, wp.Type)
			}
			if wp.Location.Line < 1 {
				return Validation{}, bad("witness: segment %d: waypoint without a line", i+1)
			}
			if (wp.Type == witness.Assumption || wp.Type == witness.FunctionReturn || wp.Type == witness.Branching) && wp.Constraint == nil {
				return Validation{}, bad("witness: segment %d: %s waypoint without a constraint", i+1, wp.Type)
			}
			if wp.Type == witness.Branching && wp.Constraint.Value != "true" && wp.Constraint.Value != "false" {
				return Validation{}, bad("witness: segment %d: branching constraint %q is neither true nor false", i+1, wp.Constraint.Value)
			}
			if wp.Type == witness.Target && (i != len(e.Content)-1 || j != len(seg.Segment)-1) {
				return Validation{}, bad("witness: segment %d: target waypoint before the last segment", i+1)
			}
			r.wps = append(r.wps, wp)
		}
	}
	if len(r.wps) == 0 || r.wps[len(r.wps)-1].Type != witness.Target {
		return Validation{}, bad("witness: the violation sequence does not end with a target waypoint")
	}
	r.errs = witness.SpecErrorFuncs(e.Metadata.Task.Specification)
	if len(r.errs) == 0 {
		for f := range spec.SVCompErrorFuncs {
			r.errs[f] = true
		}
	}
	// Parse the constraints up front, so that bad ones are bad input.
	for i, wp := range r.wps {
		if wp.Type == witness.Assumption {
			if _, err := r.parse(wp, nil); err != nil {
				return Validation{}, bad("witness: waypoint %d (%s): %v", i+1, wp, err)
			}
		}
		if wp.Type == witness.FunctionReturn && !strings.Contains(wp.Constraint.Value, `\result`) {
			return Validation{}, bad(`witness: waypoint %d (%s): a function_return constraint must mention \result`, i+1, wp)
		}
	}
	start := prog.Init.Entry
	if len(start.Out) == 0 {
		start = r.entry.Entry
	}
	r.inc = &incremental{b: r.b, prog: prog, s: opts.Solver(r.b)}
	defer r.inc.s.Close()
	r.walk(start, nil, nil, 0)
	if r.found != nil {
		return *r.found, nil
	}
	if r.best < len(r.wps) {
		why := r.why
		if why == "" {
			why = "no feasible path reaches it"
		}
		return rejected("no feasible path follows the witness: waypoint %d of %d (%s) is never passed: %s", r.best+1, len(r.wps), r.wps[r.best], why), nil
	}
	return rejected("no feasible path follows the witness"), nil
}

// funcNames returns the source names of fn's variables (locals unique by
// source name, parameters) and the globals they do not shadow.
func (r *replay) funcNames(fn *cfa.Function) map[string]*cfa.Var {
	if m, ok := r.names[fn]; ok {
		return m
	}
	m := map[string]*cfa.Var{}
	dup := map[string]bool{}
	if fn != nil {
		for _, v := range append(append([]*cfa.Var(nil), fn.Params...), fn.Locals...) {
			if v.Temp || v.Orig == "" {
				continue
			}
			if _, ok := m[v.Orig]; ok {
				dup[v.Orig] = true
			}
			m[v.Orig] = v
		}
	}
	for n := range dup {
		delete(m, n)
	}
	for _, v := range r.prog.Vars {
		if !v.Global || v.Temp || v.Orig == "" || strings.Contains(v.Name, "::") {
			continue
		}
		if _, ok := m[v.Orig]; !ok && !dup[v.Orig] {
			m[v.Orig] = v
		}
	}
	r.names[fn] = m
	return m
}

func (r *replay) parse(wp witness.YAMLWaypoint, result cfa.Expr) (cfa.Expr, error) {
	fn := r.prog.Func(wp.Location.Function)
	if fn == nil && wp.Location.Function != "" && wp.Type == witness.Assumption {
		return nil, fmt.Errorf("no function %s", wp.Location.Function)
	}
	if fn == nil {
		fn = r.entry
	}
	return csyntax.ParseExpr(wp.Constraint.Value, r.funcNames(fn), result, r.prog.DataModel)
}

// at reports whether position p is the waypoint's location (file by
// base name; a missing column matches any).
func (r *replay) at(p cfa.Pos, wp witness.YAMLWaypoint) bool {
	if p.Line != wp.Location.Line || filepath.Base(p.File) != filepath.Base(wp.Location.FileName) {
		return false
	}
	return wp.Location.Column == 0 || wp.Location.Column == p.Col
}

// reachedPos reports whether edge e, in function fn, starts at or after
// the assumption waypoint's position in its function.
func (r *replay) reachedPos(e *cfa.Edge, wp witness.YAMLWaypoint) bool {
	p := e.Pos.Start
	if p.Line == 0 || filepath.Base(p.File) != filepath.Base(wp.Location.FileName) {
		return false
	}
	if wp.Location.Function != "" && e.From.Func.Name != wp.Location.Function {
		return false
	}
	return p.Line > wp.Location.Line || p.Line == wp.Location.Line && p.Col >= wp.Location.Column
}

// callParen returns the closing parenthesis of the call of fn that edge
// e ends with.
func (r *replay) callParen(e *cfa.Edge, fn string) (cfa.Pos, bool) {
	return r.src.CallParen(e, fn)
}

// branch resolves assume edge e to its statement keyword and the value
// of the whole controlling expression, if e decides it.
func (r *replay) branch(e *cfa.Edge) (kw cfa.Pos, value, decisive, ok bool) {
	return r.src.Branch(e)
}

func (r *replay) deadEnd(wi int, why string) {
	if wi > r.best || wi == r.best && !r.sticky {
		r.best, r.why, r.sticky = wi, why, false
	}
}

// alone reports whether path may be feasible, decided by a solver of
// its own (undefined behaviour ignored, as the incremental check does);
// an undecided check counts as feasible.
func (r *replay) alone(path []cfa.Step) (bool, error) {
	conj, err := pathConjuncts(r.ctx, r.b, r.prog, path)
	if err != nil {
		return false, err
	}
	res, _ := solve(r.ctx, r.b, r.opts.Solver, conj)
	return res != smt.Unsat, nil
}

// errorCallEnd records a path ending in the call of an error function
// that did not match the target waypoint: at equal progress, later dead
// ends do not replace this reason (it is the likeliest mistake).
func (r *replay) errorCallEnd(wi int, why string) {
	if wi > r.best || wi == r.best && !r.sticky {
		r.best, r.why, r.sticky = wi, why, true
	}
}

// step walks on from l with path (one or more steps longer than the
// caller's), asserting its conjuncts incrementally; with check, an
// infeasible path (ignoring undefined behaviour: pruning only, the final
// check is exact) is a dead end.
func (r *replay) step(l *cfa.Location, path []cfa.Step, stack []*cfa.Edge, wi int, check bool, why string) bool {
	feasible, err := r.inc.push(r.ctx, path, check)
	defer r.inc.pop()
	if err == nil && feasible && check && r.inc.broken {
		// The encodings drifted apart, which turns the incremental
		// check off: decide the path alone, so the search still prunes.
		feasible, err = r.alone(path)
	}
	if err != nil {
		r.deadEnd(wi, err.Error())
		return false
	}
	if !feasible {
		r.deadEnd(wi, why)
		return false
	}
	return r.walk(l, path, stack, wi)
}

// walk extends path from location l with the call stack and the next
// waypoint wi; it returns true when the search is over (found, or out
// of budget).
func (r *replay) walk(l *cfa.Location, path []cfa.Step, stack []*cfa.Edge, wi int) bool {
	r.nodes++
	if r.ctx.Err() != nil || r.nodes > r.opts.MaxPaths {
		r.deadEnd(wi, "the search bound was exceeded")
		return true
	}
	if len(path) > maxReplaySteps {
		r.deadEnd(wi, fmt.Sprintf("paths longer than %d steps are not followed", maxReplaySteps))
		return false
	}
	if len(l.Out) == 0 {
		if l != l.Func.Exit {
			if why, isErr := r.endReason(l, path); isErr {
				r.errorCallEnd(wi, why)
			} else {
				r.deadEnd(wi, why)
			}
			return false
		}
		switch {
		case l.Func == r.prog.Init:
			return r.step(r.entry.Entry, append(path, cfa.Step{Kind: cfa.Enter, Callee: r.entry}), stack, wi, false, "")
		case len(stack) > 0:
			call := stack[len(stack)-1]
			return r.step(call.To, append(path, cfa.Step{Kind: cfa.Leave, Edge: call, Callee: l.Func}), stack[:len(stack)-1], wi, false, "")
		}
		r.deadEnd(wi, "the program ends")
		return false
	}
	branching := 0
	for _, e := range l.Out {
		if _, ok := e.Op.(*cfa.Assume); ok {
			branching++
		}
	}
	for _, e := range l.Out {
		p := path[:len(path):len(path)]
		w := wi
		decided := false // a branching waypoint chose e
		// Assumptions evaluated before this edge.
		for w < len(r.wps) && r.wps[w].Type == witness.Assumption && r.reachedPos(e, r.wps[w]) {
			x, err := r.parse(r.wps[w], nil)
			if err != nil {
				r.deadEnd(w, err.Error())
				return true
			}
			p = append(p, synth(l, &cfa.Assume{Cond: x, Truth: true}))
			w++
		}
		if w < len(r.wps) {
			wp := r.wps[w]
			switch wp.Type {
			case witness.Branching:
				if kw, val, decisive, ok := r.branch(e); ok && decisive && r.at(kw, wp) {
					if val != (wp.Constraint.Value == "true") {
						continue
					}
					w++
					decided = true
				}
			case witness.Target:
				c, ok := e.Op.(*cfa.Call)
				if ok && r.errs[c.Fn] && !r.at(e.Pos.Start, wp) {
					r.errorCallEnd(w, fmt.Sprintf("the path calls %s at %s, not at the target's location", c.Fn, e.Pos.Start))
				}
				if ok && r.errs[c.Fn] && r.at(e.Pos.Start, wp) {
					final := append(p, callStep(r.prog, e))
					res, err := smt.CheckPath(r.ctx, r.b, r.opts.Solver, r.prog, final)
					switch {
					case err == nil && res.Status == smt.Sat:
						v := r.confirm(final, res)
						r.found = &v
						return true
					case res.Status == smt.Unsat:
						r.deadEnd(w, "the path to the target is infeasible")
						continue
					default:
						r.deadEnd(w, res.Reason)
						continue
					}
				}
			}
		}
		call, isCall := e.Op.(*cfa.Call)
		var callee *cfa.Function
		if isCall && call.Fn != "" {
			callee = r.prog.Func(call.Fn)
		}
		targets := []*cfa.Function{callee}
		if isCall && call.Fn == "" {
			targets = nil
			for _, st := range pointerTargets(r.prog, e) {
				targets = append(targets, st.Callee) // nil: a function without a body
			}
		}
		for _, callee := range targets {
			if callee == nil {
				continue
			}
			w := w
			if w < len(r.wps) && r.wps[w].Type == witness.FunctionEnter {
				if pp, ok := r.callParen(e, call.Fn); ok && r.at(pp, r.wps[w]) {
					w++
				}
			}
			if len(stack) >= 64 {
				r.deadEnd(w, "call depth above 64")
				continue
			}
			if r.step(callee.Entry, append(p, cfa.Step{Edge: e, Kind: cfa.Enter, Callee: callee}), append(stack[:len(stack):len(stack)], e), w, len(p) > len(path), "the assumptions before "+e.Pos.Start.String()+" are infeasible") {
				return true
			}
		}
		if isCall && (call.Fn == "" && !hasNil(targets) || callee != nil) {
			continue
		}
		p = append(p, cfa.Step{Edge: e})
		// function_return: the value of a nondet or external call.
		if w < len(r.wps) && r.wps[w].Type == witness.FunctionReturn {
			var lhs cfa.Expr
			fn := ""
			switch op := e.Op.(type) {
			case *cfa.Havoc:
				lhs, fn = op.LHS, op.Source
			case *cfa.Call:
				lhs, fn = op.Result, op.Fn
			}
			if fn != "" {
				if pp, ok := r.callParen(e, fn); ok && r.at(pp, r.wps[w]) {
					if lhs != nil {
						x, err := r.parse(r.wps[w], lhs)
						if err != nil {
							r.deadEnd(w, err.Error())
							return true
						}
						p = append(p, synth(e.To, &cfa.Assume{Cond: x, Truth: true}))
					}
					w++
				}
			}
		}
		// A branch the witness chose is not checked on its own: the
		// other is not followed, so a check would prune nothing, and
		// checking every loop iteration's branch re-encodes the path
		// each time (quadratic in its length); the next check, or the
		// final one at the target, covers it.
		_, assume := e.Op.(*cfa.Assume)
		if r.step(e.To, p, stack, w, assume && branching > 1 && !decided || len(p) > len(path)+1, "the branch at "+e.Pos.Start.String()+" is infeasible") {
			return true
		}
	}
	return false
}

// endReason says why a path ends at l, a location without successors
// other than its function's exit: when the last step calls an error
// function that did not match the target waypoint, which one and why,
// else an abort, exit or failed assumption. isErr tells the first case.
func (r *replay) endReason(l *cfa.Location, path []cfa.Step) (why string, isErr bool) {
	if n := len(path); n > 0 && path[n-1].Edge != nil {
		e := path[n-1].Edge
		if c, ok := e.Op.(*cfa.Call); ok && spec.ErrorFuncs[c.Fn] {
			if !r.errs[c.Fn] {
				return fmt.Sprintf("the path calls %s at %s, which the witness's specification does not name", c.Fn, e.Pos.Start), true
			}
			return fmt.Sprintf("the path calls %s at %s, not at the target's location", c.Fn, e.Pos.Start), true
		}
	}
	return "the path ends (abort, exit or a failed assumption) at " + posOf(l), false
}

// confirm turns the feasible path into a Validation with the path's
// program steps (synthetic assumptions removed) and the model's inputs.
func (r *replay) confirm(path []cfa.Step, res smt.PathResult) Validation {
	idx := make([]int, len(path))
	var out []cfa.Step
	for i, s := range path {
		idx[i] = len(out)
		if s.Edge != nil && s.Edge.ID < 0 {
			idx[i] = -1
			continue
		}
		out = append(out, s)
	}
	var ins []results.Input
	for _, in := range res.Inputs {
		if in.Step < 0 || in.Step >= len(idx) || idx[in.Step] < 0 {
			continue
		}
		ins = append(ins, results.NewInput(in.Source, in.Type, in.Value, idx[in.Step], out))
	}
	last := path[len(path)-1].Edge
	return Validation{Confirmed: true, Path: out, Inputs: ins,
		Reason: fmt.Sprintf("a feasible path through %d steps passes all %d waypoints and calls %s at %s", len(out), len(r.wps), last.Op.(*cfa.Call).Fn, last.Pos.Start)}
}

func hasNil(fs []*cfa.Function) bool {
	for _, f := range fs {
		if f == nil {
			return true
		}
	}
	return false
}
