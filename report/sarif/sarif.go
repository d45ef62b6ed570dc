package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/reverify/reverify/results"
)

// Schema and Version identify SARIF 2.1.0.
const (
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
	Version = "2.1.0"
)

// FingerprintKey is the partialFingerprints key under which results carry
// [Fingerprint].
const FingerprintKey = "reverifyProperty/v1"

// DefaultInformationURI is the tool's home page unless Options say otherwise.
const DefaultInformationURI = "https://github.com/reverify/reverify"

// Rule IDs: one per verdict of an assertion, and one per property kind
// of a memory-safety violation.
const (
	RuleViolated   = "assertion-violated"
	RuleUnknown    = "assertion-unknown"
	RuleNotChecked = "assertion-not-checked"
	RuleProved     = "assertion-proved"
	// RuleInvalidDeref is a FALSE valid-deref property: an access
	// through NULL, after free, outside its object, or to a local after
	// its lifetime.
	RuleInvalidDeref = "invalid-dereference"
	// RuleInvalidFree is a FALSE valid-free property: a double free, or
	// free of something malloc did not return.
	RuleInvalidFree = "invalid-free"
	// RuleMemoryLeak is a FALSE valid-memtrack property: a block
	// becomes unreachable without being freed.
	RuleMemoryLeak = "memory-leak"
	// RuleMemoryNotFreed is a FALSE valid-memcleanup property: a block
	// is still allocated when the program ends.
	RuleMemoryNotFreed = "memory-not-freed"
)

// SARIF levels.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	LevelNote    = "note"
	LevelNone    = "none"
)

// ruleInfo is the static description of one verdict kind, or of the
// violations (FALSE) of one memory-safety property (memory: valid-deref,
// valid-free, valid-memtrack, valid-memcleanup).
type ruleInfo struct {
	verdict results.Verdict
	memory  string
	id      string
	name    string
	level   string
	short   string
	full    string
	tags    []string
}

// rules is the driver's rule table; the index of a rule here is its
// ruleIndex in every log.
var rules = []ruleInfo{
	{results.False, "", RuleViolated, "AssertionViolated", LevelError,
		"An assertion can fail.",
		"reverify found a feasible path from the entry function to a failing assertion; the result carries the path as a code flow and the inputs that drive the program along it.",
		[]string{"correctness", "model-checking"}},
	{results.Unknown, "", RuleUnknown, "AssertionUnknown", LevelWarning,
		"An assertion could be neither proved nor refuted.",
		"reverify gave up on this assertion (time or state limit, unsupported construct, unmodelled function); the message names the reason. The assertion may or may not hold.",
		[]string{"correctness", "model-checking"}},
	{results.NotChecked, "", RuleNotChecked, "AssertionNotChecked", LevelNote,
		"An assertion was not checked.",
		"No configured entry function reaches this assertion, so it was not verified.",
		[]string{"model-checking"}},
	{results.True, "", RuleProved, "AssertionProved", LevelNone,
		"An assertion holds on every execution.",
		"reverify proved that no execution from the entry function violates this assertion.",
		[]string{"model-checking"}},
	// Memory-safety violations, after the verdict rules so that their
	// indices stay as they were.
	{results.False, results.ValidDeref, RuleInvalidDeref, "InvalidDereference", LevelError,
		"A memory access can be invalid.",
		"reverify found a feasible path on which the program accesses memory it may not: through a NULL pointer, after the block was freed, outside the object, or in a local variable after its lifetime ended (SV-COMP valid-deref). The message says what happens to which block; the code flow is the path; the reproducer, built with AddressSanitizer, stops there with AddressSanitizer's report.",
		[]string{"security", "memory-safety", "model-checking"}},
	{results.False, results.ValidFree, RuleInvalidFree, "InvalidFree", LevelError,
		"free can be called on memory it may not release.",
		"reverify found a feasible path on which free is called twice on the same block, on memory that malloc did not return, or on a pointer into the middle of a block (SV-COMP valid-free). The reproducer, built with AddressSanitizer, stops there with AddressSanitizer's report.",
		[]string{"security", "memory-safety", "model-checking"}},
	{results.False, results.ValidMemtrack, RuleMemoryLeak, "MemoryLeak", LevelError,
		"Allocated memory can become unreachable without being freed.",
		"reverify found a feasible path on which the last pointer to a heap block is lost while the block is still allocated (SV-COMP valid-memtrack): a memory leak. The reproducer, built with AddressSanitizer, ends with LeakSanitizer's report when the program exits.",
		[]string{"memory-safety", "model-checking"}},
	{results.False, results.ValidMemcleanup, RuleMemoryNotFreed, "MemoryNotFreed", LevelWarning,
		"Allocated memory can remain unfreed when the program ends.",
		"reverify found a feasible path at whose end a heap block is still allocated (SV-COMP valid-memcleanup), though still reachable, which LeakSanitizer does not report.",
		[]string{"memory-safety", "model-checking"}},
}

// Options control [New].
type Options struct {
	// Version is driver.version; empty means Report.Engine.
	Version string
	// InformationURI is driver.informationUri; empty means
	// DefaultInformationURI.
	InformationURI string
	// RepoRoot is the repository root (absolute, or relative to the
	// working directory). File paths in the report that lie under it are
	// written relative to it; relative paths in the report are taken as
	// relative to the working directory. Empty means the working
	// directory.
	RepoRoot string
	// Changed, if set, says whether a repository-relative file and line
	// were changed by the pull request; code-flow steps on such lines
	// say so ("[changed]").
	Changed func(file string, line int) bool
	// Verdicts lists the verdicts that produce results; nil means FALSE
	// and UNKNOWN.
	Verdicts []results.Verdict
	// Category is runs[0].automationDetails.id, which code scanning uses
	// to keep the alerts of several analyses (e.g. several entry
	// functions) apart; empty omits it.
	Category string
}

// Log is a SARIF 2.1.0 log (sarifLog).
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of the tool.
type Run struct {
	Tool              Tool               `json:"tool"`
	AutomationDetails *AutomationDetails `json:"automationDetails,omitempty"`
	Results           []Result           `json:"results"`
}

// AutomationDetails identifies the analysis category of a run.
type AutomationDetails struct {
	ID string `json:"id"`
}

// Tool wraps the driver.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool component that produced the results.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is a reportingDescriptor.
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     *Message       `json:"shortDescription,omitempty"`
	FullDescription      *Message       `json:"fullDescription,omitempty"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
	Properties           map[string]any `json:"properties,omitempty"`
}

// Configuration is a reportingConfiguration.
type Configuration struct {
	Level string `json:"level"`
}

// Message is a SARIF message with plain text.
type Message struct {
	Text string `json:"text"`
}

// Result is one finding: one property with a reported verdict.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	CodeFlows           []CodeFlow        `json:"codeFlows,omitempty"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

// Location is a location with a physical location.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and a region in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation names a file by URI.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a text region; lines and columns are 1-based.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// CodeFlow is a counterexample.
type CodeFlow struct {
	Message     *Message     `json:"message,omitempty"`
	ThreadFlows []ThreadFlow `json:"threadFlows"`
}

// ThreadFlow is the sequence of steps of one thread.
type ThreadFlow struct {
	Locations []ThreadFlowLocation `json:"locations"`
}

// ThreadFlowLocation is one step of a counterexample.
type ThreadFlowLocation struct {
	Location       *StepLocation `json:"location,omitempty"`
	ExecutionOrder int           `json:"executionOrder"`
}

// StepLocation is a location with a message, as used in thread flows.
type StepLocation struct {
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

// Fingerprint is the stable identity of a property across runs: the first
// 32 hex digits of SHA-256 over the entry function and the property ID.
// Both survive edits elsewhere in the code base (DESIGN.md, "Output
// contracts"); file, line and column do not take part. report/github uses
// the same value in its hidden comment markers.
func Fingerprint(entry, propertyID string) string {
	h := sha256.Sum256([]byte("reverify/v1\x00" + entry + "\x00" + propertyID))
	return hex.EncodeToString(h[:16])
}

// RuleFor returns the rule ID and default level of an assertion's
// verdict, and false for a verdict without a rule.
func RuleFor(v results.Verdict) (id, level string, ok bool) {
	if i := ruleIndex(v, ""); i >= 0 {
		return rules[i].id, rules[i].level, true
	}
	return "", "", false
}

// RuleOf returns the rule ID and default level of a property's result:
// for a memory-safety violation the rule of its property kind
// (invalid-dereference, invalid-free, memory-leak, memory-not-freed),
// else the rule of its verdict; false for a verdict without a rule.
func RuleOf(p *results.PropertyReport) (id, level string, ok bool) {
	if i := ruleOf(p); i >= 0 {
		return rules[i].id, rules[i].level, true
	}
	return "", "", false
}

// ruleIndex is the index in rules of a verdict's rule for memory
// property kind memory ("" for the verdict rules), or -1.
func ruleIndex(v results.Verdict, memory string) int {
	for i, r := range rules {
		if r.verdict == v && r.memory == memory {
			return i
		}
	}
	return -1
}

// ruleOf is the index of p's rule: the memory-safety rule of a FALSE
// memory-safety property, else its verdict's; -1 if none.
func ruleOf(p *results.PropertyReport) int {
	if p.Verdict == results.False {
		if i := ruleIndex(results.False, p.MemoryKind()); i >= 0 {
			return i
		}
	}
	return ruleIndex(p.Verdict, "")
}

// New builds the SARIF log of r. It does not fail: properties with a
// verdict outside Options.Verdicts are skipped, missing lines become 1.
func New(r *results.Report, opts Options) *Log {
	want := map[results.Verdict]bool{results.False: true, results.Unknown: true}
	if opts.Verdicts != nil {
		want = map[results.Verdict]bool{}
		for _, v := range opts.Verdicts {
			want[v] = true
		}
	}
	version := opts.Version
	if version == "" {
		version = r.Engine
	}
	uri := opts.InformationURI
	if uri == "" {
		uri = DefaultInformationURI
	}
	drv := Driver{Name: "reverify", Version: version, InformationURI: uri}
	for _, ri := range rules {
		drv.Rules = append(drv.Rules, Rule{
			ID: ri.id, Name: ri.name,
			ShortDescription:     &Message{Text: ri.short},
			FullDescription:      &Message{Text: ri.full},
			HelpURI:              uri,
			DefaultConfiguration: &Configuration{Level: ri.level},
			Properties:           map[string]any{"tags": ri.tags},
		})
	}
	run := Run{Tool: Tool{Driver: drv}, Results: []Result{}}
	if opts.Category != "" {
		run.AutomationDetails = &AutomationDetails{ID: opts.Category}
	}
	props := make([]*results.PropertyReport, 0, len(r.Properties))
	for i := range r.Properties {
		if want[r.Properties[i].Verdict] {
			props = append(props, &r.Properties[i])
		}
	}
	sort.SliceStable(props, func(i, j int) bool {
		a, b := props[i], props[j]
		if fa, fb := results.RepoPath(a.File, opts.RepoRoot), results.RepoPath(b.File, opts.RepoRoot); fa != fb {
			return fa < fb
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.ID < b.ID
	})
	for _, p := range props {
		idx := ruleOf(p)
		if idx < 0 {
			continue
		}
		run.Results = append(run.Results, result(r, p, idx, opts))
	}
	return &Log{Schema: Schema, Version: Version, Runs: []Run{run}}
}

// Write writes the SARIF log of r to w as indented JSON.
func Write(w io.Writer, r *results.Report, opts Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(New(r, opts)); err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	return nil
}

func result(r *results.Report, p *results.PropertyReport, idx int, opts Options) Result {
	root := opts.RepoRoot
	ri := rules[idx]
	res := Result{
		RuleID: ri.id, RuleIndex: idx, Level: ri.level,
		Message:             Message{Text: MessageText(p)},
		Locations:           []Location{{PhysicalLocation: physical(p.File, p.Line, p.Column, root)}},
		PartialFingerprints: map[string]string{FingerprintKey: Fingerprint(r.Entry, p.ID)},
		Properties: map[string]any{
			"propertyId": p.ID, "function": p.Function, "verdict": string(p.Verdict),
			"configuration": p.Config, "cpuSeconds": p.CPUSeconds,
		},
	}
	for k, v := range map[string]string{"sliceHash": p.SliceHash, "witness": p.Witness, "reproducer": p.Reproducer} {
		if v != "" {
			res.Properties[k] = v
		}
	}
	if len(p.Steps) > 0 {
		var locs []ThreadFlowLocation
		rows := results.ReadableTrace(p, root, opts.Changed)
		for i, row := range rows {
			s := p.Steps[row.Step]
			file := s.File
			if file == "" {
				file = p.File
			}
			msg := results.StepText(s)
			if row.Fold != "" {
				msg = "(folded) " + row.Fold
			}
			var vals []string
			for _, k := range row.Inputs {
				vals = append(vals, fmt.Sprintf("%s = %d", p.Inputs[k].Source, p.Inputs[k].Value))
			}
			if len(vals) > 0 {
				msg += " [read: " + strings.Join(vals, ", ") + "]"
			}
			if row.Changed {
				msg += " [changed]"
			}
			pl := physical(file, s.Line, 0, root)
			locs = append(locs, ThreadFlowLocation{
				Location:       &StepLocation{PhysicalLocation: &pl, Message: &Message{Text: msg}},
				ExecutionOrder: i + 1,
			})
		}
		target := "the failing assertion"
		if p.MemoryKind() != "" {
			target = "the violation"
		}
		res.CodeFlows = []CodeFlow{{
			Message: &Message{Text: fmt.Sprintf("Counterexample: %d steps to %s (%d shown, the rest folded)",
				len(p.Steps), target, len(rows))},
			ThreadFlows: []ThreadFlow{{Locations: locs}},
		}}
	}
	return res
}

// MessageText is the plain-text message of a result: verdict, expression,
// function, reason, counterexample inputs and unmodelled functions on one
// line. A memory-safety violation says what happened to which block
// ("Use after free of p (valid-deref): p can be dereferenced after free
// (the block allocated at f.c:4 by malloc, freed at f.c:12) in main."),
// its reason with heap block names replaced (results.Memory).
// report/github uses it for annotations.
func MessageText(p *results.PropertyReport) string {
	var b strings.Builder
	expr := p.Expression
	if expr == "" {
		expr = p.ID
	}
	what := "Assertion " + expr
	if sub, ok := strings.CutPrefix(expr, "G valid-"); ok && !strings.Contains(sub, " ") {
		// a memory-safety property: per access site, or whole-program
		what = "Memory safety (valid-" + sub + ")"
		if p.Line > 0 && p.Violated == "" {
			what += " at this access"
		}
	}
	reason := p.Reason
	switch m := results.Memory(p, ""); {
	case m != nil && m.Problem != results.OtherViolation:
		// What happened to which block, not an assertion.
		subj, pred := m.Clause(results.MemoryFormat{}, results.Site{File: results.RepoPath(p.File, ""), Line: p.Line})
		noun := m.Noun(results.MemoryFormat{})
		fmt.Fprintf(&b, "%s%s (%s): %s can %s", strings.ToUpper(noun[:1]), noun[1:], m.Kind, subj, pred)
		reason = m.HeapNames(p.Reason)
	case p.Verdict == results.False:
		fmt.Fprintf(&b, "%s is violated", what)
		reason = p.ReadableReason("")
	case p.Verdict == results.Unknown:
		fmt.Fprintf(&b, "%s could not be decided", what)
	case p.Verdict == results.True:
		fmt.Fprintf(&b, "%s holds", what)
	case p.Verdict == results.NotChecked:
		fmt.Fprintf(&b, "%s was not checked", what)
	default:
		fmt.Fprintf(&b, "%s: %s", what, p.Verdict)
	}
	if p.Function != "" {
		fmt.Fprintf(&b, " in %s", p.Function)
	}
	b.WriteString(".")
	if reason != "" {
		fmt.Fprintf(&b, " Reason: %s.", strings.TrimSuffix(reason, "."))
	}
	var ins []string
	unread := results.EnvUnreadInputs(p.Inputs)
	for i, in := range p.Inputs {
		if !results.IsInput(in) || unread[i] {
			continue // an uninitialised declaration's initial value, a getenv byte no run has
		}
		s := fmt.Sprintf("%s = %d", in.Source, in.Value)
		if in.Line > 0 {
			s += fmt.Sprintf(" (line %d)", in.Line)
		}
		ins = append(ins, s)
	}
	if len(ins) > 0 {
		b.WriteString(" Counterexample inputs: " + strings.Join(ins, ", ") + ".")
	}
	if len(p.FailureValues) > 0 {
		var vs []string
		for _, v := range p.FailureValues {
			vs = append(vs, fmt.Sprintf("%s = %d", v.Expr, v.Value))
		}
		fmt.Fprintf(&b, " At the failure: %s.", strings.Join(vs, ", "))
	}
	if len(p.Unmodelled) > 0 {
		fmt.Fprintf(&b, " Unmodelled functions: %s.", strings.Join(p.Unmodelled, ", "))
	}
	return b.String()
}

func physical(file string, line, col int, root string) PhysicalLocation {
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 0
	}
	al := ArtifactLocation{URI: RelativeURI(file, root)}
	if !strings.HasPrefix(al.URI, "file:") {
		al.URIBaseID = "%SRCROOT%"
	}
	return PhysicalLocation{ArtifactLocation: al, Region: &Region{StartLine: line, StartColumn: col}}
}

// RelativeURI turns a file path of the report into a URI reference
// relative to the repository root: slash-separated, cleaned, without a
// leading "./", percent-encoded where URIs need it. A path outside root
// is kept absolute (as a file: URI) rather than climbing out with "..".
func RelativeURI(file, root string) string {
	rel := results.RepoPath(file, root)
	if filepath.IsAbs(filepath.FromSlash(rel)) || strings.HasPrefix(rel, "/") {
		return (&url.URL{Scheme: "file", Path: rel}).String()
	}
	return (&url.URL{Path: rel}).String()
}
