package engine

import (
	"encoding/json"
	"io"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/spec"
)

// Verdict is the outcome for one property.
type Verdict string

// Verdicts. NotChecked is for assertions no entry function reaches.
const (
	True       Verdict = "TRUE"
	False      Verdict = "FALSE"
	Unknown    Verdict = "UNKNOWN"
	NotChecked Verdict = "NOT_CHECKED"
)

// Result is the outcome of verifying one property.
type Result struct {
	Property *spec.Property
	Verdict  Verdict
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
	Inputs         []Input
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
	FailureValues []FailureValue
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
	Invariants []LoopInvariant
}

// Input is one nondeterministic value on a counterexample.
type Input struct {
	Source string    // __VERIFIER_nondet_int, "extern f", "uninitialised x"
	Type   *cfa.Type `json:"-"`
	Value  int64     // sign-extended for signed types
	Bits   uint64    // the value's bit pattern
	Step   int       // index into Counterexample of the step that reads it
	Pos    cfa.Pos
}

// FailureValue is the value of one operand of the failing assertion.
type FailureValue struct {
	Expr  string `json:"expr"`  // as the CFA prints it, e.g. "h->len"
	Type  string `json:"type"`  // its C type
	Value int64  `json:"value"` // sign-extended for signed types
}

// SchemaVersion is the version of the results.json schema.
const SchemaVersion = 1

// Report is the content of results.json (DESIGN.md, output contracts).
type Report struct {
	Schema     int              `json:"schema"`
	Engine     string           `json:"engine"`
	Files      []string         `json:"files"`
	DataModel  string           `json:"data_model"`
	Entry      string           `json:"entry"`
	Config     string           `json:"config"`
	Properties []PropertyReport `json:"properties"`
	Summary    map[string]int   `json:"summary"`
}

// PropertyReport is one property's entry in results.json. Fields later
// stages fill (slice hash, cache hit, reasons for re-verification,
// witness, reproducer and pixel-tree paths) are omitted while empty.
type PropertyReport struct {
	ID          string      `json:"id"`
	File        string      `json:"file"`
	Line        int         `json:"line"`
	Column      int         `json:"column"`
	Function    string      `json:"function"`
	Expression  string      `json:"expression"`
	Verdict     Verdict     `json:"verdict"`
	Reason      string      `json:"reason,omitempty"`
	Config      string      `json:"configuration"`
	CPUSeconds  float64     `json:"cpu_seconds"`
	States      int         `json:"states"`
	Refinements int         `json:"refinements"`
	SliceHash   string      `json:"slice_hash,omitempty"`
	CacheHit    bool        `json:"cache_hit,omitempty"`
	Reverified  []string    `json:"reverified_because,omitempty"`
	Inputs      []InputJSON `json:"counterexample_inputs,omitempty"`
	Steps       []StepJSON  `json:"counterexample,omitempty"`
	Unmodelled  []string    `json:"unmodelled,omitempty"`
	// Assumptions: see Result.Assumptions.
	Assumptions []string `json:"assumptions,omitempty"`
	// SignedOverflow: see Result.SignedOverflow.
	SignedOverflow string `json:"signed_overflow,omitempty"`
	// Violated: see Result.Violated.
	Violated string `json:"violated,omitempty"`
	// FailureValues: see Result.FailureValues.
	FailureValues  []FailureValue `json:"failure_values,omitempty"`
	Witness        string         `json:"witness,omitempty"`
	WitnessGraphML string         `json:"witness_graphml,omitempty"`
	Reproducer     string         `json:"reproducer,omitempty"`
	PixelTree      string         `json:"pixel_tree,omitempty"`
	Precision      []string       `json:"precision,omitempty"`
}

// InputJSON is an input value in results.json.
type InputJSON struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Value  int64  `json:"value"`
	Line   int    `json:"line,omitempty"`
	// Step is the index into PropertyReport.Steps of the step that
	// reads the input (a call of __VERIFIER_nondet_*, an external
	// function, a declaration); nil when unknown (results.json written
	// before the field existed).
	Step *int `json:"step,omitempty"`
}

// StepJSON is one counterexample step in results.json.
type StepJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Op   string `json:"op"`
	Text string `json:"text,omitempty"`
}

// NewReport builds the results.json content of results.
func NewReport(engineVersion string, prog *cfa.Program, entry, config string, results []*Result) *Report {
	r := &Report{Schema: SchemaVersion, Engine: engineVersion, Files: prog.Files, DataModel: prog.DataModel.String(),
		Entry: entry, Config: config, Summary: map[string]int{}}
	for _, res := range results {
		p := res.Property
		pr := PropertyReport{
			ID: p.ID, File: p.Pos.File, Line: p.Pos.Line, Column: p.Pos.Col, Function: p.Func, Expression: p.Expr,
			Verdict: res.Verdict, Reason: res.Reason, Config: res.Config, CPUSeconds: round3(res.Seconds),
			States: res.States, Refinements: res.Refinements, Unmodelled: res.Unmodelled,
			Assumptions:    res.Assumptions,
			SignedOverflow: res.SignedOverflow, FailureValues: res.FailureValues, Violated: res.Violated,
			Precision: res.Precision,
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
			pr.Steps = append(pr.Steps, StepJSON{File: s.Edge.Pos.Start.File, Line: s.Edge.Pos.Start.Line, Op: stepString(s), Text: s.Edge.Text})
		}
		for _, in := range res.Inputs {
			t := ""
			if in.Type != nil {
				t = in.Type.String()
			}
			j := InputJSON{Source: in.Source, Type: t, Value: in.Value, Line: in.Pos.Line}
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

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// since returns seconds elapsed since t.
func since(t time.Time) float64 { return time.Since(t).Seconds() }
