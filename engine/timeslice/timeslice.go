package timeslice

import (
	"context"
	"time"
)

// Gate is what a scheduler gives each analysis it runs: Wait blocks
// while the analysis is paused, and returns at once when it may run or
// when ctx ends.
type Gate interface {
	Wait(ctx context.Context)
}

type gateKey struct{}

// Turn is a Gate that also says, without blocking, whether its analysis
// holds a slot now: what a watcher asks on behalf of work that cannot
// reach a checkpoint (a solver process, which it stops while the
// analysis is paused).
type Turn interface {
	Gate
	Holds() bool
}

// Milestones is a Gate that hears an analysis report that its first
// attempt is over without a verdict (Milestone).
type Milestones interface {
	Gate
	Milestone()
}

// Milestone reports that the analysis that ctx belongs to has ended its
// first attempt without a verdict: k-induction's step case at k = 1,
// strengthened by its candidate invariants, did not hold. Its expected
// payoff drops there (its proofs come almost all at k = 1), and a
// scheduler may end its probe and lower its share (engine/strategy's
// Arm.Probe and Arm.Demoted). No-op without a scheduler that listens.
func Milestone(ctx context.Context) {
	if m, ok := ctx.Value(gateKey{}).(Milestones); ok {
		m.Milestone()
	}
}

// Sliced reports whether the analysis that ctx belongs to takes turns
// under a scheduler that can say when it holds a slot (a Turn).
func Sliced(ctx context.Context) bool {
	_, ok := ctx.Value(gateKey{}).(Turn)
	return ok
}

// Holds reports whether the analysis that ctx belongs to may run now:
// true without a scheduler, or with a Gate that is not a Turn.
func Holds(ctx context.Context) bool {
	if t, ok := ctx.Value(gateKey{}).(Turn); ok {
		return t.Holds()
	}
	return true
}

// With returns ctx carrying g: Yield on ctx or on any context derived
// from it waits at g.
func With(ctx context.Context, g Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// Yield is a checkpoint: it blocks while the analysis that ctx belongs
// to is paused (With), and returns at once without a scheduler, or when
// ctx ends (the caller then sees ctx.Err() as at any checkpoint).
func Yield(ctx context.Context) {
	if g, ok := ctx.Value(gateKey{}).(Gate); ok {
		g.Wait(ctx)
	}
}

// Checkpoint is a cheaper Yield for tight loops: it looks the gate up
// once and yields every 64th call.
type Checkpoint struct {
	g Gate
	n uint8
}

// NewCheckpoint returns the checkpoint of ctx's scheduler (a no-op
// without one).
func NewCheckpoint(ctx context.Context) *Checkpoint {
	g, _ := ctx.Value(gateKey{}).(Gate)
	return &Checkpoint{g: g}
}

// Yield waits at the gate every 64th call.
func (c *Checkpoint) Yield(ctx context.Context) {
	if c.g == nil {
		return
	}
	if c.n++; c.n&63 == 0 {
		c.g.Wait(ctx)
	}
}

// Expired is ctx.Err(), or context.DeadlineExceeded once ctx's deadline
// has passed even if its timer has not fired yet (on a loaded machine
// the timer goroutine may run late): the test of a checkpoint that must
// not start work after the deadline.
func Expired(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= 0 {
		return context.DeadlineExceeded
	}
	return nil
}

type remainingKey struct{}

// WithRemaining returns ctx carrying left, which says how much time is
// left before ctx expires on a clock that ctx.Deadline does not express
// (a CPU-time budget: engine/strategy.WithBudget).
func WithRemaining(ctx context.Context, left func() time.Duration) context.Context {
	return context.WithValue(ctx, remainingKey{}, left)
}

// Remaining returns the time left before ctx expires: the least of the
// innermost budget's WithRemaining and the time until ctx's deadline;
// false when ctx has neither.
func Remaining(ctx context.Context) (time.Duration, bool) {
	left, ok := time.Duration(0), false
	if f, has := ctx.Value(remainingKey{}).(func() time.Duration); has {
		left, ok = f(), true
	}
	if d, has := ctx.Deadline(); has {
		if u := time.Until(d); !ok || u < left {
			left, ok = u, true
		}
	}
	return max(left, 0), ok
}

// Share returns a context that ends at 1/n of the time left before
// ctx's deadline (n ≥ 1), for a step that must leave the rest to the
// steps after it; without a deadline, a cancellable ctx.
func Share(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		return context.WithTimeout(ctx, time.Until(d)/time.Duration(max(1, n)))
	}
	return context.WithCancel(ctx)
}
