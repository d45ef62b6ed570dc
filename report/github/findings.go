package github

import (
	"fmt"
	"path"
	"strings"

	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

// maxTraceLines bounds the changed lines an UNKNOWN finding's Trace
// lists (results.PropertyReport.ChangedLines, line by line).
const maxTraceLines = 500

// FindingsFromReport returns one finding per FALSE (LevelFailure) and
// UNKNOWN (LevelWarning) property of r, in report order, with paths
// relative to repoRoot (see results.RepoPath), the plain-text message of
// sarif.MessageText, the Markdown body of markdown.Finding (opts gives
// its limits and links) and the fingerprint of sarif.Fingerprint, the
// same value SARIF's partialFingerprints carry. A FALSE property's
// finding also carries its counterexample path (Trace) and the body of a
// comment on a changed line of it (markdown.ChangeFinding), for Review.
//
// An unresolved finding (FALSE before, UNKNOWN now: only TRUE resolves
// it) is of LevelFailure and goes to the review like a FALSE one; a new
// UNKNOWN that the change touches (opts.Changed, the property's changed
// lines) is of LevelWarning and goes to the review too, as a warning.
// Both take the changed lines of their slice as Trace, so that their
// inline comment sits on the diff when their own line does not.
//
// An UNKNOWN reused from the verdict cache (CacheHit) that the change
// does not touch (results.PropertyReport.Touched: neither its line nor
// a line of its slice changed) yields no finding: its verdict is the
// one reported before, on code this change leaves alone, so a pull
// request that changes no analysed code (documentation only) annotates
// nothing; the summary still lists it.
//
// Each finding has a Label and a Brief (markdown.FindingLabel,
// FindingBrief) for when it shares an inline comment with others; a
// memory-safety violation's Title names what happened
// ("reverify: use after free of p (valid-deref)").
func FindingsFromReport(r *results.Report, repoRoot string, opts markdown.Options) []Finding {
	var out []Finding
	for i := range r.Properties {
		p := &r.Properties[i]
		var level, what string
		review := false // a warning for the review
		if p.Verdict == results.Unknown && p.CacheHit && !p.Unresolved() && !p.Touched(repoRoot, opts.Changed) {
			continue
		}
		switch {
		case p.Verdict == results.False:
			level, what = LevelFailure, "violated"
		case p.Unresolved():
			level, what = LevelFailure, "still open (violated before, unknown now)"
		case p.Verdict == results.Unknown:
			level, what = LevelWarning, "unknown"
			if review = p.NewUnknownAtChange(repoRoot, opts.Changed); review {
				what = "not proved where this change touches"
			}
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
			Review:      review,
			Label:       markdown.FindingLabel(p, opts),
			Brief:       markdown.FindingBrief(p, opts),
		}
		if m := results.Memory(p, repoRoot); m != nil {
			f.Title = "reverify: " + m.Noun(results.MemoryFormat{}) + " (" + m.Kind + ")"
		} else if k := p.MemoryKind(); k != "" {
			f.Title = "reverify: memory safety (" + k + ") " + what
		}
		if p.Unresolved() {
			f.Message = "Still open: " + markdown.UnresolvedPlain(p) + ". " + f.Message
		}
		if review || p.Unresolved() {
			n := 0
			for _, sp := range p.ChangedLines {
				for l := sp.Line; l < sp.Line+sp.Lines && n < maxTraceLines; l++ {
					f.Trace = append(f.Trace, TracePoint{Path: path.Clean(sp.File), Line: l}) // repository-relative already
					n++
				}
			}
			f.OnChange = func(path string, line int) string { return markdown.ChangeFinding(p, path, line, opts) }
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

// ReviewFindings returns the findings for the pull request's review:
// those of LevelFailure and those marked Review.
func ReviewFindings(findings []Finding) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Level == LevelFailure || f.Review {
			out = append(out, f)
		}
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
