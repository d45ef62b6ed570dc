package github

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/report/sarif"
)

// FindingsFromReport returns one finding per FALSE (LevelFailure) and
// UNKNOWN (LevelWarning) property of r, in report order, with paths
// relative to repoRoot (see sarif.RepoPath), the plain-text message of
// sarif.MessageText, the Markdown body of markdown.Finding (opts gives
// its limits and links) and the fingerprint of sarif.Fingerprint, the
// same value SARIF's partialFingerprints carry.
func FindingsFromReport(r *engine.Report, repoRoot string, opts markdown.Options) []Finding {
	var out []Finding
	for i := range r.Properties {
		p := &r.Properties[i]
		var level, what string
		switch p.Verdict {
		case engine.False:
			level, what = LevelFailure, "violated"
		case engine.Unknown:
			level, what = LevelWarning, "unknown"
		default:
			continue
		}
		expr := strings.Join(strings.Fields(p.Expression), " ")
		if expr == "" {
			expr = p.ID
		}
		out = append(out, Finding{
			Path: sarif.RepoPath(p.File, repoRoot), Line: p.Line, Column: p.Column, Level: level,
			Title:       fmt.Sprintf("reverify: assertion %s %s", expr, what),
			Message:     sarif.MessageText(p),
			Body:        markdown.Finding(p, opts),
			Fingerprint: sarif.Fingerprint(r.Entry, p.ID),
		})
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
