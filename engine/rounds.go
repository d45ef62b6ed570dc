package engine

import (
	"context"
	"fmt"
	"github.com/reverify/reverify/engine/strategy"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Budget split of Config.ShareDeadline (verifyRounds).
const (
	// roundFloorShare: no round gives a property less than the property
	// limit divided by this (nor less than minRoundBudget).
	roundFloorShare = 20
	minRoundBudget  = 200 * time.Millisecond
)

// roundJob is one property in verifyRounds.
type roundJob struct {
	i      int
	conf   configuration      // what a round runs
	used   time.Duration      // time of its rounds so far
	last   time.Duration      // the previous round's budget (0: none yet)
	res    *Result            // the previous round's result, nil: none yet
	cancel context.CancelFunc // ends its running round, nil: not running
}

// rounds is the state of one verifyRounds call.
type rounds struct {
	ctx         context.Context
	prog        *cfa.Program
	props       []*spec.Property
	cfg         Config
	conf        configuration
	deadline    time.Time
	hasDeadline bool
	floor       time.Duration
	final       func(int, *Result)

	mu         sync.Mutex
	cond       *sync.Cond
	cur, next  []*roundJob
	running    int
	active     map[int]*roundJob // the running rounds by property
	done       []bool            // property i has its final result
	open       int               // properties without a final result
	shared     []int             // the properties of the shared run
	sharedOpen int
	stopShared context.CancelFunc
	sharedEnd  chan struct{} // closed when the shared run has ended
	sharedArm  string
	// sharedRes is, by property, the shared run's UNKNOWN (nil: none
	// yet); pending a round's final UNKNOWN that waits for it.
	sharedRes, pending []*Result
	inShared           []bool
}

// verifyRounds verifies props under Config.ShareDeadline: the time to
// ctx's deadline (the proof's limit) is shared among the properties
// instead of giving each the whole property limit cfg.Timeout in turn.
//
// Two things run at once. The multi-property run of conf (multiPlan,
// verifyMulti: value analysis over all properties in one ARG, seed 004
// chapter 2) runs on one worker for at most the property limit and the
// time to the deadline; every property it decides is final at once
// (its running round, if any, is cancelled). The other workers (all of
// them once the shared run has ended), after a head start of the
// shared run (sharedHead) unless it ends sooner, verify the properties one at a
// time with the whole configuration (verifyOne), in rounds of growing
// time budgets (iterative deepening): in each round a property gets
//
//	min(left of its own limit, max(floor, 2·its last budget, fair share))
//
// where the fair share is the time to the deadline times cfg.Workers
// divided by the properties still waiting, and the floor is
// cfg.Timeout/20, at least 200 ms. A property that stays UNKNOWN because
// an analysis ran out of its budget ("timeout after") is queued for the
// next round while its own limit and the deadline leave time; any other
// result is final, except that an UNKNOWN of a property of the shared
// run waits for that run (which may still decide it) and is then given
// with its reason in front. So the shared run decides at once what one ARG
// decides, cheap properties are decided one at a time meanwhile and
// return their time to the others, and no property waits behind the
// whole limit of a costly one. A property's time over its rounds never
// exceeds cfg.Timeout, the shared run never outlives the property
// limit, and nothing outlives ctx. The work repeated for a property
// decided in round k is at most that of its k-1 earlier rounds, whose
// budgets at least double.
//
// Soundness is that of verifyMulti and verifyOne: each run is complete
// on its own under a shorter limit; only a run's verdict is used, the
// first that decides a property (both are sound, so they cannot
// disagree but through a bug). Results go to final with Seconds the
// property's time: until the shared run decided it, or over all its
// rounds; a property the deadline leaves undecided is UNKNOWN with its
// last round's reason, which names the budget, or with deadlineCut.
// Measured on coreHTTP's 17 CBMC proofs (10 s per property, 30 s per
// proof, the same load): README, "CBMC proof harnesses".
func verifyRounds(ctx context.Context, prog *cfa.Program, props []*spec.Property, cfg Config, conf configuration, final func(int, *Result)) {
	s := &rounds{ctx: ctx, prog: prog, props: props, cfg: cfg, conf: conf, final: final,
		done: make([]bool, len(props)), open: len(props), active: map[int]*roundJob{}}
	s.cond = sync.NewCond(&s.mu)
	s.deadline, s.hasDeadline = ctx.Deadline()
	s.floor = cfg.Timeout / roundFloorShare
	if s.floor < minRoundBudget {
		s.floor = minRoundBudget
	}
	s.sharedRes, s.pending, s.inShared = make([]*Result, len(props)), make([]*Result, len(props)), make([]bool, len(props))
	var wg sync.WaitGroup
	workers := cfg.Workers
	hasRest, start := s.startShared(&wg)
	started := start != nil
	if started && workers > 1 {
		workers-- // the shared run's goroutine works the queue once it ends
	}
	for i := range props {
		// The rounds run the whole configuration, the shared run's arm
		// too: alone on a property it decides where the shared run
		// does not (on coreHTTP's httpParserOnHeaderFieldCallback, 53
		// of 57 properties one at a time; none when the rounds leave
		// it out, the shared run timing out).
		if !s.inShared[i] || hasRest {
			s.cur = append(s.cur, &roundJob{i: i, conf: conf})
		}
	}
	if started {
		start() // after the queue is filled: it works the queue when done
	}
	head := s.sharedHead()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if started && head > 0 {
				t := time.NewTimer(head)
				select {
				case <-s.sharedEnd:
				case <-t.C:
				case <-ctx.Done():
				}
				t.Stop()
			}
			s.work()
		}()
	}
	wg.Wait()
}

// startShared prepares the multi-property run on the properties that
// need an analysis when multiPlan has one: start (nil: none) runs it in
// a goroutine that then works the queue (s.work). hasRest says whether
// the rounds run its properties too (false: a plain configuration, the
// shared run's result is final).
func (s *rounds) startShared(wg *sync.WaitGroup) (hasRest bool, start func()) {
	var runnable []int
	if unmodelledEntryParam(s.prog.Func(s.cfg.Entry)) == "" {
		for i, p := range s.props {
			if p.Reachable && len(p.ErrorEdges) > 0 && len(p.Memory) == 0 {
				runnable = append(runnable, i)
			}
		}
	}
	multi, maxStates, _, ok, hasRest := multiPlan(s.conf, s.cfg, len(runnable))
	if !ok {
		return false, nil
	}
	mcfg := s.cfg
	mcfg.MaxStates = maxStates
	if len(s.conf.arms) > 0 && s.conf.arms[0].concrete {
		mcfg.NoListAbstraction = true // as the arm runs alone
	}
	armName := ""
	if len(s.conf.arms) > 0 {
		armName = s.conf.arms[0].name
	}
	s.sharedArm = armName
	sub := make([]*spec.Property, len(runnable))
	for j, i := range runnable {
		sub[j] = s.props[i]
	}
	sctx, stop := context.WithCancel(s.ctx)
	s.shared, s.sharedOpen, s.stopShared = runnable, len(runnable), stop
	for _, i := range runnable {
		s.inShared[i] = true
	}
	emit := func(j int, r *Result) {
		i := runnable[j]
		if decided(r.Verdict) || !hasRest {
			if armName != "" {
				r.Reason = armName + " (all properties in one run): " + r.Reason
			}
			s.finish(i, r, nil)
			return
		}
		s.mu.Lock()
		s.sharedRes[i] = r
		p := s.pending[i]
		s.mu.Unlock()
		if p != nil {
			s.finish(i, s.merge(p, r), nil)
		}
	}
	s.sharedEnd = make(chan struct{})
	return hasRest, func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			verifyMulti(sctx, s.prog, sub, mcfg, multi, emit)
			stop()
			close(s.sharedEnd)
			s.work()
		}()
	}
}

// merge adds the shared run's UNKNOWN sr to a round's UNKNOWN r: its
// reason first, states summed, the longer time.
func (s *rounds) merge(r, sr *Result) *Result {
	r.SetUnknown(r.Cause, s.sharedArm+" (all properties in one run): "+sr.Reason+"; "+r.Detail)
	r.States += sr.States
	r.Seconds = max(r.Seconds, sr.Seconds)
	return r
}

// finish gives property i its final result r unless it has one; a
// round of i still running (other than from, the job reporting) is
// cancelled.
func (s *rounds) finish(i int, r *Result, from *roundJob) {
	s.mu.Lock()
	if s.done[i] {
		s.mu.Unlock()
		return
	}
	s.done[i] = true
	s.open--
	if j := s.active[i]; j != nil && j != from && j.cancel != nil {
		j.cancel()
	}
	if s.stopShared != nil {
		for _, k := range s.shared {
			if k == i {
				s.sharedOpen--
			}
		}
		if s.sharedOpen == 0 {
			s.stopShared() // nothing left for it to decide
		}
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	if ctxDone(s.ctx) != nil && r.Verdict == results.Unknown && r.Cause != nil && r.Cause.Kind == results.CauseBudget {
		// what the deadline cut reads as the timeout it is
		r.SetUnknown(r.Cause, deadlineCut)
	}
	s.final(i, r)
}

// deadlineCut is the reason of an analysis that the deadline of
// Config.ShareDeadline ended.
const deadlineCut = "timeout at the deadline (the time limit the properties share)"

// take returns the next job to run and its budget (-1: its limit is
// used up), or nil when none is left; it waits while a running job may
// still be queued again.
func (s *rounds) take() (*roundJob, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for len(s.cur) > 0 && s.done[s.cur[0].i] {
			s.cur = s.cur[1:]
		}
		if len(s.cur) == 0 && len(s.next) > 0 && s.running == 0 {
			s.cur, s.next = s.next, nil
			continue
		}
		if len(s.cur) > 0 {
			break
		}
		if s.running == 0 {
			return nil, 0
		}
		s.cond.Wait()
	}
	j := s.cur[0]
	s.cur = s.cur[1:]
	s.running++
	s.active[j.i] = j
	var budget time.Duration // 0: no limit of its own
	if s.cfg.Timeout > 0 {
		budget = s.cfg.Timeout - j.used
		if budget <= 0 {
			return j, -1
		}
	}
	if s.hasDeadline && ctxDone(s.ctx) == nil {
		waiting := 1
		for _, q := range [][]*roundJob{s.cur, s.next} {
			for _, k := range q {
				if !s.done[k.i] {
					waiting++
				}
			}
		}
		share := time.Until(s.deadline) * time.Duration(s.cfg.Workers) / time.Duration(waiting)
		share = max(share, s.floor, 2*j.last)
		if budget == 0 || share < budget {
			budget = share
		}
	}
	return j, budget
}

// work runs jobs until none is left.
func (s *rounds) work() {
	for {
		j, budget := s.take()
		if j == nil {
			return
		}
		r, timedOut := s.runRound(j, budget)
		s.mu.Lock()
		s.running--
		delete(s.active, j.i)
		again := !s.done[j.i] && timedOut && ctxDone(s.ctx) == nil &&
			(s.cfg.Timeout <= 0 || j.used < s.cfg.Timeout) &&
			(!s.hasDeadline || time.Until(s.deadline) > s.floor)
		var sr *Result
		switch {
		case again:
			j.res = r
			s.next = append(s.next, j)
		case s.inShared[j.i] && r.Verdict == results.Unknown:
			if sr = s.sharedRes[j.i]; sr == nil {
				s.pending[j.i] = r // the shared run may still decide it
			}
		}
		s.cond.Broadcast()
		s.mu.Unlock()
		switch {
		case again:
		case sr != nil:
			s.finish(j.i, s.merge(r, sr), j)
		case s.inShared[j.i] && r.Verdict == results.Unknown:
		default:
			s.finish(j.i, r, j)
		}
	}
}

// runRound verifies the property of job j once under budget (0: no
// limit of its own; -1: its limit is used up, UNKNOWN at once), adds the
// time to j.used and returns the result with the reason saying which
// limit ended it: the property's own limit, or this round's budget;
// timedOut says that it is UNKNOWN because an analysis of this round ran
// out of time (more time may decide it).
func (s *rounds) runRound(j *roundJob, budget time.Duration) (r *Result, timedOut bool) {
	prop, cfg := s.props[j.i], s.cfg
	if budget < 0 {
		r := strategy.Unknown(prop, &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(cfg.Timeout, cfg.Clock != nil)}, "")
		r.Config = cfg.Name
		return r, false
	}
	if ctxDone(s.ctx) != nil {
		if j.res != nil {
			return j.res, false // the deadline passed: the last round's result stands
		}
		r := strategy.Unknown(prop, &results.Cause{Kind: results.CauseBudget}, deadlineCut+": not started, the other properties used the time")
		r.Config = cfg.Name
		return r, false
	}
	rctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.mu.Lock()
	j.cancel = cancel
	s.mu.Unlock()
	pcfg := cfg
	pcfg.Timeout = budget
	r = verifyOne(rctx, s.prog, prop, pcfg, j.conf)
	timedOut = r.Verdict == results.Unknown && r.Cause.TimedOut()
	j.used += time.Duration(r.Seconds * float64(time.Second))
	j.last = budget
	r.Seconds = j.used.Seconds()
	if timedOut && budget > 0 && budget != cfg.Timeout {
		c := *r.Cause
		if cfg.Timeout > 0 && j.used >= cfg.Timeout {
			c.Limit = results.TimeLimit(cfg.Timeout, cfg.Clock != nil)
			r.SetUnknown(&c, r.Detail)
		} else {
			c.Limit = results.TimeLimit(budget.Round(time.Millisecond), cfg.Clock != nil)
			r.SetUnknown(&c, strings.TrimPrefix(r.Detail+"; ", "; ")+fmt.Sprintf("%s was a round's share of the time to the deadline; %s of the property limit %s used",
				budget.Round(time.Millisecond), j.used.Round(time.Millisecond), cfg.Timeout))
		}
	}
	return r, timedOut
}

// sharedHead is how long the rounds wait for the shared run before they
// start beside it: a quarter of the property limit and of the time to
// the deadline (the smaller). Alone, the shared run has the process's
// CPU share to itself (on a loaded machine the rounds' portfolio arms
// would take most of it: aws-c-common's aws_add_size_checked, 4
// properties the shared run decides alone in 5 s, kept 2 of them when
// the rounds started at once).
func (s *rounds) sharedHead() time.Duration {
	h := s.cfg.Timeout / 4
	if s.hasDeadline {
		if left := time.Until(s.deadline) / 4; h <= 0 || left < h {
			h = left
		}
	}
	return max(h, 0)
}
