package strategy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/reverify/reverify/engine/timeslice"
	"github.com/reverify/reverify/results"
)

// Arm is one strategy of a portfolio.
type Arm struct {
	S Strategy
	// Weight is the arm's share of the slots' time relative to the
	// other arms still running when they take turns (0 counts as 1).
	Weight int
	// After is how much time the portfolio's arms must have executed
	// together before this arm takes its first turn (its expected
	// payoff is lower than the earlier arms' on the properties they
	// decide at once); an arm whose predecessors all ended starts at
	// once. Only with fewer slots than arms.
	After time.Duration
	// Probe is how long the arm first runs before the arms take turns
	// (0: none): the arms with a probe, in their order, hold the slots
	// until each has executed its probe or ended, whatever their After;
	// their probes count in their shares afterwards. A probe suits an
	// arm that decides some properties at once at little cost and gives
	// up late elsewhere (bounded model checking's k-induction at k = 1).
	Probe time.Duration
	// Demoted, when not 0, is the arm's weight from the moment it
	// reports that its first attempt ended without a verdict
	// (timeslice.Milestone); the report also ends its probe. So an arm
	// whose decisions come almost all from its first attempt
	// (k-induction at k = 1) may probe for as long as that attempt takes
	// and then give most of its share to the others.
	Demoted int
	// Cap is the most time the arm executes (0: no cap): an arm that
	// decides the properties of its kind within it and runs to the
	// limit elsewhere then returns its share to the others (an explicit
	// enumeration on a loop bounded by an input). Its result is UNKNOWN
	// with CauseTimeout.
	Cap time.Duration
}

// Portfolio runs arms on the property at once and the first TRUE or
// FALSE wins (each already checked by its arm as a lone configuration
// checks it: fixed point without blocking constructs, error path
// confirmed by SMT and concrete replay); the others are cancelled. A
// portfolio in the sense of SV-COMP's portfolio verifiers and
// CPAchecker's parallel algorithm composition (Beyer, Dangl, Wendler,
// JAR 2018, section 6); seed 000, section 4 compares the configurations
// it combines.
//
// Slots is the number of arms that execute at a time (the cores the
// property has). With at least as many slots as arms every arm runs
// from the start. With fewer, the arms take turns in time slices
// (engine/timeslice: an arm pauses at its next checkpoint and keeps its
// reached set, nothing restarts): every quantum (20 ms, growing with the
// elapsed time to 1 s) the slots go to the arms with the least executed
// time per weight (stride scheduling), ties to the earlier arm, among
// the arms whose After the arms' executed time has reached. So the
// first arms decide the easy properties before the later ones have
// created a solver context, no arm waits behind another's whole limit,
// and an arm that ends returns its slot at once; under a CPU limit on
// the whole property (SV-COMP's CPU limit counts every thread) each arm
// gets its weight's share of it while all run, and more as others end.
//
// Soundness is that of the arms: each is sound on its own. Should two
// arms disagree (one TRUE, one FALSE — a bug in one of them), the
// verdict is UNKNOWN with CauseDisagreement, never either. When no arm
// decides, the cause is the arms' most telling one (a limit before an
// analysis's own end: more time may decide) and the detail names each
// arm's outcome.
//
// Precision entries of the result are prefixed with the deciding arm's
// name and a slash ("value-cegar/main::y@main:+8:[y < 0]"); when no arm
// decides, every arm's entries are kept so prefixed.
func Portfolio(name string, slots int, arms ...Arm) Strategy {
	return portfolio{name: name, slots: max(slots, 1), arms: arms}
}

// PortfolioOn is Portfolio whose arms' executed time is measured on
// clock (nil: wall time while an arm holds a slot). With the process's
// CPU time (one property at a time, so the process runs only this
// portfolio), each quantum's CPU time is split among the arms that held
// a slot in it: the shares and the After thresholds then mean CPU time,
// on a loaded machine as on an idle one, where wall time would let the
// later arms start after a fraction of the CPU time.
//
// On a clock the arms hold one slot, whatever slots says (the cores
// there are): two arms executing side by side spend a CPU-time budget
// twice as fast as one and decide nothing sooner in CPU time, and only
// with one slot do the weights divide it (with a slot per arm, each
// would get an equal part). An arm inside a long solver call in this
// process, which does not pause, is charged the CPU time it spends and
// keeps its core until its next checkpoint, while the slot passes to the
// next arm at the quantum's end as always, so that no arm waits behind
// the call. A call in a solver process (package solverproc: bmc's Horn
// tries and large one-shot checks) does pause: the process is stopped
// while its arm has no slot (gate.Holds, timeslice.Turn).
func PortfolioOn(name string, slots int, clock Clock, arms ...Arm) Strategy {
	if clock != nil {
		slots = 1
	}
	return portfolio{name: name, slots: max(slots, 1), arms: arms, clock: clock}
}

type portfolio struct {
	name  string
	slots int
	arms  []Arm
	clock Clock
}

func (p portfolio) Name() string { return p.name }

// Selected is s whose result records selection (Result.Selection): why
// its arms run in the order they do. An empty selection returns s.
func Selected(s Strategy, selection string) Strategy {
	if selection == "" {
		return s
	}
	return selected{s, selection}
}

type selected struct {
	Strategy
	selection string
}

func (s selected) Run(ctx context.Context) *Result {
	r := s.Strategy.Run(ctx)
	r.Selection = s.selection
	return r
}

// Arms returns the names of a portfolio's arms, in their order (nil for
// another strategy).
func Arms(s Strategy) []string {
	if sel, ok := s.(selected); ok {
		s = sel.Strategy
	}
	p, ok := s.(portfolio)
	if !ok {
		return nil
	}
	var out []string
	for _, a := range p.arms {
		out = append(out, a.S.Name())
	}
	return out
}

type armResult struct {
	i int
	r *Result
}

// loserGrace is how long the portfolio waits, after the first TRUE or
// FALSE, for the cancelled arms to report (their states are counted);
// the verdict does not wait longer for an arm inside a long Z3 call or
// between two checkpoints.
const loserGrace = 5 * time.Millisecond

func (p portfolio) Run(ctx context.Context) *Result {
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make([]context.CancelCauseFunc, len(p.arms))
	ended := make([]chan struct{}, len(p.arms))
	ctxs := make([]context.Context, len(p.arms))
	for i := range p.arms {
		ctxs[i], stop[i] = context.WithCancelCause(actx)
		ended[i] = make(chan struct{})
	}
	// an arm stopped by the portfolio has the reason as its context's
	// cause: errArmCap at its cap, ErrMemoryLimit when shed
	expire := func(i int) { stop[i](errArmCap) }
	var sched *scheduler
	if p.slots < len(p.arms) {
		sched = newScheduler(p.slots, p.clock, p.arms, expire)
		go sched.loop(actx)
	} else {
		for i, a := range p.arms {
			if a.Cap > 0 {
				t := time.AfterFunc(a.Cap, func() { expire(i) })
				defer t.Stop()
			}
		}
	}
	defer onMemoryLimit(ctx, func() <-chan struct{} {
		i := heaviest(sched, ctxs, ended)
		if i < 0 {
			return nil
		}
		stop[i](ErrMemoryLimit)
		return ended[i]
	})()
	out := make(chan armResult, len(p.arms))
	for i, a := range p.arms {
		go func(i int, s Strategy) {
			defer close(ended[i])
			c := ctxs[i]
			if sched != nil {
				g := gate{sched, i}
				c = timeslice.With(c, g)
				g.Wait(c) // not even its set-up before its first turn
				if c.Err() != nil {
					sched.done(i) // a stopped arm never takes a turn
					out <- armResult{i, Unknown(nil, CauseOf(c), "not started")}
					return
				}
			}
			r := s.Run(c)
			if sched != nil && !Decided(r.Verdict) {
				sched.done(i) // its slot to another (a winner keeps it: all end)
			}
			out <- armResult{i, r}
		}(i, a.S)
	}
	rs := make([]*Result, len(p.arms))
	winner := -1
	var grace <-chan time.Time
collect:
	for n := 0; n < len(p.arms); n++ {
		select {
		case ar := <-out:
			rs[ar.i] = ar.r
			if Decided(ar.r.Verdict) && winner < 0 {
				winner = ar.i
				cancel() // the losers stop at their next checkpoint
				grace = time.After(loserGrace)
			}
		case <-grace:
			break collect
		}
	}
	for i, r := range rs {
		switch {
		case r == nil:
			// Still stopping (inside a Z3 call or between two
			// checkpoints): its result is discarded, its goroutine
			// ends on its own.
			rs[i] = Unknown(nil, &results.Cause{Kind: results.CauseBudget}, "")
		case Decided(r.Verdict):
		case context.Cause(ctxs[i]) == ErrMemoryLimit:
			// stopped for the property's memory (the arm saw only its
			// context end)
			r.SetUnknown(&results.Cause{Kind: results.CauseMemory}, r.Detail)
		case context.Cause(ctxs[i]) == errArmCap:
			r.SetUnknown(&results.Cause{Kind: results.CauseTimeout, Limit: p.arms[i].Cap.String()}, r.Detail)
		}
	}
	return p.merge(rs, winner)
}

// errArmCap is the cancellation cause of an arm that has executed its
// Arm.Cap.
var errArmCap = errors.New("the arm's cap")

// heaviest is the arm to stop when the property is over its memory
// limit (-1: none, when fewer than two arms are still running, so that
// the last one is never stopped for the others): the one whose turns
// raised the process's resident set most (scheduler.chargeMemory; with
// a slot per arm, no scheduler, the last in the arms' order), among
// those neither ended nor stopped (an arm's context ends when the
// portfolio stops it).
func heaviest(sched *scheduler, ctxs []context.Context, ended []chan struct{}) int {
	var alive []int
	for i := range ended {
		select {
		case <-ended[i]:
		default:
			if ctxs[i].Err() == nil {
				alive = append(alive, i)
			}
		}
	}
	if len(alive) < 2 {
		return -1
	}
	best := alive[len(alive)-1]
	if sched != nil {
		grown := sched.grown()
		for _, i := range alive {
			if grown[i] > grown[best] {
				best = i
			}
		}
	}
	return best
}

// causeRank orders the causes of arms that all ended UNKNOWN: the
// highest is the portfolio's cause. An error path that needs undefined
// behaviour outranks the limits the other arms hit and their
// cancellation: it is what the program shows.
var causeRank = map[results.CauseKind]int{
	results.CauseUndefined: 11, results.CauseBudget: 10, results.CauseMemory: 8, results.CauseTimeout: 7,
	results.CauseStates: 6, results.CauseRefinements: 5, results.CauseUnmodelled: 4,
	results.CauseUnsupported: 3, results.CauseIncomplete: 2, results.CauseInternal: 1,
}

// merge combines the arms' results: the winner's (winner < 0: none
// decided) with the states and refinements of all arms summed.
func (p portfolio) merge(rs []*Result, winner int) *Result {
	states, refinements := 0, 0
	var unmodelled []string
	for _, r := range rs {
		states += r.States
		refinements += r.Refinements
		unmodelled = append(unmodelled, r.Unmodelled...)
	}
	name := func(i int) string { return p.arms[i].S.Name() }
	if winner >= 0 {
		w := rs[winner]
		for i, r := range rs {
			if Decided(r.Verdict) && r.Verdict != w.Verdict {
				out := Unknown(w.Property, &results.Cause{Kind: results.CauseDisagreement, Names: []string{name(winner), name(i)}},
					fmt.Sprintf("%s says %s (%s), %s says %s (%s)", name(winner), w.Verdict, w.Reason, name(i), r.Verdict, r.Reason))
				out.States, out.Refinements = states, refinements
				return out
			}
		}
		out := *w
		out.States, out.Refinements = states, refinements
		out.Precision = Prefixed(w.Precision, name(winner))
		out.Reason = name(winner) + ": " + w.Reason
		out.Decider = name(winner)
		return &out
	}
	top := 0
	for i, r := range rs {
		if causeRank[r.Cause.Kind] > causeRank[rs[top].Cause.Kind] {
			top = i
		}
	}
	out := *rs[top]
	out.States, out.Refinements = states, refinements
	out.Precision = nil
	for i, r := range rs {
		out.Precision = append(out.Precision, Prefixed(r.Precision, name(i))...)
	}
	sort.Strings(out.Precision)
	cause := *rs[top].Cause
	if cause.Kind == results.CauseUnmodelled {
		cause.Names = uniqueSorted(unmodelled)
	}
	// Each arm's part: its own cause's sentence where it differs from
	// the portfolio's, and its details; arms with the same part share
	// it ("value, value-cegar: …"), said once.
	var parts, names []string
	for i, r := range rs {
		d := r.Detail
		if r.Cause.Kind != cause.Kind || r.Cause.Limit != cause.Limit {
			d = Render(r.Cause, r.Detail)
		}
		if d == "" {
			d = "no result"
		}
		k := slices.Index(parts, d)
		if k < 0 {
			parts, names = append(parts, d), append(names, name(i))
			continue
		}
		names[k] += ", " + name(i)
	}
	for k := range parts {
		parts[k] = names[k] + ": " + parts[k]
	}
	out.SetUnknown(&cause, strings.Join(parts, "; "))
	out.Unmodelled = uniqueSorted(unmodelled)
	return &out
}

// Prefixed returns entries with "name/" in front of each.
func Prefixed(entries []string, name string) []string {
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = name + "/" + e
	}
	return out
}

// uniqueSorted returns the distinct strings of s, sorted.
func uniqueSorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	slices.Sort(s)
	return slices.Compact(s)
}

// scheduler gives a portfolio's slots to its arms in time slices.
type scheduler struct {
	mu    sync.Mutex
	slots int
	arms  []*armSlot
	start time.Time
	// clock, when not nil, measures executed time (PortfolioOn): at
	// each accounting the CPU time since the last one (lastCPU) goes to
	// the arms executing, in equal parts.
	clock   Clock
	lastCPU time.Duration
	// expire stops arm i, which has executed its cap (Arm.Cap; called
	// with mu held, at most once per arm).
	expire func(i int)
	// lastRSS is the resident set at the last accounting; its growth
	// since goes to the arms executing, in equal parts (armSlot.grown).
	lastRSS uint64
}

type armSlot struct {
	weight  int
	after   time.Duration
	probe   time.Duration // 0 once the arm reported its milestone
	demoted int           // weight after the milestone (Arm.Demoted; 0: unchanged)
	cap     time.Duration // most executed time (Arm.Cap; 0: none)
	expired bool          // stopped at its cap
	grown   uint64        // resident-set growth during its turns, bytes
	running bool          // holds a slot
	alive   bool          // not ended
	used    time.Duration // executed time before since
	joined  bool          // has been eligible (After reached)
	vbase   float64       // virtual time when it joined (stride scheduling's lag)
	since   time.Time     // executing since (zero: paused or not started)
	wake    chan struct{}
}

func newScheduler(slots int, clock Clock, arms []Arm, expire func(i int)) *scheduler {
	s := &scheduler{slots: slots, start: time.Now(), clock: clock, lastRSS: residentSet(), expire: expire}
	if clock != nil {
		s.lastCPU = clock()
	}
	for _, a := range arms {
		s.arms = append(s.arms, &armSlot{weight: max(a.Weight, 1), after: a.After, probe: a.Probe, demoted: a.Demoted, cap: a.Cap, alive: true, wake: make(chan struct{}, 1)})
	}
	s.mu.Lock()
	s.schedule()
	s.mu.Unlock()
	return s
}

// schedule gives the slots to the alive arms still in their Probe, in
// their order, then to those with the least executed time per weight
// among those whose After the executed total has reached (s.mu held;
// when none has and none probes, the one with the least After), and
// wakes those that got one.
func (s *scheduler) schedule() {
	s.account()
	now := time.Now()
	exec := func(a *armSlot) time.Duration {
		u := a.used
		if !a.since.IsZero() {
			u += now.Sub(a.since)
		}
		return u
	}
	var total time.Duration
	for _, a := range s.arms {
		total += exec(a)
	}
	var alive, probing []int
	first := -1
	for i, a := range s.arms {
		if !a.alive || a.expired {
			continue
		}
		if a.cap > 0 && exec(a) >= a.cap {
			// its turns are over: it ends at its next checkpoint
			a.expired = true
			if s.expire != nil {
				s.expire(i)
			}
			continue
		}
		if exec(a) < a.probe {
			probing = append(probing, i) // probes first, in the arms' order
			continue
		}
		if a.after <= total {
			alive = append(alive, i)
		} else if first < 0 || a.after < s.arms[first].after {
			first = i
		}
	}
	if len(alive) == 0 && len(probing) == 0 && first >= 0 {
		alive = append(alive, first)
	}
	vt := func(i int) float64 {
		a := s.arms[i]
		return a.vbase + float64(exec(a))/float64(a.weight)
	}
	// An arm that joins late starts at the least virtual time of the
	// arms already taking turns, not at zero: it gets its share from
	// now on instead of taking every slot until it has caught up.
	least, any := 0.0, false
	for _, i := range alive {
		if a := s.arms[i]; a.joined && (!any || vt(i) < least) {
			least, any = vt(i), true
		}
	}
	for _, i := range alive {
		if a := s.arms[i]; !a.joined {
			a.joined, a.vbase = true, least
		}
	}
	sort.SliceStable(alive, func(x, y int) bool { return vt(alive[x]) < vt(alive[y]) })
	alive = append(probing, alive...)
	run := map[int]bool{}
	for k, i := range alive {
		run[i] = k < s.slots
	}
	for i, a := range s.arms {
		if run[i] && !a.running {
			select {
			case a.wake <- struct{}{}:
			default:
			}
		}
		a.running = run[i]
	}
}

// loop reschedules every quantum until ctx ends.
func (s *scheduler) loop(ctx context.Context) {
	for {
		q := min(max(time.Since(s.start)/16, 20*time.Millisecond), time.Second)
		t := time.NewTimer(q)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		s.mu.Lock()
		s.schedule()
		s.mu.Unlock()
	}
}

// account charges the memory growth (chargeMemory) and the CPU time
// since the last accounting to the arms executing, in equal parts, and
// restarts their wall clocks (s.mu held; no CPU time without a clock:
// executed time is then wall time).
func (s *scheduler) account() {
	s.chargeMemory()
	if s.clock == nil {
		return
	}
	now, cpu := time.Now(), s.clock()
	delta := cpu - s.lastCPU
	s.lastCPU = cpu
	var running []*armSlot
	for _, a := range s.arms {
		if !a.since.IsZero() {
			running = append(running, a)
		}
	}
	for _, a := range running {
		a.used += delta / time.Duration(len(running))
		a.since = now
	}
}

// chargeMemory gives the growth of the resident set since the last
// accounting to the arms executing, in equal parts (s.mu held): with one
// slot, the arm whose turns raised the process's memory, which the
// portfolio stops first when the property is over its memory limit.
func (s *scheduler) chargeMemory() {
	rss := residentSet()
	if rss > s.lastRSS {
		var running []*armSlot
		for _, a := range s.arms {
			if !a.since.IsZero() {
				running = append(running, a)
			}
		}
		for _, a := range running {
			a.grown += (rss - s.lastRSS) / uint64(len(running))
		}
	}
	s.lastRSS = rss
}

// grown returns each arm's resident-set growth (chargeMemory).
func (s *scheduler) grown() []uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chargeMemory()
	g := make([]uint64, len(s.arms))
	for i, a := range s.arms {
		g[i] = a.grown
	}
	return g
}

// residentSet reads the process's resident set for chargeMemory (tests
// replace it).
var residentSet = ResidentSet

// stop ends a's executing time (s.mu held).
func (s *scheduler) stop(a *armSlot) {
	s.account()
	if !a.since.IsZero() {
		if s.clock == nil {
			a.used += time.Since(a.since)
		}
		a.since = time.Time{}
	}
}

// done ends arm i's turns and gives its slot to another.
func (s *scheduler) done(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arms[i]
	s.stop(a)
	a.alive, a.running = false, false
	s.schedule()
}

// gate is arm i's timeslice.Gate.
type gate struct {
	s *scheduler
	i int
}

// Holds reports whether the arm holds a slot (timeslice.Turn): a
// solver process of a paused arm is stopped until its next turn.
func (g gate) Holds() bool {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return g.s.arms[g.i].running
}

// Milestone ends the arm's probe and lowers its weight to Arm.Demoted
// (timeslice.Milestones), keeping its virtual time where it is so that
// it neither jumps ahead of the others nor falls behind them; then the
// slots are given anew.
func (g gate) Milestone() {
	s := g.s
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arms[g.i]
	a.probe = 0
	if a.demoted > 0 && a.demoted != a.weight {
		s.account()
		u := a.used
		if !a.since.IsZero() && s.clock == nil {
			u += time.Since(a.since)
		}
		vt := a.vbase + float64(u)/float64(a.weight)
		a.weight = a.demoted
		a.vbase = vt - float64(u)/float64(a.weight)
	}
	s.schedule()
}

// Wait returns at once while the arm holds a slot; otherwise it stops
// the arm's clock and blocks until the arm gets a slot or ctx ends.
func (g gate) Wait(ctx context.Context) {
	s := g.s
	a := s.arms[g.i]
	s.mu.Lock()
	if a.running {
		if a.since.IsZero() {
			s.account() // what ran before is not a's
			a.since = time.Now()
		}
		s.mu.Unlock()
		return
	}
	s.stop(a)
	s.mu.Unlock()
	for {
		select {
		case <-a.wake:
		case <-ctx.Done():
		}
		s.mu.Lock()
		if a.running || ctx.Err() != nil {
			s.account()
			a.since = time.Now()
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}
