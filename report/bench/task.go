package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/internal/wants"
	"gopkg.in/yaml.v3"
)

// Task is an SV-COMP task definition (format 2.0), reduced to what
// reverify and its peers need.
type Task struct {
	Inputs   []string // C sources, resolved against the task file's directory
	Property string   // path of unreach-call.prp (else valid-memsafety.prp or valid-memcleanup.prp)
	// Subproperty is the violated memory property an expected false
	// names (valid-deref, valid-free, valid-memtrack).
	Subproperty string
	Expected    string        // "true", "false" or "" (no expected verdict); ExpectedWants for a verdict program
	DataModel   cfa.DataModel // options.data_model; ILP32 when absent (format 1.0)
	// Program is set for a verdict program (verdicts.go) instead of a
	// task definition: its wants are the expectations.
	Program *wants.Program
}

// ReadTask reads the SV-COMP task definition at path (format 1.0 or 2.0,
// sv-benchmarks' task-definition YAML) with an unreach-call property;
// paths are resolved relative to the file. Errors name the file: an
// unreadable or malformed file, input_files missing, no unreach-call
// property, an unknown data model.
func ReadTask(path string) (*Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw struct {
		FormatVersion string `yaml:"format_version"`
		InputFiles    any    `yaml:"input_files"`
		Properties    []struct {
			PropertyFile   string `yaml:"property_file"`
			ExpectedVerdct *bool  `yaml:"expected_verdict"`
			Subproperty    string `yaml:"subproperty"`
		} `yaml:"properties"`
		Options struct {
			Language  string `yaml:"language"`
			DataModel string `yaml:"data_model"`
		} `yaml:"options"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	dir := filepath.Dir(path)
	// Format 1.0 tasks name no data model; SV-COMP ran them as ILP32.
	t := &Task{DataModel: cfa.ILP32}
	switch in := raw.InputFiles.(type) {
	case string:
		t.Inputs = []string{filepath.Join(dir, in)}
	case []any:
		for _, x := range in {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s: input_files: not a string: %v", path, x)
			}
			t.Inputs = append(t.Inputs, filepath.Join(dir, s))
		}
	default:
		return nil, fmt.Errorf("%s: input_files missing", path)
	}
	for _, p := range raw.Properties {
		if strings.HasSuffix(p.PropertyFile, "unreach-call.prp") {
			t.Property = filepath.Join(dir, p.PropertyFile)
			if p.ExpectedVerdct != nil {
				t.Expected = fmt.Sprint(*p.ExpectedVerdct)
			}
		}
	}
	for _, p := range raw.Properties { // else a memory-safety property
		if t.Property == "" && (strings.HasSuffix(p.PropertyFile, "valid-memsafety.prp") || strings.HasSuffix(p.PropertyFile, "valid-memcleanup.prp")) {
			t.Property = filepath.Join(dir, p.PropertyFile)
			if p.ExpectedVerdct != nil {
				t.Expected = fmt.Sprint(*p.ExpectedVerdct)
			}
			t.Subproperty = p.Subproperty
		}
	}
	if t.Property == "" {
		return nil, fmt.Errorf("%s: no unreach-call or memory-safety property", path)
	}
	if raw.Options.DataModel != "" {
		m, err := cfa.ParseDataModel(raw.Options.DataModel)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		t.DataModel = m
	}
	return t, nil
}
