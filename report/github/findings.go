package github

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

// FindingsFromReport returns one finding per FALSE (LevelFailure) and
// UNKNOWN (LevelWarning) property of r, in report order, with paths
// relative to repoRoot (see results.RepoPath), the plain-text message of
// sarif.MessageText, the Markdown body of markdown.Finding (opts gives
// its limits and links) and the fingerprint of sarif.Fingerprint, the
// same value SARIF's partialFingerprints carry. A FALSE property's
// finding also carries its counterexample path (Trace) and the body of a
// comment on a changed line of it (markdown.ChangeFinding), for Review.
func FindingsFromReport(r *results.Report, repoRoot string, opts markdown.Options) []Finding {
	var out []Finding
	for i := range r.Properties {
		p := &r.Properties[i]
		var level, what string
		switch p.Verdict {
		case results.False:
			level, what = LevelFailure, "violated"
		case results.Unknown:
			level, what = LevelWarning, "unknown"
		default:
			continue
		}
		expr := strings.Join(strings.Fields(p.Expression), " ")
		if expr == "" {
			expr = p.ID
		}
		f := Finding{
			Path: results.RepoPath(p.File, repoRoot), Line: p.Line, Column: p.Column, Level: level,
			Title:       fmt.Sprintf("reverify: assertion %s %s", expr, what),
			Message:     sarif.MessageText(p),
			Body:        markdown.Finding(p, opts),
			Fingerprint: sarif.Fingerprint(r.Entry, p.ID),
		}
		if p.Verdict == results.False {
			for _, s := range p.Steps {
				file := s.File
				if file == "" {
					file = p.File
				}
				if s.Line > 0 {
					f.Trace = append(f.Trace, TracePoint{Path: results.RepoPath(file, repoRoot), Line: s.Line})
				}
			}
			f.OnChange = func(path string, line int) string { return markdown.ChangeFinding(p, path, line, opts) }
		}
		out = append(out, f)
	}
	return out
}

// Failures returns the findings of level LevelFailure.
func Failures(findings []Finding) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Level == LevelFailure {
			out = append(out, f)
		}
	}
	return out
}
