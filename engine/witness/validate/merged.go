package validate

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/arrayelim"
)

// maxRegionNodes bounds the (location, call stack, depth, unrolling)
// nodes of one merged encoding; a larger one is left to the
// path-by-path walk.
const maxRegionNodes = 100000

// regionNode is one location under one call stack, after depth cut
// points and the iterations unroll of unrolled loops, of the region a
// segment passes.
type regionNode struct {
	loc   *cfa.Location
	stack []*cfa.Edge
	depth int
	// unroll is the history of the node's executions in the unrolled
	// loops (segments.unrolled): the heads whose iterations they passed,
	// in order, as runs of one head ("12*2.40*1.", iteration): executions
	// that left one loop after different numbers of iterations stay
	// apart (their memory objects are numbered differently, and the
	// encoding joins only equal numberings).
	unroll string
	// cut is the cut point the node reaches (nil: none): the node ends
	// a segment and has no arcs.
	cut *cutPoint
	// model: the node reaches the head of an unrolled loop; its next
	// iteration starts a new layer.
	model bool
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
// (encodeRegion).
type regionEncoding struct {
	m *smt.Merger
	// ends are the states at the k-th cut point.
	ends []regionEnd
	// bad are the conditions (Bool) under which an execution reaches an
	// error call that counts, violates an invariant that is checked
	// before the k-th cut point, or performs an access outside the
	// encoding.
	bad []badCase
	// from names the start in reasons.
	from string
	// checks is the number of segment ends and error calls.
	checks int
	// maxDepth is the most cut points a state with a guard other than
	// false reached (an over-approximation of the feasible ones).
	maxDepth int
}

// badCase is a condition under which the witness fails, with the
// reason; outside marks an access outside the encoding (named only when
// nothing else fails).
type badCase struct {
	t       *smt.Term
	why     string
	outside bool
}

// regionEnd is the joined state of the executions that reach a cut
// point.
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
// start) under inv in the calling context chain at once, for
// k-induction's depth v.k: between two cut points the (location, call
// stack) nodes form a DAG, which smt.Merger encodes with one state per
// node, joining the states arriving at it (large-block encoding: Beyer,
// Cimatti, Griggio, Keremoglu, Sebastiani, FMCAD 2009; as engine/bmc's
// unrolling). The region is built and encoded one layer at a time (a
// cut point passed, or an iteration of a loop no witness can name,
// segments.unrolled), so that a loop whose exit the constants decide
// unrolls only as far as it runs. Before the k-th cut point a path goes
// on under the cut point's invariant (checked there from the program
// start; in the step case, from c, errors before the k-th segment are
// excluded by the hypothesis), as in the walk (fromCase). ok is false,
// and the walk must decide, for a construct the walk rejects, a cycle
// through neither a cut point nor an unrolled loop's head, more than
// maxRegionNodes nodes, or a product of two variables (which the walk
// decides on a normalised formula).
func (v *segments) encodeRegion(ctx context.Context, c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (*regionEncoding, bool) {
	start, pre, stack, from, _, bad := v.prefix(c, inv, chain)
	if bad || nonlinear(pre) {
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
	enc := &regionEncoding{m: m, from: from}
	s := m.Initial()
	for _, st := range pre {
		if m.Apply(ctx, s, st) != nil {
			return nil, false
		}
	}
	g := &regionGraph{v: v, fromCut: c != nil, byKey: map[string]*regionNode{}}
	root := g.get(start, stack, 0, "", true)
	root.pending = []*smt.SymState{s}
	roots := []*regionNode{root}
	for layer := 0; len(roots) > 0; layer++ {
		if layer&(layer-1) == 0 && layer > 0 && !v.feasible(ctx, m, roots) {
			break
		}
		order, ok := g.layer(roots)
		if !ok {
			return nil, false
		}
		roots = nil
		for _, n := range order {
			if len(n.pending) == 0 {
				continue
			}
			st, err := m.Join(n.pending)
			n.pending = nil
			if err != nil {
				return nil, false
			}
			m.QuerySince(m.Mark()) // the substitution Fold uses
			m.Fold(st)
			m.NameGuard(st, "node!"+strconv.Itoa(n.loc.ID))
			if st.Guard().Op == smt.False {
				continue
			}
			depth := n.depth
			if n.model {
				next := g.get(n.loc, n.stack, depth, iteration(n.unroll, n.loc.ID), true)
				if next == nil {
					return nil, false
				}
				if len(next.pending) == 0 {
					roots = append(roots, next)
				}
				next.pending = append(next.pending, st)
				continue
			}
			if n.cut != nil {
				enc.maxDepth = max(enc.maxDepth, depth+1)
				enc.checks++
				end := regionEnd{cp: n.cut, st: st}
				if depth+1 == v.k {
					enc.ends = append(enc.ends, end)
					continue
				}
				if c == nil {
					t, ok := enc.violating(ctx, end, n.cut.inv)
					if !ok {
						return nil, false
					}
					enc.bad = append(enc.bad, badCase{t: t, why: fmt.Sprintf("loop invariant at %s does not hold when the loop is entered: an execution from %s reaches it violating %q", n.cut.at, from, n.cut.text)})
				}
				next := g.get(n.loc, n.stack, depth+1, n.unroll, true)
				if next == nil || m.Apply(ctx, st, synth(n.loc, &cfa.Assume{Cond: n.cut.inv, Truth: true})) != nil {
					return nil, false
				}
				if st.Guard().Op != smt.False {
					if len(next.pending) == 0 {
						roots = append(roots, next)
					}
					next.pending = append(next.pending, st)
				}
				continue
			}
			if c == nil || depth+1 == v.k {
				for _, e := range n.errs {
					enc.checks++
					x := m.Clone(st)
					if m.Apply(ctx, x, callStep(v.prog, e)) != nil {
						return nil, false
					}
					enc.bad = append(enc.bad, badCase{t: x.Guard(), why: fmt.Sprintf("the invariants do not imply the property: an execution from %s reaches the error call at %s", from, e.Pos.Start)})
				}
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
	}
	for _, u := range m.Formula().UB {
		if smt.OutsideEncoding(u.Kind) {
			enc.bad = append(enc.bad, badCase{t: u.Cond, outside: true, why: fmt.Sprintf("an execution from %s performs an %s at %s, whose effect the encoding leaves out", from, u.Kind, u.Pos)})
		}
	}
	return enc, true
}

// feasible reports whether some execution reaches one of roots (first
// nodes past a cut point): yes when a guard is true, else by a query
// (undecided counts as yes). It ends the unrolling of a loop whose exit
// the constants do not decide but the formula does (a list traversed
// to its end). encodeRegion asks at the layers 1, 2, 4, 8, …: a query
// per layer costs more than the unrolling on loops that run long. Each
// query is a fresh one-shot solver (solveMerged), which ctx interrupts:
// Z3's incremental solver internalises the whole formula at a push,
// which nothing interrupts (minutes on a list of lists).
func (v *segments) feasible(ctx context.Context, m *smt.Merger, roots []*regionNode) bool {
	var gs []*smt.Term
	for _, n := range roots {
		for _, s := range n.pending {
			if s.Guard().Op == smt.True {
				return true
			}
			gs = append(gs, s.Guard())
		}
	}
	r, _ := v.solveMerged(ctx, m, v.b.Or(gs...), nil)
	return r != smt.Unsat
}

// mergedResult is the outcome of merged.
type mergedResult uint8

const (
	// mergedOpen: the walk must decide (outside encodeRegion, or an
	// undecided query).
	mergedOpen mergedResult = iota
	// mergedProved: every segment from the start is good.
	mergedProved
	// mergedRefuted: an execution violates the witness (why).
	mergedRefuted
)

// merged decides every segment from cut point c (nil: the program
// start) under inv in the calling context chain at once
// (encodeRegion): one query asks whether some execution reaches a cut
// point violating an invariant that is checked there, reaches an error
// call that counts, or performs an access outside the encoding
// (smt.OutsideEncoding: a proof must exclude it, as engine/bmc's do).
// Unsatisfiable proves what the path-by-path walk (fromCase) would
// prove for every path (mergedProved); a model names the failing case
// (mergedRefuted, with why; an access outside the encoding only when
// nothing else fails). From
// the program start with k > 1 it also records, as the walk does, the
// depth reached and whether an execution reaches the k-th cut point.
// checks is the number of segment ends and error calls covered.
func (v *segments) merged(ctx context.Context, c *cutPoint, inv cfa.Expr, chain []*cfa.Edge) (res mergedResult, why string, checks int) {
	enc, ok := v.encodeRegion(ctx, c, inv, chain)
	if !ok {
		return mergedOpen, "", 0
	}
	bad := enc.bad
	var reach []*smt.Term
	for _, e := range enc.ends {
		t, ok := enc.violating(ctx, e, e.cp.inv)
		if !ok {
			return mergedOpen, "", 0
		}
		w := fmt.Sprintf("loop invariant at %s does not hold when the loop is entered: an execution from %s reaches it violating %q", e.cp.at, enc.from, e.cp.text)
		if c != nil {
			w = fmt.Sprintf("loop invariant at %s is not inductive: an execution from %s reaches %s violating %q", e.cp.at, enc.from, e.cp.at, e.cp.text)
		}
		bad = append(bad, badCase{t: t, why: w})
		reach = append(reach, e.st.Guard())
	}
	ts := make([]*smt.Term, len(bad))
	for i, b := range bad {
		ts[i] = b.t
	}
	r, err := v.solveMerged(ctx, enc.m, v.b.Or(ts...), func(mod smt.Model) {
		for _, b := range bad {
			if lo, _ := mod.Eval(b.t); lo == 1 && (why == "" || !b.outside) {
				why = b.why
				if !b.outside {
					return
				}
			}
		}
	})
	switch {
	case err != nil || r == smt.Unknown:
		return mergedOpen, "", 0
	case r == smt.Sat && why == "":
		return mergedOpen, "", 0
	case r == smt.Sat:
		return mergedRefuted, why, enc.checks
	}
	if c == nil && v.k > 1 {
		v.maxDepth = max(v.maxDepth, enc.maxDepth)
		if !v.reachedK && len(reach) > 0 {
			if r, err := v.solveMerged(ctx, enc.m, v.b.Or(reach...), nil); err != nil || r != smt.Unsat {
				v.reachedK = true
			}
		}
	}
	return mergedProved, "", enc.checks
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

// solveMerged decides m's formula with t (Bool) (arrayelim.Solve);
// for Sat, eval (when not nil) sees the model, which evaluates m's terms.
func (v *segments) solveMerged(ctx context.Context, m *smt.Merger, t *smt.Term, eval func(smt.Model)) (smt.Result, error) {
	return arrayelim.Solve(ctx, v.b, v.opts.Solver, m, eval, t)
}

// regionGraph builds the nodes of encodeRegion one depth at a time.
type regionGraph struct {
	v *segments
	// fromCut: the segments start at a cut point (memory reads are
	// outside the walk there).
	fromCut bool
	byKey   map[string]*regionNode
}

// get returns the node of l under stack after depth cut points and
// unroll iterations of model loops (first: where a segment starts or
// resumes past a cut point or model loop head at l, else a node at such
// a location reaches it); nil beyond maxRegionNodes.
func (g *regionGraph) get(l *cfa.Location, stack []*cfa.Edge, depth int, unroll string, first bool) *regionNode {
	var cut *cutPoint
	model := false
	if !first {
		cut = g.v.cuts[l]
		model = cut == nil && g.v.unrolled(l)
	}
	k := strconv.Itoa(l.ID) + "|" + stackKey(stack) + "|" + strconv.Itoa(depth) + "|" + unroll
	switch {
	case first:
		k += "|first"
	case cut != nil || model:
		k += "|cut"
	}
	if n := g.byKey[k]; n != nil {
		return n
	}
	if len(g.byKey) >= maxRegionNodes {
		return nil
	}
	n := &regionNode{loc: l, stack: stack, depth: depth, unroll: unroll, cut: cut, model: model}
	g.byKey[k] = n
	return n
}

// layer returns the nodes that segments from roots (first nodes of one
// depth) pass up to their next cut points, in a topological order. ok
// is false when the walk must decide instead: a step it rejects (a
// memory read in a segment from a cut point, a return to an unknown
// caller, a call depth above 64), a cycle without a cut point, a
// product of two variables, or more than maxRegionNodes nodes.
func (g *regionGraph) layer(roots []*regionNode) (order []*regionNode, ok bool) {
	v := g.v
	all := append([]*regionNode(nil), roots...)
	seen := map[*regionNode]bool{}
	for _, r := range roots {
		seen[r] = true
	}
	push := func(st []*cfa.Edge, e *cfa.Edge) []*cfa.Edge {
		return append(append([]*cfa.Edge(nil), st...), e)
	}
	link := func(n *regionNode, to *regionNode, steps ...cfa.Step) bool {
		if to == nil || nonlinear(steps) {
			return false
		}
		n.out = append(n.out, regionArc{steps: steps, to: to})
		to.indeg++
		if !seen[to] {
			seen[to] = true
			all = append(all, to)
		}
		return true
	}
	for i := 0; i < len(all); i++ {
		n := all[i]
		if n.cut != nil || n.model || n.out != nil {
			continue
		}
		if len(n.stack) > 64 {
			return nil, false
		}
		l, d, u := n.loc, n.depth, n.unroll
		if len(l.Out) == 0 {
			switch {
			case l != l.Func.Exit:
				// abort, exit, failed assume
			case l.Func == v.prog.Init:
				steps, why := v.entrySteps()
				if why != "" || !link(n, g.get(v.entry.Entry, n.stack, d, u, false), steps...) {
					return nil, false
				}
			case len(n.stack) > 0:
				call := n.stack[len(n.stack)-1]
				if !link(n, g.get(call.To, n.stack[:len(n.stack)-1], d, u, false), cfa.Step{Kind: cfa.Leave, Edge: call, Callee: l.Func}) {
					return nil, false
				}
			case l.Func == v.entry:
				// the program ends
			default:
				return nil, false
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
					to := g.get(e.To, n.stack, d, u, false)
					if st.Kind == cfa.Enter {
						to = g.get(st.Callee.Entry, push(n.stack, e), d, u, false)
					}
					if !link(n, to, st) {
						return nil, false
					}
				}
				continue
			}
			if isCall {
				if f := v.prog.Func(call.Fn); f != nil {
					if !link(n, g.get(f.Entry, push(n.stack, e), d, u, false), cfa.Step{Edge: e, Kind: cfa.Enter, Callee: f}) {
						return nil, false
					}
					continue
				}
			}
			if g.fromCut {
				if _, bad := unsupportedOp(e); bad {
					return nil, false
				}
			}
			if !link(n, g.get(e.To, n.stack, d, u, false), cfa.Step{Edge: e}) {
				return nil, false
			}
		}
	}
	// Kahn's algorithm: a node left over lies on a cycle.
	queue := append([]*regionNode(nil), roots...)
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
		return nil, false
	}
	return order, true
}

// iteration extends the unrolling history u (regionNode.unroll) by one
// iteration of the loop whose head is the location id: the last run
// grows when it is that head's, so that a history is as long as the
// number of loops entered, not of iterations.
func iteration(u string, id int) string {
	head := strconv.Itoa(id) + "*"
	i := strings.LastIndexByte(strings.TrimSuffix(u, "."), '.') + 1 // the last run
	if n, ok := strings.CutPrefix(strings.TrimSuffix(u[i:], "."), head); ok {
		k, _ := strconv.Atoi(n)
		return u[:i] + head + strconv.Itoa(k+1) + "."
	}
	return u + head + "1."
}

// unrolled reports whether l is the head of a loop that no witness can
// name, which the merged encoding unrolls, one iteration per layer, as
// far as the constants or the formula let it run: a loop of the models
// the front ends add (functions named __reverify_…, such as the loop
// that runs the atexit handlers), a loop a model of an input function
// emits (cfa.InputBuilder's While: fgets, fread, read), whose head's
// edges carry no source position, or of a lowered quantifier
// (cfa.QuantifierLoop, whose trip count is the quantifier's range).
func (v *segments) unrolled(l *cfa.Location) bool {
	if !l.LoopHead {
		return false
	}
	if strings.HasPrefix(l.Func.Name, "__reverify_") {
		return true
	}
	unplaced := len(l.Out) > 0
	for _, e := range l.Out {
		unplaced = unplaced && e.Pos.Start.Line == 0
	}
	if unplaced {
		return true
	}
	if v.loops == nil {
		v.loops = cfa.NaturalLoops(v.prog)
	}
	return v.loops.Body[l] != nil && cfa.QuantifierLoop(v.loops.Body[l])
}
