package validate

import (
	"context"
	"fmt"
	"strconv"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/arrayelim"
)

// maxRegionNodes bounds the (location, call stack) nodes of one merged
// region; a larger region is left to the path-by-path walk.
const maxRegionNodes = 50000

// regionNode is one location under one call stack of the loop-free
// region between a segment's start and the next cut points.
type regionNode struct {
	loc   *cfa.Location
	stack []*cfa.Edge
	// end is the cut point this node ends a segment at (nil: none).
	end *cutPoint
	// errs are the error call edges leaving the node.
	errs []*cfa.Edge
	out  []regionArc
	// indeg and pending serve the topological pass.
	indeg   int
	pending []*smt.SymState
}

// regionArc leads from a node to the next over its steps (usually one;
// the entry function's synthetic call after Init takes several).
type regionArc struct {
	steps []cfa.Step
	to    *regionNode
}

// regionEncoding is the merged encoding of the segments from one start
// (encodeRegion): the state at each segment end and the conditions
// under which an execution reaches an error call or an access outside
// the encoding.
type regionEncoding struct {
	m    *smt.Merger
	ends []regionEnd
	bad  []*smt.Term
	// checks is the number of segment ends and error calls.
	checks int
}

// regionEnd is the joined state of the executions that end a segment
// at a cut point.
type regionEnd struct {
	cp *cutPoint
	st *smt.SymState
}

// violating returns the condition (Bool) under which an execution ends
// at e violating x.
func (r *regionEncoding) violating(ctx context.Context, e regionEnd, x cfa.Expr) (*smt.Term, bool) {
	s := r.m.Clone(e.st)
	if r.m.Apply(ctx, s, synth(e.cp.loc, &cfa.Assume{Cond: x, Truth: false})) != nil {
		return nil, false
	}
	return s.Guard(), true
}

// encodeRegion encodes every segment from cut point c (nil: the program
// start) under inv in the calling context chain at once: the region of
// (location, call stack) nodes a segment can pass before its next cut
// point is a DAG, which smt.Merger encodes with one state per node,
// joining the states arriving at it (large-block encoding: Beyer,
// Cimatti, Griggio, Keremoglu, Sebastiani, FMCAD 2009; as engine/bmc's
// unrolling). ok is false, and the path-by-path walk (fromCase) must
// decide, for a construct the walk rejects, a cycle without a cut
// point, a region above maxRegionNodes, or a product of two variables
// (which the walk decides on a normalised formula).
func (v *segments) encodeRegion(ctx context.Context, c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (*regionEncoding, bool) {
	start, pre, stack, _, _, bad := v.prefix(c, inv, chain)
	if bad || nonlinear(pre) {
		return nil, false
	}
	order, root, ok := v.region(start, stack, c != nil)
	if !ok {
		return nil, false
	}
	var edges []*cfa.Edge
	for _, st := range pre {
		if st.Edge != nil {
			edges = append(edges, st.Edge)
		}
	}
	edges = append(edges, v.prog.Edges...)
	m := smt.NewMerger(v.b, v.prog, edges, smt.EncodeOptions{})
	enc := &regionEncoding{m: m}
	s := m.Initial()
	for _, st := range pre {
		if m.Apply(ctx, s, st) != nil {
			return nil, false
		}
	}
	root.pending = []*smt.SymState{s}
	for _, n := range order {
		if len(n.pending) == 0 {
			continue
		}
		st, err := m.Join(n.pending)
		n.pending = nil
		if err != nil {
			return nil, false
		}
		m.NameGuard(st, "node!"+strconv.Itoa(n.loc.ID))
		if st.Guard().Op == smt.False {
			continue
		}
		if n.end != nil {
			enc.checks++
			enc.ends = append(enc.ends, regionEnd{cp: n.end, st: st})
			continue
		}
		for _, e := range n.errs {
			enc.checks++
			x := m.Clone(st)
			if m.Apply(ctx, x, callStep(v.prog, e)) != nil {
				return nil, false
			}
			enc.bad = append(enc.bad, x.Guard())
		}
		for i, a := range n.out {
			x := st
			if i < len(n.out)-1 {
				x = m.Clone(st)
			}
			for _, step := range a.steps {
				if m.Apply(ctx, x, step) != nil {
					return nil, false
				}
			}
			if x.Guard().Op != smt.False {
				a.to.pending = append(a.to.pending, x)
			}
		}
	}
	for _, u := range m.Formula().UB {
		if smt.OutsideEncoding(u.Kind) {
			enc.bad = append(enc.bad, u.Cond)
		}
	}
	return enc, true
}

// merged decides every segment from cut point c (nil: the program
// start) under inv in the calling context chain at once, for k = 1
// outside Houdini (encodeRegion): one query asks whether some execution
// reaches a cut point violating its invariant, reaches an error call,
// or performs an access outside the encoding (smt.OutsideEncoding). ok
// is true only when that query is unsatisfiable, which proves what the
// path-by-path walk (fromCase) would prove for every path; otherwise the
// walk decides, and names the path that fails. checks is the number of
// segment ends and error calls covered.
func (v *segments) merged(ctx context.Context, c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (ok bool, checks int) {
	enc, ok := v.encodeRegion(ctx, c, inv, chain)
	if !ok {
		return false, 0
	}
	bad := enc.bad
	for _, e := range enc.ends {
		t, ok := enc.violating(ctx, e, e.cp.inv)
		if !ok {
			return false, 0
		}
		bad = append(bad, t)
	}
	r, err := v.solveMerged(ctx, enc.m, v.b.Or(bad...), nil)
	return err == nil && r == smt.Unsat, enc.checks
}

// houdiniMerged is Houdini's round over the segments from c (as merged):
// every live candidate of a segment end that some execution ends there
// violating dies. The candidates are checked together: a model of the
// disjunction of their violations names the ones it violates, which
// die, until the disjunction is unsatisfiable. ok is false when the
// region is outside encodeRegion (the walk decides) or a query is
// undecided (those candidates have not been checked).
func (v *segments) houdiniMerged(ctx context.Context, c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (ok bool) {
	enc, ok := v.encodeRegion(ctx, c, inv, chain)
	if !ok {
		return false
	}
	type check struct {
		r candRef
		t *smt.Term
	}
	var checks []check
	for _, e := range enc.ends {
		for _, r := range e.cp.cands {
			if r.c.dead {
				continue
			}
			t, ok := enc.violating(ctx, e, r.x)
			if !ok {
				return false
			}
			checks = append(checks, check{r, t})
		}
	}
	for {
		var live []*smt.Term
		for _, ch := range checks {
			if !ch.r.c.dead {
				live = append(live, ch.t)
			}
		}
		if len(live) == 0 {
			return true
		}
		v.paths++
		killed := false
		res, err := v.solveMerged(ctx, enc.m, v.b.Or(live...), func(mod smt.Model) {
			for _, ch := range checks {
				if lo, _ := mod.Eval(ch.t); !ch.r.c.dead && lo == 1 {
					ch.r.c.dead, killed, v.changed = true, true, true
				}
			}
		})
		if err != nil || res == smt.Unknown {
			return false
		}
		if res == smt.Unsat {
			return true
		}
		if !killed {
			return false
		}
	}
}

// solveMerged decides m's formula with t (Bool) on a fresh solver, with
// arrays eliminated where arrayelim can (as engine/bmc's queries); for
// Sat, eval (when not nil) sees the model, which evaluates m's terms.
func (v *segments) solveMerged(ctx context.Context, m *smt.Merger, t *smt.Term, eval func(smt.Model)) (r smt.Result, err error) {
	q := m.Query(t)
	for _, c := range q {
		if c.Op == smt.False {
			return smt.Unsat, nil
		}
	}
	el := arrayelim.New(v.b)
	if out, ok := el.Eliminate(q); ok {
		q = out
	} else {
		el = nil
	}
	s := v.opts.Solver(v.b)
	defer s.Close()
	for _, c := range q {
		s.Assert(c)
	}
	r, err = s.Check(ctx)
	if r == smt.Sat && eval != nil {
		eval(mergedModel{s.Model(), m, el})
	}
	return r, err
}

// mergedModel evaluates terms of a merger in a model of its query.
type mergedModel struct {
	mod smt.Model
	m   *smt.Merger
	el  *arrayelim.Eliminator
}

func (in mergedModel) Eval(t *smt.Term) (lo, hi uint64) {
	t = in.m.Inline(t)
	if in.el != nil {
		t = in.el.Rewrite(t)
	}
	return in.mod.Eval(t)
}

// region returns the nodes that segments from start (with call stack
// stack) pass before their next cut point, in a topological order, and
// the node of start; fromCut says whether start is a cut point (it
// begins segments there, it does not end one). ok is false when the
// walk must decide instead: a step it rejects (a memory read in a
// segment from a cut point, a return to an unknown caller, a call depth
// above 64), a cycle without a cut point, a product of two variables,
// or more than maxRegionNodes nodes.
func (v *segments) region(start *cfa.Location, stack []*cfa.Edge, fromCut bool) (order []*regionNode, root *regionNode, ok bool) {
	byKey := map[string]*regionNode{}
	var all []*regionNode
	get := func(l *cfa.Location, stack []*cfa.Edge, first bool) *regionNode {
		end := v.cuts[l]
		if first {
			end = nil
		}
		k := strconv.Itoa(l.ID) + "|" + stackKey(stack)
		if end != nil {
			k += "|end"
		}
		if n := byKey[k]; n != nil {
			return n
		}
		if len(all) >= maxRegionNodes {
			return nil
		}
		n := &regionNode{loc: l, stack: stack, end: end}
		byKey[k] = n
		all = append(all, n)
		return n
	}
	push := func(st []*cfa.Edge, e *cfa.Edge) []*cfa.Edge {
		return append(append([]*cfa.Edge(nil), st...), e)
	}
	root = get(start, stack, true)
	link := func(n *regionNode, to *regionNode, steps ...cfa.Step) bool {
		if to == nil || nonlinear(steps) {
			return false
		}
		n.out = append(n.out, regionArc{steps: steps, to: to})
		to.indeg++
		return true
	}
	for i := 0; i < len(all); i++ {
		n := all[i]
		if n.end != nil {
			continue
		}
		if len(n.stack) > 64 {
			return nil, nil, false
		}
		l := n.loc
		if len(l.Out) == 0 {
			switch {
			case l != l.Func.Exit:
				// abort, exit, failed assume
			case l.Func == v.prog.Init:
				steps, why := v.entrySteps()
				if why != "" || !link(n, get(v.entry.Entry, n.stack, false), steps...) {
					return nil, nil, false
				}
			case len(n.stack) > 0:
				call := n.stack[len(n.stack)-1]
				if !link(n, get(call.To, n.stack[:len(n.stack)-1], false), cfa.Step{Kind: cfa.Leave, Edge: call, Callee: l.Func}) {
					return nil, nil, false
				}
			case l.Func == v.entry:
				// the program ends
			default:
				return nil, nil, false
			}
			continue
		}
		for _, e := range l.Out {
			if v.target.hit(e, n.stack) {
				n.errs = append(n.errs, e)
				continue
			}
			call, isCall := e.Op.(*cfa.Call)
			if isCall && call.Fn == "" {
				for _, st := range pointerTargets(v.prog, e) {
					to := get(e.To, n.stack, false)
					if st.Kind == cfa.Enter {
						to = get(st.Callee.Entry, push(n.stack, e), false)
					}
					if !link(n, to, st) {
						return nil, nil, false
					}
				}
				continue
			}
			if isCall {
				if f := v.prog.Func(call.Fn); f != nil {
					if !link(n, get(f.Entry, push(n.stack, e), false), cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f}) {
						return nil, nil, false
					}
					continue
				}
			}
			if fromCut {
				if _, bad := unsupportedOp(e); bad {
					return nil, nil, false
				}
			}
			if !link(n, get(e.To, n.stack, false), cfa.Step{Edge: e}) {
				return nil, nil, false
			}
		}
	}
	// Kahn's algorithm: a node left over lies on a cycle.
	queue := []*regionNode{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		order = append(order, n)
		for _, a := range n.out {
			a.to.indeg--
			if a.to.indeg == 0 {
				queue = append(queue, a.to)
			}
		}
	}
	if len(order) != len(all) {
		return nil, nil, false
	}
	return order, root, true
}

// String names the node for debugging.
func (n *regionNode) String() string {
	return fmt.Sprintf("%s@%s", posOf(n.loc), stackKey(n.stack))
}
