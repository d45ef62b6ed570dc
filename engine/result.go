package engine

import (
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/strategy"
	"github.com/reverify/reverify/results"
)

// Result is the outcome of verifying one property (strategy.Result: the
// strategies that decide properties produce and combine it).
type Result = strategy.Result

// NewReport builds the results.json content (results.Report) of rs,
// the results of one run on prog from entry under the named
// configuration: one results.PropertyReport per result, in order, with
// CPU seconds rounded to milliseconds, the counterexample's steps that
// have a source position, and its inputs pointing at those steps.
func NewReport(engineVersion string, prog *cfa.Program, entry, config string, rs []*Result) *results.Report {
	r := &results.Report{Schema: results.SchemaVersion, Engine: engineVersion, Files: prog.Files, DataModel: prog.DataModel.String(),
		Entry: entry, Config: config, Summary: map[string]int{}}
	for _, res := range rs {
		p := res.Property
		pr := results.PropertyReport{
			ID: p.ID, File: p.Pos.File, Line: p.Pos.Line, Column: p.Pos.Col, Function: p.Func, Expression: p.Expr,
			Verdict: res.Verdict, Reason: res.Reason, Cause: res.Cause, Config: res.Config, Decider: res.Decider, Selection: res.Selection, CPUSeconds: round3(res.Seconds),
			States: res.States, Refinements: res.Refinements, Unmodelled: res.Unmodelled,
			Assumptions:    res.Assumptions,
			SignedOverflow: res.SignedOverflow, FailureValues: res.FailureValues, Violated: res.Violated, Memory: res.Memory,
			Precision: res.Precision, Scope: res.Scope,
		}
		if vp := res.ViolationPos; vp.Line != 0 { // a memory-safety property is where it is violated
			pr.File, pr.Line, pr.Column = vp.File, vp.Line, vp.Col
		}
		// Steps without a source position (the skip edge into the entry
		// function) are left out: they would show as line 1 in SARIF.
		at := map[int]int{} // counterexample index → index in pr.Steps
		for i, s := range res.Counterexample {
			if s.Edge == nil || s.Edge.Pos.Start.Line <= 0 {
				continue
			}
			at[i] = len(pr.Steps)
			pr.Steps = append(pr.Steps, results.StepJSON{File: s.Edge.Pos.Start.File, Line: s.Edge.Pos.Start.Line, Op: stepString(s), Text: s.Edge.Text})
		}
		for _, in := range res.Inputs {
			t := ""
			if in.Type != nil {
				t = in.Type.String()
			}
			j := results.InputJSON{Source: in.Source, Type: t, Value: in.Value, Line: in.Pos.Line}
			if k, ok := at[in.Step]; ok {
				j.Step = &k
			}
			pr.Inputs = append(pr.Inputs, j)
		}
		r.Properties = append(r.Properties, pr)
		r.Summary[string(res.Verdict)]++
	}
	return r
}

func stepString(s cfa.Step) string {
	switch s.Kind {
	case cfa.Enter:
		return "enter " + s.Callee.Name
	case cfa.Leave:
		return "return from " + s.Callee.Name
	}
	return s.Edge.Op.String()
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// since returns seconds elapsed since t.
func since(t time.Time) float64 { return time.Since(t).Seconds() }

// DefaultMemoryLimit is the memory limit per property when
// Config.MemoryLimit is 0 (strategy.DefaultMemoryLimit).
const DefaultMemoryLimit = strategy.DefaultMemoryLimit

// ProcessCPU is the clock of CPU-time limits (Config.Clock under
// --clock cpu): the CPU time of this process, of its children that
// ended and of its running solver processes (strategy.ProcessCPU).
func ProcessCPU() time.Duration { return strategy.ProcessCPU() }

// HumanBytes formats n as 1.5GiB, 512MiB or 100B.
func HumanBytes(n uint64) string { return strategy.HumanBytes(n) }

// PhaseWatch holds a phase of a run that no property's budget covers to
// the run's limits (strategy.PhaseWatch).
type PhaseWatch = strategy.PhaseWatch

// StartPhaseWatch starts watching the phase named what under the time
// limit on clock (nil: wall time; 0: no limit) and memory (bytes; 0: no
// limit), calling exceeded once with a sentence when one is passed
// (strategy.StartPhaseWatch).
func StartPhaseWatch(what string, clock func() time.Duration, limit time.Duration, memory uint64, exceeded func(msg string)) *PhaseWatch {
	return strategy.StartPhaseWatch(what, strategy.Clock(clock), limit, memory, exceeded)
}
