package markdown

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/reverify/reverify/results"
)

// DefaultFindingSteps is the number of counterexample steps an inline
// finding shows by default.
const DefaultFindingSteps = 30

// Finding renders one property as the body of an inline review comment:
// a bold verdict line with the expression, function and property ID (for
// a memory-safety violation, what happened to which block: MemoryHeadline),
// the reason (heap block names replaced by their allocation sites), the counterexample inputs and, folded in a <details> block, the
// numbered counterexample steps (at most min(Options.MaxSteps,
// DefaultFindingSteps), first and last halves). It carries no hidden
// marker; report/github appends its fingerprint. An unresolved finding
// (FALSE before, UNKNOWN now) and a new UNKNOWN where the change touches
// say so in their bold line ("… was violated on the base revision …; no
// longer shown violated, not proved either: timeout after 60s", "… is
// not proved: timeout after 60s"). The body stays under Options.MaxChars
// (steps are dropped first, then it is cut).
func Finding(p *results.PropertyReport, opts Options) string {
	if s, ok := openFinding(p, opts, ""); ok {
		return clipFinding(s, opts)
	}
	steps := min(opts.maxSteps(), DefaultFindingSteps)
	var s string
	for _, n := range []int{steps, 10, 0} {
		s = finding(p, opts, n)
		if utf8.RuneCountInString(s) <= opts.maxChars() {
			return s
		}
	}
	return cut(s, opts.maxChars(), note(opts))
}

func finding(p *results.PropertyReport, opts Options, steps int) string {
	var b strings.Builder
	switch h := MemoryHeadline(p, opts); {
	case h != "":
		fmt.Fprintf(&b, "**❌ %s**", h)
	case p.Verdict == results.False:
		fmt.Fprintf(&b, "**❌ reverify: assertion %s can fail**", Code(p.Expression))
	case p.Verdict == results.Unknown:
		fmt.Fprintf(&b, "**❓ reverify: assertion %s could not be decided**", Code(p.Expression))
	case p.Verdict == results.True:
		fmt.Fprintf(&b, "**✅ reverify: assertion %s holds**", Code(p.Expression))
	default:
		fmt.Fprintf(&b, "**reverify: assertion %s: %s**", Code(p.Expression), Escape(string(p.Verdict)))
	}
	if p.Function != "" {
		fmt.Fprintf(&b, " in %s", Code(p.Function))
	}
	fmt.Fprintf(&b, " (property %s).\n\n", Code(p.ID))
	if r := readableReason(p, opts); r != "" {
		b.WriteString(Escape(r) + "\n\n")
	}
	findingDetails(&b, p, opts, steps)
	return b.String()
}

// findingDetails writes the values at the failure, the inputs, the
// unmodelled functions and the folded counterexample of a finding.
func findingDetails(b *strings.Builder, p *results.PropertyReport, opts Options, steps int) {
	if v := FailureValues(p); v != "" {
		b.WriteString("At the failure: " + v + ".\n\n")
	}
	if len(p.Inputs) > 0 {
		var in []string
		for _, x := range p.Inputs {
			if !results.IsInput(x) {
				continue
			}
			s := fmt.Sprintf("%s = %d", Code(x.Source), x.Value)
			if x.Line > 0 {
				s += fmt.Sprintf(" (line %d)", x.Line)
			}
			in = append(in, s)
		}
		if len(in) > 0 {
			b.WriteString("Inputs: " + strings.Join(in, ", ") + "\n\n")
		}
	}
	if len(p.Unmodelled) > 0 {
		b.WriteString("Unmodelled functions: " + codes(p.Unmodelled) + "\n\n")
	}
	if len(p.Steps) > 0 {
		fmt.Fprintf(b, "<details><summary>Counterexample (%d %s)</summary>\n\n", len(p.Steps), plural(len(p.Steps), "step", "steps"))
		counterexampleSteps(b, p, opts, steps)
		b.WriteString("</details>\n")
	}
}

// ChangeFinding renders a FALSE property as the body of an inline review
// comment on a changed line (file:line, repository-relative) that its
// counterexample passes through, for an assertion the change breaks
// outside the diff (in a caller of the changed function):
//
//	**❌ reverify: this change lets `h->len` reach 193; `assert(h->len <= MAX_PAYLOAD)` at src/proto.c:20 fails**
//
// followed by the inputs and the folded counterexample as in [Finding],
// with the assertion's location linked when Options.SourceURL is set.
// Without failure values the headline reads "this change lets
// `assert(…)` at … fail". A memory-safety violation says what the
// change lets happen to which block (results.MemoryFacts.Clause):
// "this change lets `p` be dereferenced after `free` (the block
// allocated at f.c:4 by `malloc`, freed at f.c:12) at f.c:18". An unresolved finding or a new UNKNOWN where
// the change touches reads as in [Finding] and says that file:line is a
// changed line its assertion depends on. The body stays under
// Options.MaxChars.
func ChangeFinding(p *results.PropertyReport, file string, line int, opts Options) string {
	if s, ok := openFinding(p, opts, location(file, line, opts)); ok {
		return clipFinding(s, opts)
	}
	steps := min(opts.maxSteps(), DefaultFindingSteps)
	var s string
	for _, n := range []int{steps, 10, 0} {
		s = changeFinding(p, file, line, opts, n)
		if utf8.RuneCountInString(s) <= opts.maxChars() {
			return s
		}
	}
	return cut(s, opts.maxChars(), note(opts))
}

func changeFinding(p *results.PropertyReport, file string, line int, opts Options, steps int) string {
	var b strings.Builder
	expr := p.Expression
	if expr == "" {
		expr = p.ID
	}
	at := location(p.File, p.Line, opts)
	var vs []string
	for _, v := range p.FailureValues {
		vs = append(vs, fmt.Sprintf("%s reach %d", Code(v.Expr), v.Value))
	}
	target := "the assertion"
	if m := memoryFacts(p, opts); m != nil {
		subj, pred := m.Clause(memoryFormat(opts), violationSite(p, opts))
		fmt.Fprintf(&b, "**❌ reverify: this change lets %s %s", subj, pred)
		if p.Line > 0 {
			fmt.Fprintf(&b, " at %s", at)
		}
		b.WriteString("**")
		target = "the violation"
	} else if len(vs) > 0 {
		fmt.Fprintf(&b, "**❌ reverify: this change lets %s; %s at %s fails**", strings.Join(vs, " and "), Code("assert("+expr+")"), at)
	} else {
		fmt.Fprintf(&b, "**❌ reverify: this change lets %s at %s fail**", Code("assert("+expr+")"), at)
	}
	if p.Function != "" {
		fmt.Fprintf(&b, " (in %s, property %s)", Code(p.Function), Code(p.ID))
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "The counterexample passes through %s, a line this pull request changes, on its way to %s.\n\n",
		location(file, line, opts), target)
	pp := *p
	pp.FailureValues = nil // in the headline
	findingDetails(&b, &pp, opts, steps)
	return b.String()
}

// clipFinding cuts a finding's body to Options.MaxChars.
func clipFinding(s string, opts Options) string {
	if utf8.RuneCountInString(s) <= opts.maxChars() {
		return s
	}
	return cut(s, opts.maxChars(), note(opts))
}
