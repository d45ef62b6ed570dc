package github_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/markdown"
)

func TestUpsertSummary(t *testing.T) {
	f := newFake(t)
	// Three unrelated comments: two pages at the fake's page size 2.
	for _, b := range []string{"LGTM", "<!-- other-bot -->\nCoverage 80%", "please fix"} {
		f.IssueComments = append(f.IssueComments, map[string]any{"id": f.ID(), "body": b, "user": map[string]any{"login": "alice"}})
	}
	c, _ := clientOf(f, t)
	ctx := context.Background()

	id, act, err := c.UpsertSummary(ctx, 7, markdown.Marker+"\n## reverify\n\nrun 1\n")
	if err != nil || act != github.SummaryCreated {
		t.Fatalf("first run: %v, %v", act, err)
	}
	got, reqs := f.Take()
	equal(t, "first run", got, []string{
		"GET /repos/o/r/issues/7/comments",
		"GET /repos/o/r/issues/7/comments?page=2",
		"POST /repos/o/r/issues/7/comments",
	})
	if reqs[0].Auth != "Bearer t0ken" {
		t.Errorf("Authorization = %q", reqs[0].Auth)
	}
	if !strings.Contains(reqs[0].Query, "per_page=100") {
		t.Errorf("list query %q lacks per_page=100", reqs[0].Query)
	}
	if b := reqs[2].Body["body"]; b != markdown.Marker+"\n## reverify\n\nrun 1\n" {
		t.Errorf("created body %q", b)
	}

	// Second run, new content: the same comment is edited.
	id2, act, err := c.UpsertSummary(ctx, 7, markdown.Marker+"\n## reverify\n\nrun 2\n")
	if err != nil || act != github.SummaryEdited || id2 != id {
		t.Fatalf("second run: id %d (first %d), %v, %v", id2, id, act, err)
	}
	got, reqs = f.Take()
	equal(t, "second run", got, []string{
		"GET /repos/o/r/issues/7/comments",
		"GET /repos/o/r/issues/7/comments?page=2",
		"PATCH /repos/o/r/issues/comments/" + itoa(id),
	})
	if b := reqs[2].Body["body"]; !strings.HasSuffix(b.(string), "run 2\n") {
		t.Errorf("edited body %q", b)
	}

	// Third run, same content: nothing is written.
	if _, act, err := c.UpsertSummary(ctx, 7, markdown.Marker+"\n## reverify\n\nrun 2\n"); err != nil || act != github.SummaryUnchanged {
		t.Fatalf("third run: %v, %v", act, err)
	}
	got, _ = f.Take()
	equal(t, "third run", got, []string{"GET /repos/o/r/issues/7/comments", "GET /repos/o/r/issues/7/comments?page=2"})

	n := 0
	for _, cm := range f.IssueComments {
		if strings.Contains(cm["body"].(string), markdown.Marker) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d sticky comments, want 1", n)
	}
}

func TestUpsertSummaryHealsDuplicates(t *testing.T) {
	f := newFake(t)
	f.PageSize = 100
	for _, b := range []string{markdown.Marker + "\nold A", "hello", markdown.Marker + "\nold B"} {
		f.IssueComments = append(f.IssueComments, map[string]any{"id": f.ID(), "body": b, "user": map[string]any{"login": "github-actions[bot]"}})
	}
	// A human quoting the marker is not ours under WithLogin.
	f.IssueComments = append(f.IssueComments, map[string]any{"id": f.ID(), "body": markdown.Marker + " quoted", "user": map[string]any{"login": "mallory"}})
	c, _ := clientOf(f, t, github.WithLogin("github-actions[bot]"))
	// The marker is added when the body lacks it.
	id, act, err := c.UpsertSummary(context.Background(), 3, "new")
	if err != nil || act != github.SummaryEdited || id != 101 {
		t.Fatalf("got %d %v %v", id, act, err)
	}
	got, reqs := f.Take()
	equal(t, "requests", got, []string{
		"GET /repos/o/r/issues/3/comments",
		"PATCH /repos/o/r/issues/comments/101",
		"DELETE /repos/o/r/issues/comments/103",
	})
	if b := reqs[1].Body["body"]; b != markdown.Marker+"\nnew" {
		t.Errorf("body %q", b)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
