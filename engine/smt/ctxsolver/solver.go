package ctxsolver

import (
	"context"
	"sync"

	"github.com/reverify/reverify/engine/smt"
)

// Solver is the one solver an analysis keeps for a run
// (engine/analysis/symbolic and engine/analysis/predicate): opened on
// first use by Factory over B, used under the run's context (UseContext,
// cpa.ContextUser), and closed when that context ends, so that a run's
// solver lives exactly as long as the run; a later use opens a new one
// (an interrupted solver is never used again, see engine/smt/z3).
//
// Mu is the owner's lock, which also guards the owner's caches and
// statistics: Context, Solver and Check must be called with it held;
// UseContext and Close take it, so the Close scheduled for a context's
// end waits for a check in flight.
type Solver struct {
	Mu      *sync.Mutex
	Factory func(*smt.Builder) smt.Solver
	B       *smt.Builder

	ctx     context.Context
	release func() bool // stops the Close scheduled for ctx's end
	s       smt.Solver
}

// UseContext makes ctx the context of later solver calls: cancelling it
// interrupts them, and once it is done the solver is closed. Takes Mu.
func (c *Solver) UseContext(ctx context.Context) {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if ctx == c.ctx {
		return
	}
	if c.release != nil {
		c.release()
	}
	c.ctx = ctx
	c.release = context.AfterFunc(ctx, c.Close)
}

// Close releases the solver; a later call opens a new one. Takes Mu.
func (c *Solver) Close() {
	c.Mu.Lock()
	defer c.Mu.Unlock()
	if c.s != nil {
		c.s.Close()
		c.s = nil
	}
}

// Context returns the run's context (context.Background before the
// first UseContext). Mu is held.
func (c *Solver) Context() context.Context {
	if c.ctx == nil {
		return context.Background()
	}
	return c.ctx
}

// Solver returns the run's solver, opening it if needed. Mu is held.
func (c *Solver) Solver() smt.Solver {
	if c.s == nil {
		c.s = c.Factory(c.B)
	}
	return c.s
}

// Check decides the conjunction of ts (and extra, when not nil) on the
// run's solver under the run's context, in a Push/Pop level of its own;
// the answer and error are smt.Solver.Check's. Mu is held.
func (c *Solver) Check(ts []*smt.Term, extra *smt.Term) (smt.Result, error) {
	s := c.Solver()
	s.Push()
	defer s.Pop()
	for _, t := range ts {
		s.Assert(t)
	}
	if extra != nil {
		s.Assert(extra)
	}
	return s.Check(c.Context())
}
