package callstack

import (
	"fmt"
	"slices"
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
// truncated (TruncatedReason says why).
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

// TruncatedReason says, for the overflow stack, why the call stack grew
// beyond its bound, from the functions on it (the bare
// "recursion depth 64 exceeded" appeared on programs without
// recursion):
//
//   - "recursion depth N exceeded (f → g → f)": a function is on the
//     stack twice and every call of the cycle names its callee;
//   - "call depth N exceeded through calls via function pointers whose
//     target is not known (walk → (*) → walk; the program may not
//     recurse)": the cycle passes a call through a pointer that the
//     data analyses did not resolve, which enters every function whose
//     address is taken;
//   - "call depth N exceeded without recursion (a chain of N calls)".
func (s *Stack) TruncatedReason() string {
	if !s.Overflow {
		return ""
	}
	var edges []*cfa.Edge // call edges, outermost first
	for x := s; x != nil && x.Edge != nil; x = x.Parent {
		edges = append(edges, x.Edge)
	}
	slices.Reverse(edges)
	// edges[k] lies in function fns[k] and calls fns[k+1]
	at := map[*cfa.Function]int{}
	for j, e := range edges {
		fn := e.From.Func
		i, seen := at[fn]
		if !seen {
			at[fn] = j
			continue
		}
		names := []string{fn.Name}
		pointer := false
		for k := i; k < j; k++ {
			callee := edges[k+1].From.Func.Name
			if c, ok := edges[k].Op.(*cfa.Call); !ok || c.Fn == "" {
				pointer = true
				callee = "(*)" + callee
			}
			names = append(names, callee)
		}
		cycle := strings.Join(names, " → ")
		if pointer {
			return fmt.Sprintf("call depth %d exceeded through calls via function pointers whose target is not known (%s; the program may not recurse)", s.max, cycle)
		}
		return fmt.Sprintf("recursion depth %d exceeded (%s)", s.max, cycle)
	}
	return fmt.Sprintf("call depth %d exceeded without recursion (a chain of %d calls)", s.max, len(edges))
}

// Explain returns the truncation reason, if any.
func (s *Stack) Explain() []cpa.Explanation {
	if s.Overflow {
		return []cpa.Explanation{{Kind: cpa.Cut, Text: s.TruncatedReason()}}
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
