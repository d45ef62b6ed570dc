package markdown

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/results"
)

// The wording of memory-safety violations (results.Memory): what
// happened to which block, rather than an assertion that fails.

// memoryFormat renders results.MemoryFacts' sentences as Markdown: code
// as <code>, places as [file:line] links when Options.SourceURL is set.
func memoryFormat(opts Options) results.MemoryFormat {
	return results.MemoryFormat{Code: Code, At: func(s results.Site) string { return location(s.File, s.Line, opts) }, Text: Escape}
}

// memoryFacts returns the facts of p's memory-safety violation (nil for
// anything else), with sites relative to Options.RepoRoot.
func memoryFacts(p *results.PropertyReport, opts Options) *results.MemoryFacts {
	return results.Memory(p, opts.RepoRoot)
}

// violationSite is where p's violating step is, for "again at": the
// property's file and line.
func violationSite(p *results.PropertyReport, opts Options) results.Site {
	return results.Site{File: results.RepoPath(p.File, opts.RepoRoot), Line: p.Line}
}

// MemoryHeadline is the bold line of a memory-safety violation's inline
// comment, without the icon: "reverify: <code>p</code> can be
// dereferenced after <code>free</code> (the block allocated at
// <code>f.c&#58;4</code> by <code>malloc</code>, freed at
// <code>f.c&#58;12</code>)"; "" when p is not a FALSE memory-safety
// property.
func MemoryHeadline(p *results.PropertyReport, opts Options) string {
	m := memoryFacts(p, opts)
	if m == nil {
		return ""
	}
	subj, pred := m.Clause(memoryFormat(opts), violationSite(p, opts))
	return "reverify: " + subj + " can " + pred
}

// memoryName is what the summary's table and section headings call a
// FALSE memory-safety property ("use after free of <code>p</code>"),
// or "" for anything else.
func memoryName(p *results.PropertyReport, opts Options) string {
	if m := memoryFacts(p, opts); m != nil {
		return m.Noun(memoryFormat(opts))
	}
	return ""
}

// readableReason is p's reason with heap block names replaced by where
// the blocks were allocated (results.PropertyReport.ReadableReason).
func readableReason(p *results.PropertyReport, opts Options) string {
	return p.ReadableReason(opts.RepoRoot)
}

// ReproduceNote is the line above the command that reproduces a
// violation: what a run of the reproducer shows. An assertion's
// reproducer exits with code 77 (engine/witness/reproduce.ReachedExitCode) when
// the assertion fails. A memory-safety violation's is built with
// AddressSanitizer (-fsanitize=address, which the reproducer names
// among its build flags) and has no exit code of its own: the sanitizer
// reports the error on stderr and ends the run with its default exit
// status 1 ("==…==ERROR: AddressSanitizer: heap-use-after-free …" for
// a use after free; LeakSanitizer's "detected memory leaks" when the
// program exits, for a leak). A block still allocated at the end but
// reachable (valid-memcleanup) is no leak to LeakSanitizer: that run
// ends as the program does.
func ReproduceNote(p *results.PropertyReport) string {
	m := results.Memory(p, "")
	if m == nil {
		return "Reproduce (exit code 77: the assertion fails):"
	}
	const tail = " and exit status 1, not 77"
	report := map[string]string{
		results.UseAfterFree: "heap-use-after-free",
		results.DoubleFree:   "attempting double-free",
		results.NullDeref:    "SEGV",
		results.InvalidFree:  "attempting free on address which was not malloc()-ed",
	}[m.Problem]
	if m.Problem == results.OutOfBounds && results.IsHeap(m.Object) {
		report = "heap-buffer-overflow"
	}
	switch {
	case m.Problem == results.Leak || m.Kind == results.ValidMemtrack:
		return "Reproduce (built with AddressSanitizer, the run ends with LeakSanitizer's " + Code("detected memory leaks") + " on stderr when the program exits" + tail + "):"
	case m.Problem == results.NotFreed || m.Kind == results.ValidMemcleanup:
		return "Reproduce (built with AddressSanitizer; LeakSanitizer does not report a block still reachable at exit, so the run ends as the program does and the counterexample is the evidence):"
	case report != "":
		return "Reproduce (built with AddressSanitizer, the run stops at the violation with " + Code("ERROR: AddressSanitizer: "+report) + " on stderr" + tail + "):"
	}
	return "Reproduce (built with AddressSanitizer, the run stops at the violation with an AddressSanitizer report on stderr" + tail + "):"
}

// FindingLabel is the one-line name of a finding folded into another's
// inline comment (report/github's Finding.Label): icon, what fails,
// where and the property, e.g. "❌ <code>assert(v &lt;= LIMIT)</code> at
// <code>src/main.c&#58;8</code> (property <code>…</code>)" or "❌ use
// after free of <code>p</code> at … (property …)". It is HTML-safe
// (for a <summary>): no Markdown links.
func FindingLabel(p *results.PropertyReport, opts Options) string {
	o := opts
	o.SourceURL = "" // <summary> renders no Markdown links
	icon := "❌"
	what := Code("assert(" + exprOf(p) + ")")
	switch {
	case p.Unresolved():
		icon = "❗"
	case p.Verdict == results.Unknown:
		icon = "⚠️"
	}
	if n := memoryName(p, o); n != "" {
		what = n
	} else if k := p.MemoryKind(); k != "" {
		what = "memory safety (" + Code(k) + ")"
	}
	loc := ""
	if p.Line > 0 {
		loc = " at " + location(p.File, p.Line, o)
	}
	return fmt.Sprintf("%s %s%s (property %s)", icon, what, loc, Code(p.ID))
}

// FindingBrief is what a folded finding shows when opened (report/github's
// Finding.Brief): the sentence of the violation (a memory-safety
// violation's clause, else the failing assertion with its values), the
// reason and the counterexample's inputs, without its steps.
func FindingBrief(p *results.PropertyReport, opts Options) string {
	var b strings.Builder
	if h := MemoryHeadline(p, opts); h != "" {
		b.WriteString(strings.TrimPrefix(h, "reverify: ") + ".\n\n")
	} else if p.Verdict == results.False {
		fmt.Fprintf(&b, "%s can fail", Code("assert("+exprOf(p)+")"))
		if p.Line > 0 {
			fmt.Fprintf(&b, " at %s", location(p.File, p.Line, opts))
		}
		if p.Function != "" {
			fmt.Fprintf(&b, " in %s", Code(p.Function))
		}
		b.WriteString(".")
		if v := FailureValues(p); v != "" {
			b.WriteString(" At the failure: " + v + ".")
		}
		b.WriteString("\n\n")
	} else if t := UnresolvedText(p); t != "" {
		b.WriteString("It " + t + ".\n\n")
	} else {
		fmt.Fprintf(&b, "Not proved: %s.\n\n", Escape(notProvedCause(p)))
	}
	if r := readableReason(p, opts); r != "" && p.Verdict == results.False {
		b.WriteString(Escape(r) + "\n\n")
	}
	var in []string
	for _, x := range p.Inputs {
		if results.IsInput(x) {
			in = append(in, fmt.Sprintf("%s = %d", Code(x.Source), x.Value))
		}
	}
	if len(in) > 0 {
		b.WriteString("Inputs: " + strings.Join(in, ", ") + "\n\n")
	}
	if len(p.Steps) > 0 {
		fmt.Fprintf(&b, "Counterexample: %d %s, in the witness (and in the summary comment, space permitting).\n", len(p.Steps), plural(len(p.Steps), "step", "steps"))
	}
	return strings.TrimRight(b.String(), "\n")
}

// exprOf is p's expression, else its ID.
func exprOf(p *results.PropertyReport) string {
	if p.Expression != "" {
		return p.Expression
	}
	return p.ID
}
