package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The sources of the tests of unresolved findings: clamp() in four
// versions, each verified by the configuration value (.reverify.yml) in a
// fraction of a second, except the slow ones, which count to 2^48 first
// and so time out under any short limit (UNKNOWN, "timeout after 1s").
const (
	unresMain = `#include <assert.h>
#include "clamp.h"

extern int __VERIFIER_nondet_int(void);

void check_clamp(void) {
  int v = clamp(__VERIFIER_nondet_int());
  assert(v <= LIMIT);
}

void check_scale(void) {
  int k = scale(2);
  assert(k == 6);
}

int main(void) {
  if (__VERIFIER_nondet_int())
    check_clamp();
  else
    check_scale();
  return 0;
}
`
	unresGood = `#include "clamp.h"

int clamp(int x) {
  if (x > LIMIT)
    return LIMIT;
  return x;
}

int scale(int y) { return y * 3; }
`
	// unresSlowGood is unresGood counting first: TRUE, but not within 1s.
	unresSlowGood = `#include "clamp.h"

int clamp(int x) {
  unsigned long long n = 0;
  while (n != 0xFFFFFFFFFFFFull)
    n++;
  if (x > LIMIT)
    return LIMIT;
  return x;
}

int scale(int y) { return y * 3; }
`
	unresHeader = "#ifndef CLAMP_H\n#define CLAMP_H\n\n#define LIMIT 10\n\nint clamp(int x);\nint scale(int y);\n\n#endif\n"
	unresConfig = "sources: [src/*.c]\ninclude: [include]\nconfig: value\ntimeout: 30s\n"
)

var (
	// unresBad returns LIMIT + 1: check_clamp's assertion is FALSE.
	unresBad = strings.Replace(unresGood, "return LIMIT;", "return LIMIT + 1;", 1)
	// unresSlowBad is unresBad counting first: still violated, but no
	// counterexample within 1s (UNKNOWN).
	unresSlowBad = strings.Replace(unresSlowGood, "return LIMIT;", "return LIMIT + 1;", 1)
)

// newCommitsWorld makes an actionWorld from files given inline: base (on
// main) and, on the branch feature, one commit per element of heads,
// each writing the files it maps. It returns the heads' SHAs; the files a
// pull request may change (prFiles) are those the heads write.
func newCommitsWorld(t *testing.T, base map[string]string, heads ...map[string]string) (*actionWorld, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	w := &actionWorld{t: t, origin: filepath.Join(root, "origin"), ws: filepath.Join(root, "workspace"),
		home: filepath.Join(root, "home"), runnerTmp: filepath.Join(root, "runner"), bin: filepath.Join(root, "reverify")}
	os.MkdirAll(w.home, 0o755)
	os.MkdirAll(w.runnerTmp, 0o755)
	if out, err := exec.Command("go", "build", "-o", w.bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := w.gitEnv()
	write := func(files map[string]string) {
		for name, text := range files {
			p := filepath.Join(w.origin, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.MkdirAll(w.origin, 0o755)
	gitIn(t, w.origin, env, "init", "-q", "-b", "main")
	write(base)
	gitIn(t, w.origin, env, "add", "-A")
	gitIn(t, w.origin, env, "commit", "-q", "-m", "base")
	w.base = gitIn(t, w.origin, env, "rev-parse", "HEAD")
	gitIn(t, w.origin, env, "checkout", "-q", "-b", "feature")
	seen := map[string]bool{}
	var shas []string
	for i, h := range heads {
		write(h)
		for name := range h {
			if !seen[name] {
				seen[name] = true
				w.files = append(w.files, name)
			}
		}
		gitIn(t, w.origin, env, "add", "-A")
		gitIn(t, w.origin, env, "commit", "-q", "--allow-empty", "-m", fmt.Sprint("head ", i+1))
		shas = append(shas, gitIn(t, w.origin, env, "rev-parse", "HEAD"))
	}
	sort.Strings(w.files)
	gitIn(t, root, env, "clone", "-q", "--depth=1", "--branch", "feature", "file://"+w.origin, w.ws)
	w.api = newFakeAPI(t)
	return w, shas
}

func unresBase(clamp string) map[string]string {
	return map[string]string{".reverify.yml": unresConfig, "include/clamp.h": unresHeader, "src/main.c": unresMain, "src/clamp.c": clamp}
}

// commentOf returns the body of the sticky comment a run posted or
// edited ("" if none).
func (r *actionRun) commentOf() string {
	for _, rec := range r.records {
		if rec.Method == "POST" && strings.HasSuffix(rec.Path, "/comments") && strings.Contains(rec.Path, "/issues/") ||
			rec.Method == "PATCH" && strings.Contains(rec.Path, "/issues/comments/") {
			b, _ := rec.Body["body"].(string)
			return b
		}
	}
	return ""
}

// record returns the body of the run's request "METHOD path-prefix".
func (r *actionRun) record(t *testing.T, method, prefix string) map[string]any {
	t.Helper()
	for _, rec := range r.records {
		if rec.Method == method && strings.HasPrefix(rec.Path, prefix) {
			return rec.Body
		}
	}
	t.Fatalf("no request %s %s among %v", method, prefix, r.requests)
	return nil
}

// reviewComments returns the inline comments of the run's new review.
func (r *actionRun) reviewComments(t *testing.T, pr int) []map[string]any {
	t.Helper()
	var out []map[string]any
	cs, _ := r.record(t, "POST", fmt.Sprintf("/repos/o/r/pulls/%d/reviews", pr))["comments"].([]any)
	for _, c := range cs {
		out = append(out, c.(map[string]any))
	}
	return out
}

func wantContains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// TestActionUnresolvedFromBase: check_clamp's assertion is FALSE on the
// base (the push that warms the cache finds it). The pull request makes
// clamp() count to 2^48 first: under a timeout of 1s the property is
// UNKNOWN. That resolves nothing: the gate fails under the default
// fail-on, the comment says the finding is still open and why, and the
// review puts the finding on the changed line of clamp.c (the assertion's
// line is not on the diff). A later head that proves the assertion
// resolves it: the inline comment goes, the review is marked resolved,
// the check run succeeds.
func TestActionUnresolvedFromBase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	w, heads := newCommitsWorld(t, unresBase(unresBad),
		map[string]string{"src/clamp.c": unresSlowBad},
		map[string]string{"src/clamp.c": unresGood})

	r := w.run("push", map[string]any{"after": w.base}, map[string]string{"fail-on": "never"})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "1", "false": "1", "unknown": "0"})

	// FALSE on the base, UNKNOWN (timeout) on the head.
	w.prFiles(heads[0])
	r = w.run("pull_request", prEvent(11, w.base, heads[0], "o/r"), map[string]string{"timeout": "1s"})
	r.wantCode(t, 1)
	r.wantOutputs(t, map[string]string{"true": "1", "false": "0", "unknown": "1"})
	sameLines(t, "unresolved: API requests", r.requests, []string{
		"GET /repos/o/r/issues/11/comments",
		"POST /repos/o/r/issues/11/comments",
		"GET /repos/o/r/pulls/11/files",
		"GET /repos/o/r/pulls/11/comments",
		"GET /repos/o/r/pulls/11/reviews",
		"POST /repos/o/r/pulls/11/reviews",
		"POST /repos/o/r/check-runs",
	})
	body := r.commentOf()
	wantContains(t, "unresolved: sticky comment", body,
		"❗ 1 assertion still open (violated before, unknown now) · ✅ 1 proved",
		"### ❗ Still open: violated before, not resolved",
		"was violated on the base revision <code>"+w.base[:12]+"</code>; no longer shown violated, not proved either: timeout after 1s",
		"| ❗\u00a0still\u00a0open |")
	if strings.Contains(body, "### ❓ Unknown") {
		t.Errorf("unresolved: the open finding is listed among the unknowns too:\n%s", body)
	}
	cs := r.reviewComments(t, 11)
	if len(cs) != 1 {
		t.Fatalf("unresolved: review comments %v", cs)
	}
	cb, _ := cs[0]["body"].(string)
	if cs[0]["path"] != "src/clamp.c" || cs[0]["line"] != float64(4) {
		t.Errorf("unresolved: inline comment at %v:%v, want src/clamp.c:4 (the first changed line in its slice)", cs[0]["path"], cs[0]["line"])
	}
	wantContains(t, "unresolved: inline comment", cb,
		"**❗ reverify: <code>assert(v &lt;= LIMIT)</code> at [<code>src/main.c&#58;8</code>]",
		"was violated on the base revision <code>"+w.base[:12]+"</code>; no longer shown violated, not proved either: timeout after 1s**",
		"<!-- reverify:finding ")
	cr := r.record(t, "POST", "/repos/o/r/check-runs")
	if cr["conclusion"] != "failure" {
		t.Errorf("unresolved: check run conclusion %v, want failure", cr["conclusion"])
	}
	if out, _ := cr["output"].(map[string]any); out["title"] != "❗ 1 assertion still open (violated before, unknown now) · ✅ 1 proved" {
		t.Errorf("unresolved: check run title %v", out["title"])
	}
	if as := annotationsIn(cr); len(as) != 1 || as[0].(map[string]any)["annotation_level"] != "failure" {
		t.Errorf("unresolved: annotations %v", as)
	}

	// fail-on violation (FALSE verdicts only) lets it pass, neutral; the
	// finding stays open in the comment and the review.
	r = w.run("pull_request", prEvent(11, w.base, heads[0], "o/r"), map[string]string{"timeout": "1s", "fail-on": "violation"})
	r.wantCode(t, 0)
	if cr := r.record(t, "POST", "/repos/o/r/check-runs"); cr["conclusion"] != "neutral" {
		t.Errorf("fail-on violation: conclusion %v, want neutral", cr["conclusion"])
	}
	if len(w.api.ReviewComments) != 1 {
		t.Errorf("fail-on violation: %d review comments, want the 1 kept", len(w.api.ReviewComments))
	}

	// Proved: resolved, the gate green.
	w.prFiles(heads[1])
	staleID := w.api.ReviewComments[0]["id"]
	r = w.run("pull_request", prEvent(11, w.base, heads[1], "o/r"), map[string]string{})
	r.wantCode(t, 0)
	sameLines(t, "proved: API requests", r.requests, []string{
		"GET /repos/o/r/issues/11/comments",
		fmt.Sprintf("PATCH /repos/o/r/issues/comments/%v", w.api.IssueComments[0]["id"]),
		"GET /repos/o/r/pulls/11/files",
		"GET /repos/o/r/pulls/11/comments",
		"GET /repos/o/r/pulls/11/reviews",
		fmt.Sprintf("DELETE /repos/o/r/pulls/comments/%v", staleID),
		fmt.Sprintf("PUT /repos/o/r/pulls/11/reviews/%v", w.api.Reviews[0]["id"]),
		"POST /repos/o/r/check-runs",
	})
	if cr := r.record(t, "POST", "/repos/o/r/check-runs"); cr["conclusion"] != "success" {
		t.Errorf("proved: conclusion %v, want success", cr["conclusion"])
	}
	wantContains(t, "proved: sticky comment", r.commentOf(), "✅ 2 assertions proved")
}

// TestActionUnresolvedInPullRequest: the base proves check_clamp's
// assertion; the pull request's first head breaks it (FALSE, inline
// comment on the changed line), its second head makes it time out
// (UNKNOWN): the finding found earlier in the pull request stays open,
// the gate fails, the inline comment stays where it is (neither deleted
// nor posted again). The third head proves it: resolved, gate green.
func TestActionUnresolvedInPullRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	w, heads := newCommitsWorld(t, unresBase(unresGood),
		map[string]string{"src/clamp.c": unresBad},
		map[string]string{"src/clamp.c": unresSlowBad},
		map[string]string{"src/clamp.c": unresGood})

	r := w.run("push", map[string]any{"after": w.base}, map[string]string{})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "2"})

	// 1. FALSE on the first head.
	w.prFiles(heads[0])
	r = w.run("pull_request", prEvent(12, w.base, heads[0], "o/r"), map[string]string{})
	r.wantCode(t, 1)
	if cs := r.reviewComments(t, 12); len(cs) != 1 || cs[0]["path"] != "src/clamp.c" || cs[0]["line"] != float64(5) {
		t.Fatalf("FALSE: review comments %v", cs)
	}
	inlineID := w.api.ReviewComments[0]["id"]

	// 2. UNKNOWN on the second head: still open.
	w.prFiles(heads[1])
	r = w.run("pull_request", prEvent(12, w.base, heads[1], "o/r"), map[string]string{"timeout": "1s"})
	r.wantCode(t, 1)
	sameLines(t, "unresolved: API requests", r.requests, []string{
		"GET /repos/o/r/issues/12/comments",
		fmt.Sprintf("PATCH /repos/o/r/issues/comments/%v", w.api.IssueComments[0]["id"]),
		"GET /repos/o/r/pulls/12/files",
		"GET /repos/o/r/pulls/12/comments",
		"GET /repos/o/r/pulls/12/reviews",
		"POST /repos/o/r/check-runs",
	})
	wantContains(t, "unresolved: sticky comment", r.commentOf(),
		"❗ 1 assertion still open (violated before, unknown now) · ✅ 1 proved",
		"was violated at <code>"+heads[0][:12]+"</code> earlier in this pull request; no longer shown violated, not proved either: timeout after 1s")
	if cr := r.record(t, "POST", "/repos/o/r/check-runs"); cr["conclusion"] != "failure" {
		t.Errorf("unresolved: conclusion %v, want failure", cr["conclusion"])
	}
	if len(w.api.ReviewComments) != 1 || w.api.ReviewComments[0]["id"] != inlineID {
		t.Errorf("unresolved: the inline comment did not stay: %v", w.api.ReviewComments)
	}
	if open := readFile(t, filepath.Join(w.ws, ".reverify", "cache", "pulls", "12.json")); !strings.Contains(open, `"check_clamp:v<=LIMIT"`) || !strings.Contains(open, heads[0]) {
		t.Errorf("open findings:\n%s", open)
	}

	// 3. TRUE on the third head: resolved.
	w.prFiles(heads[2])
	r = w.run("pull_request", prEvent(12, w.base, heads[2], "o/r"), map[string]string{})
	r.wantCode(t, 0)
	sameLines(t, "proved: API requests", r.requests, []string{
		"GET /repos/o/r/issues/12/comments",
		fmt.Sprintf("PATCH /repos/o/r/issues/comments/%v", w.api.IssueComments[0]["id"]),
		"GET /repos/o/r/pulls/12/files",
		"GET /repos/o/r/pulls/12/comments",
		"GET /repos/o/r/pulls/12/reviews",
		fmt.Sprintf("DELETE /repos/o/r/pulls/comments/%v", inlineID),
		fmt.Sprintf("PUT /repos/o/r/pulls/12/reviews/%v", w.api.Reviews[0]["id"]),
		"POST /repos/o/r/check-runs",
	})
	if cr := r.record(t, "POST", "/repos/o/r/check-runs"); cr["conclusion"] != "success" {
		t.Errorf("proved: conclusion %v, want success", cr["conclusion"])
	}
	if b, _ := w.api.Reviews[0]["body"].(string); !strings.Contains(b, "resolved as of <code>"+heads[2][:12]+"</code>") {
		t.Errorf("proved: the review was not marked resolved: %q", b)
	}
	if _, err := os.Stat(filepath.Join(w.ws, ".reverify", "cache", "pulls", "12.json")); !os.IsNotExist(err) {
		t.Errorf("proved: the open findings were not cleared: %v", err)
	}
}

// TestActionNewUnknownAtChange: the pull request makes clamp() count to
// 2^48 (still correct) and adds an assertion after check_clamp's. Both
// time out: check_clamp's, proved on the base, and the new one. Each is a
// warning the reviewer sees (a section of the comment, an inline comment
// on its line, which the diff shows), not a failure under the default
// fail-on: the check run is neutral and the step passes. fail-on unknown
// fails it, without posting the review again.
func TestActionNewUnknownAtChange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	newMain := strings.Replace(unresMain, "  assert(v <= LIMIT);\n", "  assert(v <= LIMIT);\n  assert(v != LIMIT + 5);\n", 1)
	w, heads := newCommitsWorld(t, unresBase(unresGood), map[string]string{"src/clamp.c": unresSlowGood, "src/main.c": newMain})

	r := w.run("push", map[string]any{"after": w.base}, map[string]string{})
	r.wantCode(t, 0)

	w.prFiles(heads[0])
	r = w.run("pull_request", prEvent(13, w.base, heads[0], "o/r"), map[string]string{"timeout": "1s"})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "1", "false": "0", "unknown": "2"})
	sameLines(t, "new unknown: API requests", r.requests, []string{
		"GET /repos/o/r/issues/13/comments",
		"POST /repos/o/r/issues/13/comments",
		"GET /repos/o/r/pulls/13/files",
		"GET /repos/o/r/pulls/13/comments",
		"GET /repos/o/r/pulls/13/reviews",
		"POST /repos/o/r/pulls/13/reviews",
		"POST /repos/o/r/check-runs",
	})
	body := r.commentOf()
	wantContains(t, "new unknown: sticky comment", body,
		"### ⚠️ Not proved where this change touches",
		"(<code>check&#95;clamp&#58;v&lt;=LIMIT</code>): not proved: timeout after 1s; proved on the base revision <code>"+w.base[:12]+"</code>.",
		"(<code>check&#95;clamp&#58;v&#33;=LIMIT+5</code>): not proved: timeout after 1s; a new assertion.")
	if strings.Contains(body, "### ❓ Unknown") {
		t.Errorf("new unknown: the warnings are listed among the unknowns too:\n%s", body)
	}
	cs := r.reviewComments(t, 13)
	var at []string
	for _, c := range cs {
		at = append(at, fmt.Sprintf("%v:%v", c["path"], c["line"]))
		cb, _ := c["body"].(string)
		wantContains(t, "new unknown: inline comment", cb, "**⚠️ reverify: <code>assert(v ", "not proved: timeout after 1s")
	}
	sort.Strings(at)
	sameLines(t, "new unknown: inline comments", at, []string{"src/main.c:8", "src/main.c:9"})
	cr := r.record(t, "POST", "/repos/o/r/check-runs")
	if cr["conclusion"] != "neutral" {
		t.Errorf("new unknown: conclusion %v, want neutral", cr["conclusion"])
	}
	for _, a := range annotationsIn(cr) {
		if l := a.(map[string]any)["annotation_level"]; l != "warning" {
			t.Errorf("new unknown: annotation level %v", l)
		}
	}

	r = w.run("pull_request", prEvent(13, w.base, heads[0], "o/r"), map[string]string{"timeout": "1s", "fail-on": "unknown"})
	r.wantCode(t, 1)
	if cr := r.record(t, "POST", "/repos/o/r/check-runs"); cr["conclusion"] != "failure" {
		t.Errorf("fail-on unknown: conclusion %v, want failure", cr["conclusion"])
	}
	if len(w.api.Reviews) != 1 || len(w.api.ReviewComments) != 2 {
		t.Errorf("fail-on unknown: %d reviews, %d review comments; want 1 and 2", len(w.api.Reviews), len(w.api.ReviewComments))
	}
}

// TestActionDocOnlyPullRequest: on the base, where clamp() counts to
// 2^48 first, both assertions are UNKNOWN under a timeout of 1s, and the
// push caches the UNKNOWNs. A
// pull request that changes only the README reuses every verdict: the
// check run carries no annotation for the UNKNOWNs of code it does not
// change, there is nothing to review, and the sticky comment still
// lists them.
func TestActionDocOnlyPullRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	base := unresBase(unresSlowGood)
	base["README.md"] = "# clamp\n"
	w, heads := newCommitsWorld(t, base, map[string]string{"README.md": "# clamp\n\nClamps integers.\n"})

	r := w.run("push", map[string]any{"after": w.base}, map[string]string{"timeout": "1s"})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "0", "unknown": "2"})

	w.prFiles(heads[0])
	r = w.run("pull_request", prEvent(14, w.base, heads[0], "o/r"), map[string]string{"timeout": "1s"})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "0", "unknown": "2", "reverified": "0", "reused": "2"})
	sameLines(t, "documentation only: API requests", r.requests, []string{
		"GET /repos/o/r/issues/14/comments",
		"POST /repos/o/r/issues/14/comments",
		"GET /repos/o/r/pulls/14/files",
		"GET /repos/o/r/pulls/14/comments",
		"GET /repos/o/r/pulls/14/reviews",
		"POST /repos/o/r/check-runs",
	})
	cr := r.record(t, "POST", "/repos/o/r/check-runs")
	if as := annotationsIn(cr); len(as) != 0 || cr["conclusion"] != "neutral" {
		t.Errorf("documentation only: check run conclusion %v, annotations %v; want neutral, none", cr["conclusion"], as)
	}
	wantContains(t, "documentation only: sticky comment", r.commentOf(), "### ❓ Unknown", "(<code>check&#95;clamp&#58;v&lt;=LIMIT</code>): timeout after 1s")
}
