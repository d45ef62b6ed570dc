package github_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/report/github"
)

func manyAnnotations(n int) []github.Annotation {
	var out []github.Annotation
	for i := 0; i < n; i++ {
		out = append(out, github.Annotation{Path: "src/a.c", StartLine: i + 1, StartColumn: 2, Level: github.LevelFailure,
			Title: fmt.Sprintf("assertion %d violated", i), Message: fmt.Sprintf("msg %d", i)})
	}
	return out
}

func TestCheckRunBatches(t *testing.T) {
	f := newFake(t)
	c, _ := clientOf(f, t)
	id, err := c.CheckRun(context.Background(), "abc123", "reverify", "failure", "<!-- reverify:summary -->\n## reverify\n\n❌ 1 assertion violated\n", manyAnnotations(120))
	if err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	ids := itoa(id)
	equal(t, "requests", got, []string{
		"POST /repos/o/r/check-runs",
		"PATCH /repos/o/r/check-runs/" + ids,
		"PATCH /repos/o/r/check-runs/" + ids,
	})
	var sizes []string
	for _, r := range reqs {
		out := r.Body["output"].(map[string]any)
		sizes = append(sizes, fmt.Sprint(len(asSlice(out["annotations"]))))
		if out["title"] != "❌ 1 assertion violated" || !strings.Contains(out["summary"].(string), "## reverify") {
			t.Errorf("%s: output title %q, summary %q", r, out["title"], out["summary"])
		}
		if r.Body["name"] != "reverify" {
			t.Errorf("%s: name %v", r, r.Body["name"])
		}
	}
	equal(t, "batch sizes", sizes, []string{"50", "50", "20"})
	if reqs[0].Body["head_sha"] != "abc123" || reqs[0].Body["status"] != "in_progress" || reqs[0].Body["conclusion"] != nil {
		t.Errorf("create: %v", reqs[0].Body)
	}
	if reqs[1].Body["status"] != nil || reqs[1].Body["conclusion"] != nil {
		t.Errorf("middle update completes the run: %v", reqs[1].Body)
	}
	if reqs[2].Body["status"] != "completed" || reqs[2].Body["conclusion"] != "failure" ||
		reqs[2].Body["completed_at"] != epoch.Format(time.RFC3339) {
		t.Errorf("last update: status %v conclusion %v completed_at %v", reqs[2].Body["status"], reqs[2].Body["conclusion"], reqs[2].Body["completed_at"])
	}
	all := f.Annotations[id]
	if len(all) != 120 {
		t.Fatalf("%d annotations stored", len(all))
	}
	a := all[119].(map[string]any)
	if a["path"] != "src/a.c" || a["start_line"] != 120.0 || a["end_line"] != 120.0 || a["annotation_level"] != "failure" ||
		a["start_column"] != 2.0 || a["title"] != "assertion 119 violated" || a["message"] != "msg 119" {
		t.Errorf("annotation 120: %v", a)
	}
}

func TestCheckRunSingleRequest(t *testing.T) {
	for _, n := range []int{0, 1, 50} {
		f := newFake(t)
		c, _ := clientOf(f, t)
		if _, err := c.CheckRun(context.Background(), "abc", "reverify", "success", "all proved", manyAnnotations(n)); err != nil {
			t.Fatal(err)
		}
		got, reqs := f.Take()
		equal(t, fmt.Sprint(n, " annotations"), got, []string{"POST /repos/o/r/check-runs"})
		b := reqs[0].Body
		if b["status"] != "completed" || b["conclusion"] != "success" {
			t.Errorf("%d annotations: %v", n, b)
		}
		if title := b["output"].(map[string]any)["title"]; title != "all proved" {
			t.Errorf("title %v", title)
		}
	}
}

func TestCheckRunLimits(t *testing.T) {
	f := newFake(t)
	c, _ := clientOf(f, t)
	if _, err := c.CheckRun(context.Background(), "abc", "reverify", "maybe", "", nil); err == nil {
		t.Errorf("invalid conclusion accepted")
	}
	long := strings.Repeat("é", 70000)
	a := []github.Annotation{{Path: "a.c", StartLine: 0, Level: "bogus", Title: "t\nwith newline", Message: long}}
	if _, err := c.CheckRun(context.Background(), "abc", "reverify", "neutral", long, a); err != nil {
		t.Fatal(err)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{"POST /repos/o/r/check-runs"})
	out := reqs[0].Body["output"].(map[string]any)
	if n := len([]rune(out["summary"].(string))); n > github.MaxOutputChars {
		t.Errorf("summary has %d characters", n)
	}
	ann := asSlice(out["annotations"])[0].(map[string]any)
	if ann["start_line"] != 1.0 || ann["annotation_level"] != "warning" || ann["title"] != "t with newline" ||
		len([]rune(ann["message"].(string))) > 65535 {
		t.Errorf("annotation not normalised: line %v level %v title %q", ann["start_line"], ann["annotation_level"], ann["title"])
	}
}

// TestCheckRunNotFound: the check-runs API answers 404 to a read-only
// token; that is a read-only token, and the client stops.
func TestCheckRunNotFound(t *testing.T) {
	f := newFake(t)
	f.Fail(failure{Method: "POST", PathPrefix: "/repos/o/r/check-runs", Status: 404, Times: -1})
	c, _ := clientOf(f, t)
	_, err := c.CheckRun(context.Background(), "abc", "reverify", "success", "s", nil)
	if !errors.Is(err, github.ErrReadOnly) || !c.ReadOnly() {
		t.Fatalf("err = %v, read-only %v", err, c.ReadOnly())
	}
	f.Take()
	if _, _, err := c.UpsertSummary(context.Background(), 1, "x"); !errors.Is(err, github.ErrReadOnly) {
		t.Errorf("after read-only: %v", err)
	}
	if got, _ := f.Take(); len(got) != 0 {
		t.Errorf("requests after read-only: %v", got)
	}
}
