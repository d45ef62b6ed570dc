package markdown_test

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/results"
)

// openReport has an unresolved finding (FALSE on the base, a timeout
// now), one found earlier in the pull request, a proof lost at a changed
// line, a new assertion that times out, and an old UNKNOWN.
func openReport() *results.Report {
	timeout := &results.Cause{Kind: results.CauseTimeout, Limit: "60s"}
	return &results.Report{
		Schema: results.SchemaVersion, Engine: "0.1.0", Entry: "main", Config: "value",
		Properties: []results.PropertyReport{
			{ID: "check:v<=10", File: "src/main.c", Line: 8, Function: "check", Expression: "v <= 10", Verdict: results.Unknown,
				Reason: "timeout after 60s (1,234 states)", Cause: timeout,
				Earlier:      &results.Earlier{Verdict: results.False, On: results.EarlierBase, Commit: "0123456789abcdef0123"},
				ChangedLines: []results.Span{{File: "src/clamp.c", Line: 4, Lines: 3}}},
			{ID: "check:w<=10", File: "src/main.c", Line: 9, Function: "check", Expression: "w <= 10", Verdict: results.Unknown,
				Reason: "memory limit 1GiB exceeded", Cause: &results.Cause{Kind: results.CauseMemory, Limit: "1GiB"},
				Earlier: &results.Earlier{Verdict: results.False, On: results.EarlierPullRequest, Commit: "fedcba9876543210fedc"}},
			{ID: "scale:k==6", File: "src/main.c", Line: 14, Function: "scale", Expression: "k == 6", Verdict: results.Unknown,
				Reason: "timeout after 60s", Cause: timeout, Earlier: &results.Earlier{Verdict: results.True, On: results.EarlierBase, Commit: "0123456789abcdef0123"},
				ChangedLines: []results.Span{{File: "src/scale.c", Line: 2, Lines: 1}}},
			{ID: "count:n!=5", File: "src/main.c", Line: 20, Function: "count", Expression: "n != 5", Verdict: results.Unknown,
				Reason: "timeout after 60s", Cause: timeout, Reverified: []string{"new property", "`count` changed, in the same function"}},
			{ID: "sensor:s!=3", File: "src/main.c", Line: 30, Function: "sensor", Expression: "s != 3", Verdict: results.Unknown,
				Reason: "error path depends on unmodelled read_sensor", Cause: &results.Cause{Kind: results.CauseUnmodelled, Names: []string{"read_sensor"}},
				Earlier: &results.Earlier{Verdict: results.Unknown, On: results.EarlierBase}, ChangedLines: []results.Span{{File: "src/main.c", Line: 28, Lines: 1}}},
		},
		Summary: map[string]int{"UNKNOWN": 5},
	}
}

// TestSummaryOpenFindings: unresolved findings are counted and listed
// apart (still open, with where the violation was found and why the
// property is not proved now); new UNKNOWN verdicts where the change
// touches are warnings; the rest stay among the unknowns.
func TestSummaryOpenFindings(t *testing.T) {
	changed := func(file string, line int) bool { return file == "src/main.c" && line == 20 }
	s := markdown.Summary(openReport(), markdown.Options{Changed: changed})
	for _, want := range []string{
		"\n❗ 2 assertions still open (violated before, unknown now) · ❓ 3 unknown\n",
		"| ❗\u00a0still\u00a0open | <code>v &lt;= 10</code>",
		"### ❗ Still open: violated before, not resolved\n\n" +
			"- <code>v &lt;= 10</code> at <code>src/main.c&#58;8</code> (<code>check&#58;v&lt;=10</code>) was violated on the base revision <code>0123456789ab</code>; no longer shown violated, not proved either: timeout after 60s.\n" +
			"- <code>w &lt;= 10</code> at <code>src/main.c&#58;9</code> (<code>check&#58;w&lt;=10</code>) was violated at <code>fedcba987654</code> earlier in this pull request; no longer shown violated, not proved either: memory limit 1GiB exceeded.\n",
		"### ⚠️ Not proved where this change touches\n\n" +
			"- <code>k == 6</code> at <code>src/main.c&#58;14</code> (<code>scale&#58;k==6</code>): not proved: timeout after 60s; proved on the base revision <code>0123456789ab</code>.\n" +
			"- <code>n &#33;= 5</code> at <code>src/main.c&#58;20</code> (<code>count&#58;n&#33;=5</code>): not proved: timeout after 60s; a new assertion.\n",
		"### ❓ Unknown\n\n- <code>s &#33;= 3</code> at <code>src/main.c&#58;30</code> (<code>sensor&#58;s&#33;=3</code>): error path depends on unmodelled read&#95;sensor\n\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "### ❗ Still open") > strings.Index(s, "### ⚠️ Not proved") || strings.Index(s, "### ⚠️ Not proved") > strings.Index(s, "### ❓ Unknown") {
		t.Errorf("sections out of order:\n%s", s)
	}
	// Without the changed lines, the new assertion's own line does not
	// count: it is listed among the unknowns.
	if s := markdown.Summary(openReport(), markdown.Options{}); !strings.Contains(s, "- <code>n &#33;= 5</code> at <code>src/main.c&#58;20</code> (<code>count&#58;n&#33;=5</code>): timeout after 60s\n") {
		t.Errorf("without changed lines:\n%s", s)
	}
	if got := markdown.UnresolvedPlain(&openReport().Properties[0]); got != "was violated on the base revision 0123456789ab; no longer shown violated, not proved either: timeout after 60s" {
		t.Errorf("UnresolvedPlain: %q", got)
	}
}

// TestFindingOpen: the inline comment of an unresolved finding and of a
// new UNKNOWN where the change touches, on the assertion's line and on a
// changed line it depends on.
func TestFindingOpen(t *testing.T) {
	r := openReport()
	opts := markdown.Options{SourceURL: "https://github.com/o/r/blob/h/"}
	f := markdown.Finding(&r.Properties[0], opts)
	for _, want := range []string{
		"**❗ reverify: <code>assert(v &lt;= 10)</code> at [<code>src/main.c&#58;8</code>](https://github.com/o/r/blob/h/src/main.c#L8) was violated on the base revision <code>0123456789ab</code>; no longer shown violated, not proved either: timeout after 60s** (in <code>check</code>, property <code>check&#58;v&lt;=10</code>)\n\n",
		"The finding stays open until reverify proves the assertion (TRUE)",
		"Reason: timeout after 60s (1,234 states)",
	} {
		if !strings.Contains(f, want) {
			t.Errorf("finding lacks %q:\n%s", want, f)
		}
	}
	c := markdown.ChangeFinding(&r.Properties[0], "src/clamp.c", 4, opts)
	if !strings.HasPrefix(c, "**❗ reverify: ") || !strings.Contains(c, "This comment sits on [<code>src/clamp.c&#58;4</code>](https://github.com/o/r/blob/h/src/clamp.c#L4), a line this pull request changes") {
		t.Errorf("change finding:\n%s", c)
	}
	w := markdown.Finding(&r.Properties[2], opts)
	for _, want := range []string{
		"**⚠️ reverify: <code>assert(k == 6)</code> at [<code>src/main.c&#58;14</code>](https://github.com/o/r/blob/h/src/main.c#L14) is not proved: timeout after 60s** (in <code>scale</code>, property <code>scale&#58;k==6</code>)",
		"Proved on the base revision <code>0123456789ab</code>; this change touches it",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warning lacks %q:\n%s", want, w)
		}
	}
	// An old UNKNOWN keeps the plain body.
	if u := markdown.Finding(&r.Properties[4], opts); !strings.HasPrefix(u, "**❓ reverify: assertion <code>s &#33;= 3</code> could not be decided**") {
		t.Errorf("old unknown:\n%s", u)
	}
}
