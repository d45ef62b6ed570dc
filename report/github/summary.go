package github

import (
	"context"
	"strings"
	"unicode/utf8"

	gh "github.com/google/go-github/v60/github"

	"github.com/reverify/reverify/report/markdown"
)

// MaxCommentChars is GitHub's limit on the body of an issue comment,
// review comment or review.
const MaxCommentChars = 65536

// SummaryAction says what UpsertSummary did.
type SummaryAction string

// Summary actions.
const (
	SummaryCreated   SummaryAction = "created"
	SummaryEdited    SummaryAction = "edited"
	SummaryUnchanged SummaryAction = "unchanged"
)

// UpsertSummary keeps exactly one sticky summary comment on pull request
// pr: it lists the pull request's issue comments (all pages), finds the
// ones holding markdown.Marker (written by the client's login, if
// WithLogin was given), edits the oldest in place (PATCH
// /repos/{o}/{r}/issues/comments/{id}; skipped when the body is
// unchanged) or creates it (POST /repos/{o}/{r}/issues/{pr}/comments),
// and deletes any further marked comments left by an earlier race. body
// gets the marker prepended if it lacks it and is cut to MaxCommentChars.
// It returns the comment ID and what it did.
func (c *Client) UpsertSummary(ctx context.Context, pr int, body string) (int64, SummaryAction, error) {
	if !strings.Contains(body, markdown.Marker) {
		body = markdown.Marker + "\n" + body
	}
	body = clip(body, MaxCommentChars, "\n\n… truncated\n")
	var mine []*gh.IssueComment
	opt := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: perPage}}
	for {
		var page []*gh.IssueComment
		var resp *gh.Response
		err := c.call(ctx, "list issue comments", false, func(ctx context.Context) (r *gh.Response, err error) {
			page, resp, err = c.gh.Issues.ListComments(ctx, c.owner, c.repo, pr, opt)
			return resp, err
		})
		if err != nil {
			return 0, "", err
		}
		for _, cm := range page {
			if strings.Contains(cm.GetBody(), markdown.Marker) && c.isMine(cm.GetUser()) {
				mine = append(mine, cm)
			}
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	if len(mine) == 0 {
		var created *gh.IssueComment
		err := c.call(ctx, "create issue comment", false, func(ctx context.Context) (r *gh.Response, err error) {
			created, r, err = c.gh.Issues.CreateComment(ctx, c.owner, c.repo, pr, &gh.IssueComment{Body: gh.String(body)})
			return r, err
		})
		if err != nil {
			return 0, "", err
		}
		return created.GetID(), SummaryCreated, nil
	}
	keep := mine[0]
	action := SummaryUnchanged
	if keep.GetBody() != body {
		err := c.call(ctx, "edit issue comment", false, func(ctx context.Context) (r *gh.Response, err error) {
			_, r, err = c.gh.Issues.EditComment(ctx, c.owner, c.repo, keep.GetID(), &gh.IssueComment{Body: gh.String(body)})
			return r, err
		})
		if err != nil {
			return 0, "", err
		}
		action = SummaryEdited
	}
	for _, dup := range mine[1:] {
		err := c.call(ctx, "delete duplicate issue comment", false, func(ctx context.Context) (*gh.Response, error) {
			return c.gh.Issues.DeleteComment(ctx, c.owner, c.repo, dup.GetID())
		})
		if err != nil {
			return keep.GetID(), action, err
		}
	}
	return keep.GetID(), action, nil
}

func (c *Client) isMine(u *gh.User) bool {
	return c.login == "" || u.GetLogin() == c.login
}

// clip cuts s to at most n characters (code points), ending with note.
func clip(s string, n int, note string) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	keep := n - utf8.RuneCountInString(note)
	i := 0
	for k := range s {
		if keep == 0 {
			i = k
			break
		}
		keep--
	}
	return s[:i] + note
}
