package bmc

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/smt"
)

// uframe is one activation of the unrolling's call stack: the call edge
// that entered it (nil for Init and the entry function), the function,
// and how often each loop of the function that the current location lies
// in has taken its back edge since the loop was entered.
type uframe struct {
	call   *cfa.Edge
	fn     *cfa.Function
	counts map[*cfa.Location]int
	// cuts counts the visits of cut points (the entry function's loop
	// heads) in the entry function's frame of a step-case unrolling.
	cuts int
}

// point is a location of the unrolling: a call stack and a location of
// its innermost function.
type point struct {
	frames []uframe
	loc    *cfa.Location
}

func (p point) key() string {
	var sb strings.Builder
	for _, f := range p.frames {
		if f.call != nil {
			sb.WriteString(strconv.Itoa(f.call.ID))
		}
		sb.WriteByte('/')
		sb.WriteString(f.fn.Name)
		if f.cuts > 0 {
			sb.WriteString("#" + strconv.Itoa(f.cuts))
		}
		if len(f.counts) > 0 {
			heads := make([]int, 0, len(f.counts))
			for h := range f.counts {
				heads = append(heads, h.ID)
			}
			sort.Ints(heads)
			for _, id := range heads {
				for h, c := range f.counts {
					if h.ID == id {
						sb.WriteString(fmt.Sprintf(",%d:%d", id, c))
					}
				}
			}
		}
		sb.WriteByte('|')
	}
	sb.WriteString(strconv.Itoa(p.loc.ID))
	return sb.String()
}

// arcKind says where an arc of the unrolling leads.
type arcKind uint8

const (
	toNode   arcKind = iota
	toError          // the step is an error edge, and error arcs are sinks
	toCutoff         // the step would exceed the unwinding bound
)

// node is a point of the unrolling with its arcs.
type node struct {
	id      int
	pt      point
	in, out []*arc
	indeg   int
	// pending holds the states arriving over in-arcs during the
	// symbolic pass.
	pending []*smt.SymState
}

// arc is one step of the unrolling from a node.
type arc struct {
	from, to *node
	step     cfa.Step
	kind     arcKind
	// what names the loop or recursion of a cut-off arc, and inEntry
	// says that it is a loop of the entry function's frame.
	what    string
	inEntry bool
	// errorOf are the properties whose error edge the step is.
	errorOf []int
	// guard is the condition under which an execution takes the arc
	// (set by the symbolic pass; nil when the step failed to encode).
	guard *smt.Term
	// post is the state after a cut-off arc of a segment unrolling.
	post *smt.SymState
}

// unrolling is the program unrolled to a bound: a DAG of nodes in
// topological order whose paths are the paths of the CFA that take no
// loop's back edge more than bound times in a row (per entry into the
// loop) and nest no function more than bound times; the steps that would
// exceed the bound are cut-off arcs, the steps over error edges error
// arcs.
type unrolling struct {
	nodes []*node // topological order; nodes[0] is the start
	arcs  int
}

type unroller struct {
	prog  *cfa.Program
	loc   *location.CPA
	loops *cfa.Loops
	entry *cfa.Function
	// errors maps each error edge to the properties (indices into via)
	// it violates; via[i], when not nil, restricts property i's error
	// edges to executions inside that call.
	errors map[*cfa.Edge][]int
	via    []*cfa.Edge
	// sinks makes every error arc end its executions (one property:
	// k-induction's step case relies on it); otherwise an error arc
	// records its properties (arc.errorOf) and the step is taken, as a
	// run of each property alone takes the others' error edges.
	sinks    bool
	bound    int
	maxNodes int
	// floors are per-loop bounds below which a loop is never cut
	// (floors.go; limit).
	floors map[*cfa.Location]int
	// step makes the unrolling k-induction's step case: it starts at
	// stepStart, an arbitrary visit of a cut point, and in the entry
	// function's frame it counts cut point visits (uframe.cuts) instead
	// of loop iterations, cutting off the (bound+2)-th.
	step      bool
	stepStart *cfa.Location
	// segment ends every execution at its next visit of a cut point in
	// the entry function's frame (a cut-off arc "cut point" whose
	// post-state encode keeps): the unrolling is the loop-free segment
	// from the start (the program's, or stepStart with step) to the cut
	// points, for the Horn clauses of horn.go.
	segment bool
	// hornTry is the index of the Horn engine's next try in Check
	// (hornTries), or len(hornTries) when no try is left.
	hornTry int
	// hornBound is the bound of the last Horn try that ran out of
	// time (0: none), at which Check gives a pending try what is left.
	hornBound int
	// budget is the time Check had when it started (hasBudget: it has
	// a limit), for hornTries' timing.
	budget    time.Duration
	hasBudget bool
	// def decides which bounds skip their error queries (deferral.go).
	def deferral
	// escaped are the functions with a body whose address escapes
	// (cfa.Program.EscapedFuncs).
	escaped []string
}

// errTooLarge ends an unrolling beyond Options.MaxNodes.
var errTooLarge = errors.New("unrolling too large")

// errCycle ends an unrolling whose steps return to a node (control flow
// that the loop detection does not see as loops).
var errCycle = errors.New("cycle in the unrolling")

// retSite gives location.CPA.Steps the call edge to return over.
type retSite struct{ e *cfa.Edge }

func (r retSite) ReturnSite() *cfa.Edge { return r.e }
func (r retSite) Depth() int            { return 0 }

func (u *unroller) unroll(ctx context.Context) (*unrolling, error) {
	start := point{loc: u.prog.Init.Entry, frames: []uframe{{fn: u.prog.Init}}}
	switch {
	case u.step:
		start = point{loc: u.stepStart, frames: []uframe{{fn: u.entry, cuts: 1}}}
	case len(u.prog.Init.Entry.Out) == 0:
		start = point{loc: u.entry.Entry, frames: []uframe{{fn: u.entry}}}
	}
	byKey := map[string]*node{}
	var all []*node
	get := func(p point) (*node, error) {
		k := p.key()
		if n, ok := byKey[k]; ok {
			return n, nil
		}
		if len(all) >= u.maxNodes {
			return nil, errTooLarge
		}
		n := &node{id: len(all), pt: p}
		byKey[k] = n
		all = append(all, n)
		return n, nil
	}
	root, _ := get(start)
	arcs := 0
	var steps []cfa.Step
	for i := 0; i < len(all); i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n := all[i]
		top := n.pt.frames[len(n.pt.frames)-1]
		var comps []cpa.State
		if top.call != nil {
			comps = []cpa.State{retSite{top.call}}
		} else {
			comps = []cpa.State{retSite{}}
		}
		steps = u.loc.Steps(steps[:0], location.State{L: n.pt.loc}, comps)
		for _, s := range steps {
			a := &arc{from: n, step: s}
			arcs++
			n.out = append(n.out, a)
			if s.Edge != nil && s.Kind != cfa.Leave {
				for _, i := range u.errors[s.Edge] {
					if u.via[i] == nil || n.inside(u.via[i]) {
						a.errorOf = append(a.errorOf, i)
					}
				}
				if len(a.errorOf) > 0 && u.sinks {
					a.kind = toError
					continue
				}
			}
			next, what := u.next(n.pt, s)
			if what != "" {
				a.kind, a.what = toCutoff, what
				depth := len(n.pt.frames)
				if s.Kind == cfa.Leave {
					depth--
				}
				a.inEntry = depth == 1 && s.Kind != cfa.Enter && n.pt.frames[0].fn == u.entry
				continue
			}
			to, err := get(next)
			if err != nil {
				return nil, err
			}
			a.to = to
			to.in = append(to.in, a)
			to.indeg++
		}
	}
	// Kahn's algorithm
	order := make([]*node, 0, len(all))
	queue := []*node{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		order = append(order, n)
		for _, a := range n.out {
			if a.to != nil {
				a.to.indeg--
				if a.to.indeg == 0 {
					queue = append(queue, a.to)
				}
			}
		}
	}
	if len(order) != len(all) {
		return nil, errCycle
	}
	return &unrolling{nodes: order, arcs: arcs}, nil
}

// callback says why a step may call back a function with a body that
// the encoding does not enter: a call of a function without a body that
// follows cfa.ExternUnmodelled, when functions with a body have escaped
// (the value analysis records the same reason, engine/analysis/value).
func (u *unroller) callback(s cfa.Step) string {
	if s.Kind != cfa.Intra || s.Edge == nil || len(u.escaped) == 0 {
		return ""
	}
	c, ok := s.Edge.Op.(*cfa.Call)
	if !ok {
		return ""
	}
	name := c.Fn
	if name == "" {
		name = "(*" + c.FnPtr.String() + ")" // a function without a body through a pointer
	} else if u.prog.Func(c.Fn) != nil || u.prog.Extern(c.Fn) != cfa.ExternUnmodelled {
		return ""
	}
	return cpa.Explanation{Kind: cpa.Callback, Name: name, Text: strings.Join(u.escaped, ", ")}.String()
}

// inside reports whether the node's call stack holds the call edge via.
func (n *node) inside(via *cfa.Edge) bool {
	for _, f := range n.pt.frames {
		if f.call == via {
			return true
		}
	}
	return false
}

// next returns the point after step s from p, or (with what naming the
// loop or recursion) that s exceeds the bound.
func (u *unroller) next(p point, s cfa.Step) (point, string) {
	frames := p.frames
	switch s.Kind {
	case cfa.Enter:
		if s.Edge == nil { // Init's exit into the entry function
			return point{frames: []uframe{{fn: s.Callee}}, loc: s.Callee.Entry}, ""
		}
		depth := 0
		for _, f := range frames {
			if f.fn == s.Callee {
				depth++
			}
		}
		if depth >= u.bound {
			return point{}, "recursion of " + s.Callee.Name
		}
		nf := make([]uframe, len(frames), len(frames)+1)
		copy(nf, frames)
		return point{frames: append(nf, uframe{call: s.Edge, fn: s.Callee}), loc: s.Callee.Entry}, ""
	case cfa.Leave:
		nf := make([]uframe, len(frames)-1)
		copy(nf, frames)
		return u.move(nf, s.Edge)
	}
	nf := make([]uframe, len(frames))
	copy(nf, frames)
	return u.move(nf, s.Edge)
}

// move takes edge e in the innermost frame of frames (a fresh copy):
// a back edge counts one more iteration of its loop, or exceeds the
// bound; loops the new location lies outside of are forgotten.
func (u *unroller) move(frames []uframe, e *cfa.Edge) (point, string) {
	top := &frames[len(frames)-1]
	to := e.To
	if u.segment && len(frames) == 1 && top.fn == u.entry && u.loops.Body[to] != nil {
		return point{}, cutPoint
	}
	if u.step && len(frames) == 1 {
		if u.loops.Body[to] != nil {
			if top.cuts > u.bound {
				return point{}, "step case"
			}
			top.cuts++
		}
		return point{frames: frames, loc: to}, ""
	}
	counts := make(map[*cfa.Location]int, len(top.counts)+1)
	for h, c := range top.counts {
		if u.loops.Body[h][to] {
			counts[h] = c
		}
	}
	if u.loops.Back[e] {
		c := top.counts[to]
		if c >= u.limit(to) {
			return point{}, fmt.Sprintf("loop at %s", to.Func.Name+":"+posOf(to))
		}
		counts[to] = c + 1
	} else if u.loops.Body[to] != nil {
		counts[to] = 0
	}
	top.counts = counts
	return point{frames: frames, loc: to}, ""
}

// cutPoint names the cut-off arcs of a segment unrolling that end at a
// cut point.
const cutPoint = "cut point"

// posOf returns the source line of a loop head (the position of an edge
// leaving it), or its location name.
func posOf(l *cfa.Location) string {
	for _, e := range l.Out {
		if e.Pos.Start.Line > 0 {
			return fmt.Sprintf("line %d", e.Pos.Start.Line)
		}
	}
	return l.String()
}
