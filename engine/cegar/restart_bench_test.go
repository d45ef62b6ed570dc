package cegar_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// restartTask is one property of one program for BenchmarkRestart.
type restartTask struct {
	name string
	prog *cfa.Program
	prop *spec.Property
}

// restartTasks returns every property of engine/testdata/verdicts/*.c and
// of this package's test programs (runningExample, counterLoop,
// flagLoop).
func restartTasks(b *testing.B) []restartTask {
	var tasks []restartTask
	add := func(name string, prog *cfa.Program) {
		for _, p := range spec.Properties(prog, "main") {
			if p.Reachable && len(p.ErrorEdges) > 0 {
				tasks = append(tasks, restartTask{name + " " + p.ID, prog, p})
			}
		}
	}
	files, _ := filepath.Glob("../testdata/verdicts/*.c")
	if len(files) == 0 {
		b.Fatal("no verdict programs")
	}
	for _, f := range files {
		prog, err := frontend.Translate(frontend.Options{}, f)
		if err != nil {
			b.Fatal(err)
		}
		add(filepath.Base(f), prog)
	}
	for name, src := range map[string]string{"runningExample": runningExample, "counterLoop": counterLoop, "flagLoop": flagLoop} {
		prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: name + ".c", Content: prelude + src}})
		if err != nil {
			b.Fatal(err)
		}
		prop := spec.UnreachCall(prog, "main")
		tasks = append(tasks, restartTask{name, prog, prop})
	}
	return tasks
}

// restartLimit and restartTimeout bound each run of BenchmarkRestart.
const (
	restartLimit   = 20_000
	restartTimeout = 3 * time.Second
)

// runRestart decides one task with value CEGAR (the value-cegar
// configuration of engine: BFS, merge-sep, adaptive precision scope)
// under restart r.
func runRestart(b *testing.B, t restartTask, r cegar.Restart) *cegar.Result {
	loc, err := location.New(t.prog, "main")
	if err != nil {
		b.Fatal(err)
	}
	comp, err := cpa.NewComposite(loc, callstack.New(64),
		property.New(property.Spec{Name: t.prop.ID, ErrorEdges: t.prop.ErrorEdges, Via: t.prop.Via}),
		value.New(t.prog, value.Options{Precision: value.NewScopedPrecision()}))
	if err != nil {
		b.Fatal(err)
	}
	ref, err := cegar.NewValueRefiner(t.prog, comp, cegar.ValueOptions{Scope: cegar.AdaptiveScope})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), restartTimeout)
	defer cancel()
	return cegar.Run(ctx, t.prog, comp, cegar.Options{
		Algorithm: cpa.Options{Order: cpa.BFS, Merge: cpa.MergeSep, MaxStates: restartLimit},
		Solver:    z3.Factory, Refiner: ref, Restart: r,
	})
}

// BenchmarkRestart compares the restart strategies of value CEGAR on
// every property of the verdict programs and this package's test
// programs, in one run: each iteration decides every task under each
// strategy in turn, so that all see the same machine load. It reports,
// per strategy and iteration, the states (summed over all runs of the
// CEGAR loop), refinements, milliseconds and decided tasks (Safe or
// Unsafe), and the states, time and ratios root/pivot over the common
// tasks: those that every strategy decides and some strategy refines
// (without a refinement the strategies do the same work; undecided
// tasks end at the time or state limit). Verdicts must agree.
//
//	go test -run '^$' -bench Restart -benchtime 3x ./engine/cegar/
func BenchmarkRestart(b *testing.B) {
	tasks := restartTasks(b)
	strategies := []cegar.Restart{cegar.RestartPivot, cegar.RestartRoot, cegar.RestartPivotFrontier}
	type sum struct {
		states, refinements, decided int
		time                         time.Duration
		// over the tasks all strategies decide
		commonStates, commonRefinements int
		commonTime                      time.Duration
	}
	sums := make([]sum, len(strategies))
	common := 0
	type outcome struct {
		res  *cegar.Result
		time time.Duration
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range tasks {
			outs := make([]outcome, len(strategies))
			all := true
			for k, r := range strategies {
				t0 := time.Now()
				res := runRestart(b, t, r)
				outs[k] = outcome{res, time.Since(t0)}
				s := &sums[k]
				s.time += outs[k].time
				s.states += res.States
				s.refinements += res.Stats.Refinements
				if res.Status == cegar.Safe || res.Status == cegar.Unsafe {
					s.decided++
					if first := outs[0].res.Status; (first == cegar.Safe || first == cegar.Unsafe) && res.Status != first {
						b.Fatalf("%s: %v under %v, %v under %v", t.name, first, strategies[0], res.Status, r)
					}
				} else {
					all = false
				}
				if i == 0 && testing.Verbose() {
					b.Logf("%-40s %-15v %-10v %6d states %3d refinements %8.1f ms", t.name, r, res.Status, res.States,
						res.Stats.Refinements, float64(outs[k].time.Microseconds())/1000)
				}
			}
			refined := false
			for _, o := range outs {
				refined = refined || o.res.Stats.Refinements > 0
			}
			if !all || !refined {
				continue
			}
			common++
			for k, o := range outs {
				sums[k].commonStates += o.res.States
				sums[k].commonRefinements += o.res.Stats.Refinements
				sums[k].commonTime += o.time
			}
		}
	}
	n := float64(b.N)
	for k, r := range strategies {
		s := sums[k]
		b.ReportMetric(float64(s.states)/n, r.String()+"-states/op")
		b.ReportMetric(float64(s.refinements)/n, r.String()+"-refinements/op")
		b.ReportMetric(float64(s.time.Milliseconds())/n, r.String()+"-ms/op")
		b.ReportMetric(float64(s.decided)/n, r.String()+"-decided/op")
		b.ReportMetric(float64(s.commonTime.Microseconds())/1000/n, r.String()+"-common-ms/op")
		b.ReportMetric(float64(s.commonStates)/n, r.String()+"-common-states/op")
	}
	p, root, front := sums[0], sums[1], sums[2]
	b.ReportMetric(float64(root.commonStates)/float64(p.commonStates), "root/pivot-states")
	b.ReportMetric(float64(root.commonRefinements)/float64(p.commonRefinements), "root/pivot-refinements")
	b.ReportMetric(float64(root.commonTime)/float64(p.commonTime), "root/pivot-time")
	b.ReportMetric(float64(front.commonStates)/float64(p.commonStates), "frontier/pivot-states")
	b.ReportMetric(float64(front.commonRefinements)/float64(p.commonRefinements), "frontier/pivot-refinements")
	b.ReportMetric(float64(front.commonTime)/float64(p.commonTime), "frontier/pivot-time")
	b.ReportMetric(float64(common)/n, "common-tasks")
	b.ReportMetric(float64(len(tasks)), "tasks")
}
