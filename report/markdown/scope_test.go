package markdown

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

func TestScopeText(t *testing.T) {
	s := &results.Scope{Functions: []string{"clamp_len", "parse_header"}, FunctionsTotal: 14}
	if got, want := ScopeText(s, results.True), "proof depends on <code>clamp&#95;len</code>, <code>parse&#95;header</code> (2 of 14 functions)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p := &results.Scope{Functions: []string{"main"}, FunctionsTotal: 1, Partial: true}
	if got, want := ScopeText(p, results.False), "counterexample found in <code>main</code> (1 of 1 function; partial scope)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	many := &results.Scope{Functions: []string{"a", "b", "c", "d", "e", "f", "g"}, FunctionsTotal: 9}
	if got, want := ScopeText(many, results.True), "proof depends on <code>a</code>, <code>b</code>, <code>c</code>, <code>d</code>, <code>e</code>, <code>f</code>, … (7 of 9 functions)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if ScopeText(nil, results.True) != "" {
		t.Error("text without a scope")
	}
	// In the sticky comment, under the assertion of the table row.
	r := &results.Report{Properties: []results.PropertyReport{{ID: "main:x", File: "a.c", Line: 3, Expression: "x", Verdict: results.True, Scope: s}}}
	if out := Summary(r, Options{}); !strings.Contains(out, "| <code>x</code><br><code>a.c&#58;3</code><br>proof depends on <code>clamp&#95;len</code>, <code>parse&#95;header</code> (2 of 14 functions) | new |") {
		t.Errorf("summary lacks the scope:\n%s", out)
	}
}
