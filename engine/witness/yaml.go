package witness

import (
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/engine/cfa"
)

// FormatVersion is the version of the YAML witness format written.
const FormatVersion = "2.0"

// YAMLEntry is one entry of a YAML witness (format 2.0): a
// violation_sequence here.
type YAMLEntry struct {
	EntryType string        `yaml:"entry_type"`
	Metadata  YAMLMetadata  `yaml:"metadata"`
	Content   []YAMLContent `yaml:"content"`
}

// YAMLMetadata describes the provenance of an entry.
type YAMLMetadata struct {
	FormatVersion string       `yaml:"format_version"`
	UUID          string       `yaml:"uuid"`
	CreationTime  string       `yaml:"creation_time"`
	Producer      YAMLProducer `yaml:"producer"`
	Task          YAMLTask     `yaml:"task"`
}

// YAMLProducer names the tool that produced the entry.
type YAMLProducer struct {
	Name          string `yaml:"name"`
	Version       string `yaml:"version"`
	Configuration string `yaml:"configuration,omitempty"`
	CommandLine   string `yaml:"command_line,omitempty"`
	Description   string `yaml:"description,omitempty"`
}

// YAMLTask describes the verification task.
type YAMLTask struct {
	InputFiles      []string          `yaml:"input_files"`
	InputFileHashes map[string]string `yaml:"input_file_hashes"`
	Specification   string            `yaml:"specification"`
	DataModel       string            `yaml:"data_model"`
	Language        string            `yaml:"language"`
}

// YAMLContent is one item of a violation_sequence's content: a segment,
// zero or more avoid waypoints followed by one follow waypoint.
type YAMLContent struct {
	Segment []YAMLWaypointItem `yaml:"segment"`
}

// YAMLWaypointItem wraps a waypoint in a segment.
type YAMLWaypointItem struct {
	Waypoint YAMLWaypoint `yaml:"waypoint"`
}

// YAMLWaypoint is a restriction on program executions.
type YAMLWaypoint struct {
	// Type is assumption, branching, function_enter, function_return or
	// target.
	Type string `yaml:"type"`
	// Action is follow or avoid.
	Action     string          `yaml:"action"`
	Constraint *YAMLConstraint `yaml:"constraint,omitempty"`
	Location   YAMLLocation    `yaml:"location"`
}

// YAMLConstraint is a waypoint's requirement: a C expression (assumption),
// an ACSL expression "\result <op> <constant>" (function_return), or
// "true"/"false" without format (branching).
type YAMLConstraint struct {
	Value  string `yaml:"value"`
	Format string `yaml:"format,omitempty"`
}

// YAMLLocation is a program location; Line and Column are 1-based.
type YAMLLocation struct {
	FileName string `yaml:"file_name"`
	Line     int    `yaml:"line"`
	Column   int    `yaml:"column,omitempty"`
	Function string `yaml:"function,omitempty"`
}

// Waypoint types and actions.
const (
	Assumption     = "assumption"
	Branching      = "branching"
	FunctionEnter  = "function_enter"
	FunctionReturn = "function_return"
	Target         = "target"
	Follow         = "follow"
	Avoid          = "avoid"
)

// WriteViolationYAML writes v as a YAML violation witness, format 2.0: one
// violation_sequence entry whose content has one segment per waypoint,
// each a single follow waypoint, and the final segment with the target
// waypoint (see the package documentation for which steps give which
// waypoints).
func WriteViolationYAML(w io.Writer, v *Violation) error {
	e, err := ViolationYAML(v)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode([]YAMLEntry{e}); err != nil {
		return err
	}
	return enc.Close()
}

// ReadYAML parses a YAML witness.
func ReadYAML(r io.Reader) ([]YAMLEntry, error) {
	var es []YAMLEntry
	if err := yaml.NewDecoder(r).Decode(&es); err != nil {
		return nil, fmt.Errorf("witness: %v", err)
	}
	return es, nil
}

// ViolationYAML returns the violation_sequence entry for v.
func ViolationYAML(v *Violation) (YAMLEntry, error) {
	c, err := newCtx(v, true)
	if err != nil {
		return YAMLEntry{}, err
	}
	name, version := c.producer()
	e := YAMLEntry{
		EntryType: "violation_sequence",
		Metadata: YAMLMetadata{
			FormatVersion: FormatVersion,
			UUID:          c.uuid(),
			CreationTime:  c.created(),
			Producer:      YAMLProducer{Name: name, Version: version, Configuration: v.Task.Configuration},
			Task: YAMLTask{
				InputFiles:      append([]string(nil), c.order...),
				InputFileHashes: c.hashes,
				Specification:   c.formula(),
				DataModel:       v.Task.DataModel.String(),
				Language:        "C",
			},
		},
	}
	for _, wp := range c.waypoints() {
		e.Content = append(e.Content, YAMLContent{Segment: []YAMLWaypointItem{{Waypoint: wp}}})
	}
	return e, nil
}

func (c *ctx) loc(p cfa.Pos, fn string) YAMLLocation {
	file := p.File
	if file == "" {
		file = c.order[0]
	}
	return YAMLLocation{FileName: file, Line: p.Line, Column: p.Col, Function: fn}
}

// waypoints returns the follow waypoints of the path, in order, ending
// with the target.
func (c *ctx) waypoints() []YAMLWaypoint {
	var wps []YAMLWaypoint
	add := func(wp YAMLWaypoint) {
		// Assumptions evaluated at the same place become one conjunction:
		// a later segment could not pass the same sequence point again.
		if n := len(wps); n > 0 && wp.Type == Assumption && wps[n-1].Type == Assumption && wps[n-1].Location == wp.Location {
			wps[n-1].Constraint.Value += " && " + wp.Constraint.Value
			return
		}
		wps = append(wps, wp)
	}
	for i := 0; i < c.target; i++ {
		s := c.v.Path[i]
		if s.Edge == nil {
			continue
		}
		switch s.Kind {
		case cfa.Intra:
			if vs, ok := c.site(i); ok {
				if wp, ok := c.valueWaypoint(i, vs); ok {
					add(wp)
				}
				continue
			}
			if br, ok := c.branchOf(i); ok && br.decisive && br.ctx.keyword != "switch" && !br.ctx.doWhile {
				add(YAMLWaypoint{Type: Branching, Action: Follow,
					Constraint: &YAMLConstraint{Value: fmt.Sprint(br.value)},
					Location:   c.loc(br.kw, c.funcs[i])})
			}
		case cfa.Enter:
			call, _ := s.Edge.Op.(*cfa.Call)
			if call == nil {
				continue
			}
			if p, ok := c.callParen(s.Edge, call.Fn); ok {
				add(YAMLWaypoint{Type: FunctionEnter, Action: Follow, Location: c.loc(p, c.funcs[i])})
			}
		}
	}
	t := c.v.Path[c.target].Edge
	wps = append(wps, YAMLWaypoint{Type: Target, Action: Follow, Location: c.loc(t.Pos.Start, c.funcs[c.target])})
	return wps
}

// valueWaypoint gives the waypoint fixing the input read at step i: an
// assumption "x == v" at the next statement when the value is stored
// into a program variable x and that statement follows directly, else a
// function_return "\result == v" at the call's closing parenthesis.
func (c *ctx) valueWaypoint(i int, vs ValueSite) (YAMLWaypoint, bool) {
	if vs.Kind == SiteOther || !constantOK(vs.T, vs.In.Bits) {
		return YAMLWaypoint{}, false
	}
	fn := c.funcs[i]
	if x, ok := plainVar(vs.LHS); ok {
		if p, ok := c.assumptionAt(i); ok {
			return YAMLWaypoint{Type: Assumption, Action: Follow,
				Constraint: &YAMLConstraint{Value: x.Orig + " == " + CValue(vs.T, vs.In.Bits), Format: "c_expression"},
				Location:   c.loc(p, fn)}, true
		}
	}
	if vs.Kind == SiteUninit || vs.Fn == "" {
		return YAMLWaypoint{}, false
	}
	if p, ok := c.callParen(c.v.Path[i].Edge, vs.Fn); ok {
		return YAMLWaypoint{Type: FunctionReturn, Action: Follow,
			Constraint: &YAMLConstraint{Value: `\result == ` + acslValue(vs.T, vs.In.Bits), Format: "acsl_expression"},
			Location:   c.loc(p, fn)}, true
	}
	return YAMLWaypoint{}, false
}

// String renders a waypoint compactly, for tests and debugging:
// "branching true @t.c:4:3 main".
func (w YAMLWaypoint) String() string {
	var b strings.Builder
	b.WriteString(w.Type)
	if w.Action != Follow {
		b.WriteString(" (" + w.Action + ")")
	}
	if w.Constraint != nil {
		b.WriteString(" " + w.Constraint.Value)
	}
	fmt.Fprintf(&b, " @%s:%d:%d", w.Location.FileName, w.Location.Line, w.Location.Column)
	if w.Location.Function != "" {
		b.WriteString(" " + w.Location.Function)
	}
	return b.String()
}
