package z3

import (
	"context"
	"fmt"

	"github.com/reverify/reverify/engine/smt"
)

// AssertContext is Assert, interrupting Z3 when ctx is done: asserting a
// large term (the path formula of tens of thousands of steps) can take
// Z3 longer than the property's time limit before any check starts.
// After an interruption the assertion may be partial, so
// the error is sticky: the next Check answers Unknown with ctx's error,
// and Close drops the Z3 context rather than pooling it (smt.AssertContexter).
func (s *solver) AssertContext(ctx context.Context, t *smt.Term) {
	if s.err != nil {
		return
	}
	if err := ctx.Err(); err != nil {
		s.err = fmt.Errorf("smt/z3: assert not started: %w", err)
		return
	}
	interrupted := s.interruptible(ctx, func() { s.Assert(t) })
	if interrupted {
		s.unknown = true
		if s.err == nil {
			s.err = fmt.Errorf("smt/z3: assert interrupted: %w", ctx.Err())
		}
	}
}

var _ smt.AssertContexter = (*solver)(nil)
