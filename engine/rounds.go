package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Budget split of Config.ShareDeadline (verifyRounds).
const (
	// sharedRunShare: the multi-property run gets at most this fraction
	// of the property limit, and of the time to the deadline.
	sharedRunShare = 4
	// roundFloorShare: no round gives a property less than the property
	// limit divided by this (nor less than minRoundBudget).
	roundFloorShare = 20
	minRoundBudget  = 200 * time.Millisecond
)

// roundJob is one property still to verify one at a time in
// verifyRounds.
type roundJob struct {
	i     int
	after *afterMulti // the shared run's part, nil: none
	used  time.Duration
	last  time.Duration // the previous round's budget (0: none yet)
	res   *Result       // the previous round's result, nil: none yet
}

// verifyRounds verifies the properties queue of props one at a time,
// as Verify's workers do, but shares the time to ctx's deadline (the
// proof's limit, Config.ShareDeadline) among them instead of giving each
// the whole property limit cfg.Timeout in turn: iterative deepening over
// time budgets. In each round a property gets the budget
//
//	min(left of its own limit, max(floor, 2·its last budget, fair share))
//
// where the fair share is the time to the deadline times cfg.Workers
// divided by the properties waiting (this round's and the next's), and
// the floor is cfg.Timeout/20, at least 200 ms. A property that stays
// UNKNOWN because some analysis ran out of its budget ("timeout after")
// is queued for the next round while its own limit and the deadline
// leave time; everything else is final at once. So cheap properties are
// decided first and return their time to the others, and no property
// waits behind the whole limit of a costly one; a property's total time
// over its rounds (plus the shared run it waited for) never exceeds
// cfg.Timeout, and no round outlives ctx. The repeated work of a
// property decided in round k is at most that of its k-1 earlier rounds,
// whose budgets at least double.
//
// Soundness is that of verifyOne: every round is a complete run of the
// configuration under a shorter limit; only its verdict is used.
// Results go to final (Verify's) with Seconds the property's time over
// all its rounds; a property the deadline leaves undecided is UNKNOWN
// with its last round's reason, which names the budget and the deadline.
func verifyRounds(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, queue []int, later []*afterMulti, final func(int, *Result)) {
	deadline, hasDeadline := ctx.Deadline()
	floor := cfg.Timeout / roundFloorShare
	if floor < minRoundBudget {
		floor = minRoundBudget
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var cur, next []*roundJob
	for _, i := range queue {
		j := &roundJob{i: i, after: later[i]}
		if j.after != nil {
			j.used = time.Duration(j.after.seconds * float64(time.Second))
		}
		cur = append(cur, j)
	}
	running := 0
	// take returns the next job and its budget, or nil when none is
	// left; it waits while a running job may still be queued again.
	take := func() (*roundJob, time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		for {
			if len(cur) == 0 && len(next) > 0 && running == 0 {
				cur, next = next, nil
			}
			if len(cur) > 0 {
				break
			}
			if running == 0 {
				return nil, 0
			}
			cond.Wait()
		}
		j := cur[0]
		cur = cur[1:]
		var budget time.Duration // 0: no limit of its own
		if cfg.Timeout > 0 {
			budget = cfg.Timeout - j.used
			if budget <= 0 {
				running++
				return j, -1 // the shared run used up its limit
			}
		}
		if hasDeadline && ctxDone(ctx) == nil {
			share := time.Until(deadline) * time.Duration(cfg.Workers) / time.Duration(len(cur)+len(next)+1)
			if share < floor {
				share = floor
			}
			if share < 2*j.last {
				share = 2 * j.last
			}
			if budget == 0 || share < budget {
				budget = share
			}
		}
		running++
		return j, budget
	}
	var wg sync.WaitGroup
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, budget := take()
				if j == nil {
					return
				}
				r, timedOut := runRound(ctx, prog, props[j.i], cfg, conf, j, budget)
				mu.Lock()
				running--
				again := timedOut && ctxDone(ctx) == nil && (cfg.Timeout <= 0 || j.used < cfg.Timeout) &&
					(!hasDeadline || time.Until(deadline) > floor)
				if again {
					j.res = r
					next = append(next, j)
				}
				cond.Broadcast()
				mu.Unlock()
				if !again {
					final(j.i, r)
				}
			}
		}()
	}
	wg.Wait()
}

// runRound verifies property prop of job j once under budget (0: no
// limit of its own), adds the time to j.used and returns the result with
// the shared run's part merged and the reason saying which limit ended
// it: the property's own limit, or the budget of this round of a shared
// deadline (-1: the limit is used up, UNKNOWN at once); timedOut says
// that it is UNKNOWN because an analysis of this round ran out of time
// (more time may decide it).
func runRound(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, conf configuration, j *roundJob, budget time.Duration) (r *Result, timedOut bool) {
	c := conf
	if j.after != nil {
		c = j.after.conf
	}
	switch {
	case budget < 0:
		r = &Result{Property: prop, Config: cfg.Name, Verdict: results.Unknown, Reason: "timeout after " + cfg.Timeout.String()}
	case ctxDone(ctx) != nil && j.res != nil:
		return j.res, false // the deadline passed: the last round's result stands
	default:
		pcfg := cfg
		pcfg.Timeout = budget
		r = verifyOne(ctx, prog, prop, pcfg, c)
		timedOut = r.Verdict == results.Unknown && strings.Contains(r.Reason, "timeout after ")
		j.used += time.Duration(r.Seconds * float64(time.Second))
		j.last = budget
		r.Seconds = j.used.Seconds()
		if j.after != nil {
			r.Seconds -= j.after.seconds // merge adds it back
		}
		if budget > 0 && budget != cfg.Timeout {
			short := "timeout after " + budget.Round(time.Millisecond).String()
			r.Reason = strings.ReplaceAll(r.Reason, "timeout after "+budget.String(), short)
			if cfg.Timeout > 0 && j.used >= cfg.Timeout {
				r.Reason = strings.ReplaceAll(r.Reason, short, "timeout after "+cfg.Timeout.String())
			} else if strings.Contains(r.Reason, short) {
				r.Reason += fmt.Sprintf(" (%s: this round's share of the time to the deadline; %s of the property limit %s used)",
					short, j.used.Round(time.Millisecond), cfg.Timeout)
			}
		}
	}
	if j.after != nil {
		j.after.merge(r)
	}
	return r, timedOut
}
