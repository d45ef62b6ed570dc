package github

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	gh "github.com/google/go-github/v60/github"
)

// Check-run limits of the GitHub API.
const (
	MaxAnnotationsPerRequest = 50    // annotations per create or update
	MaxOutputChars           = 65535 // output.summary and output.text
	maxAnnotationMessage     = 65535 // annotation message and raw_details
	maxAnnotationTitle       = 255
)

// Conclusions CheckRun accepts.
var conclusions = map[string]bool{
	"success": true, "failure": true, "neutral": true,
	"cancelled": true, "skipped": true, "timed_out": true, "action_required": true,
}

// Annotation is one check-run annotation.
type Annotation struct {
	Path        string // repository-relative, slash-separated
	StartLine   int    // 1-based; values < 1 become 1
	EndLine     int    // 0 means StartLine
	StartColumn int    // 0 if unknown; only sent when EndLine == StartLine
	EndColumn   int
	Level       string // LevelFailure, LevelWarning or LevelNotice
	Title       string
	Message     string
	RawDetails  string
}

// Annotation converts a finding to a check-run annotation.
func (f Finding) Annotation() Annotation {
	return Annotation{Path: f.Path, StartLine: f.Line, EndLine: f.Line, StartColumn: f.Column, EndColumn: f.Column,
		Level: f.Level, Title: f.Title, Message: f.Message}
}

// Annotations converts findings to check-run annotations.
func Annotations(findings []Finding) []Annotation {
	out := make([]Annotation, len(findings))
	for i, f := range findings {
		out[i] = f.Annotation()
	}
	return out
}

func (a Annotation) api() *gh.CheckRunAnnotation {
	start := max(a.StartLine, 1)
	end := max(a.EndLine, start)
	level := a.Level
	switch level {
	case LevelFailure, LevelWarning, LevelNotice:
	default:
		level = LevelWarning
	}
	msg := a.Message
	if msg == "" {
		msg = a.Title
	}
	out := &gh.CheckRunAnnotation{
		Path: gh.String(a.Path), StartLine: gh.Int(start), EndLine: gh.Int(end),
		AnnotationLevel: gh.String(level), Message: gh.String(clip(msg, maxAnnotationMessage, "…")),
	}
	if start == end && a.StartColumn > 0 {
		out.StartColumn = gh.Int(a.StartColumn)
		out.EndColumn = gh.Int(max(a.EndColumn, a.StartColumn))
	}
	if a.Title != "" {
		out.Title = gh.String(clip(oneLine(a.Title), maxAnnotationTitle, "…"))
	}
	if a.RawDetails != "" {
		out.RawDetails = gh.String(clip(a.RawDetails, maxAnnotationMessage, "…"))
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// CheckRun reports on headSHA as a check run named name (keep it stable:
// branch protection requires it by name) with the given conclusion
// ("success", "failure", "neutral", …), the Markdown summary (cut to
// MaxOutputChars) and the annotations, at most MaxAnnotationsPerRequest
// per request, as GitHub requires:
//
//   - POST /repos/{o}/{r}/check-runs with the first batch; status
//     completed with the conclusion if that is all, else in_progress;
//   - PATCH /repos/{o}/{r}/check-runs/{id} per further batch, the last
//     one completing the run with the conclusion.
//
// So 120 annotations take a create with 50 and updates with 50 and 20.
// output.title is the first line of summary that is text (not a heading,
// HTML comment or blank), else name. It returns the check run's ID. A 404
// or 403 from this API means a read-only token (ErrReadOnly).
func (c *Client) CheckRun(ctx context.Context, headSHA, name, conclusion, summary string, annotations []Annotation) (int64, error) {
	if !conclusions[conclusion] {
		return 0, &Error{Op: "create check run", Err: fmt.Errorf("invalid conclusion %q (want success, failure, neutral, cancelled, skipped, timed_out or action_required)", conclusion)}
	}
	if name == "" || headSHA == "" {
		return 0, &Error{Op: "create check run", Err: fmt.Errorf("check run needs a name and a head SHA (got %q, %q)", name, headSHA)}
	}
	summary = clip(summary, MaxOutputChars, "\n\n… truncated\n")
	title := outputTitle(summary, name)
	var batches [][]*gh.CheckRunAnnotation
	for i := 0; i < len(annotations); i += MaxAnnotationsPerRequest {
		var b []*gh.CheckRunAnnotation
		for _, a := range annotations[i:min(i+MaxAnnotationsPerRequest, len(annotations))] {
			b = append(b, a.api())
		}
		batches = append(batches, b)
	}
	if len(batches) == 0 {
		batches = [][]*gh.CheckRunAnnotation{nil}
	}
	output := func(b []*gh.CheckRunAnnotation) *gh.CheckRunOutput {
		return &gh.CheckRunOutput{Title: gh.String(title), Summary: gh.String(summary), Annotations: b}
	}
	completed := func() (*string, *string, *gh.Timestamp) {
		return gh.String("completed"), gh.String(conclusion), &gh.Timestamp{Time: c.now().UTC()}
	}

	create := gh.CreateCheckRunOptions{Name: name, HeadSHA: headSHA, Output: output(batches[0])}
	if len(batches) == 1 {
		create.Status, create.Conclusion, create.CompletedAt = completed()
	} else {
		create.Status = gh.String("in_progress")
	}
	var run *gh.CheckRun
	err := c.call(ctx, "create check run", true, func(ctx context.Context) (r *gh.Response, err error) {
		run, r, err = c.gh.Checks.CreateCheckRun(ctx, c.owner, c.repo, create)
		return r, err
	})
	if err != nil {
		return 0, err
	}
	id := run.GetID()
	for i, b := range batches[1:] {
		upd := gh.UpdateCheckRunOptions{Name: name, Output: output(b)}
		if i == len(batches)-2 {
			upd.Status, upd.Conclusion, upd.CompletedAt = completed()
		}
		op := fmt.Sprintf("update check run (annotations %d–%d of %d)",
			(i+1)*MaxAnnotationsPerRequest+1, (i+1)*MaxAnnotationsPerRequest+len(b), len(annotations))
		err := c.call(ctx, op, true, func(ctx context.Context) (r *gh.Response, err error) {
			_, r, err = c.gh.Checks.UpdateCheckRun(ctx, c.owner, c.repo, id, upd)
			return r, err
		})
		if err != nil {
			return id, err
		}
	}
	return id, nil
}

// outputTitle is the first text line of a Markdown summary.
func outputTitle(summary, fallback string) string {
	for _, l := range strings.Split(summary, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "<") {
			continue
		}
		if utf8.RuneCountInString(l) > 200 {
			l = clip(l, 200, "…")
		}
		return l
	}
	return fallback
}
