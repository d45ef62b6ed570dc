package markdown

import (
	"fmt"
	"html"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/reverify/reverify/results"
)

// Marker is the hidden first line of every summary; report/github finds
// the sticky comment by it.
const Marker = "<!-- reverify:summary -->"

// DefaultMaxChars is the default size bound of a summary, below GitHub's
// limit of 65,536 characters for comment bodies.
const DefaultMaxChars = 65000

// DefaultMaxSteps is the default number of counterexample steps shown per
// violation before the middle of the path is folded.
const DefaultMaxSteps = 100

// TruncatedNote ends every summary that had to be shortened.
const TruncatedNote = "… truncated; see the artifact"

// Options control [Summary] and [Finding]. The zero value is usable.
type Options struct {
	// Title is the heading; empty means "reverify".
	Title string
	// MaxChars bounds the length of the summary in characters (Unicode
	// code points, as GitHub counts); ≤ 0 means DefaultMaxChars.
	MaxChars int
	// MaxSteps is the number of counterexample steps shown per
	// violation when everything fits (the first and last halves; the
	// middle is folded into one row); ≤ 0 means DefaultMaxSteps.
	MaxSteps int
	// PixelTrees maps property IDs to the text form of their pixel
	// trees (report/pixeltree Picture.Text), shown in code blocks when
	// the property has no mosaic.
	PixelTrees map[string]string
	// PixelMosaics maps property IDs to the emoji mosaic of their pixel
	// trees (report/pixeltree Picture.Mosaic: lines of squares, legend,
	// summary), shown folded in a <details> block.
	PixelMosaics map[string]string
	// Baselines maps property IDs to the pixel tree of the same property
	// explored without CEGAR and slicing, shown beside the mosaic.
	Baselines map[string]Baseline
	// RepoRoot is the repository root: file paths are shown relative
	// to it (see results.RepoPath).
	RepoRoot string
	// SourceURL, if set, turns file:line into links SourceURL + path +
	// "#L" + line, e.g. "https://github.com/o/r/blob/<head sha>/".
	SourceURL string
	// ArtifactURL, if set, is linked from the truncation note.
	ArtifactURL string
	// RunURL, if set, is the workflow run's page; the summary ends with
	// links to it and to its artifacts (witnesses, reproducers, pixel
	// trees).
	RunURL string
	// ReproducerCommand, if set, gives the shell command that builds
	// and runs the reproducer of a violation (shown under its path).
	ReproducerCommand func(p *results.PropertyReport) string
	// Changed, if set, says whether a repository-relative file and
	// line were added or modified by the change under review; the
	// counterexample marks such steps and keeps calls through them
	// unfolded.
	Changed func(file string, line int) bool
	// NoBaseline says that there was no base revision (a full run):
	// properties without reverified_because then show "—" rather than
	// "new" as the reason they were re-checked.
	NoBaseline bool
}

func (o Options) maxChars() int {
	if o.MaxChars <= 0 {
		return DefaultMaxChars
	}
	return o.MaxChars
}

func (o Options) maxSteps() int {
	if o.MaxSteps <= 0 {
		return DefaultMaxSteps
	}
	return o.MaxSteps
}

// limits say how much of each section a rendering shows; -1 is no limit.
type limits struct {
	steps      int  // counterexample steps per violation
	pixelTrees bool // show pixel trees
	reusedRows bool // list the reused properties (else only their count)
	trueRows   bool // list proved properties in the re-verified table
	sections   int  // violations with a details section
	unknowns   int  // UNKNOWN reasons listed
}

// ladder is the sequence of ever smaller renderings Summary tries until
// one fits: first the counterexample steps and pixel trees (the largest
// sections), then the tables, then whole sections.
func ladder(maxSteps int) []limits {
	all := limits{steps: maxSteps, pixelTrees: true, reusedRows: true, trueRows: true, sections: -1, unknowns: -1}
	l := []limits{all}
	add := func(f func(*limits)) {
		n := l[len(l)-1]
		f(&n)
		l = append(l, n)
	}
	add(func(n *limits) { n.steps = min(n.steps, 30) })
	add(func(n *limits) { n.pixelTrees = false })
	add(func(n *limits) { n.steps = min(n.steps, 10) })
	add(func(n *limits) { n.reusedRows = false })
	add(func(n *limits) { n.trueRows = false })
	add(func(n *limits) { n.steps = 0 })
	add(func(n *limits) { n.sections, n.unknowns = 20, 50 })
	add(func(n *limits) { n.sections, n.unknowns = 5, 10 })
	return l
}

// Summary renders r as the sticky pull-request comment and job summary:
//
//	<!-- reverify:summary -->
//	## reverify
//
//	❌ 1 assertion violated · ✅ 5 proved · ❓ 1 unknown
//
//	Re-verified 3 of 7 properties; 4 reused from the cache. Entry main, configuration default, reverify 0.1.0.
//
//	| verdict | assertion | why re-checked | time |
//	|---|---|---|--:|
//	| ❌ violated | <code>x &gt; 0</code><br><code>a.c&#58;12</code> | <code>parse</code> | 0.42 s |
//	…
//	<details><summary>♻️ 4 properties reused from the cache</summary> … table … </details>
//
//	### ❌ Violations
//	<details open><summary>❌ … at a.c:12 in main</summary> reason, inputs table, numbered
//	counterexample steps (location, source line, operation, input values), reproducer,
//	witness, pixel tree </details>
//
//	### ❗ Still open: violated before, not resolved
//	- … at b.c:9 (id) was violated on the base revision <sha>; no longer shown violated, not proved either: timeout after 60s.
//
//	### ⚠️ Not proved where this change touches
//	- … at c.c:3 (id): not proved: timeout after 60s; proved on the base revision <sha>.
//
//	### ❓ Unknown
//	- … at b.c:4: reason
//
// The first line is always Marker. User-controlled text is escaped (see
// [Escape]); pixel trees go into fenced code blocks. Properties are
// ordered FALSE, UNKNOWN, NOT_CHECKED, TRUE, then by file, line and ID.
//
// The result has at most Options.MaxChars characters. When the full
// rendering is longer, Summary folds counterexample steps beyond 30 and
// then 10, drops pixel trees, the rows of reused and of proved
// properties, the steps altogether, and then whole sections beyond the
// first few, in that order, and appends TruncatedNote; only if even that
// does not fit is the text cut at a line boundary (closing any open code
// block and <details>).
func Summary(r *results.Report, opts Options) string {
	limit := opts.maxChars()
	var s string
	for i, lim := range ladder(opts.maxSteps()) {
		var over bool
		s, over = render(r, opts, lim, i > 0, limit)
		if !over && utf8.RuneCountInString(s) <= limit {
			return s
		}
	}
	return cut(s, limit, note(opts))
}

func note(opts Options) string {
	n := "\n---\n\n_" + TruncatedNote
	if opts.ArtifactURL != "" {
		n += " ([download](" + escapeURL(opts.ArtifactURL) + "))"
	}
	return n + "._\n"
}

// Headline is the one-line count of verdicts over all properties, e.g.
// "❌ 1 assertion violated · ✅ 5 proved · ❓ 1 unknown". Unresolved
// findings (FALSE before, UNKNOWN now) are counted apart from the other
// unknowns, after the violations: "❗ 1 still open (violated before,
// unknown now)". Zero counts are left out; the first part carries the
// noun: "assertion", or "property" when the report has memory-safety
// properties ("❌ 1 property violated · ✅ 4 proved").
func Headline(r *results.Report) string {
	const unresolved = results.Verdict("unresolved")
	n := map[results.Verdict]int{}
	one, many := "assertion", "assertions"
	for i := range r.Properties {
		p := &r.Properties[i]
		if p.MemoryKind() != "" {
			one, many = "property", "properties"
		}
		if p.Unresolved() {
			n[unresolved]++
		} else {
			n[p.Verdict]++
		}
	}
	type part struct {
		v          results.Verdict
		icon, verb string
	}
	var parts []string
	for _, p := range []part{{results.False, "❌", "violated"}, {unresolved, "❗", "still open (violated before, unknown now)"},
		{results.True, "✅", "proved"}, {results.Unknown, "❓", "unknown"}, {results.NotChecked, "➖", "not checked"}} {
		k := n[p.v]
		if k == 0 {
			continue
		}
		if len(parts) == 0 {
			noun := many
			if k == 1 {
				noun = one
			}
			parts = append(parts, fmt.Sprintf("%s %d %s %s", p.icon, k, noun, p.verb))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d %s", p.icon, k, p.verb))
		}
	}
	if len(parts) == 0 {
		return "⚠️ no assertions found"
	}
	return strings.Join(parts, " · ")
}

var verdictRank = map[results.Verdict]int{results.False: 0, results.Unknown: 1, results.NotChecked: 2, results.True: 3}

// verdictLabel is the verdict column; the no-break spaces keep icon and
// word on one line in narrow table columns.
var verdictLabel = map[results.Verdict]string{
	results.False: "❌\u00a0violated", results.Unknown: "❓\u00a0unknown", results.NotChecked: "➖\u00a0not\u00a0checked", results.True: "✅\u00a0proved",
}

// labelOf is the verdict column of p: an unresolved finding shows as
// still open.
func labelOf(p *results.PropertyReport) string {
	if p.Unresolved() {
		return "❗\u00a0still\u00a0open"
	}
	return label(p.Verdict)
}

func label(v results.Verdict) string {
	if l, ok := verdictLabel[v]; ok {
		return l
	}
	return Escape(string(v))
}

// sorted returns pointers to the properties of r in display order.
func sorted(r *results.Report, root string) []*results.PropertyReport {
	ps := make([]*results.PropertyReport, len(r.Properties))
	for i := range r.Properties {
		ps[i] = &r.Properties[i]
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		ra, rb := rank(a.Verdict), rank(b.Verdict)
		if ra != rb {
			return ra < rb
		}
		if fa, fb := results.RepoPath(a.File, root), results.RepoPath(b.File, root); fa != fb {
			return fa < fb
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.ID < b.ID
	})
	return ps
}

func rank(v results.Verdict) int {
	if r, ok := verdictRank[v]; ok {
		return r
	}
	return len(verdictRank)
}

// render is one rendering of the summary under the given limits. It
// stops early, returning over, once the text is certainly longer than
// limit characters (more than 4 bytes per character).
func render(r *results.Report, opts Options, lim limits, truncated bool, limit int) (s string, over bool) {
	var b strings.Builder
	title := opts.Title
	if title == "" {
		title = "reverify"
	}
	b.WriteString(Marker + "\n")
	fmt.Fprintf(&b, "## %s\n\n", Escape(title))
	b.WriteString(Headline(r) + "\n\n")

	ps := sorted(r, opts.RepoRoot)
	var checked, reused, violations, open, warned, unknowns []*results.PropertyReport
	for _, p := range ps {
		if p.CacheHit {
			reused = append(reused, p)
		} else {
			checked = append(checked, p)
		}
		switch {
		case p.Verdict == results.False:
			violations = append(violations, p)
		case p.Unresolved():
			open = append(open, p)
		case p.NewUnknownAtChange(opts.RepoRoot, opts.Changed):
			warned = append(warned, p)
		case p.Verdict == results.Unknown:
			unknowns = append(unknowns, p)
		}
	}
	fmt.Fprintf(&b, "Re-verified %d of %d %s", len(checked), len(ps), plural(len(ps), "property", "properties"))
	if len(reused) > 0 {
		fmt.Fprintf(&b, "; %d reused from the cache (slice unchanged)", len(reused))
	}
	b.WriteString(".")
	var about []string
	if r.Entry != "" {
		about = append(about, "Entry "+Code(r.Entry))
	}
	if r.Config != "" {
		about = append(about, "configuration "+Code(r.Config))
	}
	if r.Engine != "" {
		about = append(about, "reverify "+Escape(r.Engine))
	}
	if len(about) > 0 {
		b.WriteString(" " + strings.Join(about, ", ") + ".")
	}
	b.WriteString("\n\n")
	if as := assumptions(ps); len(as) > 0 {
		fmt.Fprintf(&b, "⚠️ Verdicts assume (`.reverify.yml` `assume`, `--assume-pure`): %s.\n\n", codes(as))
	}

	if len(checked) > 0 {
		rows, hidden := checked, 0
		if !lim.trueRows {
			rows = nil
			for _, p := range checked {
				if p.Verdict != results.True {
					rows = append(rows, p)
				} else {
					hidden++
				}
			}
		}
		if len(rows) > 0 {
			// Four columns fit GitHub's comment column (about 780 px):
			// the property ID repeats the expression and is in the
			// details section, so the table leaves it out.
			b.WriteString("| verdict | assertion | why re-checked | time |\n")
			b.WriteString("|---|---|---|--:|\n")
			for _, p := range rows {
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", labelOf(p), assertion(p, opts)+scopeCell(p), why(p, opts), seconds(p.CPUSeconds))
			}
			b.WriteString("\n")
		}
		if hidden > 0 {
			fmt.Fprintf(&b, "%d proved %s not listed.\n\n", hidden, plural(hidden, "property", "properties"))
		}
	}

	if len(reused) > 0 {
		fmt.Fprintf(&b, "<details><summary>♻️ %d %s reused from the cache</summary>\n\n", len(reused), plural(len(reused), "property", "properties"))
		if lim.reusedRows {
			b.WriteString("| verdict | assertion | slice |\n|---|---|---|\n")
			for _, p := range reused {
				fmt.Fprintf(&b, "| %s | %s | %s |\n", labelOf(p), assertion(p, opts), Code(short(p.SliceHash)))
			}
		} else {
			b.WriteString("Not listed to stay within the size limit.\n")
		}
		b.WriteString("\n</details>\n\n")
	}

	functions(&b, r.Functions)

	if len(violations) > 0 {
		b.WriteString("### ❌ Violations\n\n")
		for i, p := range violations {
			if lim.sections >= 0 && i >= lim.sections {
				fmt.Fprintf(&b, "%d more %s not shown.\n\n", len(violations)-i, plural(len(violations)-i, "violation", "violations"))
				break
			}
			violation(&b, r, p, opts, lim)
			if b.Len() > 4*limit {
				return b.String(), true
			}
		}
	}

	openSections(&b, open, warned, opts, lim)

	if len(unknowns) > 0 {
		b.WriteString("### ❓ Unknown\n\n")
		for i, p := range unknowns {
			if lim.unknowns >= 0 && i >= lim.unknowns {
				fmt.Fprintf(&b, "- … and %d more\n", len(unknowns)-i)
				break
			}
			reason := p.Reason
			if reason == "" {
				reason = "no reason given"
			}
			fmt.Fprintf(&b, "- %s at %s (%s): %s", Code(p.Expression), location(p.File, p.Line, opts), Code(p.ID), Escape(reason))
			if len(p.Unmodelled) > 0 {
				b.WriteString(". Unmodelled: " + codes(p.Unmodelled))
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if opts.RunURL != "" {
		u := escapeURL(strings.TrimSuffix(opts.RunURL, "/"))
		fmt.Fprintf(&b, "🔗 [Workflow run](%s) · [artifacts](%s#artifacts): results.json, SARIF, witnesses, reproducers and pixel trees.\n\n", u, u)
	}
	if truncated {
		b.WriteString(note(opts))
	}
	return b.String(), false
}

// violation writes the details section of one FALSE property.
func violation(b *strings.Builder, r *results.Report, p *results.PropertyReport, opts Options, lim limits) {
	// Markdown is not parsed on the line of an HTML block's start tag,
	// so the summary links with <a>.
	what := Code(p.Expression)
	if n := memoryName(p, opts); n != "" {
		what = n
	}
	fmt.Fprintf(b, "<details open><summary>❌ %s at %s in %s</summary>\n\n", what, htmlLocation(p.File, p.Line, opts), Code(p.Function))
	fmt.Fprintf(b, "Property %s", Code(p.ID))
	if p.Config != "" {
		fmt.Fprintf(b, " (configuration %s)", Code(p.Config))
	}
	if r := readableReason(p, opts); r != "" {
		b.WriteString(": " + Escape(strings.TrimSuffix(r, ".")))
	}
	b.WriteString(".\n\n")
	if h := MemoryHeadline(p, opts); h != "" {
		b.WriteString("**What happens:** " + strings.TrimPrefix(h, "reverify: ") + ".\n\n")
	}
	if v := FailureValues(p); v != "" {
		b.WriteString("**At the failure:** " + v + "\n\n")
	}
	counterexample(b, p, opts, lim.steps)
	if p.Reproducer != "" {
		fmt.Fprintf(b, "**Reproducer:** %s\n\n", Code(results.RepoPath(p.Reproducer, opts.RepoRoot)))
		if opts.ReproducerCommand != nil {
			if cmd := opts.ReproducerCommand(p); cmd != "" {
				b.WriteString(ReproduceNote(p) + "\n\n" + codeBlock("sh", cmd) + "\n")
			}
		}
	}
	if p.Witness != "" {
		fmt.Fprintf(b, "**Witness:** %s\n\n", Code(results.RepoPath(p.Witness, opts.RepoRoot)))
	}
	if m := opts.PixelMosaics[p.ID]; m != "" {
		if lim.pixelTrees {
			b.WriteString(mosaic(p, m, opts.Baselines[p.ID]))
		} else {
			b.WriteString("_Pixel tree omitted to stay within the size limit._\n\n")
		}
	} else if tree := opts.PixelTrees[p.ID]; tree != "" {
		if lim.pixelTrees {
			b.WriteString("**Pixel tree** of the analysis (ARG)\n\n" + codeBlock("text", tree) + "\n")
		} else {
			b.WriteString("_Pixel tree omitted to stay within the size limit._\n\n")
		}
	}
	b.WriteString("</details>\n\n")
}

// Baseline is the exploration of a property without CEGAR and slicing,
// for the side-by-side picture of what they saved (seed 000, section
// 3.5).
type Baseline struct {
	Config   string `json:"config"`   // the configuration, e.g. "value"
	States   int    `json:"states"`   // states it explored
	Complete bool   `json:"complete"` // false: stopped at its state or time bound
	Mosaic   string `json:"mosaic"`   // report/pixeltree Picture.Mosaic
}

// mosaic is the folded pixel-tree section of p: the emoji squares of
// report/pixeltree with hard line breaks (a backslash at the end of the
// line: GitHub renders comments with newlines as breaks, job summaries
// without), its legend and summary, the states and refinements of the
// analysis, and where the PNG is. With a baseline (bl.Mosaic set), the
// two pictures stand side by side in a table, states counted under each.
func mosaic(p *results.PropertyReport, m string, bl Baseline) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<details><summary>🌳 Pixel tree of the analysis (%d reached %s, %d CEGAR %s)</summary>\n\n",
		p.States, plural(p.States, "state", "states"), p.Refinements, plural(p.Refinements, "refinement", "refinements"))
	lines := func(m, sep string) string {
		ls := strings.Split(strings.TrimRight(m, "\n"), "\n")
		for i := range ls {
			ls[i] = Escape(ls[i])
		}
		return strings.Join(ls, sep)
	}
	if bl.Mosaic != "" {
		without := fmt.Sprintf("%d", bl.States)
		if !bl.Complete {
			without = fmt.Sprintf("%d+ (stopped at its bound)", bl.States)
		}
		fmt.Fprintf(&b, "| with %s: %d reached %s | without CEGAR and slicing (%s): %s reached states |\n|---|---|\n",
			Code(p.Config), p.States, plural(p.States, "state", "states"), Code(bl.Config), without)
		fmt.Fprintf(&b, "| %s | %s |\n\n", lines(m, "<br>"), lines(bl.Mosaic, "<br>"))
	} else {
		b.WriteString(lines(m, "\\\n") + "\n")
	}
	b.WriteString("\nOne square per state of the final ARG, covered ones included (scaled when the tree is larger), one line per distance from the root, rows centred (seed 000, section 3.5); reached states are summed over the CEGAR refinements.")
	if p.PixelTree != "" {
		fmt.Fprintf(&b, " PNG and SVG in the artifact: %s.", Code(results.RepoPath(p.PixelTree, "")))
	}
	b.WriteString("\n\n</details>\n\n")
	return b.String()
}

// counterexample writes the inputs table and the numbered steps of p,
// showing at most maxSteps steps (the first and last halves).
func counterexample(b *strings.Builder, p *results.PropertyReport, opts Options, maxSteps int) {
	shown, hidden := 0, 0
	for _, in := range p.Inputs {
		if !results.IsInput(in) {
			hidden++
		} else {
			shown++
		}
	}
	if shown > 0 {
		b.WriteString("**Inputs** (in the order they are read)\n\n| # | input | type | value | line |\n|--:|---|---|--:|--:|\n")
		n := 0
		unread := results.EnvUnreadInputs(p.Inputs)
		for i, in := range p.Inputs {
			if !results.IsInput(in) || unread[i] {
				continue
			}
			n++
			line := "—"
			if in.Line > 0 {
				line = fmt.Sprint(in.Line)
			}
			fmt.Fprintf(b, "| %d | %s | %s | %d | %s |\n", n, Code(in.Source), Code(in.Type), in.Value, line)
		}
		b.WriteString("\n")
	}
	if hidden > 0 {
		fmt.Fprintf(b, "_Not shown: the initial %s of %d uninitialised %s (in the witness)._\n\n",
			plural(hidden, "value", "values"), hidden, plural(hidden, "declaration", "declarations"))
	}
	if len(p.Steps) == 0 {
		return
	}
	fmt.Fprintf(b, "**Counterexample** (%d %s)\n\n", len(p.Steps), plural(len(p.Steps), "step", "steps"))
	counterexampleSteps(b, p, opts, maxSteps)
}

// counterexampleSteps writes the counterexample of p as a table
// (location, source line, CFA operation, inputs read there), folded by
// results.ReadableTrace (completed calls without inputs or changed lines
// and middle loop iterations become one row each); steps on lines the
// change touched (Options.Changed) are marked ✏️. At most maxSteps rows
// are shown (the first and last halves; -1 means all, 0 writes a note).
func counterexampleSteps(b *strings.Builder, p *results.PropertyReport, opts Options, maxSteps int) {
	if maxSteps == 0 {
		b.WriteString("_Steps omitted to stay within the size limit._\n\n")
		return
	}
	rows := results.ReadableTrace(p, opts.RepoRoot, opts.Changed)
	head, tail := len(rows), 0
	if maxSteps > 0 && len(rows) > maxSteps {
		head = (maxSteps + 1) / 2
		tail = maxSteps - head
	}
	b.WriteString("| # | location | step | inputs read |\n|--:|---|---|---|\n")
	unread := results.EnvUnreadInputs(p.Inputs)
	row := func(r results.TraceRow) {
		s := p.Steps[r.Step]
		file := s.File
		if file == "" {
			file = p.File
		}
		// Runs of equal inputs (a folded loop reading zeros) are counted.
		var vals []string
		var read []int
		for _, k := range r.Inputs {
			if !unread[k] {
				read = append(read, k)
			}
		}
		r.Inputs = read
		for i := 0; i < len(r.Inputs); {
			in := p.Inputs[r.Inputs[i]]
			j := i + 1
			for j < len(r.Inputs) && p.Inputs[r.Inputs[j]].Source == in.Source && p.Inputs[r.Inputs[j]].Value == in.Value {
				j++
			}
			v := fmt.Sprintf("%s = %d", Code(in.Source), in.Value)
			if j-i > 1 {
				v += fmt.Sprintf(" (×%d)", j-i)
			}
			vals = append(vals, v)
			i = j
		}
		step := stepText(s)
		num := fmt.Sprint(r.Step + 1)
		if r.Fold != "" {
			step = "_" + Escape(r.Fold) + " folded_"
			num = fmt.Sprintf("%d–%d", r.Step+1, r.Step+r.Folded)
		}
		loc := location(file, s.Line, opts)
		if r.Changed {
			loc = "✏️\u00a0" + loc
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", num, loc, step, strings.Join(vals, ", "))
	}
	for _, r := range rows[:head] {
		row(r)
	}
	if tail > 0 {
		folded := 0
		for _, r := range rows[head : len(rows)-tail] {
			folded += max(r.Folded, 1)
		}
		fmt.Fprintf(b, "| | | _… %d steps folded …_ | |\n", folded)
		for _, r := range rows[len(rows)-tail:] {
			row(r)
		}
	}
	b.WriteString("\n")
	if opts.Changed != nil {
		b.WriteString("✏️ marks a line this change touched. ")
	}
	fmt.Fprintf(b, "%d %s shown of %d; calls that read no input and touch no changed line, and repeated loop iterations, are folded (the witness has every step).\n\n",
		len(rows), plural(len(rows), "row", "rows"), len(p.Steps))
}

// stepText is the step cell of a counterexample step: its source text
// (the CFA operation when there is none); a branch says which way it
// went ("<code>i &lt; 6</code> is false"), since source text alone does
// not; a call says which function it enters or leaves.
func stepText(s results.StepJSON) string {
	if s.Text == "" {
		return Code(s.Op)
	}
	t := Code(s.Text)
	switch {
	case strings.HasPrefix(s.Op, "[!("):
		return t + " is false"
	case strings.HasPrefix(s.Op, "["):
		return t + " is true"
	case strings.HasPrefix(s.Op, "enter "):
		return t + " → " + Code(strings.TrimPrefix(s.Op, "enter "))
	case strings.HasPrefix(s.Op, "return from "):
		return t + " ← " + Code(strings.TrimPrefix(s.Op, "return from "))
	}
	return t
}

// location renders file:line as code, as a Markdown link when
// Options.SourceURL is set.
func location(file string, line int, opts Options) string {
	c, u := locationParts(file, line, opts)
	if u == "" {
		return c
	}
	return "[" + c + "](" + escapeURL(u) + ")"
}

// htmlLocation is location as HTML, for lines Markdown does not parse.
func htmlLocation(file string, line int, opts Options) string {
	c, u := locationParts(file, line, opts)
	if u == "" {
		return c
	}
	return `<a href="` + html.EscapeString(u) + `">` + c + "</a>"
}

func locationParts(file string, line int, opts Options) (code, link string) {
	f := results.RepoPath(file, opts.RepoRoot)
	text := f
	if line > 0 {
		text = fmt.Sprintf("%s:%d", f, line)
	}
	code = Code(text)
	if opts.SourceURL == "" || f == "" || strings.HasPrefix(f, "/") {
		return code, ""
	}
	link = strings.TrimSuffix(opts.SourceURL, "/") + "/" + escapePath(f)
	if line > 0 {
		link += fmt.Sprintf("#L%d", line)
	}
	return code, link
}

// assertion is the table cell of p: its expression (for a memory-safety
// violation, its name: "use after free of <code>p</code>") and, under
// it, its location (linked when Options.SourceURL is set).
func assertion(p *results.PropertyReport, opts Options) string {
	expr := p.Expression
	if expr == "" {
		expr = p.ID
	}
	if n := memoryName(p, opts); n != "" {
		return n + "<br>" + location(p.File, p.Line, opts)
	}
	return Code(expr) + "<br>" + location(p.File, p.Line, opts)
}

// why is the "why re-checked" cell of p: the reasons of diffslice,
// separated by semicolons (they contain commas).
func why(p *results.PropertyReport, opts Options) string {
	switch {
	case len(p.Reverified) > 0:
		out := make([]string, len(p.Reverified))
		for i, r := range p.Reverified {
			out[i] = reasonText(r)
		}
		return strings.Join(out, "; ")
	case opts.NoBaseline:
		return "—"
	default:
		return "new"
	}
}

// reasonText renders one reason for a re-verification: a bare name
// ("parse") as code; a sentence as escaped text whose backtick spans
// ("`clamp` changed, 1 call away", as diffslice writes them) become
// code, so no literal backticks show.
func reasonText(s string) string {
	if !strings.Contains(s, "`") {
		if len(strings.Fields(s)) == 1 {
			return Code(s)
		}
		return Escape(s)
	}
	parts := strings.Split(s, "`")
	if len(parts)%2 == 0 { // an unmatched backtick: no spans
		return Escape(s)
	}
	var b strings.Builder
	for i, part := range parts {
		if i%2 == 1 {
			b.WriteString(Code(part))
		} else {
			b.WriteString(Escape(part))
		}
	}
	return b.String()
}

// FailureValues renders the values of the failing assertion's operands
// where the counterexample fails it ("<code>h-&gt;len</code> = 193"),
// or "" when results.json has none.
func FailureValues(p *results.PropertyReport) string {
	var vs []string
	for _, v := range p.FailureValues {
		vs = append(vs, fmt.Sprintf("%s = %d", Code(v.Expr), v.Value))
	}
	return strings.Join(vs, ", ")
}

// assumptions returns the distinct assumptions of the properties, sorted.
func assumptions(ps []*results.PropertyReport) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		for _, a := range p.Assumptions {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	sort.Strings(out)
	return out
}

func codes(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Code(s)
	}
	return strings.Join(out, ", ")
}

func seconds(s float64) string {
	if s < 0.01 {
		return "&lt;\u00a00.01\u00a0s"
	}
	return fmt.Sprintf("%.2f\u00a0s", s)
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// cut shortens s to at most limit characters including the note, at a line
// boundary, closing an open code fence and open <details> elements.
func cut(s string, limit int, note string) string {
	budget := limit - utf8.RuneCountInString(note) - 64 // room for closers
	if budget < len(Marker)+1 {
		budget = len(Marker) + 1
	}
	var b strings.Builder
	var openFence string
	details := 0
	n := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		k := utf8.RuneCountInString(line)
		if n+k > budget {
			break
		}
		n += k
		b.WriteString(line)
		t := strings.TrimSpace(line)
		switch {
		case openFence != "":
			if strings.HasPrefix(t, openFence) && strings.Trim(t, "`") == "" {
				openFence = ""
			}
		case strings.HasPrefix(t, "```"):
			openFence = t[:len(t)-len(strings.TrimLeft(t, "`"))]
		default:
			details += strings.Count(t, "<details") - strings.Count(t, "</details>")
		}
	}
	if openFence != "" {
		b.WriteString(openFence + "\n")
	}
	for ; details > 0; details-- {
		b.WriteString("\n</details>\n")
	}
	b.WriteString(note)
	out := b.String()
	if utf8.RuneCountInString(out) > limit { // a tiny max: keep the marker at least
		out = Marker + "\n"
	}
	return out
}

// functions writes the table of a library-mode report's functions
// (results.FunctionSummary): what is verified, what is violated by an
// API call, what needs a precondition, what hit a limitation.
func functions(b *strings.Builder, fs []results.FunctionSummary) {
	if len(fs) == 0 {
		return
	}
	b.WriteString("### Functions (most general contexts, no harness)\n\n| Function | Verdict | TRUE | FALSE | Needs a precondition | UNKNOWN | Time |\n|---|---|---|---|---|---|---|\n")
	for _, f := range fs {
		name := Code(f.Function)
		if f.API {
			name += " (API)"
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %s |\n", name, Escape(f.Kind), f.True, f.False, f.Precondition, f.Unknown, seconds(f.CPUSeconds))
	}
	b.WriteString("\n")
}
