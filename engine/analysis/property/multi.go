package property

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// Multi is the property analysis for several Specs at once, for
// multi-property verification (seed 004, chapter 2: one analysis run
// tracks all properties of a program and splits off each property as it
// is decided; CPAchecker's MPV). For each property it tracks what CPA
// tracks for one (the nesting inside the property's Via call), and a
// step over an error edge of one or more active properties has two
// successors: a target state naming those properties (no successors), and
// the continuation that the run of every other property follows (in a
// run of one property the step is an ordinary step for every other
// property). Deactivate removes a decided property: its error edges
// yield no targets from then on.
//
// Multi is not safe for concurrent use (one per run, like the
// algorithm).
type Multi struct {
	specs  []Spec
	errors map[*cfa.Edge][]int // error edge → properties it violates
	vias   map[*cfa.Edge][]int // Via edge → properties entered through it
	active []bool
	ok     *MultiState
}

// MultiState is, for each property with a non-zero nesting inside its
// Via call, that nesting (sorted by property index), and for a target
// the properties violated by the step into it. States are immutable.
type MultiState struct {
	Nest    []PropNest
	Targets []int // property indices (sorted); non-empty only for targets
}

// PropNest is the nesting of property Prop (an index into the specs)
// inside its Via call; Depth ≥ 1.
type PropNest struct{ Prop, Depth int }

// NewMulti returns the property analysis for specs, all active.
func NewMulti(specs []Spec) *Multi {
	m := &Multi{specs: specs, errors: map[*cfa.Edge][]int{}, vias: map[*cfa.Edge][]int{}, active: make([]bool, len(specs)), ok: &MultiState{}}
	for i, s := range specs {
		m.active[i] = true
		for _, e := range s.ErrorEdges {
			m.errors[e] = append(m.errors[e], i)
		}
		if s.Via != nil {
			m.vias[s.Via] = append(m.vias[s.Via], i)
		}
	}
	return m
}

// Specs returns the properties, in the order given to NewMulti.
func (m *Multi) Specs() []Spec { return m.specs }

// Deactivate stops tracking property i (an index into Specs): no later
// step yields a target for it. Targets already reached are left to the
// caller.
func (m *Multi) Deactivate(i int) { m.active[i] = false }

// Active reports whether property i is still tracked.
func (m *Multi) Active(i int) bool { return m.active[i] }

// Name returns "property".
func (m *Multi) Name() string { return "property" }

// Initial returns the state outside every Via call, not a target.
func (m *Multi) Initial() (cpa.State, cpa.Precision) { return m.ok, nil }

func (m *Multi) nestOf(st *MultiState, p int) int {
	for _, n := range st.Nest {
		if n.Prop == p {
			return n.Depth
		}
	}
	return 0
}

// Successors applies CPA's rules to every property: the properties that
// the step violates (active, error edge, Via nil or nesting > 0) make a
// target successor; the continuation updates the nestings (Enter through
// a property's Via from outside: 1; any Enter inside: +1; Leave inside:
// −1).
func (m *Multi) Successors(dst []cpa.State, s cpa.State, step cfa.Step, _ cpa.Precision) ([]cpa.State, error) {
	st := s.(*MultiState)
	if len(st.Targets) > 0 {
		return dst, nil
	}
	if step.Kind != cfa.Leave {
		var hit []int
		for _, p := range m.errors[step.Edge] {
			if m.active[p] && (m.specs[p].Via == nil || m.nestOf(st, p) > 0) {
				hit = append(hit, p)
			}
		}
		if len(hit) > 0 {
			sort.Ints(hit)
			dst = append(dst, &MultiState{Targets: hit})
		}
	}
	switch step.Kind {
	case cfa.Enter:
		entered := m.vias[step.Edge]
		if len(st.Nest) == 0 && len(entered) == 0 {
			return append(dst, st), nil
		}
		nest := make([]PropNest, 0, len(st.Nest)+len(entered))
		for _, n := range st.Nest {
			nest = append(nest, PropNest{n.Prop, n.Depth + 1})
		}
		for _, p := range entered {
			if m.nestOf(st, p) == 0 {
				nest = append(nest, PropNest{p, 1})
			}
		}
		sort.Slice(nest, func(i, j int) bool { return nest[i].Prop < nest[j].Prop })
		return append(dst, &MultiState{Nest: nest}), nil
	case cfa.Leave:
		if len(st.Nest) == 0 {
			return append(dst, st), nil
		}
		var nest []PropNest
		for _, n := range st.Nest {
			if n.Depth > 1 {
				nest = append(nest, PropNest{n.Prop, n.Depth - 1})
			}
		}
		if len(nest) == 0 {
			return append(dst, m.ok), nil
		}
		return append(dst, &MultiState{Nest: nest}), nil
	}
	return append(dst, st), nil
}

func (s *MultiState) equal(o *MultiState) bool {
	if s == o {
		return true
	}
	if len(s.Nest) != len(o.Nest) || len(s.Targets) != len(o.Targets) {
		return false
	}
	for i := range s.Nest {
		if s.Nest[i] != o.Nest[i] {
			return false
		}
	}
	for i := range s.Targets {
		if s.Targets[i] != o.Targets[i] {
			return false
		}
	}
	return true
}

// LessOrEqual holds for equal states.
func (m *Multi) LessOrEqual(a, b cpa.State) bool { return a.(*MultiState).equal(b.(*MultiState)) }

// Join joins equal states only.
func (m *Multi) Join(a, b cpa.State) (cpa.State, bool) {
	return b, a.(*MultiState).equal(b.(*MultiState))
}

// IsTarget reports whether the step into the state violated a property.
func (s *MultiState) IsTarget() bool { return len(s.Targets) > 0 }

func (s *MultiState) String() string {
	if len(s.Targets) > 0 {
		return fmt.Sprintf("target%v", s.Targets)
	}
	if len(s.Nest) == 0 {
		return "ok"
	}
	parts := make([]string, len(s.Nest))
	for i, n := range s.Nest {
		parts[i] = fmt.Sprintf("p%d:via%d", n.Prop, n.Depth)
	}
	return strings.Join(parts, ",")
}

var (
	_ cpa.CPA        = (*Multi)(nil)
	_ cpa.Joiner     = (*Multi)(nil)
	_ cpa.Targetable = (*MultiState)(nil)
)
