package reduce

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// LiftLimit bounds the states Lift explores to fill one gap.
const LiftLimit = 50000

// Lift maps an error path of the reduced program r.Prog (a []cfa.Step
// ending at an error edge) to a path of the original program orig, so
// that the counterexample check (engine/cexcheck.CheckPath) runs once on
// the original path instead of the analysis running again on the
// original program. The edges of the reduced path that stand for an
// original edge (Target.Orig: kept and folded edges, the branches of
// nondeterministic branches, inlined copies) are anchors, in order; the
// gaps between them (what slicing and compaction removed, calls that
// were inlined) are filled with a shortest path of the original
// interprocedural CFA (breadth-first over locations and call stacks,
// entering calls of functions with bodies; at most LiftLimit states per
// gap). A shortest filling takes sliced loops zero times, so the lifted
// path may be infeasible where the reduced one is feasible: the caller
// must check it, and fall back to the original program when the check
// is not Feasible. entry is the entry function. The error says which
// gap could not be filled.
func Lift(orig *cfa.Program, r *Result, path []cfa.Step, entry string) ([]cfa.Step, error) {
	fn := orig.Func(entry)
	if fn == nil {
		return nil, fmt.Errorf("lift: no entry function %q", entry)
	}
	var anchors []*cfa.Edge
	for _, s := range path {
		if s.Edge == nil || s.Kind == cfa.Leave {
			continue
		}
		if o := r.Target.Orig[s.Edge]; o != nil {
			anchors = append(anchors, o)
		}
	}
	if len(anchors) == 0 {
		return nil, fmt.Errorf("lift: the path has no edge of the original program")
	}
	l := &lifter{p: orig, entry: fn}
	cur := state{loc: orig.Init.Entry}
	if len(orig.Init.Entry.Out) == 0 {
		cur = state{loc: fn.Entry}
	}
	var out []cfa.Step
	for i, a := range anchors {
		steps, at, ok := l.gap(cur, a)
		if !ok {
			return nil, fmt.Errorf("lift: no path to %s (%s) within %d states (anchor %d of %d)", a, a.Pos.Start, LiftLimit, i+1, len(anchors))
		}
		out = append(out, steps...)
		step, next := l.take(at, a)
		out = append(out, step)
		cur = next
	}
	return out, nil
}

type lifter struct {
	p     *cfa.Program
	entry *cfa.Function
}

// state is a location with the call edges that entered its function.
type state struct {
	loc   *cfa.Location
	stack []*cfa.Edge
}

func (s state) key() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(s.loc.ID))
	for _, e := range s.stack {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(e.ID))
	}
	return b.String()
}

// take is the step of edge e from s (e leaves s.loc).
func (l *lifter) take(s state, e *cfa.Edge) (cfa.Step, state) {
	if c, ok := e.Op.(*cfa.Call); ok && c.Fn != "" {
		if g := l.p.Func(c.Fn); g != nil {
			st := append(append([]*cfa.Edge(nil), s.stack...), e)
			return cfa.Step{Edge: e, Kind: cfa.Enter, Callee: g}, state{g.Entry, st}
		}
	}
	return cfa.Step{Edge: e, Kind: cfa.Intra}, state{e.To, s.stack}
}

// succs are the steps from s.
func (l *lifter) succs(s state) ([]cfa.Step, []state) {
	var steps []cfa.Step
	var next []state
	f := s.loc.Func
	switch {
	case f == l.p.Init && s.loc == f.Exit:
		return []cfa.Step{{Kind: cfa.Enter, Callee: l.entry}}, []state{{l.entry.Entry, nil}}
	case s.loc == f.Exit:
		if len(s.stack) == 0 {
			return nil, nil
		}
		top := s.stack[len(s.stack)-1]
		return []cfa.Step{{Edge: top, Kind: cfa.Leave, Callee: f}}, []state{{top.To, s.stack[:len(s.stack)-1]}}
	case s.loc.Terminal:
		return nil, nil
	}
	for _, e := range s.loc.Out {
		if c, ok := e.Op.(*cfa.Call); ok && c.Fn == "" {
			continue // through a pointer: the callee is not known here
		}
		st, n := l.take(s, e)
		steps = append(steps, st)
		next = append(next, n)
	}
	return steps, next
}

// gap returns a shortest sequence of steps from s to a state at a.From.
func (l *lifter) gap(s state, a *cfa.Edge) ([]cfa.Step, state, bool) {
	if s.loc == a.From {
		return nil, s, true
	}
	type node struct {
		st     state
		parent int
		step   cfa.Step
	}
	nodes := []node{{st: s, parent: -1}}
	seen := map[string]bool{s.key(): true}
	for i := 0; i < len(nodes) && len(nodes) < LiftLimit; i++ {
		steps, next := l.succs(nodes[i].st)
		for j, n := range next {
			k := n.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			nodes = append(nodes, node{st: n, parent: i, step: steps[j]})
			if n.loc == a.From {
				var rev []cfa.Step
				for x := len(nodes) - 1; nodes[x].parent >= 0; x = nodes[x].parent {
					rev = append(rev, nodes[x].step)
				}
				out := make([]cfa.Step, len(rev))
				for i, st := range rev {
					out[len(rev)-1-i] = st
				}
				return out, n, true
			}
		}
	}
	return nil, state{}, false
}

// Abstracted returns the original branches (Assume edges) that the
// nondeterministic branches on a path of r.Prog stand for: the
// predicates a refinement of a thin or value slice adds to the
// criterion (seed 002, "refinement").
func Abstracted(r *Result, path []cfa.Step) []*cfa.Edge {
	var out []*cfa.Edge
	seen := map[*cfa.Edge]bool{}
	for _, s := range path {
		if s.Edge == nil || !isBranchTemp(s.Edge.Op) {
			continue
		}
		if o := r.Target.Orig[s.Edge]; o != nil && !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}
