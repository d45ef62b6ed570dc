package slicing

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/bits"
	"strings"
	"sync"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/pdg"
)

// Options configure the slicing CPA.
type Options struct {
	// Initial is the initial slice (nil: the empty slice of seed 000,
	// section 3.3).
	Initial []*cfa.Edge
}

// CPA is the slicing CPA (seed 000, section 3.2) around a wrapped
// analysis. It is safe for concurrent use if the wrapped CPA is.
type CPA struct {
	prog *cfa.Program
	g    *pdg.SDG
	w    cpa.CPA
	init *Precision
	// always are the edges relevant under every precision (bit set over
	// Edge.ID): writes through unresolved pointers with their slice.
	always  []uint64
	unres   []*cfa.Edge
	noops   []*cfa.Edge // by Edge.ID: (l, noop, l')
	joiner  cpa.Joiner
	adjust  cpa.PrecisionAdjuster
	ctxUser cpa.ContextUser

	mu      sync.Mutex
	calls   map[callKey]*[2]*cfa.Edge // muted Enter and Leave edges
	reasons map[int][]cpa.Explanation // by Edge.ID: what an external call explains
}

type callKey struct {
	call   *cfa.Edge
	callee *cfa.Function
}

// New returns the slicing CPA of prog around w; g must be prog's system
// dependence graph (pdg.Build(prog)).
func New(prog *cfa.Program, g *pdg.SDG, w cpa.CPA, opts Options) *CPA {
	c := &CPA{
		prog: prog, g: g, w: w,
		always:  make([]uint64, (len(prog.Edges)+63)/64),
		noops:   make([]*cfa.Edge, len(prog.Edges)),
		calls:   map[callKey]*[2]*cfa.Edge{},
		reasons: map[int][]cpa.Explanation{},
	}
	c.joiner, _ = w.(cpa.Joiner)
	c.adjust, _ = w.(cpa.PrecisionAdjuster)
	c.ctxUser, _ = w.(cpa.ContextUser)
	for _, e := range prog.Edges {
		c.noops[e.ID] = &cfa.Edge{ID: e.ID, From: e.From, To: e.To, Op: &cfa.Noop{Label: "sliced: " + e.Op.String()}, Pos: e.Pos, Text: e.Text}
		if c.g.UnresolvedWrite(c.prog, e) {
			c.unres = append(c.unres, e)
		}
	}
	if len(c.unres) > 0 {
		for _, e := range g.Slice(c.unres).Edges() {
			c.always[e.ID/64] |= 1 << (e.ID % 64)
		}
		for _, e := range c.unres {
			c.always[e.ID/64] |= 1 << (e.ID % 64)
		}
	}
	_, wp := w.Initial()
	c.init = &Precision{slice: make([]uint64, len(c.always)), Wrapped: wp}
	c.init, _ = c.init.With(opts.Initial)
	return c
}

// Wrapped returns the wrapped analysis.
func (c *CPA) Wrapped() cpa.CPA { return c.w }

// SDG returns the dependence graph the slices come from.
func (c *CPA) SDG() *pdg.SDG { return c.g }

// Program returns the program.
func (c *CPA) Program() *cfa.Program { return c.prog }

// Unresolved returns the edges that write through a pointer the
// points-to analysis cannot resolve (relevant under every precision,
// together with their backward slice).
func (c *CPA) Unresolved() []*cfa.Edge { return c.unres }

// Relevant reports whether e is handed to the wrapped analysis as it is
// under precision p (outside muted calls): e is in p's slice, always
// relevant (an unresolved write or in its slice), or Unsupported.
func (c *CPA) Relevant(e *cfa.Edge, p *Precision) bool {
	if _, ok := e.Op.(*cfa.Unsupported); ok {
		return true
	}
	return p.Contains(e) || c.always[e.ID/64]&(1<<(e.ID%64)) != 0
}

// Name returns "slicing".
func (c *CPA) Name() string { return "slicing" }

// Initial returns the wrapped initial state and the precision (initial
// slice, wrapped initial precision).
func (c *CPA) Initial() (cpa.State, cpa.Precision) {
	ws, _ := c.w.Initial()
	return &State{W: ws}, c.init
}

// WrappedStep returns the step the wrapped analysis takes for step from s
// under p, and the number of muted calls after it: step itself when it is
// relevant, otherwise its no-op (see the package documentation).
func (c *CPA) WrappedStep(s *State, step cfa.Step, p *Precision) (cfa.Step, int) {
	switch step.Kind {
	case cfa.Enter:
		if step.Edge == nil {
			return step, s.Muted
		}
		if s.Muted > 0 || !c.Relevant(step.Edge, p) {
			return cfa.Step{Kind: cfa.Intra, Edge: c.callNoops(step.Edge, step.Callee)[0]}, s.Muted + 1
		}
		return step, 0
	case cfa.Leave:
		if s.Muted > 0 {
			return cfa.Step{Kind: cfa.Intra, Edge: c.callNoops(step.Edge, step.Callee)[1]}, s.Muted - 1
		}
		return step, 0
	}
	e := step.Edge
	if _, ok := e.Op.(*cfa.Unsupported); ok {
		return step, s.Muted
	}
	if s.Muted > 0 || !c.Relevant(e, p) {
		return cfa.Step{Kind: cfa.Intra, Edge: c.noops[e.ID]}, s.Muted
	}
	return step, s.Muted
}

// callNoops returns the no-op edges standing for a muted Enter (call site
// to callee entry) and Leave (callee exit to return site).
func (c *CPA) callNoops(call *cfa.Edge, callee *cfa.Function) *[2]*cfa.Edge {
	k := callKey{call, callee}
	c.mu.Lock()
	defer c.mu.Unlock()
	if x, ok := c.calls[k]; ok {
		return x
	}
	x := &[2]*cfa.Edge{
		{ID: call.ID, From: call.From, To: callee.Entry, Op: &cfa.Noop{Label: "sliced: enter " + callee.Name}, Pos: call.Pos, Text: call.Text},
		{ID: call.ID, From: callee.Exit, To: call.To, Op: &cfa.Noop{Label: "sliced: leave " + callee.Name}, Pos: call.Pos, Text: call.Text},
	}
	c.calls[k] = x
	return x
}

// Successors is the transfer relation of seed 000, section 3.2: the
// wrapped transfer for step if it is relevant, for its no-op otherwise.
func (c *CPA) Successors(dst []cpa.State, s cpa.State, step cfa.Step, p cpa.Precision) ([]cpa.State, error) {
	st := s.(*State)
	prec := p.(*Precision)
	ws, muted := c.WrappedStep(st, step, prec)
	reasons := st.reasons
	if ws.Edge != step.Edge && step.Kind == cfa.Intra {
		if call, ok := step.Edge.Op.(*cfa.Call); ok {
			reasons = cpa.UnionExplanations(reasons, c.callReasons(step, call))
		}
	}
	n := len(dst)
	dst, err := c.w.Successors(dst, st.W, ws, prec.Wrapped)
	if err != nil {
		return dst[:n], err
	}
	for i := n; i < len(dst); i++ {
		if dst[i] == st.W && muted == st.Muted && len(reasons) == len(st.reasons) {
			dst[i] = st
			continue
		}
		dst[i] = &State{W: dst[i], Muted: muted, reasons: reasons}
	}
	return dst, nil
}

// callReasons returns what the wrapped analysis explains for an
// external call, computed once per edge from its initial state (the
// reasons name the function, not values). Calls of __VERIFIER_
// functions are modelled and skipped.
func (c *CPA) callReasons(step cfa.Step, call *cfa.Call) []cpa.Explanation {
	if strings.HasPrefix(call.Fn, "__VERIFIER_") {
		return nil
	}
	c.mu.Lock()
	r, ok := c.reasons[step.Edge.ID]
	c.mu.Unlock()
	if ok {
		return r
	}
	ws, wp := c.w.Initial()
	succ, _ := c.w.Successors(nil, ws, step, wp)
	for _, x := range succ {
		if e, ok := x.(cpa.Explainer); ok {
			r = cpa.UnionExplanations(r, e.Explain())
		}
	}
	c.mu.Lock()
	c.reasons[step.Edge.ID] = r
	c.mu.Unlock()
	return r
}

// LessOrEqual: a ⊑ b when both are inside the same number of muted
// calls, b explains at least what a explains, and a's wrapped state is
// below b's.
func (c *CPA) LessOrEqual(a, b cpa.State) bool {
	x, y := a.(*State), b.(*State)
	if x == y {
		return true
	}
	return x.Muted == y.Muted && cpa.SubsetExplanations(x.reasons, y.reasons) && c.w.LessOrEqual(x.W, y.W)
}

// Join joins the wrapped states when the wrapped analysis has a join
// (merge-join) and both states are inside the same number of muted
// calls.
func (c *CPA) Join(a, b cpa.State) (cpa.State, bool) {
	x, y := a.(*State), b.(*State)
	if c.joiner == nil || x.Muted != y.Muted {
		return nil, false
	}
	j, ok := c.joiner.Join(x.W, y.W)
	if !ok {
		return nil, false
	}
	if j == y.W && cpa.SubsetExplanations(x.reasons, y.reasons) {
		return y, true
	}
	return &State{W: j, Muted: y.Muted, reasons: cpa.UnionExplanations(x.reasons, y.reasons)}, true
}

// AdjustPrecision delegates to the wrapped analysis's precision
// adjustment, if any (seed 000, section 3.2: prec_SC).
func (c *CPA) AdjustPrecision(s cpa.State, p cpa.Precision) (cpa.State, cpa.Precision) {
	if c.adjust == nil {
		return s, p
	}
	st, prec := s.(*State), p.(*Precision)
	ws, wp := c.adjust.AdjustPrecision(st.W, prec.Wrapped)
	if ws != st.W {
		s = &State{W: ws, Muted: st.Muted, reasons: st.reasons}
	}
	if wp != prec.Wrapped {
		p = prec.WithWrapped(wp)
	}
	return s, p
}

// UseContext passes ctx to the wrapped analysis (cpa.ContextUser).
func (c *CPA) UseContext(ctx context.Context) {
	if c.ctxUser != nil {
		c.ctxUser.UseContext(ctx)
	}
}

// State is a state of the slicing CPA: the wrapped analysis's state W,
// the number of calls on the stack that were entered through a Call edge
// outside the slice (Muted; inside them every step is a no-op), and the
// reasons of out-of-slice calls of unmodelled functions.
type State struct {
	W     cpa.State
	Muted int
	// reasons are sorted and deduplicated; shared, never modified.
	reasons []cpa.Explanation
}

// Explain returns the wrapped state's reasons and those of out-of-slice
// calls (cpa.Explainer).
func (s *State) Explain() []cpa.Explanation {
	var r []cpa.Explanation
	if e, ok := s.W.(cpa.Explainer); ok {
		r = e.Explain()
	}
	if len(s.reasons) == 0 {
		return r
	}
	return cpa.UnionExplanations(r, s.reasons)
}

// Features forwards the wrapped state's features (cpa.Featured).
func (s *State) Features(buf []uint64) []uint64 {
	if f, ok := s.W.(cpa.Featured); ok {
		return f.Features(buf)
	}
	return buf
}

// IsTarget forwards the wrapped state's target flag.
func (s *State) IsTarget() bool {
	t, ok := s.W.(cpa.Targetable)
	return ok && t.IsTarget()
}

// TruncatedReason forwards the wrapped state's truncation.
func (s *State) TruncatedReason() string {
	if t, ok := s.W.(cpa.Truncated); ok {
		return t.TruncatedReason()
	}
	return ""
}

func (s *State) String() string {
	str := fmt.Sprint(s.W)
	if s.Muted > 0 {
		str += fmt.Sprintf(" (in %d sliced call(s))", s.Muted)
	}
	return str
}

// Precision is the slicing CPA's precision Π_SC = 2^G × Π (seed 000,
// section 3.2): the relevant CFA edges (the slice) and the wrapped
// analysis's precision. Precisions are immutable.
type Precision struct {
	slice   []uint64 // bit set over Edge.ID
	n       int
	Wrapped cpa.Precision
}

// Contains reports whether e is in the slice.
func (p *Precision) Contains(e *cfa.Edge) bool {
	i := e.ID / 64
	return i < len(p.slice) && p.slice[i]&(1<<(e.ID%64)) != 0
}

// Len returns the number of edges in the slice.
func (p *Precision) Len() int { return p.n }

// Edges returns the slice's edges of prog, by ID.
func (p *Precision) Edges(prog *cfa.Program) []*cfa.Edge {
	var out []*cfa.Edge
	for i, w := range p.slice {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			w &^= 1 << b
			out = append(out, prog.Edges[i*64+b])
		}
	}
	return out
}

// With returns p with edges added to the slice and how many were new
// (p itself when none).
func (p *Precision) With(edges []*cfa.Edge) (*Precision, int) {
	var q *Precision
	added := 0
	for _, e := range edges {
		if p.Contains(e) || (q != nil && q.Contains(e)) {
			continue
		}
		if q == nil {
			q = &Precision{slice: append([]uint64(nil), p.slice...), n: p.n, Wrapped: p.Wrapped}
		}
		for e.ID/64 >= len(q.slice) {
			q.slice = append(q.slice, 0)
		}
		q.slice[e.ID/64] |= 1 << (e.ID % 64)
		q.n++
		added++
	}
	if q == nil {
		return p, 0
	}
	return q, added
}

// WithWrapped returns p with the wrapped precision replaced.
func (p *Precision) WithWrapped(w cpa.Precision) *Precision {
	return &Precision{slice: p.slice, n: p.n, Wrapped: w}
}

// String prints the slice's size and a hash of its edge set, then the
// wrapped precision: "slice 12 edges #3f2a… | vars …". Different slices
// print differently (up to hash collisions).
func (p *Precision) String() string {
	h := fnv.New64a()
	var b [8]byte
	for _, w := range p.slice {
		for i := range b {
			b[i] = byte(w >> (8 * i))
		}
		h.Write(b[:])
	}
	return fmt.Sprintf("slice %d edges #%016x | %v", p.n, h.Sum64(), p.Wrapped)
}

var (
	_ cpa.CPA               = (*CPA)(nil)
	_ cpa.Joiner            = (*CPA)(nil)
	_ cpa.PrecisionAdjuster = (*CPA)(nil)
	_ cpa.ContextUser       = (*CPA)(nil)
	_ cpa.Explainer         = (*State)(nil)
	_ cpa.Featured          = (*State)(nil)
)
