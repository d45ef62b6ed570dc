package markdown_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/results"
)

// TestMemoryFinding renders a use after free (results/testdata: a block
// malloc'ed in make() at f.c:4, freed in release() at f.c:12, read in
// main at f.c:18) as the inline comment on its line, the one on a
// changed line of its counterexample, a folded entry and the summary,
// compared with testdata/memory.golden.md: the violation is worded as
// what happened to which block, never as an assertion or a heap name
// ("heap7#0"); the call that frees stays in the counterexample; the
// reproducer note states AddressSanitizer's report and exit status.
func TestMemoryFinding(t *testing.T) {
	data, err := os.ReadFile("../../results/testdata/use_after_free.json")
	if err != nil {
		t.Fatal(err)
	}
	var p results.PropertyReport
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	p.Reproducer = "out/main_valid-deref/reproducer.c"
	opts := markdown.Options{ReproducerCommand: func(*results.PropertyReport) string { return "sh out/main_valid-deref/reproduce.sh" }}
	r := &results.Report{Entry: "main", Config: "value", Properties: []results.PropertyReport{p}}
	got := "# Finding\n\n" + markdown.Finding(&p, opts) + "\n# ChangeFinding\n\n" + markdown.ChangeFinding(&p, "f.c", 17, opts) +
		"\n# FindingLabel\n\n" + markdown.FindingLabel(&p, opts) + "\n\n# FindingBrief\n\n" + markdown.FindingBrief(&p, opts) + "\n\n# Summary\n\n" + markdown.Summary(r, opts)
	for _, bad := range []string{"heap7", "assert(", "77:", "exit code 77"} {
		if strings.Contains(got, bad) {
			t.Errorf("the rendering contains %q", bad)
		}
	}
	for _, want := range []string{
		"**❌ reverify: <code>p</code> can be dereferenced after <code>free</code> (the block allocated at <code>f.c&#58;4</code> by <code>malloc</code>, freed at <code>f.c&#58;12</code>)**",
		"**❌ reverify: this change lets <code>p</code> be dereferenced after <code>free</code> (the block allocated at <code>f.c&#58;4</code> by <code>malloc</code>, freed at <code>f.c&#58;12</code>) at <code>f.c&#58;18</code>**",
		"| 11 | <code>f.c&#58;12</code> | <code>free(p)</code> |  |",
		"Reproduce (built with AddressSanitizer, the run stops at the violation with <code>ERROR&#58; AddressSanitizer&#58; heap-use-after-free</code> on stderr and exit status 1, not 77):",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the rendering lacks %q", want)
		}
	}
	golden := filepath.Join("testdata", "memory.golden.md")
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
		t.Errorf("rendering differs from %s (run go test -update and inspect the diff):\n%s", golden, got)
	}
}

func TestReproduceNote(t *testing.T) {
	for _, c := range []struct {
		violated, reason, want string
		fact                   *results.MemoryViolation
	}{
		{"", "", "Reproduce (exit code 77: the assertion fails):", nil},
		{"valid-free", "valid-free: double free of heap3#0 at a.c:9:2; confirmed by SMT and concrete replay", "<code>ERROR&#58; AddressSanitizer&#58; attempting double-free</code>", &results.MemoryViolation{Problem: results.DoubleFree, Object: "heap3#0"}},
		{"valid-deref", "valid-deref: NULL pointer dereference (*p) at a.c:3:1; confirmed by SMT and concrete replay", "<code>ERROR&#58; AddressSanitizer&#58; SEGV</code>", &results.MemoryViolation{Problem: results.NullDeref, Access: "*p"}},
		{"valid-memtrack", "valid-memtrack: heap2#0 is allocated but no longer reachable at a.c:7:1; confirmed by SMT and concrete replay", "LeakSanitizer&#39;s", &results.MemoryViolation{Problem: results.Leak, Object: "heap2#0"}},
		{"valid-memcleanup", "valid-memcleanup: heap2#0 is still allocated at the end of the program at a.c:9:1; confirmed by SMT and concrete replay", "LeakSanitizer does not report a block still reachable at exit", &results.MemoryViolation{Problem: results.NotFreed, Object: "heap2#0"}},
	} {
		p := results.PropertyReport{Verdict: results.False, Violated: c.violated, Reason: c.reason, Expression: "x > 0", Memory: c.fact}
		if got := markdown.ReproduceNote(&p); !strings.Contains(got, c.want) && !strings.Contains(got, strings.ReplaceAll(c.want, "&#39;", "'")) {
			t.Errorf("%s: %q lacks %q", c.reason, got, c.want)
		}
	}
}

// TestMemoryOtherDetail: a detail of no known form is shown escaped,
// from the typed fact (the reason's text is not read).
func TestMemoryOtherDetail(t *testing.T) {
	p := results.PropertyReport{ID: "main:valid-deref@a.c:3:1", File: "a.c", Line: 3, Function: "main", Expression: "G valid-deref",
		Verdict: results.False, Violated: "valid-deref", Reason: "valid-deref: *p_q* <b>odd</b> at a.c:3:1; confirmed by SMT and concrete replay",
		Memory: &results.MemoryViolation{Problem: results.OtherViolation, Detail: "*p_q* <b>odd</b>"}}
	got := markdown.MemoryHeadline(&p, markdown.Options{})
	if want := "reverify: the memory-safety property <code>valid-deref</code> can fail: &#42;p&#95;q&#42; &lt;b&gt;odd&lt;/b&gt;"; got != want {
		t.Errorf("headline %q, want %q", got, want)
	}
}
