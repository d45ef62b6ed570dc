package property

import (
	"fmt"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// Spec is one reachability property: reaching any of the ErrorEdges (Call
// edges to error functions such as reach_error), and, when Via is not nil,
// only while executing inside a call entered through Via (the call site of
// an assertion wrapper such as __VERIFIER_assert whose body contains the
// error edges), so that each assertion site is its own property.
type Spec struct {
	Name       string
	ErrorEdges []*cfa.Edge
	Via        *cfa.Edge
}

// CPA is the property analysis for one Spec: it marks target states.
type CPA struct {
	spec   Spec
	errors map[*cfa.Edge]bool
	cache  []*State // states without target, by nesting (small nestings)
	target *State
}

// State tracks how deep execution is inside calls entered through Via (0:
// outside) and whether the property is violated. States are immutable.
type State struct {
	Nest   int
	Target bool
}

// New returns the property CPA for spec.
func New(spec Spec) *CPA {
	c := &CPA{spec: spec, errors: map[*cfa.Edge]bool{}, target: &State{Target: true}}
	for _, e := range spec.ErrorEdges {
		c.errors[e] = true
	}
	for i := 0; i < 8; i++ {
		c.cache = append(c.cache, &State{Nest: i})
	}
	return c
}

// Spec returns the property.
func (c *CPA) Spec() Spec { return c.spec }

// Name returns "property".
func (c *CPA) Name() string { return "property" }

func (c *CPA) state(nest int) *State {
	if nest < len(c.cache) {
		return c.cache[nest]
	}
	return &State{Nest: nest}
}

// Initial returns the state outside Via, not a target.
func (c *CPA) Initial() (cpa.State, cpa.Precision) { return c.state(0), nil }

// Successors tracks the nesting inside Via (Enter through Via from
// outside: 1; any Enter inside: +1; Leave inside: −1) and makes the
// successor of an Intra or Enter step over an error edge a target when
// Via is nil or execution is inside Via. Target states have no successors.
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, _ cpa.Precision) ([]cpa.State, error) {
	st := s.(*State)
	if st.Target {
		return dst, nil
	}
	// An error call is a violation whether the error function has a body
	// (SV-COMP's reach_error usually has: an Enter step) or not (Intra).
	if step.Kind != cfa.Leave && c.errors[step.Edge] && (c.spec.Via == nil || st.Nest > 0) {
		return append(dst, c.target), nil
	}
	switch step.Kind {
	case cfa.Enter:
		if st.Nest > 0 {
			return append(dst, c.state(st.Nest+1)), nil
		}
		if c.spec.Via != nil && step.Edge == c.spec.Via {
			return append(dst, c.state(1)), nil
		}
	case cfa.Leave:
		if st.Nest > 0 {
			return append(dst, c.state(st.Nest-1)), nil
		}
	}
	return append(dst, st), nil
}

// LessOrEqual holds for equal states.
func (c *CPA) LessOrEqual(a, b cpa.State) bool { return *a.(*State) == *b.(*State) }

// Join joins equal states only.
func (c *CPA) Join(a, b cpa.State) (cpa.State, bool) { return b, *a.(*State) == *b.(*State) }

// IsTarget reports whether the property is violated.
func (s *State) IsTarget() bool { return s.Target }

func (s *State) String() string {
	if s.Target {
		return "target"
	}
	if s.Nest > 0 {
		return fmt.Sprintf("via%d", s.Nest)
	}
	return "ok"
}

// ErrorCalls returns the Call edges in prog whose callee is one of names
// (such as "reach_error", "__VERIFIER_error"), in edge-ID order: the
// ErrorEdges of the usual SV-COMP unreach-call property.
func ErrorCalls(prog *cfa.Program, names ...string) []*cfa.Edge {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []*cfa.Edge
	for _, e := range prog.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && want[c.Fn] {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

var (
	_ cpa.CPA        = (*CPA)(nil)
	_ cpa.Joiner     = (*CPA)(nil)
	_ cpa.Targetable = (*State)(nil)
)
