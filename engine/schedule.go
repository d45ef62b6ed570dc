package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// arm is one configuration of a portfolio, with an optional state budget
// of its own: a cheap analysis that either decides a property within a
// few hundred thousand states or not at all (full-precision value
// analysis) gets a state budget instead of a share of the time limit.
type arm struct {
	name string
	// maxStates bounds each of the arm's runs (0: Config.MaxStates);
	// Config.MaxStates still applies when it is smaller.
	maxStates int
	// delay postpones the arm's start until the process has used that
	// much more CPU time (waitCPU): an arm whose set-up is costly (Z3
	// contexts, about 10 ms of CPU each, not interruptible) does not
	// start at all on the many properties a cheap arm decides within
	// the delay, and starts late by about the delay on the others.
	delay time.Duration
}

// portfolio is a parallel combination of named configurations (a
// portfolio in the sense of SV-COMP's portfolio verifiers; seed 000,
// section 4 compares the configurations it combines): every arm runs on
// the property at once, each in its own goroutine, and the first TRUE or
// FALSE (each already checked by its arm as a lone configuration checks
// it: fixed point without blocking constructs, error path confirmed by
// SMT and concrete replay) cancels the others. The verdict is therefore
// reached about as soon as the fastest arm reaches it alone, given a
// core per arm; with fewer cores than arms, Go's scheduler shares them
// among the arms (preemptive time slices of 10 ms) and an arm with a
// state budget leaves early. When no arm decides, the verdict is UNKNOWN
// with every arm's reason, in the order of the arms. Soundness is that
// of the arms: each is sound on its own. Should two arms disagree (one
// TRUE, one FALSE — a bug in one of them), the verdict is UNKNOWN naming
// both, never either.
//
// Time: the property's limit (Config.Timeout, on Config.Clock) covers
// all arms together. Under the wall clock every arm runs until the
// property's wall-time limit; under the process-CPU clock (one property
// at a time) the limit is on the CPU time all arms use together, as
// SV-COMP's CPU limit counts every thread. Per-goroutine CPU time is not
// available, so no arm has a CPU share of its own.
//
// Precision entries in Result.Precision are prefixed with the deciding
// arm's name and a slash ("value-cegar/main::y@main:+8:[y < 0]"); an arm
// starts from the entries of Config.InitialPrecision with its own prefix,
// and the first arm also from unprefixed entries.
//
// Adding a configuration to `default` is adding an arm to its list in
// analyses.go; TestConfigArms validates the list.
func portfolio(doc string, arms ...arm) configuration {
	return configuration{doc: doc, arms: arms}
}

// armResult is one arm's outcome.
type armResult struct {
	i int
	r *Result
}

// runPortfolio decides prop with the arms of conf in parallel.
func (conf configuration) runPortfolio(ctx context.Context, prog *cfa.Program, prop *spec.Property, cfg Config, res *Result) {
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make(chan armResult, len(conf.arms))
	for i, a := range conf.arms {
		armCfg := cfg
		armCfg.InitialPrecision = map[string]Precision{prop.ID: cfg.InitialPrecision[prop.ID].arm(a.name, i == 0)}
		if a.maxStates > 0 && (armCfg.MaxStates <= 0 || a.maxStates < armCfg.MaxStates) {
			armCfg.MaxStates = a.maxStates
		}
		go func(i int, sub configuration, delay time.Duration) {
			r := &Result{Property: prop, Config: res.Config}
			if delay > 0 && !waitCPU(actx, delay) {
				r.Verdict, r.Reason = results.Unknown, "not started: "+actx.Err().Error()
				out <- armResult{i, r}
				return
			}
			defer func() {
				if p := recover(); p != nil {
					// A panic is a bug in reverify, never a verdict
					// (verifyOne recovers the same way for lone runs).
					r.Verdict, r.Reason = results.Unknown, fmt.Sprintf("internal error: %v", p)
				}
				out <- armResult{i, r}
			}()
			sub.run(actx, prog, prop, armCfg, r)
		}(i, configs[a.name], a.delay)
	}
	rs := make([]*Result, len(conf.arms))
	winner := -1
	var grace <-chan time.Time
collect:
	for n := 0; n < len(conf.arms); n++ {
		select {
		case ar := <-out:
			rs[ar.i] = ar.r
			if decided(ar.r.Verdict) && winner < 0 {
				winner = ar.i
				cancel() // the losers stop at their next cancellation check
				grace = time.After(loserGrace)
			}
		case <-grace:
			break collect
		}
	}
	for i, r := range rs {
		if r == nil {
			// Still stopping (inside a Z3 call or between two
			// cancellation checks): its result is discarded, its
			// goroutine ends on its own.
			rs[i] = &Result{Property: prop, Verdict: results.Unknown, Reason: "cancelled: another configuration decided"}
		}
	}
	conf.mergeArms(rs, winner, res)
}

// loserGrace is how long the portfolio waits, after the first TRUE or
// FALSE, for the cancelled arms to report (their states are counted);
// the verdict does not wait longer for an arm inside a long Z3 call or
// between two cancellation checks (BenchmarkPortfolio: 156 ms of
// waiting on cegar_running.c, whose winner needs 0.3 ms).
const loserGrace = 5 * time.Millisecond

func decided(v results.Verdict) bool { return v == results.True || v == results.False }

// mergeArms combines the arms' results into res: the winner's result
// (winner < 0: none decided) with the states and refinements of all arms
// summed; UNKNOWN with every arm's reason and every arm's precision (for
// the next run to start from) when no arm decided, or with both verdicts
// named when two decided differently.
func (conf configuration) mergeArms(rs []*Result, winner int, res *Result) {
	states, refinements := 0, 0
	var unmodelled []string
	for _, r := range rs {
		states += r.States
		refinements += r.Refinements
		unmodelled = append(unmodelled, r.Unmodelled...)
	}
	if winner >= 0 {
		w := rs[winner]
		for i, r := range rs {
			if decided(r.Verdict) && r.Verdict != w.Verdict {
				*res = Result{Property: w.Property, Config: res.Config, Verdict: results.Unknown, States: states, Refinements: refinements,
					Reason: fmt.Sprintf("configurations disagree: %s says %s (%s), %s says %s (%s)",
						conf.arms[winner].name, w.Verdict, w.Reason, conf.arms[i].name, r.Verdict, r.Reason)}
				return
			}
		}
		cfgName := res.Config
		*res = *w
		res.Config = cfgName
		res.States, res.Refinements = states, refinements
		res.Precision = prefixed(w.Precision, conf.arms[winner].name)
		res.Reason = conf.arms[winner].name + ": " + w.Reason
		return
	}
	last := rs[len(rs)-1]
	cfgName := res.Config
	*res = *last
	res.Config = cfgName
	res.States, res.Refinements = states, refinements
	res.Verdict = results.Unknown
	res.Precision = nil
	for i, r := range rs {
		res.Precision = append(res.Precision, prefixed(r.Precision, conf.arms[i].name)...)
	}
	sort.Strings(res.Precision)
	reasons := make([]string, len(rs))
	for i, r := range rs {
		reasons[i] = conf.arms[i].name + ": " + r.Reason
	}
	res.Reason = strings.Join(reasons, "; ")
	res.Unmodelled = uniqueSorted(unmodelled)
}

// uniqueSorted returns the distinct strings of s, sorted.
func uniqueSorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	sort.Strings(s)
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// waitCPU waits until the process has used d more CPU time (all threads:
// on an idle machine with two busy cores, d/2 of wall time; on a loaded
// machine, where the other arms progress slowly, longer), but at most
// 20·d of wall time. It reports false when ctx ends first.
func waitCPU(ctx context.Context, d time.Duration) bool {
	start, wallEnd := processCPU(), time.Now().Add(20*d)
	t := time.NewTicker(d / 10)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case now := <-t.C:
			if processCPU()-start >= d || now.After(wallEnd) {
				return ctx.Err() == nil
			}
		}
	}
}

// processCPU is the CPU time (user + system) of this process, 0 when
// getrusage(2) fails (waitCPU then waits its wall-time cap).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
