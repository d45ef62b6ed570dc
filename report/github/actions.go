package github

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sethvargo/go-githubactions"

	"github.com/reverify/reverify/results"
)

// MaxStepSummaryBytes is GitHub's limit on one step's job summary.
const MaxStepSummaryBytes = 1 << 20

// ErrNotInActions says that the variable an Actions channel writes to is
// not set: the program does not run as a GitHub Actions step.
var ErrNotInActions = errors.New("not running in GitHub Actions")

// Actions writes to the runner of a GitHub Actions step: the job summary
// (GITHUB_STEP_SUMMARY), workflow-command annotations (on w, normally
// stdout) and step outputs (GITHUB_OUTPUT). These channels need no token
// and so work for pull requests from forks. The environment comes from
// getenv, so tests inject it.
type Actions struct {
	a      *githubactions.Action
	getenv func(string) string
}

// NewActions returns the runner channels over getenv (nil means
// os.Getenv) and w (nil means os.Stdout).
func NewActions(getenv func(string) string, w io.Writer) *Actions {
	var opts []githubactions.Option
	if getenv != nil {
		opts = append(opts, githubactions.WithGetenv(getenv))
	}
	if w != nil {
		opts = append(opts, githubactions.WithWriter(w))
	}
	a := githubactions.New(opts...)
	return &Actions{a: a, getenv: a.Getenv}
}

// guard turns go-githubactions' panics on write errors into errors.
func guard(what string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("github actions: %s: %v", what, r)
	}
}

// JobSummary appends md to the job summary (the file named by
// GITHUB_STEP_SUMMARY), cut to MaxStepSummaryBytes. It fails with
// ErrNotInActions when the variable is unset.
func (a *Actions) JobSummary(md string) (err error) {
	if a.getenv("GITHUB_STEP_SUMMARY") == "" {
		return fmt.Errorf("github actions: job summary: GITHUB_STEP_SUMMARY unset: %w", ErrNotInActions)
	}
	if len(md) > MaxStepSummaryBytes-1024 {
		md = clipBytes(md, MaxStepSummaryBytes-1024) + "\n\n… truncated\n"
	}
	defer guard("job summary", &err)
	a.a.AddStepSummary(md)
	return nil
}

// Annotate prints one workflow command per finding on the writer:
//
//	::error col=3,file=src/a.c,line=12,title=assertion x > 0 violated::Assertion x > 0 is violated in main. …
//
// failure → ::error, warning → ::warning, notice → ::notice; the message
// is Finding.Message. GitHub shows at most 10 annotations of each level
// per step and 50 per job; all are printed (the log keeps them).
func (a *Actions) Annotate(findings []Finding) (err error) {
	defer guard("annotations", &err)
	for _, f := range findings {
		fields := map[string]string{"file": f.Path}
		if f.Line > 0 {
			fields["line"] = strconv.Itoa(f.Line)
		}
		if f.Column > 0 {
			fields["col"] = strconv.Itoa(f.Column)
		}
		if f.Title != "" {
			fields["title"] = oneLine(f.Title)
		}
		msg := f.Message
		if msg == "" {
			msg = f.Title
		}
		act := a.a.WithFieldsMap(fields)
		switch f.Level {
		case LevelFailure:
			act.Errorf("%s", msg)
		case LevelNotice:
			act.Noticef("%s", msg)
		default:
			act.Warningf("%s", msg)
		}
	}
	return nil
}

// SetOutput sets a step output (GITHUB_OUTPUT). It fails with
// ErrNotInActions when the variable is unset.
func (a *Actions) SetOutput(name, value string) (err error) {
	if a.getenv("GITHUB_OUTPUT") == "" {
		return fmt.Errorf("github actions: output %s: GITHUB_OUTPUT unset: %w", name, ErrNotInActions)
	}
	defer guard("output "+name, &err)
	a.a.SetOutput(name, value)
	return nil
}

// clipBytes cuts s to at most n bytes at a rune boundary.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Warning prints a warning workflow command on the writer,
//
//	::warning title=TITLE::MESSAGE
//
// with the message escaped as GitHub requires (go-githubactions
// Warningf; "%", CR and LF). A write error is returned.
func (a *Actions) Warning(title, msg string) (err error) {
	defer guard("warning", &err)
	a.a.WithFieldsMap(map[string]string{"title": title}).Warningf("%s", msg)
	return nil
}

// Error prints an error workflow command on the writer,
// "::error title=TITLE::MESSAGE" (go-githubactions Errorf).
func (a *Actions) Error(title, msg string) (err error) {
	defer guard("error", &err)
	a.a.WithFieldsMap(map[string]string{"title": title}).Errorf("%s", msg)
	return nil
}

// Group opens a collapsible group of the log, "::group::TITLE"
// (go-githubactions Group); EndGroup closes it.
func (a *Actions) Group(title string) (err error) {
	defer guard("group", &err)
	a.a.Group(title)
	return nil
}

// EndGroup closes the group Group opened, "::endgroup::".
func (a *Actions) EndGroup() (err error) {
	defer guard("endgroup", &err)
	a.a.EndGroup()
	return nil
}

// StepOutputs are the Action's step outputs (action.yml, outputs): the
// counts of TRUE, FALSE and UNKNOWN properties of r, how many were
// verified in this run (reverified) and taken from the verdict cache
// (reused), and the paths of results.json and results.sarif as given.
func StepOutputs(r *results.Report, resultsPath, sarifPath string) map[string]string {
	reused := 0
	for _, p := range r.Properties {
		if p.CacheHit {
			reused++
		}
	}
	return map[string]string{
		"true": fmt.Sprint(r.Summary[string(results.True)]), "false": fmt.Sprint(r.Summary[string(results.False)]),
		"unknown": fmt.Sprint(r.Summary[string(results.Unknown)]), "reverified": fmt.Sprint(len(r.Properties) - reused),
		"reused": fmt.Sprint(reused), "results": resultsPath, "sarif": sarifPath,
	}
}
