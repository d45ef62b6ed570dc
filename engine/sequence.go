package engine

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
)

// step is one configuration of a sequential combination and the share of
// the property's time limit it may use (the last step takes what is left).
type step struct {
	name  string
	share float64
}

// sequence is a sequential combination of named configurations (as
// CPAchecker's sequential composition; seed 000, section 4 compares the
// configurations it combines): each step runs on the property until it
// decides it or its share of the time limit is used; an UNKNOWN hands the
// property to the next step. The verdict is the first TRUE or FALSE; when
// no step decides, UNKNOWN with every step's reason. Soundness is that of
// the steps: each is sound on its own.
//
// Precision entries in Result.Precision are prefixed with the deciding
// step's name and a slash ("value-cegar/main::y@main:+8:[y < 0]"); a step
// starts from the entries of Config.InitialPrecision with its own prefix,
// and the first step also from unprefixed entries.
func sequence(doc string, steps ...step) configuration {
	return configuration{doc: doc, steps: steps}
}

// runSequence decides prop with the steps of conf in order.
func (conf configuration) runSequence(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	var reasons []string
	start := cfg.now()
	for i, st := range conf.steps {
		sub := configs[st.name]
		stepCfg := cfg
		stepCfg.InitialPrecision = map[string][]string{prop.ID: stepPrecision(cfg.InitialPrecision[prop.ID], st.name, i == 0)}
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if cfg.Timeout > 0 && i < len(conf.steps)-1 {
			left := cfg.Timeout - (cfg.now() - start)
			budget := time.Duration(float64(cfg.Timeout) * st.share)
			if budget > left {
				budget = left
			}
			sctx, cancel = withBudget(ctx, cfg, budget)
		}
		r := &Result{Property: prop, Config: res.Config}
		sub.run(sctx, prog, prop, stepCfg, r)
		cancel()
		res.States += r.States
		res.Refinements += r.Refinements
		if r.Verdict == True || r.Verdict == False || i == len(conf.steps)-1 || ctx.Err() != nil {
			states, refinements := res.States, res.Refinements
			*res = *r
			res.States, res.Refinements = states, refinements
			res.Precision = prefixed(r.Precision, st.name)
			if r.Verdict == True || r.Verdict == False {
				res.Reason = st.name + ": " + r.Reason
			} else {
				res.Reason = strings.Join(append(reasons, st.name+": "+r.Reason), "; ")
			}
			return
		}
		reasons = append(reasons, st.name+": "+r.Reason)
	}
}

// stepPrecision selects the initial precision entries of one step.
func stepPrecision(entries []string, name string, first bool) []string {
	var out []string
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e, name+"/"):
			out = append(out, strings.TrimPrefix(e, name+"/"))
		case first && !hasStepPrefix(e):
			out = append(out, e)
		}
	}
	return out
}

// hasStepPrefix reports whether e starts with a configuration's name and
// a slash.
func hasStepPrefix(e string) bool {
	i := strings.Index(e, "/")
	if i <= 0 {
		return false
	}
	_, ok := configs[e[:i]]
	return ok
}

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
