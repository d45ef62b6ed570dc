package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

// The tests of what a reviewer takes in: publishReport against the fake
// API, with the exact requests and, where the body matters, golden files
// under testdata/review (rewritten by go test -run TestActionReview
// -update).

// reviewWorld is the step's side of a publishReport test: the fake API,
// a pull request (number 9) whose head changed the lines in changed, a
// job summary and outputs.
type reviewWorld struct {
	api *fakeAPI
	env github.Env
	ev  *event
	o   postFlags
	dir string
}

func newReviewWorld(t *testing.T, changed lineSet, files []map[string]any) *reviewWorld {
	t.Helper()
	w := &reviewWorld{api: newFakeAPI(t), dir: t.TempDir()}
	w.api.Files = files
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(w.dir, "summary"))
	t.Setenv("GITHUB_OUTPUT", filepath.Join(w.dir, "output"))
	w.env = github.Env{Repository: "o/r", APIURL: w.api.URL, ServerURL: "https://github.com", Token: "t0ken", RunID: "4242"}
	w.ev = &event{Event: github.Event{Name: "pull_request", PR: 9, Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40)}, changed: &changed}
	w.o = postFlags{failOn: "unresolved", commentMode: "all", checkName: "reverify", output: filepath.Join(w.dir, "out")}
	return w
}

// publish runs publishReport and returns the requests and their records.
func (w *reviewWorld) publish(t *testing.T, r *results.Report) ([]string, []apiRequest) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	publishReport(context.Background(), w.env, w.ev, r, w.o, false, &stdout, &stderr)
	if strings.Contains(stdout.String(), "failed") {
		t.Errorf("reporting failed:\n%s", stdout.String())
	}
	return w.api.Take()
}

// requestBytes is the size of a request's JSON body as go-github sends
// it (no HTML escaping).
func requestBytes(body map[string]any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(body)
	return b.Len() - 1
}

// reviewGolden is the directory of the golden files, absolute: a test
// may change the working directory.
var reviewGolden = func() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "testdata", "review")
}()

// golden compares got with testdata/review/name, rewriting it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(reviewGolden, name)
	if *updateConfigTable {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (run go test -run %s -update and inspect the diff):\n%s", t.Name(), path, t.Name(), got)
	}
}

// helperReport is a change to clamp() (src/clamp.c:5, "return LIMIT +
// 1;") that breaks n assertions in as many callers (src/main.c, lines
// 101 to 100+n): each counterexample passes through the changed line.
func helperReport(n int) *results.Report {
	r := &results.Report{Schema: results.SchemaVersion, Engine: version, Entry: "main", Config: "value", Summary: map[string]int{}}
	for i := 1; i <= n; i++ {
		fn := fmt.Sprintf("check_%d", i)
		line := 100 + i
		step0 := 0
		r.Properties = append(r.Properties, results.PropertyReport{
			ID: fmt.Sprintf("%s:v<=LIMIT+%d", fn, i-1), File: "src/main.c", Line: line, Column: 3, Function: fn,
			Expression: fmt.Sprintf("v <= LIMIT + %d", i-1), Verdict: results.False, Config: "value", CPUSeconds: 0.05,
			Reason: "counterexample confirmed by SMT and concrete replay", Reverified: []string{"`clamp` changed, 1 call away"},
			Inputs:        []results.InputJSON{{Source: "__VERIFIER_nondet_int()", Type: "int", Value: int64(10 + i), Line: 40, Step: &step0}},
			FailureValues: []results.FailureValue{{Expr: "v", Type: "int", Value: int64(10 + i)}},
			Steps: []results.StepJSON{
				{File: "src/main.c", Line: 40, Op: "__t0 = __VERIFIER_nondet_int()", Text: "int x = __VERIFIER_nondet_int()"},
				{File: "src/main.c", Line: 40, Op: "x = __t0", Text: "int x = __VERIFIER_nondet_int()"},
				{File: "src/main.c", Line: 41, Op: "enter " + fn, Text: fn + "(x)"},
				{File: "src/main.c", Line: line, Op: "enter clamp", Text: "int v = clamp(x)"},
				{File: "src/clamp.c", Line: 4, Op: "[x > 10]", Text: "x > LIMIT"},
				{File: "src/clamp.c", Line: 5, Op: "return 10 + 1", Text: "return LIMIT + 1;"},
				{File: "src/main.c", Line: line, Op: "return from clamp", Text: "int v = clamp(x)"},
				{File: "src/main.c", Line: line, Op: "v = __ret", Text: "int v = clamp(x)"},
				{File: "src/main.c", Line: line, Op: fmt.Sprintf("[!(v <= 10 + %d)]", i-1), Text: fmt.Sprintf("v <= LIMIT + %d", i-1)},
			},
		})
		r.Summary[string(results.False)]++
	}
	return r
}

var clampPatch = []map[string]any{{"filename": "src/clamp.c", "status": "modified",
	"patch": "@@ -4,4 +4,4 @@ int clamp(int x) {\n   if (x > LIMIT)\n-    return LIMIT;\n+    return LIMIT + 1;\n   return x;"}}

// TestActionReviewOneLine: one changed line of a helper breaks 60
// assertions. The review carries ONE inline comment on that line: the
// first finding's counterexample in full, the other 59 folded, each
// with its property and location, every finding's fingerprint marker.
// A re-run posts nothing; when one of the 60 is fixed the comment is
// edited (that one marked resolved), not deleted.
func TestActionReviewOneLine(t *testing.T) {
	w := newReviewWorld(t, lineSet{"src/clamp.c": {5: true}}, clampPatch)
	r := helperReport(60)
	got, reqs := w.publish(t, r)
	sameLines(t, "requests", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
		"PATCH /repos/o/r/check-runs/1004",
	})
	review := reqs[5].Body
	t.Logf("the review request: %d bytes", requestBytes(review))
	cs, _ := review["comments"].([]any)
	if len(cs) != 1 {
		t.Fatalf("%d inline comments, want 1", len(cs))
	}
	c := cs[0].(map[string]any)
	if c["path"] != "src/clamp.c" || c["line"] != float64(5) || c["side"] != "RIGHT" {
		t.Errorf("inline comment at %v:%v (%v), want src/clamp.c:5 RIGHT", c["path"], c["line"], c["side"])
	}
	body, _ := c["body"].(string)
	for _, p := range r.Properties {
		if m := github.FindingMarker(sarif.Fingerprint("main", p.ID)); strings.Count(body, m) != 1 {
			t.Errorf("the comment does not carry %s once", m)
		}
	}
	if n := strings.Count(body, "<details><summary>❌ <code>assert(v &lt;= LIMIT + "); n != 59 {
		t.Errorf("%d folded findings, want 59", n)
	}
	if n := requestBytes(review); n > 64<<10 {
		t.Errorf("the review request has %d bytes, want at most 64 KiB", n)
	}
	golden(t, "one_line.md", body)
	if rb, _ := review["body"].(string); strings.Count(rb, "<!-- reverify:inline ") != 60 {
		t.Errorf("review body records %d inline fingerprints, want 60:\n%s", strings.Count(rb, "<!-- reverify:inline "), rb)
	}

	// The same head again: no new comment, no new review.
	got, _ = w.publish(t, r)
	sameLines(t, "re-run", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
		"PATCH /repos/o/r/check-runs/1005",
	})

	// check_7 is fixed: the comment stays for the other 59, edited.
	fixed := helperReport(60)
	fixed.Properties[6].Verdict = results.True
	fixed.Summary = map[string]int{"FALSE": 59, "TRUE": 1}
	id := w.api.ReviewComments[0]["id"]
	got, reqs = w.publish(t, fixed)
	sameLines(t, "one fixed", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"PATCH /repos/o/r/issues/comments/1001",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		fmt.Sprintf("PATCH /repos/o/r/pulls/comments/%v", id),
		"POST /repos/o/r/check-runs",
		"PATCH /repos/o/r/check-runs/1006",
	})
	edited, _ := reqs[5].Body["body"].(string)
	fp := sarif.Fingerprint("main", fixed.Properties[6].ID)
	if !strings.Contains(edited, "<!-- reverify:resolved "+fp+" -->") || strings.Contains(edited, github.FindingMarker(fp)) ||
		!strings.Contains(edited, "✅ **Resolved as of <code>bbbbbbbbbbbb</code>**: the next finding is no longer reported.\n\n<details><summary>❌ <code>assert(v &lt;= LIMIT + 6)</code>") {
		t.Errorf("edited comment:\n%s", edited)
	}
	if strings.Count(edited, "<!-- reverify:finding ") != 59 {
		t.Errorf("the edited comment carries %d finding markers, want 59", strings.Count(edited, "<!-- reverify:finding "))
	}
}

// TestActionReviewCap: a change that breaks 25 assertions on 25 lines
// of the diff gets 20 inline comments (github.MaxInlineComments); the
// review body says that 5 more are in the summary comment, which lists
// all 25.
func TestActionReviewCap(t *testing.T) {
	patch := "@@ -0,0 +1,30 @@\n" + strings.Repeat("+x;\n", 30)
	changed := lineSet{"src/main.c": {}}
	for l := 1; l <= 30; l++ {
		changed["src/main.c"][l] = true
	}
	w := newReviewWorld(t, changed, []map[string]any{{"filename": "src/main.c", "status": "added", "patch": patch}})
	r := helperReport(25)
	for i := range r.Properties {
		r.Properties[i].Line = i + 1 // the assertions themselves are on added lines
	}
	got, reqs := w.publish(t, r)
	sameLines(t, "requests", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
	})
	review := reqs[5].Body
	var at []string
	for _, x := range review["comments"].([]any) {
		c := x.(map[string]any)
		at = append(at, fmt.Sprintf("%v:%v", c["path"], c["line"]))
	}
	var want []string
	for l := 1; l <= 20; l++ {
		want = append(want, fmt.Sprintf("src/main.c:%d", l))
	}
	sameLines(t, "inline comments", at, want)
	var capped []string
	for _, p := range r.Properties[20:] {
		capped = append(capped, "<!-- reverify:capped "+sarif.Fingerprint("main", p.ID)+" -->")
	}
	rb, _ := review["body"].(string)
	wantTail := "\n5 more findings are not commented inline: a review gets at most 20 inline comments. The summary comment lists them. " + strings.Join(capped, "") + "\n"
	if !strings.HasSuffix(rb, wantTail) {
		t.Errorf("review body:\n%s\nwant it to end with:\n%s", rb, wantTail)
	}
	sticky, _ := reqs[1].Body["body"].(string)
	for _, p := range r.Properties {
		if !strings.Contains(sticky, "<code>v &lt;= LIMIT + "+strings.TrimPrefix(p.Expression, "v <= LIMIT + ")+"</code>") {
			t.Errorf("the summary comment does not list %s", p.ID)
		}
	}
	// A re-run posts no review: 20 comments are there, 5 recorded.
	got, _ = w.publish(t, r)
	for _, g := range got {
		if strings.HasPrefix(g, "POST /repos/o/r/pulls/") {
			t.Errorf("re-run: %s", g)
		}
	}
}

// memUAF is a use after free through two helpers: make() allocates the
// block (line 4), release() frees it (line 12), main reads it (line 18).
// The pull request changed main's first line.
const memUAF = `#include <stdlib.h>

int *make(void) {
  int *p = malloc(sizeof(int));
  if (p == 0)
    exit(0);
  *p = 1;
  return p;
}

void release(int *p) {
  free(p);
}

int main(void) {
  int *p = make();
  release(p);
  return *p;
}
`

// TestActionReviewMemory verifies memUAF's memory safety (check
// --properties memory) and reports it on a pull request that changed
// line 16 (int *p = make();): the inline comment sits there and says
// what happened to which block, with no heap name and no assertion; the
// counterexample shows the free inside release(), a call that would
// otherwise be folded (it reads no input, touches no changed line); the
// reproducer note
// gives AddressSanitizer's report and exit status; the annotation and
// SARIF use the rule invalid-dereference.
func TestActionReviewMemory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll("src", 0o755)
	if err := os.WriteFile("src/f.c", []byte(memUAF), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--properties", "memory", "--config", "value", "--output", "out", "src/f.c"}, &stdout, &stderr); code != 1 {
		t.Fatalf("check: exit %d, want 1\n%s%s", code, stdout.String(), stderr.String())
	}
	r := readReport(t, "out/results.json")
	w := newReviewWorld(t, lineSet{"src/f.c": {16: true}},
		[]map[string]any{{"filename": "src/f.c", "status": "modified", "patch": "@@ -15,3 +15,3 @@ int main(void) {\n int main(void) {\n-  int *p = 0;\n+  int *p = make();\n   release(p);"}})
	w.o.output = "out"
	got, reqs := w.publish(t, r)
	sameLines(t, "requests", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
	})
	cs, _ := reqs[5].Body["comments"].([]any)
	if len(cs) != 1 {
		t.Fatalf("%d inline comments, want 1", len(cs))
	}
	c := cs[0].(map[string]any)
	if c["path"] != "src/f.c" || c["line"] != float64(16) {
		t.Errorf("inline comment at %v:%v, want src/f.c:16 (the changed line)", c["path"], c["line"])
	}
	body, _ := c["body"].(string)
	golden(t, "memory.md", body)
	wantContains(t, "inline comment", body,
		"**❌ reverify: this change lets <code>p</code> be dereferenced after <code>free</code> (the block allocated at [<code>src/f.c&#58;4</code>]",
		"| <code>free(p)</code> |")
	for _, bad := range []string{"heap", "assert", "77"} {
		if strings.Contains(body, bad) {
			t.Errorf("the inline comment says %q", bad)
		}
	}
	sticky, _ := reqs[1].Body["body"].(string)
	wantContains(t, "summary comment", sticky,
		"<details open><summary>❌ use after free of <code>p</code> at <a href=",
		"Reproduce (built with AddressSanitizer, the run stops at the violation with <code>ERROR&#58; AddressSanitizer&#58; heap-use-after-free</code> on stderr and exit status 1, not 77):",
		"| <code>free(p)</code> |")
	if strings.Contains(sticky, "heap7") || strings.Contains(sticky, "exit code 77") {
		t.Errorf("the summary comment names a heap object or exit code 77:\n%s", sticky)
	}
	var anns []string
	for _, a := range annotationsIn(reqs[6].Body) {
		m := a.(map[string]any)
		anns = append(anns, fmt.Sprintf("%v %v:%v %v: %v", m["annotation_level"], m["path"], m["start_line"], m["title"], m["message"]))
	}
	sameLines(t, "annotations", anns, []string{
		"failure src/f.c:18 reverify: use after free of p (valid-deref): Use after free of p (valid-deref): p can be dereferenced after free (the block allocated at src/f.c:4 by malloc, freed at src/f.c:12) in main. " +
			"Reason: valid-deref: access to the block allocated at src/f.c:4 by malloc after it was freed (*p) at src/f.c:18:3; confirmed by SMT and concrete replay.",
	})
	var log sarif.Log
	if err := json.Unmarshal([]byte(readFile(t, "out/results.sarif")), &log); err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, res := range log.Runs[0].Results {
		rules = append(rules, res.RuleID+" "+log.Runs[0].Tool.Driver.Rules[res.RuleIndex].ID+" "+res.Level)
	}
	sameLines(t, "SARIF results", rules, []string{"invalid-dereference invalid-dereference error"})

	// What the note says is what the reproducer does.
	var repro string
	for _, p := range r.Properties {
		if p.Verdict == results.False {
			repro = p.Reproducer
		}
	}
	script := filepath.Join(filepath.Dir(repro), "reproduce.sh")
	wantContains(t, "reproduce.sh", readFile(t, script), "# Builds and runs the reproducer with AddressSanitizer, which reports the memory-safety\n# violation on stderr and exits with status 1")
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	out, err := exec.Command("sh", script).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "ERROR: AddressSanitizer: heap-use-after-free") {
		t.Errorf("reproduce.sh: %v, want exit status 1 with AddressSanitizer's heap-use-after-free:\n%s", err, out)
	}
}

// docOnlyReport is the report of a pull request that changes no
// analysed code: both properties reused from the verdict cache, one
// UNKNOWN (a timeout, as on the base) and one TRUE.
func docOnlyReport() *results.Report {
	return &results.Report{Schema: results.SchemaVersion, Engine: version, Entry: "main", Config: "value",
		Summary: map[string]int{"UNKNOWN": 1, "TRUE": 1},
		Properties: []results.PropertyReport{
			{ID: "check_clamp:v<=LIMIT", File: "src/main.c", Line: 8, Column: 3, Function: "check_clamp", Expression: "v <= LIMIT",
				Verdict: results.Unknown, Reason: "timeout after 1s", Cause: &results.Cause{Kind: results.CauseTimeout, Limit: "1s"},
				Config: "value", CacheHit: true, SliceHash: "5eed", Earlier: &results.Earlier{Verdict: results.Unknown, On: results.EarlierBase}},
			{ID: "check_scale:k==6", File: "src/main.c", Line: 13, Column: 3, Function: "check_scale", Expression: "k == 6",
				Verdict: results.True, Config: "value", CacheHit: true, SliceHash: "5ca1e"},
		}}
}

// TestActionReviewDocOnly: a pull request that changes only the README
// reuses every verdict from the cache. The UNKNOWN of unchanged code was
// reported before: the check run carries no annotation for it (the
// summary comment still lists it), and there is nothing to review. An
// UNKNOWN at a line the pull request changes is still annotated.
func TestActionReviewDocOnly(t *testing.T) {
	readme := []map[string]any{{"filename": "README.md", "status": "modified", "patch": "@@ -1 +1 @@\n-# clamp\n+# clamp, a library"}}
	w := newReviewWorld(t, lineSet{}, readme)
	got, reqs := w.publish(t, docOnlyReport())
	sameLines(t, "requests", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
	})
	cr := reqs[5].Body
	if as := annotationsIn(cr); len(as) != 0 || cr["conclusion"] != "neutral" {
		t.Errorf("check run: conclusion %v, annotations %v; want neutral and none", cr["conclusion"], as)
	}
	wantContains(t, "summary comment", reqs[1].Body["body"].(string), "### ❓ Unknown", "<code>v &lt;= LIMIT</code> at ")

	// The same UNKNOWN at a line the pull request changes is annotated.
	w = newReviewWorld(t, lineSet{"src/main.c": {8: true}}, []map[string]any{{"filename": "src/main.c", "status": "modified", "patch": "@@ -8 +8 @@\n-  assert(v <= LIMIT); \n+  assert(v <= LIMIT);"}})
	_, reqs = w.publish(t, docOnlyReport())
	var anns []string
	for _, a := range annotationsIn(reqs[len(reqs)-1].Body) {
		m := a.(map[string]any)
		anns = append(anns, fmt.Sprintf("%v %v:%v", m["annotation_level"], m["path"], m["start_line"]))
	}
	sameLines(t, "annotations at a change", anns, []string{"warning src/main.c:8"})
}
