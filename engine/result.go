package engine

import (
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// Result is the outcome of verifying one property.
type Result struct {
	Property *spec.Property
	Verdict  results.Verdict
	// Reason explains UNKNOWN (timeout, state limit N, unsupported
	// construct at file:line:col, recursion bound, unmodelled function)
	// and NOT_CHECKED; for TRUE and FALSE it names the evidence.
	Reason      string
	Config      string
	Seconds     float64 // wall-clock seconds of this property's runs
	States      int     // abstract states reached (summed over refinements)
	Refinements int
	// Precision is the final precision of a CEGAR configuration in its
	// stable text form (value.ScopedPrecision.Format), one entry per
	// element, sorted: "main::x@main:+8:[x < 0]" (tracked at the location
	// of main whose statement is the test x < 0, 8 lines into main;
	// value.LocationKeys), "main::x@main" (in all of main), "g"
	// (everywhere). It survives edits elsewhere in the program and can
	// seed a later run (Config.InitialPrecision).
	Precision []string
	// Counterexample is the error path of a FALSE verdict, confirmed
	// feasible by the SMT check and concrete replay, with the values of
	// the nondeterministic inputs in the order they are read.
	Counterexample []cfa.Step
	Inputs         []results.Input
	// Unmodelled names external functions the analysis havocked.
	Unmodelled []string
	// Assumptions are what the verdict assumes beyond the program:
	// "pure f" for each function without a body that the program calls
	// and the user declared side-effect-free (Config.AssumePure).
	Assumptions []string
	// SignedOverflow is, for FALSE under wrap-around semantics, the
	// position (file:line:col) of the first signed +, -, * or unary -
	// on the counterexample whose result wraps: undefined behaviour in
	// C, so a checker assuming its absence (SV-COMP) disagrees. Empty
	// otherwise.
	SignedOverflow string
	// FailureValues are the values of the failing assertion's operands
	// (h->len, x) where the counterexample fails it, from a concrete
	// replay (interp.FailureValues); empty when not FALSE or when the
	// replay cannot read them.
	FailureValues []results.FailureValue
	// Violated is, for FALSE of a memory-safety property, the violated
	// subproperty ("valid-deref", "valid-free", "valid-memtrack",
	// "valid-memcleanup"; memsafety.go), and ViolationPos where.
	Violated     string
	ViolationPos cfa.Pos
	// ARG is the final abstract reachability graph of the last run, kept
	// only when Config.KeepARG is set (for pixel trees and witnesses).
	ARG *cpa.ARG
	// Invariants of a TRUE verdict reached by a fixed point: per loop
	// head, what the final reached set knows there (for correctness
	// witnesses, engine/witness).
	Invariants []results.Invariant
	// Scope is the property scope of a TRUE or FALSE verdict
	// (Config.Scope; engine/scope), nil otherwise.
	Scope *results.Scope
}

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
			Verdict: res.Verdict, Reason: res.Reason, Config: res.Config, CPUSeconds: round3(res.Seconds),
			States: res.States, Refinements: res.Refinements, Unmodelled: res.Unmodelled,
			Assumptions:    res.Assumptions,
			SignedOverflow: res.SignedOverflow, FailureValues: res.FailureValues, Violated: res.Violated,
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
