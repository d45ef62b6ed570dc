package markdown

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/reverify/reverify/engine"
)

// DefaultFindingSteps is the number of counterexample steps an inline
// finding shows by default.
const DefaultFindingSteps = 30

// Finding renders one property as the body of an inline review comment:
// a bold verdict line with the expression, function and property ID, the
// reason, the counterexample inputs and, folded in a <details> block, the
// numbered counterexample steps (at most min(Options.MaxSteps,
// DefaultFindingSteps), first and last halves). It carries no hidden
// marker; report/github appends its fingerprint. The body stays under
// Options.MaxChars (steps are dropped first, then it is cut).
func Finding(p *engine.PropertyReport, opts Options) string {
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

func finding(p *engine.PropertyReport, opts Options, steps int) string {
	var b strings.Builder
	switch p.Verdict {
	case engine.False:
		fmt.Fprintf(&b, "**❌ reverify: assertion %s can fail**", Code(p.Expression))
	case engine.Unknown:
		fmt.Fprintf(&b, "**❓ reverify: assertion %s could not be decided**", Code(p.Expression))
	case engine.True:
		fmt.Fprintf(&b, "**✅ reverify: assertion %s holds**", Code(p.Expression))
	default:
		fmt.Fprintf(&b, "**reverify: assertion %s: %s**", Code(p.Expression), Escape(string(p.Verdict)))
	}
	if p.Function != "" {
		fmt.Fprintf(&b, " in %s", Code(p.Function))
	}
	fmt.Fprintf(&b, " (property %s).\n\n", Code(p.ID))
	if p.Reason != "" {
		b.WriteString(Escape(p.Reason) + "\n\n")
	}
	if len(p.Inputs) > 0 {
		var in []string
		for _, x := range p.Inputs {
			if indeterminate(x) {
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
		fmt.Fprintf(&b, "<details><summary>Counterexample (%d %s)</summary>\n\n", len(p.Steps), plural(len(p.Steps), "step", "steps"))
		counterexampleSteps(&b, p, opts, steps)
		b.WriteString("</details>\n")
	}
	return b.String()
}
