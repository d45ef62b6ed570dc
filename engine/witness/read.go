package witness

import (
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// Witness is a parsed YAML witness (format 2.0): either violation
// sequences or invariant sets.
type Witness struct {
	Violation   []YAMLEntry
	Correctness []YAMLCorrectnessEntry
}

// BadWitnessError reports witness content the validator does not accept:
// syntax, unsupported entry or waypoint types, expressions it cannot
// parse, locations matching nothing in the program. `reverify validate`
// exits with status 2 on it.
type BadWitnessError struct{ Msg string }

func (e *BadWitnessError) Error() string { return e.Msg }

func bad(format string, args ...any) error {
	return &BadWitnessError{Msg: fmt.Sprintf(format, args...)}
}

// ReadWitness parses a YAML witness of format 2.0 with entries of type
// violation_sequence or invariant_set (not both).
func ReadWitness(r io.Reader) (*Witness, error) {
	var raw []struct {
		EntryType string       `yaml:"entry_type"`
		Metadata  YAMLMetadata `yaml:"metadata"`
		Content   yaml.Node    `yaml:"content"`
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(string(data)); strings.HasPrefix(t, "<") {
		return nil, bad("witness: a GraphML (XML) witness; only YAML witnesses (format 2.0) are supported")
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		if i := strings.Index(msg, " into "); i >= 0 {
			msg = msg[:i]
		}
		return nil, bad("witness: not a YAML witness (a list of entries): %s", msg)
	}
	w := &Witness{}
	for i, e := range raw {
		if e.Metadata.FormatVersion != FormatVersion {
			return nil, bad("witness: entry %d has format_version %q; only %q is supported", i+1, e.Metadata.FormatVersion, FormatVersion)
		}
		switch e.EntryType {
		case "violation_sequence":
			var c []YAMLContent
			if err := e.Content.Decode(&c); err != nil {
				return nil, bad("witness: entry %d: %v", i+1, err)
			}
			w.Violation = append(w.Violation, YAMLEntry{EntryType: e.EntryType, Metadata: e.Metadata, Content: c})
		case "invariant_set":
			var c []YAMLInvariantItem
			if err := e.Content.Decode(&c); err != nil {
				return nil, bad("witness: entry %d: %v", i+1, err)
			}
			w.Correctness = append(w.Correctness, YAMLCorrectnessEntry{EntryType: e.EntryType, Metadata: e.Metadata, Content: c})
		default:
			return nil, bad("witness: entry %d: unsupported entry_type %q (supported: violation_sequence, invariant_set)", i+1, e.EntryType)
		}
	}
	switch {
	case len(w.Violation) == 0 && len(w.Correctness) == 0:
		return nil, bad("witness: no entries")
	case len(w.Violation) > 0 && len(w.Correctness) > 0:
		return nil, bad("witness: mixes violation_sequence and invariant_set entries")
	case len(w.Violation) > 1:
		return nil, bad("witness: %d violation_sequence entries; only one is supported", len(w.Violation))
	}
	return w, nil
}
