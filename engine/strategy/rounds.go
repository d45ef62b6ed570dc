package strategy

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

// Budget split of Rounds.
const (
	// roundFloorShare: no round gives a property less than the property
	// limit divided by this (nor less than minRoundBudget).
	roundFloorShare = 20
	minRoundBudget  = 200 * time.Millisecond
)

// roundJob is one property in Rounds.
type roundJob struct {
	i      int
	used   time.Duration      // time of its rounds so far
	last   time.Duration      // the previous round's budget (0: none yet)
	res    *Result            // the previous round's result, nil: none yet
	cancel context.CancelFunc // ends its running round, nil: not running
}

// rounds is the state of one Rounds call.
type rounds struct {
	ctx         context.Context
	r           RoundsTask
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

// RoundsTask is the work of Rounds: N properties, each decided by
// Run(ctx, i, budget) (the whole configuration under a time limit
// budget, 0: none), each within Limit in total, Workers at a time, with
// an optional Shared run; every result goes to Final(i, r) once.
type RoundsTask struct {
	N       int
	Limit   time.Duration
	Workers int
	Clock   Clock
	Run     func(ctx context.Context, i int, budget time.Duration) *Result
	Shared  *SharedRun
	Final   func(i int, r *Result)
}

// SharedRun is a run that decides several properties at once (a
// multi-property run): Run decides the properties Props (indices of the
// task) and passes each result to emit as it is decided (j indexes
// Props); Arm names it in reasons; HasRest says whether the rounds run
// its properties too (false: its result is final).
//
// Arm names the analysis whose reasons the rounds prefix with "Arm (all
// properties in one run): "; a run of several analyses leaves it empty
// and names them in its reasons itself.
type SharedRun struct {
	Props   []int
	Arm     string
	HasRest bool
	Run     func(ctx context.Context, emit func(j int, r *Result))
}

// Rounds decides the properties of r sharing the time to ctx's
// deadline (the proof's limit) among them instead of giving each the
// whole property limit r.Limit in turn.
//
// Two things run at once. The multi-property run of conf (multiPlan,
// verifyMulti: value analysis over all properties in one ARG, seed 004
// chapter 2) runs on one worker for at most the property limit and the
// time to the deadline; every property it decides is final at once
// (its running round, if any, is cancelled). The other workers (all of
// them once the shared run has ended), after a head start of the
// shared run (sharedHead) unless it ends sooner, verify the properties one at a
// time with the whole configuration (r.Run), in rounds of growing
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
// Soundness is that of the shared run and r.Run: each run is complete
// on its own under a shorter limit; only a run's verdict is used, the
// first that decides a property (both are sound, so they cannot
// disagree but through a bug). Results go to final with Seconds the
// property's time: until the shared run decided it, or over all its
// rounds; a property the deadline leaves undecided is UNKNOWN with its
// last round's reason, which names the budget, or with deadlineCut.
// Measured on coreHTTP's 17 CBMC proofs (10 s per property, 30 s per
// proof, the same load): doc/proofs.md.
func Rounds(ctx context.Context, r RoundsTask) {
	s := &rounds{ctx: ctx, r: r, done: make([]bool, r.N), open: r.N, active: map[int]*roundJob{}}
	s.cond = sync.NewCond(&s.mu)
	s.deadline, s.hasDeadline = ctx.Deadline()
	s.floor = r.Limit / roundFloorShare
	if s.floor < minRoundBudget {
		s.floor = minRoundBudget
	}
	s.sharedRes, s.pending, s.inShared = make([]*Result, r.N), make([]*Result, r.N), make([]bool, r.N)
	var wg sync.WaitGroup
	workers := r.Workers
	hasRest, start := s.startShared(&wg)
	started := start != nil
	if started && workers > 1 {
		workers-- // the shared run's goroutine works the queue once it ends
	}
	for i := 0; i < r.N; i++ {
		// The rounds run the whole configuration, the shared run's arm
		// too: alone on a property it decides where the shared run
		// does not (on coreHTTP's httpParserOnHeaderFieldCallback, 53
		// of 57 properties one at a time; none when the rounds leave
		// it out, the shared run timing out).
		if !s.inShared[i] || hasRest {
			s.cur = append(s.cur, &roundJob{i: i})
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
	sh := s.r.Shared
	if sh == nil {
		return false, nil
	}
	runnable, hasRest, armName := sh.Props, sh.HasRest, sh.Arm
	s.sharedArm = armName
	sctx, stop := context.WithCancel(s.ctx)
	s.shared, s.sharedOpen, s.stopShared = runnable, len(runnable), stop
	for _, i := range runnable {
		s.inShared[i] = true
	}
	emit := func(j int, r *Result) {
		i := runnable[j]
		if Decided(r.Verdict) || !hasRest {
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
			sh.Run(sctx, emit)
			stop()
			close(s.sharedEnd)
			s.work()
		}()
	}
}

// merge adds the shared run's UNKNOWN sr to a round's UNKNOWN r: its
// reason first, states summed, the longer time.
func (s *rounds) merge(r, sr *Result) *Result {
	prefix := "" // a run without Arm names its arms in its reasons
	if s.sharedArm != "" {
		prefix = s.sharedArm + " (all properties in one run): "
	}
	r.SetUnknown(r.Cause, prefix+sr.Reason+"; "+r.Detail)
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
	if timeslice.Expired(s.ctx) != nil && r.Verdict == results.Unknown && r.Cause != nil && r.Cause.Kind == results.CauseBudget {
		// what the deadline cut reads as the timeout it is
		r.SetUnknown(r.Cause, deadlineCut)
	}
	s.r.Final(i, r)
}

// deadlineCut is the reason of an analysis that the deadline of
// Config.ShareDeadline ended.
const deadlineCut = "timeout at the deadline, the time limit the properties share"

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
	if s.r.Limit > 0 {
		budget = s.r.Limit - j.used
		if budget <= 0 {
			return j, -1
		}
	}
	if s.hasDeadline && timeslice.Expired(s.ctx) == nil {
		waiting := 1
		for _, q := range [][]*roundJob{s.cur, s.next} {
			for _, k := range q {
				if !s.done[k.i] {
					waiting++
				}
			}
		}
		share := time.Until(s.deadline) * time.Duration(s.r.Workers) / time.Duration(waiting)
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
		again := !s.done[j.i] && timedOut && timeslice.Expired(s.ctx) == nil &&
			(s.r.Limit <= 0 || j.used < s.r.Limit) &&
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
	limit, cpu := s.r.Limit, s.r.Clock.IsCPU()
	if budget < 0 {
		return Unknown(nil, &results.Cause{Kind: results.CauseTimeout, Limit: results.TimeLimit(limit, cpu)}, ""), false
	}
	if timeslice.Expired(s.ctx) != nil {
		if j.res != nil {
			return j.res, false // the deadline passed: the last round's result stands
		}
		return Unknown(nil, &results.Cause{Kind: results.CauseBudget}, deadlineCut+": not started, the other properties used the time"), false
	}
	rctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.mu.Lock()
	j.cancel = cancel
	s.mu.Unlock()
	r = s.r.Run(rctx, j.i, budget)
	timedOut = r.Verdict == results.Unknown && r.Cause.TimedOut()
	j.used += time.Duration(r.Seconds * float64(time.Second))
	j.last = budget
	r.Seconds = j.used.Seconds()
	if timedOut && budget > 0 && budget != limit {
		c := *r.Cause
		if limit > 0 && j.used >= limit {
			c.Limit = results.TimeLimit(limit, cpu)
			r.SetUnknown(&c, r.Detail)
		} else {
			c.Limit = results.TimeLimit(budget.Round(time.Millisecond), cpu)
			share := fmt.Sprintf("%s was a round's share of the time to the deadline; %s of the property limit %s used",
				budget.Round(time.Millisecond), j.used.Round(time.Millisecond), limit)
			if r.Detail != "" {
				share = r.Detail + "; " + share
			}
			r.SetUnknown(&c, share)
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
	h := s.r.Limit / 4
	if s.hasDeadline {
		if left := time.Until(s.deadline) / 4; h <= 0 || left < h {
			h = left
		}
	}
	return max(h, 0)
}
