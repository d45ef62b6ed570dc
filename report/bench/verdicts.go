package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reverify/reverify/internal/wants"
	"github.com/reverify/reverify/results"
)

// A verdict program (engine/testdata/verdicts: a .c file with `// want`
// lines, internal/wants) is a task whose expectations are its own: every
// property's verdict and reason, under each configuration of its `//
// configs:` line. Its row is correct when every property is as it wants
// (wants.Program.Check: a different verdict or reason, an unexpected or
// missing property, a FALSE without a counterexample are each wrong), and
// wrong otherwise, a timeout, memory-out or error included: its verdicts
// are decided by state limits, so a run that does not finish is wrong
// too.

// ExpectedWants is the Expected of a verdict program's row.
const ExpectedWants = "wants"

// Verdicts of a verdict program's row: every property as the program
// wants, or not (the reason lists the differences).
const (
	VerdictMet    = "MET"
	VerdictNotMet = "NOT_MET"
)

// ProgramTimeout is the per-property time limit (reverify check
// --timeout, wall clock) of a verdict program's run, as in the engine's
// in-process verdict tests: it only stops a runaway, the state limits
// decide.
const ProgramTimeout = 2 * time.Minute

// readProgram reads the verdict program at path as a task.
func readProgram(path string) (*Task, error) {
	p, err := wants.Read(path)
	if err != nil {
		return nil, err
	}
	return &Task{Inputs: []string{path}, Program: p, Expected: ExpectedWants}, nil
}

// programConfigs are the configurations verdict program p runs under: its
// own, intersected with only when only is not nil.
func programConfigs(p *wants.Program, only []string) []string {
	if only == nil {
		return p.Configs
	}
	var out []string
	for _, c := range p.Configs {
		if slices.Contains(only, c) {
			out = append(out, c)
		}
	}
	return out
}

// programMode is the signed-overflow mode of p's runs.
func programMode(p *wants.Program) string {
	if p.SignedOverflow != "" {
		return p.SignedOverflow
	}
	return "wrap"
}

// programArgs are the arguments of `reverify check` (after "check") that
// verify p under config as the engine's verdict tests do, writing
// results.json to jsonPath: its directives become check's flags.
func programArgs(p *wants.Program, config, jsonPath, memory string) []string {
	props := []string{"assertions"}
	props = append(props, p.MemoryIDs...)
	if p.Sites {
		props = append(props, "memory-sites")
	}
	args := []string{"--config", config, "--entry", p.Entry, "--properties", strings.Join(props, ","),
		"--json", jsonPath, "--timeout", ProgramTimeout.String(), "--signed-overflow", programMode(p)}
	if memory != "" {
		args = append(args, "--memory", memory)
	}
	if p.MaxStates > 0 {
		args = append(args, "--max-states", strconv.Itoa(p.MaxStates))
	}
	if len(p.AssumePure) > 0 {
		args = append(args, "--assume-pure", strings.Join(p.AssumePure, ","))
	}
	if p.Reduce != "" {
		args = append(args, "--reduce", p.Reduce)
	}
	if p.MallocMayFail {
		args = append(args, "--malloc-may-fail")
	}
	return append(args, p.File)
}

// siteIDRE matches the ID of a per-site memory property (engine/spec's
// MemorySites): FUNCTION:SUBPROPERTY@FILE:LINE:COLUMN.
var siteIDRE = regexp.MustCompile(`^[^:@]+:(valid-[a-z]+)@.*:([0-9]+):[0-9]+$`)

// programVerdict compares the results.json a verdict program's run wrote
// with the program's wants under config: VerdictMet, or VerdictNotMet
// with the differences as the reason.
func programVerdict(p *wants.Program, config, jsonPath string, exit int, stderr string) (verdict, reason string) {
	lineWants, err := p.Wants(config)
	if err != nil {
		return VerdictNotMet, err.Error()
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return VerdictNotMet, fmt.Sprintf("error (exit %d): %s", exit, lastLine(stderr))
	}
	var rep results.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return VerdictNotMet, fmt.Sprintf("error: unreadable results.json (exit %d): %s", exit, lastLine(stderr))
	}
	var got []wants.Got
	for _, r := range rep.Properties {
		g := wants.Got{ID: r.ID, Line: r.Line, Verdict: r.Verdict, Reason: r.Reason, Steps: len(r.Steps)}
		if m := siteIDRE.FindStringSubmatch(r.ID); m != nil {
			// results.json gives a memory property the line of its
			// violation, if any; the site's own line is in its ID.
			g.Site, g.ViolationLine = m[1], r.Line
			g.Line, _ = strconv.Atoi(m[2])
		} else if strings.HasPrefix(r.Expression, "G valid-") {
			g.Memory, g.ViolationLine = true, r.Line
		}
		got = append(got, g)
	}
	if problems := p.Check(lineWants, got); len(problems) > 0 {
		return VerdictNotMet, strings.Join(problems, "; ")
	}
	return VerdictMet, ""
}
