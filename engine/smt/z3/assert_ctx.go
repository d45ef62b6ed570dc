package z3

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/smt"
)

// AssertContext is Assert, interrupting Z3 when ctx is done: asserting a
// large term (the path formula of tens of thousands of steps) can take
// Z3 longer than the property's time limit before any check starts
// (issue 14). After an interruption the assertion may be partial, so
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
	var (
		mu          sync.Mutex
		finished    bool
		interrupted bool
	)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		wait := 10 * time.Millisecond
		for {
			mu.Lock()
			if !finished {
				s.ctx.Interrupt()
				interrupted = true
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, 500*time.Millisecond)
		}
	}()
	s.Assert(t)
	mu.Lock()
	finished = true
	mu.Unlock()
	close(done)
	<-stopped
	if interrupted {
		s.unknown = true
		if s.err == nil {
			s.err = fmt.Errorf("smt/z3: assert interrupted: %w", ctx.Err())
		}
	}
}

var _ smt.AssertContexter = (*solver)(nil)
