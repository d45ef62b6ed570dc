package github_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

// runner is a fake Actions runner: environment files in a temp dir and a
// buffer for stdout.
type runner struct {
	env     map[string]string
	out     bytes.Buffer
	summary string
	output  string
}

func newRunner(t *testing.T) *runner {
	dir := t.TempDir()
	r := &runner{summary: filepath.Join(dir, "step_summary.md"), output: filepath.Join(dir, "output")}
	r.env = map[string]string{"GITHUB_STEP_SUMMARY": r.summary, "GITHUB_OUTPUT": r.output}
	return r
}

func (r *runner) actions() *github.Actions {
	return github.NewActions(func(k string) string { return r.env[k] }, &r.out)
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func publication() github.Publication {
	fs := findings()
	fs = append(fs, github.Finding{Path: "src/d.c", Line: 3, Column: 5, Level: github.LevelWarning,
		Title: "reverify: assertion p unknown", Message: "Assertion p could not be decided: timeout.", Fingerprint: "fpunknown"})
	return github.Publication{
		PR: 7, HeadSHA: "abc123", Summary: markdown.Marker + "\n## reverify\n\n❌ 4 assertions violated\n",
		Findings: fs, CheckName: "reverify", Conclusion: "failure", Outputs: map[string]string{"violations": "4"},
	}
}

func TestPublish(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	f.Files = prFiles()
	c, _ := clientOf(f, t)
	rn := newRunner(t)
	res := github.Publish(context.Background(), c, rn.actions(), publication())
	if err := res.Err(); err != nil || res.ReadOnly {
		t.Fatalf("%v (%s)", err, res)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/issues/7/comments",
		"POST /repos/o/r/issues/7/comments",
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/check-runs",
	})
	// The review gets only failures; the check run all findings.
	if strings.Contains(reqs[5].Body["body"].(string), "fpunknown") {
		t.Errorf("review mentions the unknown finding")
	}
	if n := len(asSlice(reqs[6].Body["output"].(map[string]any)["annotations"])); n != 5 {
		t.Errorf("check run has %d annotations, want 5", n)
	}
	for _, ch := range []github.Channel{github.ChannelComment, github.ChannelReview, github.ChannelCheckRun, github.ChannelJobSummary, github.ChannelOutputs} {
		if !res.OK(ch) {
			t.Errorf("%s not ok: %s", ch, res)
		}
	}
	if res.OK(github.ChannelAnnotations) || rn.out.Len() != 0 {
		t.Errorf("workflow annotations printed although the check run carries them: %q", rn.out.String())
	}
	if s := read(t, rn.summary); !strings.Contains(s, "❌ 4 assertions violated") {
		t.Errorf("job summary %q", s)
	}
	if s := read(t, rn.output); !strings.Contains(s, "violations<<") || !strings.Contains(s, "\n4\n") {
		t.Errorf("outputs %q", s)
	}
}

// TestForkFallback: a pull request from a fork gets a read-only token;
// the first write answers 403, the client stops calling the API and the
// runner channels take over.
func TestForkFallback(t *testing.T) {
	f := newFake(t)
	for _, m := range []string{"POST", "PATCH", "DELETE"} {
		f.Fail(failure{Method: m, PathPrefix: "/repos/", Status: 403, Times: -1,
			Body: `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/issues/comments#create-an-issue-comment"}`})
	}
	c, sl := clientOf(f, t)
	rn := newRunner(t)
	res := github.Publish(context.Background(), c, rn.actions(), publication())

	got, _ := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/issues/7/comments",
		"POST /repos/o/r/issues/7/comments",
	})
	if len(sl.d) != 0 {
		t.Errorf("403 without rate limit was retried: %v", sl.d)
	}
	if !res.ReadOnly || !errors.Is(res.Failed[github.ChannelComment], github.ErrReadOnly) {
		t.Errorf("result %s", res)
	}
	for _, ch := range []github.Channel{github.ChannelReview, github.ChannelCheckRun} {
		if res.Skipped[ch] != "read-only token" {
			t.Errorf("%s: skipped %q", ch, res.Skipped[ch])
		}
	}
	for _, ch := range []github.Channel{github.ChannelJobSummary, github.ChannelAnnotations, github.ChannelOutputs} {
		if !res.OK(ch) {
			t.Errorf("%s not ok: %s", ch, res)
		}
	}
	if s := read(t, rn.summary); !strings.HasPrefix(s, markdown.Marker) || !strings.Contains(s, "❌ 4 assertions violated") {
		t.Errorf("job summary %q", s)
	}
	equal(t, "workflow commands", strings.Split(strings.TrimSpace(rn.out.String()), "\n"), []string{
		"::error file=src/a.c,line=12,title=assertion x > 0 violated::x > 0 fails",
		"::error file=src/b.c,line=2,title=assertion a violated::a fails",
		"::error file=src/a.c,line=40,title=assertion z <| w violated::z fails",
		"::error file=src/c.c,line=7,title=assertion q violated::q fails",
		"::warning col=5,file=src/d.c,line=3,title=reverify%3A assertion p unknown::Assertion p could not be decided: timeout.",
	})
	if s := res.String(); !strings.Contains(s, "read-only token: fell back to the job summary and workflow-command annotations") ||
		!strings.Contains(s, "comment failed (github: create issue comment: 403 Forbidden (token cannot write") {
		t.Errorf("String() = %s", s)
	}
	if res.Err() == nil {
		t.Errorf("Err() = nil; the caller must see the failure (and not fail the build)")
	}
}

func TestPublishWithoutClient(t *testing.T) {
	rn := newRunner(t)
	res := github.Publish(context.Background(), nil, rn.actions(), publication())
	if !res.OK(github.ChannelJobSummary) || !res.OK(github.ChannelAnnotations) || res.Skipped[github.ChannelComment] != "no API client" {
		t.Errorf("%s", res)
	}
	res = github.Publish(context.Background(), nil, nil, github.Publication{})
	if len(res.Done) != 0 || res.Err() != nil {
		t.Errorf("%s", res)
	}
}

func TestRetryThenSuccess(t *testing.T) {
	f := newFake(t)
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/check-runs", Status: 502, Times: 1})
	c, sl := clientOf(f, t)
	if _, err := c.CheckRun(context.Background(), "abc", "reverify", "success", "ok", manyAnnotations(3)); err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{"POST /repos/o/r/check-runs", "POST /repos/o/r/check-runs"})
	if len(asSlice(reqs[1].Body["output"].(map[string]any)["annotations"])) != 3 {
		t.Errorf("retried request lost its body: %v", reqs[1].Body)
	}
	if len(sl.d) != 1 || sl.d[0] != time.Second {
		t.Errorf("sleeps %v, want [1s]", sl.d)
	}
	if len(f.CheckRuns) != 1 {
		t.Errorf("%d check runs", len(f.CheckRuns))
	}
}

func TestRetryExhausted(t *testing.T) {
	f := newFake(t)
	f.Fail(failure{Method: "GET", PathPrefix: "/repos/o/r/issues/1/comments", Status: 503, Times: -1})
	c, sl := clientOf(f, t)
	_, _, err := c.UpsertSummary(context.Background(), 1, "x")
	got, _ := f.Take()
	if len(got) != 4 {
		t.Errorf("%d attempts, want 4: %v", len(got), got)
	}
	equalD(t, sl.d, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second})
	var e *github.Error
	if !errors.As(err, &e) || e.Status != 503 || e.Retries != 3 || errors.Is(err, github.ErrReadOnly) {
		t.Fatalf("err = %#v", err)
	}
	if !strings.HasPrefix(err.Error(), "github: list issue comments: 503 Service Unavailable after 3 retries") {
		t.Errorf("message %q", err)
	}
	if c.ReadOnly() {
		t.Errorf("5xx made the client read-only")
	}
}

func equalD(t *testing.T, got, want []time.Duration) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("sleeps %v, want %v", got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("sleeps %v, want %v", got, want)
			return
		}
	}
}

func TestRateLimit(t *testing.T) {
	// Primary rate limit: 403 with X-RateLimit-Remaining: 0, reset in 10 s.
	f := newFake(t)
	reset := epoch.Add(10 * time.Second).Unix()
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/issues/1/comments", Status: 403, Times: 1,
		Header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": itoa(reset)},
		Body:   `{"message":"API rate limit exceeded"}`})
	c, sl := clientOf(f, t)
	if _, act, err := c.UpsertSummary(context.Background(), 1, "x"); err != nil || act != github.SummaryCreated {
		t.Fatalf("%v %v", act, err)
	}
	equalD(t, sl.d, []time.Duration{10 * time.Second})
	if c.ReadOnly() {
		t.Errorf("rate limit taken for a read-only token")
	}

	// 429 with Retry-After, always: reported as rate limited.
	f = newFake(t)
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/check-runs", Status: 429, Times: -1,
		Header: map[string]string{"Retry-After": "3"}})
	c, sl = clientOf(f, t)
	_, err := c.CheckRun(context.Background(), "abc", "reverify", "success", "s", nil)
	if !errors.Is(err, github.ErrRateLimited) || errors.Is(err, github.ErrReadOnly) {
		t.Fatalf("err = %v", err)
	}
	equalD(t, sl.d, []time.Duration{3 * time.Second, 3 * time.Second, 4 * time.Second})
	if !strings.Contains(err.Error(), "429 Too Many Requests after 3 retries (rate limited)") {
		t.Errorf("message %q", err)
	}

	// Secondary rate limit: go-github refuses the next request itself,
	// with the reset time as %v prints a time.Now() (monotonic clock
	// reading "m=+195.029207925"); the message shows a plain time.
	f = newFake(t)
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/check-runs", Status: 403, Times: -1,
		Header: map[string]string{"Retry-After": "120"},
		Body:   `{"message":"You have exceeded a secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`})
	c, _ = clientOf(f, t)
	var msgs []string
	for i := 0; i < 2; i++ {
		_, err := c.CheckRun(context.Background(), "abc", "reverify", "success", "s", nil)
		if !errors.Is(err, github.ErrRateLimited) {
			t.Fatalf("secondary limit: err = %v", err)
		}
		msgs = append(msgs, err.Error())
	}
	if m := strings.Join(msgs, "\n"); strings.Contains(m, "m=+") || !regexp.MustCompile(`until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC,`).MatchString(m) {
		t.Errorf("secondary rate limit messages:\n%s\nwant the reset as a plain UTC time", m)
	}
}

func TestActions(t *testing.T) {
	rn := newRunner(t)
	a := rn.actions()
	if err := a.JobSummary("# one\n"); err != nil {
		t.Fatal(err)
	}
	if err := a.JobSummary("# two\n"); err != nil {
		t.Fatal(err)
	}
	if s := read(t, rn.summary); s != "# one\n\n# two\n\n" {
		t.Errorf("summary file %q", s)
	}
	if err := a.Annotate([]github.Finding{{Path: "a.c", Line: 1, Level: github.LevelNotice, Message: "50% done\nnext, line"}}); err != nil {
		t.Fatal(err)
	}
	if got := rn.out.String(); got != "::notice file=a.c,line=1::50%25 done%0Anext, line\n" {
		t.Errorf("workflow command %q", got)
	}
	none := github.NewActions(func(string) string { return "" }, &bytes.Buffer{})
	if err := none.JobSummary("x"); !errors.Is(err, github.ErrNotInActions) {
		t.Errorf("JobSummary outside Actions: %v", err)
	}
	if err := none.SetOutput("k", "v"); !errors.Is(err, github.ErrNotInActions) {
		t.Errorf("SetOutput outside Actions: %v", err)
	}
	rn.env["GITHUB_STEP_SUMMARY"] = filepath.Join(t.TempDir(), "missing", "dir", "file")
	if err := rn.actions().JobSummary("x"); err == nil {
		t.Errorf("unwritable summary file: no error")
	}
}

func TestFindingsFromReport(t *testing.T) {
	r := &results.Report{Entry: "main", Properties: []results.PropertyReport{
		{ID: "main:x>0", File: "/repo/src/a.c", Line: 12, Column: 3, Function: "main", Expression: "x >\n 0", Verdict: results.False,
			Inputs: []results.InputJSON{{Source: "__VERIFIER_nondet_int", Value: 0, Line: 5}}},
		{ID: "f:p", File: "/repo/src/b.c", Line: 4, Function: "f", Expression: "p", Verdict: results.Unknown, Reason: "timeout"},
		{ID: "g:1", File: "/repo/src/b.c", Line: 9, Expression: "1", Verdict: results.True},
	}}
	fs := github.FindingsFromReport(r, "/repo", markdown.Options{})
	if len(fs) != 2 {
		t.Fatalf("%d findings", len(fs))
	}
	v := fs[0]
	if v.Path != "src/a.c" || v.Line != 12 || v.Column != 3 || v.Level != github.LevelFailure ||
		v.Title != "reverify: assertion x > 0 violated" || v.Fingerprint != sarif.Fingerprint("main", "main:x>0") ||
		!strings.Contains(v.Message, "__VERIFIER_nondet_int = 0") || !strings.Contains(v.Body, "can fail") {
		t.Errorf("violation finding %+v", v)
	}
	if u := fs[1]; u.Level != github.LevelWarning || !strings.Contains(u.Message, "timeout") {
		t.Errorf("unknown finding %+v", u)
	}
	if got := len(github.Failures(fs)); got != 1 {
		t.Errorf("Failures: %d", got)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := github.New(nil, "::bad", "", "o", "r"); err == nil {
		t.Errorf("bad URL accepted")
	}
	if _, err := github.New(nil, "", "", "", "r"); err == nil {
		t.Errorf("empty owner accepted")
	}
	c, err := github.New(nil, "", "", "o", "r")
	if err != nil || c == nil {
		t.Errorf("default client: %v", err)
	}
}

// TestPublishDisabled: channels in Publication.Disabled are skipped with
// their reason and make no requests; the read-only note reaches the job
// summary only when the API refused writes.
func TestPublishDisabled(t *testing.T) {
	f := newFake(t)
	c, _ := clientOf(f, t)
	rn := newRunner(t)
	p := publication()
	p.Disabled = map[github.Channel]string{github.ChannelComment: "comment-mode review", github.ChannelCheckRun: "shard 1/2"}
	res := github.Publish(context.Background(), c, rn.actions(), p)
	got, _ := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/pulls/7/reviews",
	})
	if res.Skipped[github.ChannelComment] != "comment-mode review" || res.Skipped[github.ChannelCheckRun] != "shard 1/2" || !res.OK(github.ChannelReview) {
		t.Errorf("%s", res)
	}
	if !res.OK(github.ChannelAnnotations) {
		t.Errorf("no check run, yet no workflow-command annotations: %s", res)
	}
	if s := read(t, rn.summary); strings.Contains(s, github.ReadOnlyNote) {
		t.Errorf("read-only note without a read-only token:\n%s", s)
	}
}

// TestFindingsFromReportOpen: an unresolved finding (FALSE before,
// UNKNOWN now) is a failure for the review and the annotations; a new
// UNKNOWN the change touches is a warning the review carries too; both
// take their slice's changed lines as the trace that places the inline
// comment on the diff; an old UNKNOWN stays out of the review.
func TestFindingsFromReportOpen(t *testing.T) {
	timeout := &results.Cause{Kind: results.CauseTimeout, Limit: "60s"}
	r := &results.Report{Entry: "main", Properties: []results.PropertyReport{
		{ID: "c:v<=10", File: "/repo/src/main.c", Line: 8, Function: "c", Expression: "v <= 10", Verdict: results.Unknown, Reason: "timeout after 60s", Cause: timeout,
			Earlier:      &results.Earlier{Verdict: results.False, On: results.EarlierBase, Commit: "0123456789abcdef"},
			ChangedLines: []results.Span{{File: "src/clamp.c", Line: 4, Lines: 2}}},
		{ID: "s:k==6", File: "/repo/src/main.c", Line: 14, Function: "s", Expression: "k == 6", Verdict: results.Unknown, Reason: "timeout after 60s", Cause: timeout,
			Earlier: &results.Earlier{Verdict: results.True, On: results.EarlierBase}, ChangedLines: []results.Span{{File: "src/scale.c", Line: 2, Lines: 1}}},
		{ID: "o:s!=3", File: "/repo/src/main.c", Line: 30, Function: "o", Expression: "s != 3", Verdict: results.Unknown, Reason: "unmodelled",
			Earlier: &results.Earlier{Verdict: results.Unknown, On: results.EarlierBase}, ChangedLines: []results.Span{{File: "src/main.c", Line: 28, Lines: 1}}},
	}}
	fs := github.FindingsFromReport(r, "/repo", markdown.Options{})
	if len(fs) != 3 {
		t.Fatalf("%d findings", len(fs))
	}
	open, warn, old := fs[0], fs[1], fs[2]
	if open.Level != github.LevelFailure || open.Title != "reverify: assertion v <= 10 still open (violated before, unknown now)" ||
		!strings.HasPrefix(open.Message, "Still open: was violated on the base revision 0123456789ab; no longer shown violated, not proved either: timeout after 60s. ") ||
		!strings.Contains(open.Body, "**❗ reverify: ") || open.OnChange == nil {
		t.Errorf("unresolved finding %+v", open)
	}
	if fmt.Sprint(open.Trace) != "[{src/clamp.c 4} {src/clamp.c 5}]" {
		t.Errorf("unresolved finding: trace %v", open.Trace)
	}
	if warn.Level != github.LevelWarning || !warn.Review || warn.Title != "reverify: assertion k == 6 not proved where this change touches" || !strings.Contains(warn.Body, "**⚠️ reverify: ") || fmt.Sprint(warn.Trace) != "[{src/scale.c 2}]" {
		t.Errorf("warning %+v", warn)
	}
	if old.Level != github.LevelWarning || old.Review || old.Trace != nil {
		t.Errorf("old unknown %+v", old)
	}
	var got []string
	for _, f := range github.ReviewFindings(fs) {
		got = append(got, f.Title)
	}
	equal(t, "review findings", got, []string{open.Title, warn.Title})
	if n := len(github.Failures(fs)); n != 1 {
		t.Errorf("Failures: %d", n)
	}
}
