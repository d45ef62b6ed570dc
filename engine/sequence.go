package engine

import (
	"context"
	"sync"
	"time"
)

// prefixed returns entries with "name/" in front of each.
func prefixed(entries []string, name string) []string {
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = name + "/" + e
	}
	return out
}

// now reads the configured clock: Config.Clock, or wall time since an
// arbitrary origin.
func (cfg Config) now() time.Duration {
	if cfg.Clock != nil {
		return cfg.Clock()
	}
	return time.Since(clockOrigin)
}

var clockOrigin = time.Now()

// withBudget returns a context that expires after d on the configured
// clock: context.WithTimeout for wall time; for Config.Clock (e.g. the
// process's CPU time), a watchdog that polls the clock every 10 ms and
// makes the context's Err report context.DeadlineExceeded, so that the
// reasons read "timeout" either way.
func withBudget(ctx context.Context, cfg Config, d time.Duration) (context.Context, context.CancelFunc) {
	if cfg.Clock == nil {
		return context.WithTimeout(ctx, d)
	}
	c := &budgetCtx{Context: ctx, done: make(chan struct{})}
	stop := make(chan struct{})
	end := cfg.Clock() + d
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				c.expire(context.Canceled)
				return
			case <-ctx.Done():
				c.expire(ctx.Err())
				return
			case <-t.C:
				if cfg.Clock() >= end {
					c.expire(context.DeadlineExceeded)
					return
				}
			}
		}
	}()
	var once sync.Once
	return c, func() { once.Do(func() { close(stop) }) }
}

// budgetCtx is a context whose expiry a watchdog decides.
type budgetCtx struct {
	context.Context
	once sync.Once
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (c *budgetCtx) expire(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *budgetCtx) Done() <-chan struct{} { return c.done }

func (c *budgetCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}
