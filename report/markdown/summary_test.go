package markdown_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/results"
)

var update = flag.Bool("update", false, "rewrite golden files")

func sample() *results.Report {
	return &results.Report{
		Schema: results.SchemaVersion, Engine: "0.1.0", Entry: "main", Config: "default",
		Properties: []results.PropertyReport{
			{ID: "g:1", File: "/repo/lib/b.c", Line: 9, Function: "g", Expression: "1", Verdict: results.True,
				CPUSeconds: 0.004, Reverified: []string{"g"}},
			{ID: "main:x>0", File: "/repo/src/a.c", Line: 12, Column: 3, Function: "main", Expression: "x > 0",
				Verdict: results.False, Reason: "counterexample confirmed by replay", Config: "value-cegar", CPUSeconds: 0.42,
				Reverified: []string{"`parse` changed, 1 call away", "type `struct node` changed", "cached verdict is FALSE (violations are always re-checked)"},
				Inputs: []results.InputJSON{
					{Source: "__VERIFIER_nondet_int", Type: "int", Value: 0, Line: 5},
					{Source: "uninitialised y", Type: "unsigned char", Value: 255},
					{Source: "decl z", Type: "int", Value: 7, Line: 5},
				},
				Steps: []results.StepJSON{
					{File: "/repo/src/a.c", Line: 3, Op: "enter main"},
					{File: "/repo/src/a.c", Line: 5, Op: "x = __VERIFIER_nondet_int()", Text: "int x = __VERIFIER_nondet_int();"},
					{File: "/repo/src/a.c", Line: 12, Op: "assume(!(x > 0))", Text: "assert(x > 0);"},
				},
				Reproducer: "/repo/out/main_x_0.repro.c", Witness: "/repo/out/main_x_0.yml"},
			{ID: "f:(a|b)<c", File: "/repo/lib/b.c", Line: 4, Function: "f", Expression: "(a | b) < c && `s` != *p_q",
				Verdict: results.Unknown, Reason: "timeout after 60 s\n@alice #12", CPUSeconds: 60, Unmodelled: []string{"malloc"}},
			{ID: "h:2", File: "/repo/lib/c.c", Line: 2, Function: "h", Expression: "2", Verdict: results.True,
				CacheHit: true, SliceHash: "0123456789abcdef0123"},
		},
	}
}

func options() markdown.Options {
	return markdown.Options{
		RepoRoot:          "/repo",
		SourceURL:         "https://github.com/o/r/blob/abc123/",
		PixelTrees:        map[string]string{"main:x>0": "  *\n ▄█*\n░░X?\n``` not a fence end\n"},
		ReproducerCommand: func(p *results.PropertyReport) string { return "gcc -o repro " + p.Reproducer + " && ./repro" },
		RunURL:            "https://github.com/o/r/actions/runs/42",
	}
}

func TestSummaryGolden(t *testing.T) {
	got := markdown.Summary(sample(), options())
	golden := filepath.Join("testdata", "summary.golden.md")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("summary differs from %s (run go test -update and inspect the diff):\n%s", golden, got)
	}
}

func TestSummaryContent(t *testing.T) {
	s := markdown.Summary(sample(), options())
	lines := strings.Split(s, "\n")
	if lines[0] != markdown.Marker {
		t.Errorf("first line %q, want the marker", lines[0])
	}
	if want := "❌ 1 assertion violated · ✅ 2 proved · ❓ 1 unknown"; !strings.Contains(s, "\n"+want+"\n") {
		t.Errorf("headline %q missing", want)
	}
	for _, want := range []string{
		"Re-verified 3 of 4 properties; 1 reused from the cache",
		// re-verified table row: linked location, escaped ID, reasons
		"| ❌\u00a0violated | <code>x &gt; 0</code><br>[<code>src/a.c&#58;12</code>](https://github.com/o/r/blob/abc123/src/a.c#L12) | <code>parse</code> changed, 1 call away; type <code>struct node</code> changed; cached verdict is FALSE (violations are always re-checked) | 0.42\u00a0s |",
		// the initial value of an uninitialised declaration is left out
		"_Not shown: the initial value of 1 uninitialised declaration (in the witness)._",
		"| ✅\u00a0proved | <code>1</code><br>[<code>lib/b.c&#58;9</code>](https://github.com/o/r/blob/abc123/lib/b.c#L9) | <code>g</code> | &lt;\u00a00.01\u00a0s |",
		"| new |", // the unknown one has no reasons
		"<details><summary>♻️ 1 property reused from the cache</summary>",
		"<code>0123456789ab</code>",
		`<details open><summary>❌ <code>x &gt; 0</code> at <a href="https://github.com/o/r/blob/abc123/src/a.c#L12"><code>src/a.c&#58;12</code></a> in <code>main</code></summary>`,
		"Property <code>main&#58;x&gt;0</code> (configuration <code>value-cegar</code>): counterexample confirmed by replay.",
		"| 2 | [<code>src/a.c&#58;5</code>](https://github.com/o/r/blob/abc123/src/a.c#L5) | <code>int x = &#95;&#95;VERIFIER&#95;nondet&#95;int();</code>",
		"<code>&#95;&#95;VERIFIER&#95;nondet&#95;int</code> = 0 |",
		"| 2 | <code>uninitialised y</code> | <code>unsigned char</code> | 255 | — |",
		"**Reproducer:** <code>out/main&#95;x&#95;0.repro.c</code>",
		"```sh\ngcc -o repro /repo/out/main_x_0.repro.c && ./repro\n```",
		"**Witness:** <code>out/main&#95;x&#95;0.yml</code>",
		"````text\n  *\n ▄█*\n░░X?\n``` not a fence end\n````",
		"### ❓ Unknown",
		"🔗 [Workflow run](https://github.com/o/r/actions/runs/42) · [artifacts](https://github.com/o/r/actions/runs/42#artifacts)",
		"timeout after 60 s &#64;alice &#35;12. Unmodelled: <code>malloc</code>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks\n%s\n--- summary:\n%s", want, s)
		}
	}
	if strings.Contains(s, markdown.TruncatedNote) {
		t.Errorf("small summary is marked truncated")
	}
	checkTables(t, s)
	checkBalanced(t, s)
}

// TestEscape checks that user text cannot break a table or inject markup.
func TestEscape(t *testing.T) {
	for _, in := range []string{"a | b", "<img src=x onerror=alert(1)>", "`x`", "*p_q*", "[l](http://e)", "@team", "#1", "a\nb|c", `\|`, "a &lt; b"} {
		out := markdown.Escape(in)
		if strings.ContainsAny(entity.ReplaceAllString(out, ""), "|<>`*_[]\\@#\n") {
			t.Errorf("Escape(%q) = %q still holds a metacharacter", in, out)
		}
		if got := unescape(out); got != strings.ReplaceAll(in, "\n", " ") {
			t.Errorf("Escape(%q) renders as %q", in, got)
		}
	}
}

var entity = regexp.MustCompile(`&(#\d+|amp|lt|gt|quot);`)

// unescape decodes the references Escape produces, as a browser would.
func unescape(s string) string {
	return entity.ReplaceAllStringFunc(s, func(e string) string {
		switch e {
		case "&amp;":
			return "&"
		case "&lt;":
			return "<"
		case "&gt;":
			return ">"
		case "&quot;":
			return `"`
		}
		var n int
		fmt.Sscanf(e, "&#%d;", &n)
		return string(rune(n))
	})
}

// checkTables checks that every table row has as many cells as its
// header: an unescaped | in user text would add cells.
func checkTables(t *testing.T, s string) {
	t.Helper()
	cells := -1
	inFence := ""
	for _, line := range strings.Split(s, "\n") {
		if f := regexp.MustCompile("^(`{3,})").FindString(line); f != "" {
			if inFence == "" {
				inFence = f
			} else if strings.TrimSpace(line) == inFence {
				inFence = ""
			}
			continue
		}
		if inFence != "" {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if cells < 0 {
			cells = n
		} else if n != cells {
			t.Errorf("table row with %d bars, header has %d: %s", n, cells, line)
		}
	}
}

// checkBalanced checks that <details> elements and code fences are closed.
func checkBalanced(t *testing.T, s string) {
	t.Helper()
	open, fences := 0, 0
	inFence := ""
	for _, line := range strings.Split(s, "\n") {
		if f := regexp.MustCompile("^(`{3,})").FindString(line); f != "" {
			if inFence == "" {
				inFence = f
				fences++
			} else if strings.TrimSpace(line) == inFence {
				inFence = ""
				fences--
			}
			continue
		}
		if inFence != "" {
			continue
		}
		open += strings.Count(line, "<details") - strings.Count(line, "</details>")
	}
	if open != 0 || fences != 0 {
		t.Errorf("unbalanced: %d open <details>, %d open fences", open, fences)
	}
}

func TestHeadline(t *testing.T) {
	r := &results.Report{}
	if got := markdown.Headline(r); got != "⚠️ no assertions found" {
		t.Errorf("empty: %q", got)
	}
	for _, v := range []results.Verdict{results.True, results.True, results.NotChecked} {
		r.Properties = append(r.Properties, results.PropertyReport{Verdict: v})
	}
	if got, want := markdown.Headline(r), "✅ 2 assertions proved · ➖ 1 not checked"; got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
	r.Properties = append(r.Properties, results.PropertyReport{Verdict: results.False}, results.PropertyReport{Verdict: results.False},
		results.PropertyReport{Verdict: results.Unknown})
	if got, want := markdown.Headline(r), "❌ 2 assertions violated · ✅ 2 proved · ❓ 1 unknown · ➖ 1 not checked"; got != want {
		t.Errorf("Headline = %q, want %q", got, want)
	}
}

func TestWhyNoBaseline(t *testing.T) {
	r := &results.Report{Properties: []results.PropertyReport{{ID: "a", File: "a.c", Line: 1, Expression: "a", Verdict: results.True}}}
	if s := markdown.Summary(r, markdown.Options{}); !strings.Contains(s, "| new |") {
		t.Errorf("want new:\n%s", s)
	}
	if s := markdown.Summary(r, markdown.Options{NoBaseline: true}); !strings.Contains(s, "| — |") {
		t.Errorf("want —:\n%s", s)
	}
}

// big is a report that needs every step of the shortening ladder.
func big(nProps, nSteps int) (*results.Report, map[string]string) {
	r := &results.Report{Engine: "0.1.0", Entry: "main"}
	trees := map[string]string{}
	tree := strings.Repeat(strings.Repeat("█", 80)+"\n", 40)
	for i := 0; i < nProps; i++ {
		p := results.PropertyReport{
			ID: fmt.Sprintf("f%d:x>%d", i, i), File: fmt.Sprintf("src/f%03d.c", i), Line: i + 1, Function: fmt.Sprintf("f%d", i),
			Expression: fmt.Sprintf("x > %d", i), CacheHit: i%3 == 0, SliceHash: "abcdef0123456789",
		}
		switch i % 4 {
		case 0, 1:
			p.Verdict = results.False
			for k := 0; k < nSteps; k++ {
				p.Steps = append(p.Steps, results.StepJSON{File: p.File, Line: k + 1, Op: fmt.Sprintf("x%d = x%d + 1", k, k), Text: fmt.Sprintf("x%d = x%d + 1; /* %s */", k, k, strings.Repeat("c", 40))})
			}
			p.Inputs = []results.InputJSON{{Source: "__VERIFIER_nondet_int", Type: "int", Value: int64(i), Line: 1}}
			trees[p.ID] = tree
		case 2:
			p.Verdict = results.Unknown
			p.Reason = "state limit 1000000 reached"
		default:
			p.Verdict = results.True
		}
		r.Properties = append(r.Properties, p)
	}
	return r, trees
}

func TestSummaryTruncation(t *testing.T) {
	for _, c := range []struct {
		name            string
		props, steps    int
		max             int
		wantNote        bool
		wantTrees       bool
		wantFoldedSteps bool
	}{
		{"steps folded", 2, 2000, 0, false, true, true},
		{"trees dropped", 40, 40, 0, true, false, true},
		{"many properties", 3000, 50, 0, true, false, false},
		{"tiny limit", 40, 400, 2000, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, trees := big(c.props, c.steps)
			opts := markdown.Options{PixelTrees: trees, MaxChars: c.max, ArtifactURL: "https://github.com/o/r/actions/runs/1"}
			s := markdown.Summary(r, opts)
			limit := c.max
			if limit == 0 {
				limit = markdown.DefaultMaxChars
			}
			if n := utf8.RuneCountInString(s); n > limit {
				t.Errorf("%d characters, limit %d", n, limit)
			}
			if !strings.HasPrefix(s, markdown.Marker+"\n") {
				t.Errorf("marker lost")
			}
			if got := strings.Contains(s, markdown.TruncatedNote) && strings.Contains(s, "(https://github.com/o/r/actions/runs/1)"); got != c.wantNote {
				t.Errorf("truncation note = %v, want %v", got, c.wantNote)
			}
			if got := strings.Contains(s, strings.Repeat("█", 80)); got != c.wantTrees {
				t.Errorf("pixel trees shown = %v, want %v", got, c.wantTrees)
			}
			if got := strings.Contains(s, "steps folded"); got != c.wantFoldedSteps {
				t.Errorf("folded steps = %v, want %v", got, c.wantFoldedSteps)
			}
			checkTables(t, s)
			checkBalanced(t, s)
		})
	}
}

func TestFinding(t *testing.T) {
	r := sample()
	p := &r.Properties[1]
	s := markdown.Finding(p, markdown.Options{RepoRoot: "/repo"})
	for _, want := range []string{
		"**❌ reverify: assertion <code>x &gt; 0</code> can fail** in <code>main</code> (property <code>main&#58;x&gt;0</code>).",
		"counterexample confirmed by replay",
		"Inputs: <code>&#95;&#95;VERIFIER&#95;nondet&#95;int</code> = 0 (line 5), <code>uninitialised y</code> = 255",
		"<details><summary>Counterexample (3 steps)</summary>",
		"| 3 | <code>src/a.c&#58;12</code> | <code>assert(x &gt; 0);</code> |  |",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("finding lacks\n%s\n--- finding:\n%s", want, s)
		}
	}
	checkBalanced(t, s)
	long, _ := big(1, 5000)
	s = markdown.Finding(&long.Properties[0], markdown.Options{})
	if n := strings.Count(s, "\n| "); n > markdown.DefaultFindingSteps+2 {
		t.Errorf("finding shows %d rows, want ≤ %d steps", n, markdown.DefaultFindingSteps)
	}
}

// TestSummaryAssumptions: functions assumed side-effect-free are named
// in the summary, never silently; without assumptions there is no line.
func TestSummaryAssumptions(t *testing.T) {
	if s := markdown.Summary(sample(), options()); strings.Contains(s, "Verdicts assume") {
		t.Errorf("summary without assumptions mentions them:\n%s", s)
	}
	r := sample()
	r.Properties[0].Assumptions = []string{"pure trace", "pure log_msg"}
	r.Properties[1].Assumptions = []string{"pure log_msg"}
	s := markdown.Summary(r, options())
	want := "⚠️ Verdicts assume (`.reverify.yml` `assume`, `--assume-pure`): <code>pure log&#95;msg</code>, <code>pure trace</code>."
	if !strings.Contains(s, want) {
		t.Errorf("summary lacks\n%s\n--- summary:\n%s", want, s)
	}
}

// TestSummaryMosaic: a pixel-tree mosaic shows folded, one hard break per
// line, with the analysis' counts, instead of the text form.
func TestSummaryMosaic(t *testing.T) {
	opts := options()
	opts.PixelMosaics = map[string]string{"main:x>0": "⬜⬛⬜\n⬛🟦🟩\n⬜🟥⬜\n🟦 error path · ⬛ state · 🟩 covered · 🟥 target\n6 states, 3 levels\n"}
	r := sample()
	r.Properties[1].States, r.Properties[1].Refinements = 6, 1
	s := markdown.Summary(r, opts)
	want := "<details><summary>🌳 Pixel tree of the analysis (6 reached states, 1 CEGAR refinement)</summary>\n\n" +
		"⬜⬛⬜\\\n⬛🟦🟩\\\n⬜🟥⬜\\\n🟦 error path · ⬛ state · 🟩 covered · 🟥 target\\\n6 states, 3 levels\n"
	if !strings.Contains(s, want) || strings.Contains(s, "````text") {
		t.Errorf("summary lacks the mosaic or still has the text form:\n%s", s)
	}
	checkBalanced(t, s)
}

func TestProblems(t *testing.T) {
	s := markdown.Problems("translating the head revision", []markdown.Problem{
		{File: "src/util.c", Line: 15, Column: 13, Message: "unexpected '{', expected declarator"},
		{Message: "no <EOF>"},
	}, markdown.Options{SourceURL: "https://github.com/o/r/blob/abc/", RunURL: "https://github.com/o/r/actions/runs/1"})
	want := markdown.Marker + "\n## reverify\n\n" +
		"⚠️ **No assertion was checked**: translating the head revision failed with 2 errors, so every property of this pull request is unchecked until it compiles.\n\n" +
		"- [<code>src/util.c&#58;15</code>](https://github.com/o/r/blob/abc/src/util.c#L15): unexpected '{', expected declarator\n" +
		"- —: no &lt;EOF&gt;\n\n" +
		"🔗 [Workflow run](https://github.com/o/r/actions/runs/1)\n"
	if s != want {
		t.Errorf("got:\n%s\nwant:\n%s", s, want)
	}
}
