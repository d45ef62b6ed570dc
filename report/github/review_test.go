package github_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/github"
)

func keys(m map[int]bool) []int {
	var k []int
	for x := range m {
		k = append(k, x)
	}
	sort.Ints(k)
	return k
}

func TestParsePatch(t *testing.T) {
	for _, c := range []struct {
		name           string
		patch          string
		added, context []int
	}{
		{"empty", "", nil, nil},
		{"one hunk", "@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c", []int{2, 3}, []int{1, 4}},
		{"two hunks", "@@ -2,2 +2,3 @@ int f(void)\n x\n+y\n z\n@@ -20 +21,2 @@\n-q\n+r\n+s", []int{3, 21, 22}, []int{2, 4}},
		{"new file", "@@ -0,0 +1,2 @@\n+int x;\n+int y;", []int{1, 2}, nil},
		{"deleted lines only", "@@ -5,2 +4,0 @@\n-a\n-b", nil, nil},
		{"no newline at end", "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file", []int{1}, nil},
		{"blank context line", "@@ -1,3 +1,3 @@\n a\n\n+c\n-d", []int{3}, []int{1, 2}},
		{"CRLF", "@@ -1,2 +1,2 @@\r\n a\r\n+b\r\n-c\r\n", []int{2}, []int{1}},
		{"beyond hunk length", "@@ -1,1 +1,1 @@\n+a\n+b", []int{1}, nil},
		{"garbage before hunk", "diff --git a/x b/x\n+++ b/x\n@@ -1 +1,2 @@\n a\n+b", []int{2}, []int{1}},
	} {
		added, context := github.ParsePatch(c.patch)
		if got := keys(added); !equalInts(got, c.added) {
			t.Errorf("%s: added %v, want %v", c.name, got, c.added)
		}
		if got := keys(context); !equalInts(got, c.context) {
			t.Errorf("%s: context %v, want %v", c.name, got, c.context)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prFiles is the diff of the pull request in the review tests: src/a.c
// gains lines 11 and 12 (context 10, 13); src/b.c gains line 3 (context
// 2, 4); src/c.c, untouched, is not listed.
func prFiles() []map[string]any {
	return []map[string]any{
		{"filename": "src/a.c", "status": "modified", "patch": "@@ -10,2 +10,4 @@ int main(void)\n x = 1;\n+y = 2;\n+assert(x > 0);\n return 0;"},
		{"filename": "src/b.c", "status": "modified", "patch": "@@ -2,2 +2,3 @@\n a\n+b\n c"},
		{"filename": "bin/blob", "status": "added"}, // no patch
	}
}

func findings() []github.Finding {
	return []github.Finding{
		{Path: "src/a.c", Line: 12, Level: github.LevelFailure, Title: "assertion x > 0 violated", Message: "x > 0 fails", Body: "**x > 0 fails**", Fingerprint: "fpadded"},
		{Path: "src/b.c", Line: 2, Level: github.LevelFailure, Title: "assertion a violated", Message: "a fails", Fingerprint: "fpcontext"},
		{Path: "src/a.c", Line: 40, Level: github.LevelFailure, Title: "assertion z <| w violated", Message: "z fails", Fingerprint: "fpfile"},
		{Path: "src/c.c", Line: 7, Level: github.LevelFailure, Title: "assertion q violated", Message: "q fails", Fingerprint: "fpelsewhere"},
	}
}

type comment struct {
	path string
	line float64
	side string
	fp   string
}

func draftComments(t *testing.T, body map[string]any) []comment {
	var out []comment
	for _, x := range asSlice(body["comments"]) {
		c := x.(map[string]any)
		b := c["body"].(string)
		i := strings.Index(b, "<!-- reverify:finding ")
		if i < 0 {
			t.Errorf("inline comment without fingerprint marker: %q", b)
			continue
		}
		fp := strings.TrimSuffix(strings.Fields(b[i:])[2], " ")
		if _, ok := c["position"]; ok {
			t.Errorf("inline comment uses position: %v", c)
		}
		out = append(out, comment{c["path"].(string), c["line"].(float64), c["side"].(string), fp})
	}
	return out
}

func TestReview(t *testing.T) {
	f := newFake(t)
	f.Files = prFiles()
	// Someone else's review comment on the same line stays untouched.
	f.ReviewComments = append(f.ReviewComments, map[string]any{"id": f.ID(), "path": "src/a.c", "line": 12, "body": "nit", "user": map[string]any{"login": "alice"}})
	c, _ := clientOf(f, t)
	ctx := context.Background()

	res, err := c.Review(ctx, 7, "abc123", findings(), github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "first run", got, []string{
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/files?page=2",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/pulls/7/reviews",
	})
	post := reqs[len(reqs)-1].Body
	if post["event"] != "COMMENT" || post["commit_id"] != "abc123" {
		t.Errorf("review event %v, commit %v", post["event"], post["commit_id"])
	}
	cs := draftComments(t, post)
	want := []comment{{"src/a.c", 12, "RIGHT", "fpadded"}, {"src/b.c", 2, "RIGHT", "fpcontext"}}
	if len(cs) != len(want) || cs[0] != want[0] || cs[1] != want[1] {
		t.Errorf("inline comments %v, want %v", cs, want)
	}
	if b := asSlice(post["comments"])[0].(map[string]any)["body"].(string); !strings.HasPrefix(b, "**x > 0 fails**") {
		t.Errorf("inline body %q does not start with Finding.Body", b)
	}
	body := post["body"].(string)
	// A minimal body: no counts that go stale; the inline comments'
	// fingerprints recorded; the others listed with the true reason.
	for _, w := range []string{"<!-- reverify:review -->", "see the summary comment",
		"<!-- reverify:inline fpadded --><!-- reverify:inline fpcontext -->",
		"<code>src/a.c&#58;40</code>: assertion z &lt;&#124; w violated (its line and counterexample are not on this diff) <!-- reverify:finding fpfile -->",
		"<code>src/c.c&#58;7</code>: assertion q violated (its line and counterexample are not on this diff) <!-- reverify:finding fpelsewhere -->"} {
		if !strings.Contains(body, w) {
			t.Errorf("review body lacks %q:\n%s", w, body)
		}
	}
	if strings.Contains(body, "found") || strings.Contains(body, "outside the lines") {
		t.Errorf("review body counts findings or claims they lie outside the change:\n%s", body)
	}
	if res.Inline != 2 || res.InBody != 2 || res.Duplicates != 0 || res.Deleted != 0 || res.ReviewID == 0 {
		t.Errorf("result %+v", res)
	}

	// Re-run with the same findings: nothing new is posted.
	res, err = c.Review(ctx, 7, "abc123", findings(), github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = f.Take()
	equal(t, "re-run", got, []string{
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/files?page=2",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/comments?page=2",
		"GET /repos/o/r/pulls/7/reviews",
	})
	if res.Duplicates != 4 || res.Inline+res.InBody+res.Deleted != 0 {
		t.Errorf("re-run result %+v", res)
	}

	// The assertion on the added line is fixed: its comment is deleted.
	var ids []string
	for _, cm := range f.ReviewComments {
		if strings.Contains(cm["body"].(string), "fpadded") {
			ids = append(ids, itoa(cm["id"].(int64)))
		}
	}
	res, err = c.Review(ctx, 7, "def456", findings()[1:], github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = f.Take()
	equal(t, "after fix", got, []string{
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/files?page=2",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/comments?page=2",
		"GET /repos/o/r/pulls/7/reviews",
		"DELETE /repos/o/r/pulls/comments/" + ids[0],
	})
	if res.Deleted != 1 || len(ids) != 1 {
		t.Errorf("after fix: %+v, own comments %v", res, ids)
	}
	if len(f.ReviewComments) != 2 || f.ReviewComments[0]["body"] != "nit" {
		t.Errorf("remaining review comments %v", f.ReviewComments)
	}

	// Everything is fixed: the last own comment is deleted and the review
	// body, which listed findings, says they are resolved.
	reviewID := itoa(f.Reviews[0]["id"].(int64))
	res, err = c.Review(ctx, 7, "0123456789abcdef", nil, github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = f.Take()
	equal(t, "all fixed", got, []string{
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/files?page=2",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		"DELETE /repos/o/r/pulls/comments/" + itoa(f.NextID),
		"PUT /repos/o/r/pulls/7/reviews/" + reviewID,
	})
	if b := f.Reviews[0]["body"].(string); res.Resolved != 1 || !strings.Contains(b, "resolved as of <code>0123456789ab</code>") || strings.Contains(b, "reverify:finding") {
		t.Errorf("all fixed: %+v; review body %q", res, b)
	}
	// Once resolved, the review is left alone.
	res, _ = c.Review(ctx, 7, "0123456789abcdef", nil, github.FilterNoFilter)
	if got, _ = f.Take(); res.Resolved != 0 || got[len(got)-1] != "GET /repos/o/r/pulls/7/reviews" {
		t.Errorf("resolved review touched again: %+v %v", res, got)
	}
}

// TestReviewViaChange: the assertion lies outside the diff (a caller of
// the changed function), its counterexample passes through added lines:
// the inline comment goes on the first of them, with Finding.OnChange's
// body.
func TestReviewViaChange(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	f.Files = prFiles()
	c, _ := clientOf(f, t)
	fd := github.Finding{Path: "src/c.c", Line: 7, Level: github.LevelFailure, Title: "assertion q violated", Body: "plain", Fingerprint: "fpcallee",
		Trace: []github.TracePoint{{Path: "src/c.c", Line: 3}, {Path: "src/a.c", Line: 10}, {Path: "src/a.c", Line: 11}, {Path: "src/a.c", Line: 12}, {Path: "src/c.c", Line: 7}},
		OnChange: func(path string, line int) string {
			return "this change lets q fail at " + path + ":" + itoa(int64(line))
		}}
	res, err := c.Review(context.Background(), 1, "abc", []github.Finding{fd}, github.FilterAdded)
	if err != nil {
		t.Fatal(err)
	}
	_, reqs := f.Take()
	post := reqs[len(reqs)-1].Body
	cs := draftComments(t, post)
	if len(cs) != 1 || cs[0] != (comment{"src/a.c", 11, "RIGHT", "fpcallee"}) || res.ViaChange != 1 || res.Inline != 1 || res.InBody != 0 {
		t.Fatalf("comments %v, result %+v", cs, res)
	}
	if b := asSlice(post["comments"])[0].(map[string]any)["body"].(string); !strings.HasPrefix(b, "this change lets q fail at src/a.c:11") {
		t.Errorf("inline body %q", b)
	}
}

func TestReviewFilters(t *testing.T) {
	for _, c := range []struct {
		filter       github.DiffFilter
		inline, body []string // fingerprints
	}{
		{github.FilterNoFilter, []string{"fpadded", "fpcontext"}, []string{"fpfile", "fpelsewhere"}},
		{github.FilterFile, []string{"fpadded", "fpcontext"}, []string{"fpfile"}},
		{github.FilterDiffContext, []string{"fpadded", "fpcontext"}, nil},
		{github.FilterAdded, []string{"fpadded"}, nil},
	} {
		t.Run(c.filter.String(), func(t *testing.T) {
			f := newFake(t)
			f.PageSize = 100
			f.Files = prFiles()
			cl, _ := clientOf(f, t)
			res, err := cl.Review(context.Background(), 1, "abc", findings(), c.filter)
			if err != nil {
				t.Fatal(err)
			}
			_, reqs := f.Take()
			post := reqs[len(reqs)-1]
			if post.Method != http.MethodPost {
				t.Fatalf("no review posted: %v", reqs)
			}
			var inline []string
			for _, cm := range draftComments(t, post.Body) {
				inline = append(inline, cm.fp)
			}
			equal(t, "inline", inline, c.inline)
			var body []string
			for _, fp := range []string{"fpadded", "fpcontext", "fpfile", "fpelsewhere"} {
				if strings.Contains(post.Body["body"].(string), "finding "+fp+" ") {
					body = append(body, fp)
				}
			}
			equal(t, "body", body, c.body)
			if res.Filtered != 4-len(c.inline)-len(c.body) {
				t.Errorf("filtered %d", res.Filtered)
			}
		})
	}
	if f, err := github.ParseDiffFilter("diff_context"); err != nil || f != github.FilterDiffContext {
		t.Errorf("ParseDiffFilter: %v %v", f, err)
	}
	if _, err := github.ParseDiffFilter("bogus"); err == nil {
		t.Errorf("ParseDiffFilter accepted bogus")
	}
}

// TestReviewUnprocessable: GitHub rejects an inline line (422); the
// findings go into the body of a second attempt.
func TestReviewUnprocessable(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	f.Files = prFiles()
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/pulls/1/reviews", Status: 422, Times: 1,
		Body: `{"message":"Unprocessable Entity","errors":["Line could not be resolved"]}`})
	c, sl := clientOf(f, t)
	res, err := c.Review(context.Background(), 1, "abc", findings()[:1], github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"POST /repos/o/r/pulls/1/reviews",
		"POST /repos/o/r/pulls/1/reviews",
	})
	last := reqs[4].Body
	if b, _ := last["body"].(string); len(asSlice(last["comments"])) != 0 || !strings.Contains(b, "finding fpadded ") ||
		!strings.Contains(b, "GitHub rejected the inline comment") || strings.Contains(b, "not on this diff") {
		t.Errorf("second attempt %v", last)
	}
	if res.Inline != 0 || res.InBody != 1 || len(sl.d) != 0 {
		t.Errorf("result %+v, sleeps %v (422 is not retried)", res, sl.d)
	}
}

func TestReviewError(t *testing.T) {
	f := newFake(t)
	f.Fail(failure{Method: "GET", PathPrefix: "/repos/o/r/pulls/1/files", Status: 404, Times: -1})
	c, _ := clientOf(f, t)
	_, err := c.Review(context.Background(), 1, "abc", findings(), github.FilterNoFilter)
	var e *github.Error
	if !errors.As(err, &e) || e.Status != 404 || errors.Is(err, github.ErrReadOnly) {
		t.Fatalf("err = %v; want a 404 *Error that is not read-only", err)
	}
	if !strings.Contains(err.Error(), "list pull request files: 404 Not Found") {
		t.Errorf("message %q", err)
	}
}

// TestReviewGroupsOneLine: three findings whose counterexamples pass
// through one added line make one inline comment there that carries all
// three markers: the first finding in full, the others folded. A re-run
// posts nothing; when one of them is resolved, the comment is edited
// (that one marked resolved) rather than deleted, and it goes once all
// are resolved.
func TestReviewGroupsOneLine(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	f.Files = prFiles()
	c, _ := clientOf(f, t)
	ctx := context.Background()
	mk := func(i int) github.Finding {
		return github.Finding{Path: "src/c.c", Line: 20 + i, Level: github.LevelFailure, Title: fmt.Sprintf("assertion q%d violated", i),
			Fingerprint: fmt.Sprintf("fp%d", i), Body: fmt.Sprintf("full body %d", i),
			Label: fmt.Sprintf("❌ q%d at <code>src/c.c:%d</code>", i, 20+i), Brief: fmt.Sprintf("brief %d", i),
			Trace: []github.TracePoint{{Path: "src/a.c", Line: 11}, {Path: "src/c.c", Line: 20 + i}},
			OnChange: func(path string, line int) string {
				return fmt.Sprintf("this change lets q%d fail (%s:%d)", i, path, line)
			}}
	}
	all := []github.Finding{mk(1), mk(2), mk(3)}
	res, err := c.Review(ctx, 1, "abc", all, github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "first run", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"POST /repos/o/r/pulls/1/reviews",
	})
	post := reqs[3].Body
	cs := asSlice(post["comments"])
	if len(cs) != 1 {
		t.Fatalf("%d inline comments, want 1", len(cs))
	}
	cm := cs[0].(map[string]any)
	want := "**❌ reverify: 3 findings at this line**: the first in full, the other 2 folded below, each with its property and location; the summary comment lists them all.\n" +
		"<!-- reverify:group -->\n\n" +
		"this change lets q1 fail (src/a.c:11)\n\n<!-- reverify:finding fp1 -->\n" +
		"\n<details><summary>❌ q2 at <code>src/c.c:22</code></summary>\n\nbrief 2\n\n</details>\n<!-- reverify:finding fp2 -->\n" +
		"\n<details><summary>❌ q3 at <code>src/c.c:23</code></summary>\n\nbrief 3\n\n</details>\n<!-- reverify:finding fp3 -->\n"
	if cm["path"] != "src/a.c" || cm["line"] != float64(11) || cm["body"] != want {
		t.Errorf("inline comment at %v:%v:\n%s\nwant:\n%s", cm["path"], cm["line"], cm["body"], want)
	}
	if b := post["body"].(string); !strings.Contains(b, "<!-- reverify:inline fp1 --><!-- reverify:inline fp2 --><!-- reverify:inline fp3 -->") {
		t.Errorf("review body %q", b)
	}
	if res.Inline != 1 || res.Grouped != 2 || res.ViaChange != 3 || res.InBody != 0 {
		t.Errorf("result %+v", res)
	}

	// Re-run: nothing new.
	if res, err = c.Review(ctx, 1, "abc", all, github.FilterNoFilter); err != nil {
		t.Fatal(err)
	}
	got, _ = f.Take()
	equal(t, "re-run", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
	})
	if res.Duplicates != 3 {
		t.Errorf("re-run: %+v", res)
	}

	// q2 is resolved: the comment stays for q1 and q3, q2 marked resolved.
	id := itoa(f.ReviewComments[0]["id"].(int64))
	if res, err = c.Review(ctx, 1, "0123456789abcdef", []github.Finding{mk(1), mk(3)}, github.FilterNoFilter); err != nil {
		t.Fatal(err)
	}
	got, reqs = f.Take()
	equal(t, "one resolved", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"PATCH /repos/o/r/pulls/comments/" + id,
	})
	edited := strings.Replace(want, "\n<details><summary>❌ q2", "\n✅ **Resolved as of <code>0123456789ab</code>**: the next finding is no longer reported.\n\n<details><summary>❌ q2", 1)
	edited = strings.Replace(edited, "<!-- reverify:finding fp2 -->", "<!-- reverify:resolved fp2 -->", 1)
	if b := reqs[3].Body["body"]; b != edited {
		t.Errorf("edited comment:\n%s\nwant:\n%s", b, edited)
	}
	if res.Edited != 1 || res.Deleted != 0 || res.Duplicates != 2 {
		t.Errorf("one resolved: %+v", res)
	}
	// q2 fails again: a new comment for it alone.
	if res, err = c.Review(ctx, 1, "abc", all, github.FilterNoFilter); err != nil {
		t.Fatal(err)
	}
	got, reqs = f.Take()
	equal(t, "q2 again", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"POST /repos/o/r/pulls/1/reviews",
	})
	if cs := draftComments(t, reqs[3].Body); len(cs) != 1 || cs[0] != (comment{"src/a.c", 11, "RIGHT", "fp2"}) {
		t.Errorf("q2 again: %v", cs)
	}

	// All resolved: both comments go.
	id2 := itoa(f.ReviewComments[1]["id"].(int64))
	if res, err = c.Review(ctx, 1, "0123456789abcdef", nil, github.FilterNoFilter); err != nil {
		t.Fatal(err)
	}
	got, _ = f.Take()
	equal(t, "all resolved", got[:5], []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"DELETE /repos/o/r/pulls/comments/" + id,
		"DELETE /repos/o/r/pulls/comments/" + id2,
	})
	if res.Deleted != 2 || len(f.ReviewComments) != 0 {
		t.Errorf("all resolved: %+v, comments left %v", res, f.ReviewComments)
	}
}

// TestReviewCap: findings on 25 changed lines make 20 inline comments
// (MaxInlineComments), failures first; the review body counts the 5
// others and records their fingerprints, so a re-run posts nothing.
func TestReviewCap(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	patch := "@@ -0,0 +1,25 @@\n" + strings.Repeat("+x;\n", 25)
	f.Files = []map[string]any{{"filename": "src/d.c", "status": "added", "patch": patch}}
	c, _ := clientOf(f, t)
	var fs []github.Finding
	for i := 1; i <= 25; i++ {
		level := github.LevelFailure
		if i <= 3 {
			level = github.LevelWarning // new UNKNOWNs: after the failures
		}
		fs = append(fs, github.Finding{Path: "src/d.c", Line: i, Level: level, Review: true, Title: fmt.Sprintf("q%d", i), Message: "m", Fingerprint: fmt.Sprintf("fp%d", i)})
	}
	res, err := c.Review(context.Background(), 1, "abc", fs, github.FilterNoFilter)
	if err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/pulls/1/files",
		"GET /repos/o/r/pulls/1/comments",
		"GET /repos/o/r/pulls/1/reviews",
		"POST /repos/o/r/pulls/1/reviews",
	})
	var lines []string
	for _, cm := range draftComments(t, reqs[3].Body) {
		lines = append(lines, fmt.Sprint(cm.line))
	}
	equal(t, "commented lines", lines, []string{"4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23"})
	body := reqs[3].Body["body"].(string)
	wantBody := "5 more findings are not commented inline: a review gets at most 20 inline comments. The summary comment lists them. " +
		"<!-- reverify:capped fp24 --><!-- reverify:capped fp25 --><!-- reverify:capped fp1 --><!-- reverify:capped fp2 --><!-- reverify:capped fp3 -->\n"
	if !strings.HasSuffix(body, wantBody) {
		t.Errorf("review body:\n%s\nwant it to end with:\n%s", body, wantBody)
	}
	if res.Inline != 20 || res.Capped != 5 || res.InBody != 0 {
		t.Errorf("result %+v", res)
	}
	res, err = c.Review(context.Background(), 1, "abc", fs, github.FilterNoFilter)
	if got, _ := f.Take(); err != nil || got[len(got)-1] != "GET /repos/o/r/pulls/1/reviews" || res.Duplicates != 25 {
		t.Errorf("re-run: %v %+v %v", err, res, got)
	}
}
