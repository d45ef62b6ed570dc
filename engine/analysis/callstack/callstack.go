package callstack

import (
	"fmt"
	"strings"
	"sync"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

// DefaultMaxDepth is the default bound on the call-stack depth.
const DefaultMaxDepth = 64

// CPA is the call-stack analysis: its states are persistent stacks of Call
// edges. Stacks are interned per CPA (equal stacks are the same pointer),
// so comparing and partitioning by stack is a pointer comparison.
type CPA struct {
	max  int
	mu   sync.Mutex
	root *Stack
	tab  map[key]*Stack
}

type key struct {
	parent   *Stack
	edge     *cfa.Edge
	overflow bool
}

// Stack is a call-stack state: the Call edges of the active calls, the
// innermost on top. The outermost function has the empty stack (Depth 0).
// A Stack whose Overflow is set stands for a call beyond the depth limit:
// it is truncated (cpa.Truncated) and has no successors.
type Stack struct {
	Parent   *Stack    // nil for the empty stack
	Edge     *cfa.Edge // the Call edge on top; nil for the empty stack
	depth    int
	Overflow bool
	max      int
}

// New returns a call-stack CPA with depth limit maxDepth (≤ 0 selects
// DefaultMaxDepth).
func New(maxDepth int) *CPA {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	c := &CPA{max: maxDepth, tab: map[key]*Stack{}}
	c.root = &Stack{max: maxDepth}
	return c
}

// MaxDepth returns the depth limit.
func (c *CPA) MaxDepth() int { return c.max }

// Name returns "callstack".
func (c *CPA) Name() string { return "callstack" }

// Initial returns the empty stack and a nil precision.
func (c *CPA) Initial() (cpa.State, cpa.Precision) { return c.root, nil }

func (c *CPA) intern(parent *Stack, e *cfa.Edge, overflow bool) *Stack {
	k := key{parent, e, overflow}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.tab[k]
	if !ok {
		s = &Stack{Parent: parent, Edge: e, depth: parent.depth + 1, Overflow: overflow, max: c.max}
		if overflow {
			s.depth = parent.depth
		}
		c.tab[k] = s
	}
	return s
}

// Successors pushes the call edge on Enter (Init's Enter with nil Edge
// keeps the empty stack), pops it on Leave and keeps the stack on Intra.
// Entering beyond the depth limit yields the overflow stack, which is
// truncated with the reason "recursion depth N exceeded".
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, _ cpa.Precision) ([]cpa.State, error) {
	st := s.(*Stack)
	if st.Overflow {
		return dst, nil
	}
	switch step.Kind {
	case cfa.Enter:
		if step.Edge == nil {
			return append(dst, st), nil
		}
		if st.depth >= c.max {
			return append(dst, c.intern(st, step.Edge, true)), nil
		}
		return append(dst, c.intern(st, step.Edge, false)), nil
	case cfa.Leave:
		if st.Edge != step.Edge {
			return dst, nil
		}
		return append(dst, st.Parent), nil
	}
	return append(dst, st), nil
}

// LessOrEqual holds for equal stacks only.
func (c *CPA) LessOrEqual(a, b cpa.State) bool { return a == b }

// Join joins equal stacks only.
func (c *CPA) Join(a, b cpa.State) (cpa.State, bool) { return b, a == b }

// ReturnSite returns the call edge on top, nil for the empty stack.
func (s *Stack) ReturnSite() *cfa.Edge { return s.Edge }

// Depth returns the number of active calls above the outermost function.
func (s *Stack) Depth() int { return s.depth }

// PartitionKey is the interned stack itself.
func (s *Stack) PartitionKey() any { return s }

// TruncatedReason is "recursion depth N exceeded" for the overflow stack.
func (s *Stack) TruncatedReason() string {
	if s.Overflow {
		return fmt.Sprintf("recursion depth %d exceeded", s.max)
	}
	return ""
}

// Explain returns the truncation reason, if any.
func (s *Stack) Explain() []string {
	if s.Overflow {
		return []string{s.TruncatedReason()}
	}
	return nil
}

// Frames returns the call edges from the outermost call to the innermost.
func (s *Stack) Frames() []*cfa.Edge {
	out := make([]*cfa.Edge, s.depth)
	i := s.depth - 1
	for x := s; x != nil && x.Edge != nil; x = x.Parent {
		if x.Overflow {
			continue
		}
		out[i] = x.Edge
		i--
	}
	return out
}

// String lists the calls outermost first, as "[]" or "[f@L3 g@L7]"
// (callee name at the call site's location).
func (s *Stack) String() string {
	var parts []string
	for _, e := range s.Frames() {
		parts = append(parts, fmt.Sprintf("%s@%s", calleeName(e), e.From))
	}
	r := "[" + strings.Join(parts, " ") + "]"
	if s.Overflow {
		r += " overflow"
	}
	return r
}

func calleeName(e *cfa.Edge) string {
	if c, ok := e.Op.(*cfa.Call); ok && c.Fn != "" {
		return c.Fn
	}
	return "(*)"
}

var (
	_ cpa.CPA         = (*CPA)(nil)
	_ cpa.Joiner      = (*CPA)(nil)
	_ cpa.ReturnSiter = (*Stack)(nil)
	_ cpa.Truncated   = (*Stack)(nil)
)
