package results

import (
	"encoding/json"
	"io"
)

// SchemaVersion is the version of the results.json schema.
const SchemaVersion = 1

// Report is the content of results.json (doc/DESIGN.md, "Output
// contracts"): the run's engine version, input files, data model, entry
// functions (space-separated) and configuration, one PropertyReport per
// property, and the number of properties per verdict.
type Report struct {
	Schema     int              `json:"schema"`
	Engine     string           `json:"engine"`
	Files      []string         `json:"files"`
	DataModel  string           `json:"data_model"`
	Entry      string           `json:"entry"`
	Config     string           `json:"config"`
	Properties []PropertyReport `json:"properties"`
	Summary    map[string]int   `json:"summary"`
	// Functions, in library mode (entry auto), say per function with
	// assertions what its verdicts make of it (SummarizeFunctions).
	Functions []FunctionSummary `json:"functions,omitempty"`
}

// PropertyReport is one property's entry in results.json: the property
// (ID, file, line and column of the assertion, 1-based; function;
// expression text), its verdict and the run that decided it (reason,
// configuration, CPU seconds rounded to milliseconds, abstract states,
// refinements). Fields later stages fill (slice hash, cache hit, reasons
// for re-verification, witness, reproducer and pixel-tree paths) are
// omitted while empty.
type PropertyReport struct {
	ID         string  `json:"id"`
	File       string  `json:"file"`
	Line       int     `json:"line"`
	Column     int     `json:"column"`
	Function   string  `json:"function"`
	Expression string  `json:"expression"`
	Verdict    Verdict `json:"verdict"`
	Reason     string  `json:"reason,omitempty"`
	// Cause is why the verdict is UNKNOWN or NOT_CHECKED, as data.
	Cause  *Cause `json:"cause,omitempty"`
	Config string `json:"configuration"`
	// Decider is the arm or step of the configuration's strategy that
	// decided the property ("value-cegar", "value (all properties in
	// one run)"), empty for UNKNOWN or a configuration of one analysis.
	Decider string `json:"decided_by,omitempty"`
	// Selection is why the arms of the strategy ran in the order they
	// did: the program's features and their class ("invariant: 1 loop (1
	// input-bounded at f.c:12:3), 14 edges"); empty for a single analysis.
	Selection   string      `json:"selection,omitempty"`
	CPUSeconds  float64     `json:"cpu_seconds"`
	States      int         `json:"states"`
	Refinements int         `json:"refinements"`
	SliceHash   string      `json:"slice_hash,omitempty"`
	CacheHit    bool        `json:"cache_hit,omitempty"`
	Reverified  []string    `json:"reverified_because,omitempty"`
	Inputs      []InputJSON `json:"counterexample_inputs,omitempty"`
	Steps       []StepJSON  `json:"counterexample,omitempty"`
	Unmodelled  []string    `json:"unmodelled,omitempty"`
	// Assumptions: see engine.Result.Assumptions.
	Assumptions []string `json:"assumptions,omitempty"`
	// SignedOverflow: see engine.Result.SignedOverflow.
	SignedOverflow string `json:"signed_overflow,omitempty"`
	// FailureValues: see engine.Result.FailureValues.
	FailureValues  []FailureValue `json:"failure_values,omitempty"`
	Witness        string         `json:"witness,omitempty"`
	WitnessGraphML string         `json:"witness_graphml,omitempty"`
	Reproducer     string         `json:"reproducer,omitempty"`
	PixelTree      string         `json:"pixel_tree,omitempty"`
	Precision      []string       `json:"precision,omitempty"`
	// Violated is, for FALSE of a memory-safety property, the violated
	// subproperty (valid-deref, valid-free, valid-memtrack,
	// valid-memcleanup).
	Violated string `json:"violated,omitempty"`
	// Memory is, for FALSE of a memory-safety property found by a
	// violation (not by a probe of an undecided check), what the
	// violation did (MemoryViolation).
	Memory *MemoryViolation `json:"memory,omitempty"`
	// Scope is the property scope (engine/scope), when computed.
	Scope *Scope `json:"scope,omitempty"`
	// ChangedLines are the lines of the head revision, in definitions of
	// the property's slice, that the change under review added or
	// modified, nearest definition first: where a comment about the
	// property can sit on the diff.
	ChangedLines []Span `json:"changed_lines,omitempty"`
	// Earlier is, for an UNKNOWN property, the verdict known before this
	// run (Earlier): FALSE there makes the UNKNOWN an unresolved finding.
	Earlier *Earlier `json:"earlier,omitempty"`
}

// InputJSON is a counterexample input (Input) in results.json: its
// source, its C type as text, its value (sign-extended for signed
// types) and the line that reads it.
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

// StepJSON is one counterexample step in results.json: its file and
// line, the CFA operation ("x = __VERIFIER_nondet_int()", "[!(x > 0)]",
// "enter f", "return from f") and the source text of its edge.
type StepJSON struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Op   string `json:"op"`
	Text string `json:"text,omitempty"`
}

// FailureValue is the value of one operand of the failing assertion.
type FailureValue struct {
	Expr  string `json:"expr"`  // as the CFA prints it, e.g. "h->len"
	Type  string `json:"type"`  // its C type
	Value int64  `json:"value"` // sign-extended for signed types
}

// WriteJSON writes r as indented JSON (two spaces, a final newline).
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
