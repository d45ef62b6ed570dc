package cpa

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Composite is the composite CPA (seed 003, section 3.6; seed 000,
// section 2.3) over an ordered list of components, conventionally
// [location, callstack, property, analysis…]. Its states are
// *CompositeState and its precisions *CompositePrecision, one entry per
// component.
//
// The composite transfer for a step is the product of the components'
// transfers for that same step: a component returning no successor kills
// the step, several successors multiply. The candidate steps come from the
// one component implementing Stepper. Strengthening runs after the
// product, in component order.
type Composite struct {
	comps   []CPA
	stepper int // index of the Stepper component
	locator int // index of a component whose states implement Locator, or -1
	stack   int // index of a component whose states implement ReturnSiter, or -1
	joiners []Joiner
	mergers []Merger
	stops   []Stopper
	adjust  []PrecisionAdjuster
	strong  []Strengthener
	// featured is set when some component state implements Featured.
	featured bool
}

// NewComposite builds the composite of comps. Exactly one component must
// implement Stepper; component names must be distinct.
func NewComposite(comps ...CPA) (*Composite, error) {
	c := &Composite{comps: comps, stepper: -1, locator: -1, stack: -1}
	var errs []error
	names := map[string]bool{}
	for i, x := range comps {
		if names[x.Name()] {
			errs = append(errs, fmt.Errorf("cpa: duplicate component %q", x.Name()))
		}
		names[x.Name()] = true
		if _, ok := x.(Stepper); ok {
			if c.stepper >= 0 {
				errs = append(errs, fmt.Errorf("cpa: components %q and %q both implement Stepper", comps[c.stepper].Name(), x.Name()))
			}
			c.stepper = i
		}
		j, _ := x.(Joiner)
		m, _ := x.(Merger)
		s, _ := x.(Stopper)
		a, _ := x.(PrecisionAdjuster)
		g, _ := x.(Strengthener)
		c.joiners = append(c.joiners, j)
		c.mergers = append(c.mergers, m)
		c.stops = append(c.stops, s)
		c.adjust = append(c.adjust, a)
		c.strong = append(c.strong, g)
	}
	if c.stepper < 0 {
		errs = append(errs, errors.New("cpa: no component implements Stepper (add the location CPA)"))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	init, _ := c.Initial()
	for i, s := range init.(*CompositeState).Comps {
		if _, ok := s.(Locator); ok && c.locator < 0 {
			c.locator = i
		}
		if _, ok := s.(ReturnSiter); ok && c.stack < 0 {
			c.stack = i
		}
		if _, ok := s.(Featured); ok {
			c.featured = true
		}
	}
	return c, nil
}

// Components returns the component CPAs in order. The slice must not be
// modified.
func (c *Composite) Components() []CPA { return c.comps }

// Index returns the index of the component named name, or -1.
func (c *Composite) Index(name string) int {
	for i, x := range c.comps {
		if x.Name() == name {
			return i
		}
	}
	return -1
}

// Name returns "composite(location,callstack,…)".
func (c *Composite) Name() string {
	names := make([]string, len(c.comps))
	for i, x := range c.comps {
		names[i] = x.Name()
	}
	return "composite(" + strings.Join(names, ",") + ")"
}

// CompositeState is a state of the composite CPA: one state per component.
type CompositeState struct {
	Comps []State
	small [4]State // backing store of Comps for up to 4 components
}

// newCompositeState returns a state with n nil components in one
// allocation (for n ≤ 4).
func newCompositeState(n int) *CompositeState {
	s := &CompositeState{}
	if n <= len(s.small) {
		s.Comps = s.small[:n:n]
	} else {
		s.Comps = make([]State, n)
	}
	return s
}

// CompositePrecision is a precision of the composite CPA: one precision per
// component.
type CompositePrecision struct {
	Comps []Precision
}

// Initial returns the product of the components' initial states and
// precisions.
func (c *Composite) Initial() (State, Precision) {
	s := newCompositeState(len(c.comps))
	p := &CompositePrecision{Comps: make([]Precision, len(c.comps))}
	for i, x := range c.comps {
		s.Comps[i], p.Comps[i] = x.Initial()
	}
	return s, p
}

// IsTarget reports whether any component state is a target.
func (s *CompositeState) IsTarget() bool {
	for _, x := range s.Comps {
		if t, ok := x.(Targetable); ok && t.IsTarget() {
			return true
		}
	}
	return false
}

// Explain returns the sorted, deduplicated explanations of all component
// states (nil when none).
func (s *CompositeState) Explain() []Explanation {
	var rs []Explanation
	for _, x := range s.Comps {
		if e, ok := x.(Explainer); ok {
			rs = UnionExplanations(rs, e.Explain())
		}
	}
	return rs
}

// TruncatedReason returns the first component's non-empty truncation
// reason, or "".
func (s *CompositeState) TruncatedReason() string {
	for _, x := range s.Comps {
		if t, ok := x.(Truncated); ok {
			if r := t.TruncatedReason(); r != "" {
				return r
			}
		}
	}
	return ""
}

// Location returns the location of the first component state implementing
// Locator, or nil.
func (s *CompositeState) Location() *cfa.Location {
	for _, x := range s.Comps {
		if l, ok := x.(Locator); ok {
			return l.Location()
		}
	}
	return nil
}

// String joins the component states' String forms with " | ".
func (s *CompositeState) String() string {
	parts := make([]string, len(s.Comps))
	for i, x := range s.Comps {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, " | ")
}

// partKey is the composite partition key: up to two partitioning
// components (location, call stack) are stored inline, more are folded
// into rest as a string.
type partKey struct {
	a, b any
	rest string
}

func (c *Composite) partitionKey(s *CompositeState) partKey {
	var k partKey
	n := 0
	for _, x := range s.Comps {
		p, ok := x.(Partitioned)
		if !ok {
			continue
		}
		switch n {
		case 0:
			k.a = p.PartitionKey()
		case 1:
			k.b = p.PartitionKey()
		default:
			k.rest += fmt.Sprintf("|%v", p.PartitionKey())
		}
		n++
	}
	return k
}

// Successor is one composite successor with the step that produced it.
type Successor struct {
	Step  cfa.Step
	State *CompositeState
	prec  *CompositePrecision // after precision adjustment (Algorithm)
}

// Steps returns the candidate steps of s (from the Stepper component).
func (c *Composite) Steps(s *CompositeState) []cfa.Step {
	return c.comps[c.stepper].(Stepper).Steps(nil, s.Comps[c.stepper], s.Comps)
}

// scratch holds buffers reused across expansions by one Algorithm.
type scratch struct {
	per   [][]State
	idx   []int
	steps []cfa.Step
}

// Successors computes the composite successors of s under p, for every
// candidate step, appending them to buf. Precision adjustment is not
// applied here (see Adjust).
func (c *Composite) Successors(buf []Successor, s *CompositeState, p *CompositePrecision) ([]Successor, error) {
	return c.successors(&scratch{}, buf, s, p)
}

func (c *Composite) successors(sc *scratch, buf []Successor, s *CompositeState, p *CompositePrecision) ([]Successor, error) {
	if s.TruncatedReason() != "" || s.IsTarget() {
		return buf, nil
	}
	n := len(c.comps)
	if len(sc.per) < n {
		sc.per = make([][]State, n)
		sc.idx = make([]int, n)
	}
	per, idx := sc.per[:n], sc.idx[:n]
	sc.steps = c.comps[c.stepper].(Stepper).Steps(sc.steps[:0], s.Comps[c.stepper], s.Comps)
	for _, step := range sc.steps {
		product := 1
		for i, x := range c.comps {
			succ, err := x.Successors(per[i][:0], s.Comps[i], step, p.Comps[i])
			if err != nil {
				return buf, fmt.Errorf("%s: %s: %w", x.Name(), stepString(step), err)
			}
			per[i] = succ
			product *= len(succ)
			if product == 0 {
				break
			}
		}
		if product == 0 {
			continue
		}
		for i := range idx {
			idx[i] = 0
		}
		for k := 0; k < product; k++ {
			cs := newCompositeState(n)
			for i := range cs.Comps {
				cs.Comps[i] = per[i][idx[i]]
			}
			if c.strengthen(cs, step, p) {
				buf = append(buf, Successor{Step: step, State: cs})
			}
			for i := n - 1; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(per[i]) {
					break
				}
				idx[i] = 0
			}
		}
	}
	for i := range per {
		clear(per[i][:cap(per[i])]) // do not keep states alive
	}
	return buf, nil
}

func (c *Composite) strengthen(cs *CompositeState, step cfa.Step, p *CompositePrecision) bool {
	for i, g := range c.strong {
		if g == nil {
			continue
		}
		s, ok := g.Strengthen(cs.Comps[i], cs.Comps, step, p.Comps[i])
		if !ok {
			return false
		}
		cs.Comps[i] = s
	}
	return true
}

// Adjust applies the components' precision adjustments to a successor; it
// returns s and p themselves when no component changes anything.
func (c *Composite) Adjust(s *CompositeState, p *CompositePrecision) (*CompositeState, *CompositePrecision) {
	var ns *CompositeState
	var np *CompositePrecision
	for i, a := range c.adjust {
		if a == nil {
			continue
		}
		s2, p2 := a.AdjustPrecision(s.Comps[i], p.Comps[i])
		if s2 != s.Comps[i] {
			if ns == nil {
				ns = newCompositeState(len(s.Comps))
				copy(ns.Comps, s.Comps)
			}
			ns.Comps[i] = s2
		}
		if p2 != p.Comps[i] {
			if np == nil {
				np = &CompositePrecision{Comps: append([]Precision(nil), p.Comps...)}
			}
			np.Comps[i] = p2
		}
	}
	if ns == nil {
		ns = s
	}
	if np == nil {
		np = p
	}
	return ns, np
}

// LessOrEqual is the composite order: componentwise LessOrEqual.
func (c *Composite) LessOrEqual(a, b *CompositeState) bool {
	for i, x := range c.comps {
		if a.Comps[i] != b.Comps[i] && !x.LessOrEqual(a.Comps[i], b.Comps[i]) {
			return false
		}
	}
	return true
}

// stop reports whether e is covered by r for composite stop: per
// component, Stopper if implemented, else LessOrEqual (stop-sep).
func (c *Composite) covers(e, r *CompositeState, p *CompositePrecision) bool {
	for i, x := range c.comps {
		if e.Comps[i] == r.Comps[i] {
			continue
		}
		if st := c.stops[i]; st != nil {
			if !st.Stop(e.Comps[i], []State{r.Comps[i]}, p.Comps[i]) {
				return false
			}
			continue
		}
		if !x.LessOrEqual(e.Comps[i], r.Comps[i]) {
			return false
		}
	}
	return true
}

// merge computes the composite merge of e into r (same partition) under
// the given mode. It returns r itself when nothing changes. With
// MergeJoin, components implementing Joiner are joined, components with a
// Merger use it, and every other component must agree (equal states in
// both directions), else nothing is merged.
func (c *Composite) merge(mode MergeMode, e, r *CompositeState, p *CompositePrecision) *CompositeState {
	if mode == MergeSep {
		return r
	}
	res := newCompositeState(len(c.comps))
	out := res.Comps
	changed := false
	for i, x := range c.comps {
		a, b := e.Comps[i], r.Comps[i]
		switch {
		case a == b:
			out[i] = b
		case c.mergers[i] != nil:
			out[i] = c.mergers[i].Merge(a, b, p.Comps[i])
		case c.joiners[i] != nil:
			if x.LessOrEqual(a, b) {
				out[i] = b
				break
			}
			j, ok := c.joiners[i].Join(a, b)
			if !ok {
				return r
			}
			out[i] = j
		default:
			if !x.LessOrEqual(a, b) || !x.LessOrEqual(b, a) {
				return r
			}
			out[i] = b
		}
		if out[i] != b {
			changed = true
		}
	}
	if !changed {
		return r
	}
	return res
}

func stepString(s cfa.Step) string {
	switch s.Kind {
	case cfa.Enter:
		if s.Edge == nil {
			return "enter " + s.Callee.Name
		}
		return "enter " + s.Callee.Name + " at " + s.Edge.From.String()
	case cfa.Leave:
		return "leave " + s.Callee.Name + " to " + s.Edge.To.String()
	}
	return s.Edge.Op.String()
}

// StepString formats a step for logs and the ARG text form: the edge's
// operation for Intra steps, "enter f at L3" (the call site; "enter main"
// from Init) and "leave f to L4" otherwise.
func StepString(s cfa.Step) string { return stepString(s) }

// features appends the features of the Featured component states, each
// mixed with its component index (the BulkFeature bit kept).
func (c *Composite) features(buf []uint64, s *CompositeState) []uint64 {
	for i, x := range s.Comps {
		f, ok := x.(Featured)
		if !ok {
			continue
		}
		n := len(buf)
		buf = f.Features(buf)
		salt := uint64(i+1) * 0x9e3779b97f4a7c15 &^ BulkFeature
		for j := n; j < len(buf); j++ {
			buf[j] ^= salt
		}
	}
	return buf
}
