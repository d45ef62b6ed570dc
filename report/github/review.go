package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v60/github"

	"github.com/reverify/reverify/report/markdown"
)

// Annotation and finding levels (the check-runs API's annotation_level).
const (
	LevelFailure = "failure"
	LevelWarning = "warning"
	LevelNotice  = "notice"
)

// Finding is one result to show on a line of the head revision: a
// violated assertion for reviews, any reported verdict for annotations.
type Finding struct {
	Path        string // repository-relative, slash-separated
	Line        int    // 1-based line in the head revision
	Column      int    // 1-based column; 0 if unknown
	Level       string // LevelFailure, LevelWarning or LevelNotice
	Title       string // one line, e.g. "assertion x > 0 violated"
	Message     string // plain text (annotations, workflow commands)
	Body        string // Markdown for review comments; empty means Message
	Fingerprint string // stable identity (sarif.Fingerprint)
}

// FindingMarker returns the hidden marker that identifies a comment about
// the finding with this fingerprint: "<!-- reverify:finding FP -->".
func FindingMarker(fingerprint string) string {
	return "<!-- reverify:finding " + fingerprint + " -->"
}

var markerRE = regexp.MustCompile(`<!-- reverify:finding ([0-9A-Za-z_.:/+=-]+) -->`)

// reviewMarker marks the bodies of the reviews the client posts.
const reviewMarker = "<!-- reverify:review -->"

// fingerprints returns the fingerprints marked in a comment body.
func fingerprints(body string) []string {
	var fps []string
	for _, m := range markerRE.FindAllStringSubmatch(body, -1) {
		fps = append(fps, m[1])
	}
	return fps
}

// DiffFilter selects the findings a review reports, as reviewdog's
// filter modes do. Inline comments go on lines GitHub accepts (added or
// context lines of the diff, side RIGHT; only added lines under
// FilterAdded); reported findings elsewhere go into the review body.
type DiffFilter int

const (
	// FilterNoFilter reports every finding. It is the default: a change
	// can break an assertion on a line it does not touch.
	FilterNoFilter DiffFilter = iota
	// FilterFile reports findings in files the pull request changes.
	FilterFile
	// FilterDiffContext reports findings on added or context lines.
	FilterDiffContext
	// FilterAdded reports findings on added lines only.
	FilterAdded
)

func (f DiffFilter) String() string {
	switch f {
	case FilterNoFilter:
		return "nofilter"
	case FilterFile:
		return "file"
	case FilterDiffContext:
		return "diff_context"
	case FilterAdded:
		return "added"
	}
	return "DiffFilter(" + strconv.Itoa(int(f)) + ")"
}

// ParseDiffFilter parses "nofilter", "file", "diff_context" or "added".
func ParseDiffFilter(s string) (DiffFilter, error) {
	for f := FilterNoFilter; f <= FilterAdded; f++ {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown diff filter %q (want nofilter, file, diff_context or added)", s)
}

var hunkRE = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@`)

// ParsePatch reads the unified-diff patch of one file as the pull-request
// files API returns it (hunks only, no file header) and returns the line
// numbers, in the new file, of added lines and of context lines: together
// the lines a review comment may address with side RIGHT. Removed lines
// and "\ No newline at end of file" are skipped; an empty line inside a
// hunk counts as context (some tools strip the leading blank); text
// before the first hunk header or after a hunk's announced length is
// ignored. A malformed patch yields the lines parsed so far, never an
// error.
func ParsePatch(patch string) (added map[int]bool, context map[int]bool) {
	added, context = map[int]bool{}, map[int]bool{}
	line, left := 0, 0 // next new-file line; new-file lines left in the hunk
	inHunk := false
	for _, l := range strings.Split(patch, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if m := hunkRE.FindStringSubmatch(l); m != nil {
			line, _ = strconv.Atoi(m[1])
			left = 1
			if m[2] != "" {
				left, _ = strconv.Atoi(m[2])
			}
			inHunk = true
			continue
		}
		if !inHunk {
			continue
		}
		switch {
		case strings.HasPrefix(l, "+"):
			if left > 0 {
				added[line] = true
				line++
				left--
			}
		case strings.HasPrefix(l, "-"), strings.HasPrefix(l, `\`):
		case strings.HasPrefix(l, " "), l == "":
			if left > 0 {
				context[line] = true
				line++
				left--
			}
		default:
			inHunk = false
		}
	}
	return added, context
}

// ReviewResult says what Review did.
type ReviewResult struct {
	ReviewID   int64 // 0 if no review was posted
	Inline     int   // new inline comments
	InBody     int   // new findings listed in the review body
	Duplicates int   // findings already commented on, not posted again
	Filtered   int   // findings the DiffFilter dropped
	Deleted    int   // stale own comments deleted
}

// diffLines is what the diff of one file allows.
type diffLines struct{ added, context map[int]bool }

// Review posts the findings on pull request pr as one review (event
// COMMENT) on commitSHA:
//
//  1. GET /repos/{o}/{r}/pulls/{pr}/files (all pages); each patch goes
//     through ParsePatch.
//  2. GET /repos/{o}/{r}/pulls/{pr}/comments (all pages): review comments
//     carrying a FindingMarker are the client's own.
//  3. Findings the filter keeps whose fingerprint is not yet commented on
//     become inline comments (path, line, side RIGHT, body with its
//     marker) when their line is commentable, and otherwise bullets of
//     the review body; for the latter the bodies of earlier reviews (GET
//     /repos/{o}/{r}/pulls/{pr}/reviews) are checked for the marker too.
//  4. POST /repos/{o}/{r}/pulls/{pr}/reviews if anything is new; if GitHub
//     rejects an inline position (422), the review is posted once more
//     with every finding in the body.
//  5. DELETE /repos/{o}/{r}/pulls/comments/{id} for each own comment whose
//     fingerprint is no longer among findings (fixed or gone).
//
// Findings without a fingerprint get one from path and line. Bodies are
// cut to MaxCommentChars.
func (c *Client) Review(ctx context.Context, pr int, commitSHA string, findings []Finding, diff DiffFilter) (*ReviewResult, error) {
	res := &ReviewResult{}
	files := map[string]diffLines{}
	fopt := &gh.ListOptions{PerPage: perPage}
	for {
		var page []*gh.CommitFile
		var resp *gh.Response
		err := c.call(ctx, "list pull request files", false, func(ctx context.Context) (r *gh.Response, err error) {
			page, resp, err = c.gh.PullRequests.ListFiles(ctx, c.owner, c.repo, pr, fopt)
			return resp, err
		})
		if err != nil {
			return res, err
		}
		for _, f := range page {
			a, cx := ParsePatch(f.GetPatch())
			files[f.GetFilename()] = diffLines{a, cx}
		}
		if resp.NextPage == 0 {
			break
		}
		fopt.Page = resp.NextPage
	}

	posted := map[string]bool{}
	var own []*gh.PullRequestComment
	copt := &gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: perPage}}
	for {
		var page []*gh.PullRequestComment
		var resp *gh.Response
		err := c.call(ctx, "list review comments", false, func(ctx context.Context) (r *gh.Response, err error) {
			page, resp, err = c.gh.PullRequests.ListComments(ctx, c.owner, c.repo, pr, copt)
			return resp, err
		})
		if err != nil {
			return res, err
		}
		for _, cm := range page {
			fps := fingerprints(cm.GetBody())
			if len(fps) == 0 || !c.isMine(cm.GetUser()) {
				continue
			}
			own = append(own, cm)
			for _, fp := range fps {
				posted[fp] = true
			}
		}
		if resp.NextPage == 0 {
			break
		}
		copt.Page = resp.NextPage
	}

	want := map[string]bool{}
	var inline []*gh.DraftReviewComment
	var inlineF, body []Finding
	for _, f := range findings {
		f.Fingerprint = fpOf(f)
		want[f.Fingerprint] = true
		d, changed := files[f.Path]
		onDiff := changed && (d.added[f.Line] || d.context[f.Line] && diff != FilterAdded)
		switch {
		case diff == FilterAdded && !onDiff,
			diff == FilterDiffContext && !onDiff,
			diff == FilterFile && !changed:
			res.Filtered++
			continue
		}
		if posted[f.Fingerprint] {
			res.Duplicates++
			continue
		}
		if onDiff {
			inlineF = append(inlineF, f)
			inline = append(inline, &gh.DraftReviewComment{
				Path: gh.String(f.Path), Line: gh.Int(f.Line), Side: gh.String("RIGHT"),
				Body: gh.String(commentBody(f)),
			})
		} else {
			body = append(body, f)
		}
	}

	if len(body) > 0 {
		seen, err := c.reviewedFingerprints(ctx, pr)
		if err != nil {
			return res, err
		}
		kept := body[:0]
		for _, f := range body {
			if seen[f.Fingerprint] {
				res.Duplicates++
			} else {
				kept = append(kept, f)
			}
		}
		body = kept
	}

	if len(inline)+len(body) > 0 {
		review := &gh.PullRequestReviewRequest{
			CommitID: gh.String(commitSHA), Event: gh.String("COMMENT"),
			Body: gh.String(reviewBody(len(inline), body)), Comments: inline,
		}
		var rv *gh.PullRequestReview
		err := c.call(ctx, "create review", false, func(ctx context.Context) (r *gh.Response, err error) {
			rv, r, err = c.gh.PullRequests.CreateReview(ctx, c.owner, c.repo, pr, review)
			return r, err
		})
		var e *Error
		if errors.As(err, &e) && e.Status == http.StatusUnprocessableEntity && len(inline) > 0 {
			// A line GitHub does not accept (stale diff, renamed file):
			// list everything in the body instead.
			all := append(inlineF, body...)
			review.Comments, review.Body = nil, gh.String(reviewBody(0, all))
			inline, body = nil, all
			err = c.call(ctx, "create review (findings in body)", false, func(ctx context.Context) (r *gh.Response, err error) {
				rv, r, err = c.gh.PullRequests.CreateReview(ctx, c.owner, c.repo, pr, review)
				return r, err
			})
		}
		if err != nil {
			return res, err
		}
		res.ReviewID, res.Inline, res.InBody = rv.GetID(), len(inline), len(body)
	}

	for _, cm := range own {
		stale := true
		for _, fp := range fingerprints(cm.GetBody()) {
			if want[fp] {
				stale = false
			}
		}
		if !stale {
			continue
		}
		err := c.call(ctx, "delete review comment", false, func(ctx context.Context) (*gh.Response, error) {
			return c.gh.PullRequests.DeleteComment(ctx, c.owner, c.repo, cm.GetID())
		})
		if err != nil {
			return res, err
		}
		res.Deleted++
	}
	return res, nil
}

func fpOf(f Finding) string {
	if f.Fingerprint == "" {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Fingerprint
}

// reviewedFingerprints returns the fingerprints in the bodies of the
// client's earlier reviews of pr.
func (c *Client) reviewedFingerprints(ctx context.Context, pr int) (map[string]bool, error) {
	seen := map[string]bool{}
	opt := &gh.ListOptions{PerPage: perPage}
	for {
		var page []*gh.PullRequestReview
		var resp *gh.Response
		err := c.call(ctx, "list reviews", false, func(ctx context.Context) (r *gh.Response, err error) {
			page, resp, err = c.gh.PullRequests.ListReviews(ctx, c.owner, c.repo, pr, opt)
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, rv := range page {
			if !strings.Contains(rv.GetBody(), reviewMarker) || !c.isMine(rv.GetUser()) {
				continue
			}
			for _, fp := range fingerprints(rv.GetBody()) {
				seen[fp] = true
			}
		}
		if resp.NextPage == 0 {
			return seen, nil
		}
		opt.Page = resp.NextPage
	}
}

// commentBody is the body of an inline comment: the finding's Markdown
// and its marker.
func commentBody(f Finding) string {
	b := f.Body
	if b == "" {
		b = f.Message
	}
	m := "\n\n" + FindingMarker(fpOf(f)) + "\n"
	return clip(strings.TrimRight(b, "\n"), MaxCommentChars-len(m), "\n\n… truncated") + m
}

// reviewBody is the body of a review with n inline comments and the
// findings off the diff as bullets, each with its marker.
func reviewBody(n int, off []Finding) string {
	var b strings.Builder
	b.WriteString(reviewMarker + "\n")
	total := n + len(off)
	fmt.Fprintf(&b, "**reverify** found %d violated %s", total, plural(total, "assertion", "assertions"))
	if len(off) > 0 {
		fmt.Fprintf(&b, "; %d %s outside the lines this pull request changes:\n\n", len(off), plural(len(off), "lies", "lie"))
		sorted := append([]Finding(nil), off...)
		sort.SliceStable(sorted, func(i, j int) bool {
			if sorted[i].Path != sorted[j].Path {
				return sorted[i].Path < sorted[j].Path
			}
			return sorted[i].Line < sorted[j].Line
		})
		for _, f := range sorted {
			text := f.Title
			if text == "" {
				text = f.Message
			}
			fmt.Fprintf(&b, "- %s: %s %s\n", markdown.Code(fmt.Sprintf("%s:%d", f.Path, f.Line)), markdown.Escape(text), FindingMarker(fpOf(f)))
		}
	} else {
		b.WriteString(".\n")
	}
	return clip(b.String(), MaxCommentChars, "\n… truncated\n")
}
