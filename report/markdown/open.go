package markdown

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/results"
)

// The wording of unresolved findings (results.PropertyReport.Unresolved)
// and of new UNKNOWN verdicts where the change touches
// (results.PropertyReport.NewUnknownAtChange), shared by the summary and
// the inline comments.

// notProvedCause is why an UNKNOWN property is not decided, in a few
// words: its cause's sentence ("timeout after 60s"), else its reason.
func notProvedCause(p *results.PropertyReport) string {
	if s := p.Cause.Sentence(); s != "" {
		return s
	}
	if p.Reason != "" {
		return strings.TrimSuffix(p.Reason, ".")
	}
	return "no reason given"
}

// earlierText says where an earlier verdict was found, after a verb
// ("was violated", "proved"): "was violated on the base revision
// <code>1a2b3c4d5e6f</code>", "… at <code>…</code> earlier in this pull
// request", "… by an earlier run on this commit", "… at <code>…</code>
// with the same slice (from the verdict cache)".
func earlierText(e *results.Earlier, verb string) string { return earlierWith(e, verb, Code) }

// earlierWith is earlierText with code rendered by code.
func earlierWith(e *results.Earlier, verb string, code func(string) string) string {
	commit := ""
	if e.Commit != "" {
		commit = " " + code(short(e.Commit))
	}
	switch e.On {
	case results.EarlierPullRequest:
		if commit == "" {
			return verb + " earlier in this pull request"
		}
		return verb + " at" + commit + " earlier in this pull request"
	case results.EarlierCommit:
		return verb + " by an earlier run on this commit"
	case results.EarlierSlice:
		return verb + commitText(commit, " at") + " with the same slice (from the verdict cache)"
	}
	return verb + " on the base revision" + commit
}

func commitText(commit, prefix string) string {
	if commit == "" {
		return ""
	}
	return prefix + commit
}

// UnresolvedText is the sentence of an unresolved finding: "was violated
// on the base revision <code>…</code>; no longer shown violated, not
// proved either: timeout after 60s". Empty for other properties.
func UnresolvedText(p *results.PropertyReport) string {
	if !p.Unresolved() {
		return ""
	}
	return earlierText(p.Earlier, "was violated") + "; no longer shown violated, not proved either: " + Escape(notProvedCause(p))
}

// UnresolvedPlain is UnresolvedText as plain text (annotations,
// workflow commands).
func UnresolvedPlain(p *results.PropertyReport) string {
	if !p.Unresolved() {
		return ""
	}
	return earlierWith(p.Earlier, "was violated", func(s string) string { return s }) +
		"; no longer shown violated, not proved either: " + notProvedCause(p)
}

// newProperty reports whether diffslice found the property new (its ID
// does not exist at the base).
func newProperty(p *results.PropertyReport) bool {
	for _, r := range p.Reverified {
		if strings.HasPrefix(r, "new property") {
			return true
		}
	}
	return false
}

// newUnknownText is what a new UNKNOWN where the change touches was
// before, or "" when nothing is known: "proved on the base revision
// <code>…</code>", "a new assertion".
func newUnknownText(p *results.PropertyReport) string {
	switch {
	case p.Earlier != nil && p.Earlier.Verdict == results.True:
		return earlierText(p.Earlier, "proved")
	case newProperty(p):
		return "a new assertion"
	}
	return ""
}

// openSections writes the sections of unresolved findings and of new
// UNKNOWN verdicts where the change touches, each a list like the one of
// the unknowns.
func openSections(b *strings.Builder, open, warned []*results.PropertyReport, opts Options, lim limits) {
	item := func(i int, list []*results.PropertyReport, p *results.PropertyReport, text string) bool {
		if lim.unknowns >= 0 && i >= lim.unknowns {
			fmt.Fprintf(b, "- … and %d more\n", len(list)-i)
			return false
		}
		fmt.Fprintf(b, "- %s at %s (%s)%s\n", Code(p.Expression), location(p.File, p.Line, opts), Code(p.ID), text)
		return true
	}
	if len(open) > 0 {
		b.WriteString("### ❗ Still open: violated before, not resolved\n\n")
		for i, p := range open {
			if !item(i, open, p, " "+UnresolvedText(p)+".") {
				break
			}
		}
		b.WriteString("\nOnly a proof (TRUE) resolves a finding: a timeout or any other UNKNOWN neither shows nor refutes the violation.\n\n")
	}
	if len(warned) > 0 {
		b.WriteString("### ⚠️ Not proved where this change touches\n\n")
		for i, p := range warned {
			text := ": not proved: " + Escape(notProvedCause(p))
			if w := newUnknownText(p); w != "" {
				text += "; " + w
			}
			if !item(i, warned, p, text+".") {
				break
			}
		}
		b.WriteString("\nThe change touches each of these assertions (its line, or a definition in its slice), and reverify could neither prove nor refute it.\n\n")
	}
}

// openFinding renders an unresolved finding or a new UNKNOWN where the
// change touches as the body of an inline comment:
//
//	**❗ reverify: `assert(v <= LIMIT)` at src/main.c:8 was violated on the base revision `1a2b3c`; no longer shown violated, not proved either: timeout after 60s** (in `check_clamp`, property `check_clamp:v<=LIMIT`)
//	**⚠️ reverify: `assert(v <= LIMIT)` at src/main.c:8 is not proved: timeout after 60s** (…)
//
// then what that means and the reason; onChange, when set, says that the
// comment sits on a line the pull request changes in the assertion's
// slice. ok is false for other properties.
func openFinding(p *results.PropertyReport, opts Options, onChange string) (body string, ok bool) {
	var b strings.Builder
	expr := p.Expression
	if expr == "" {
		expr = p.ID
	}
	at := location(p.File, p.Line, opts)
	what := Code("assert(" + expr + ")")
	if k := p.MemoryKind(); k != "" {
		what = "memory safety (" + Code(k) + ")" // not an assertion
	}
	switch {
	case p.Unresolved():
		fmt.Fprintf(&b, "**❗ reverify: %s at %s %s**", what, at, UnresolvedText(p))
	case p.NewUnknownAtChange(opts.RepoRoot, opts.Changed):
		fmt.Fprintf(&b, "**⚠️ reverify: %s at %s is not proved: %s**", what, at, Escape(notProvedCause(p)))
	default:
		return "", false
	}
	if p.Function != "" {
		fmt.Fprintf(&b, " (in %s, property %s)", Code(p.Function), Code(p.ID))
	}
	b.WriteString("\n\n")
	if p.Unresolved() {
		b.WriteString("The finding stays open until reverify proves the assertion (TRUE): a timeout or any other UNKNOWN neither shows nor refutes the violation.\n\n")
	} else {
		if w := newUnknownText(p); w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:] + "; ")
		}
		b.WriteString("this change touches it (its line, or a definition in its slice), and reverify could neither prove nor refute it.\n\n")
	}
	if onChange != "" {
		fmt.Fprintf(&b, "This comment sits on %s, a line this pull request changes in a definition the assertion depends on.\n\n", onChange)
	}
	if p.Reason != "" {
		b.WriteString("Reason: " + Escape(p.Reason) + "\n\n")
	}
	if len(p.Unmodelled) > 0 {
		b.WriteString("Unmodelled functions: " + codes(p.Unmodelled) + "\n\n")
	}
	return b.String(), true
}
