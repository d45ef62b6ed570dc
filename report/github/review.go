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
	// Trace is the counterexample's path, repository-relative locations
	// in execution order; Review comments on the first added line of the
	// diff it passes through when Line is not on the diff.
	Trace []TracePoint
	// OnChange, if set, is the Markdown body of a comment on a changed
	// line (path, line) of Trace; nil means Body.
	OnChange func(path string, line int) string
	// Review puts a finding below LevelFailure into the pull request's
	// review too (Publish, ReviewFindings): a new UNKNOWN the change
	// touches (FindingsFromReport).
	Review bool
}

// TracePoint is one location of a counterexample.
type TracePoint struct {
	Path string // repository-relative, slash-separated
	Line int
}

// FindingMarker returns the hidden marker that identifies a comment about
// the finding with this fingerprint: "<!-- reverify:finding FP -->".
func FindingMarker(fingerprint string) string {
	return "<!-- reverify:finding " + fingerprint + " -->"
}

var markerRE = regexp.MustCompile(`<!-- reverify:finding ([0-9A-Za-z_.:/+=-]+) -->`)

// reviewMarker marks the bodies of the reviews the client posts.
const reviewMarker = "<!-- reverify:review -->"

// inlineMarker records in a review body the fingerprint of an inline
// comment the review carries, so that a review whose findings are all
// gone can be recognised (and its body marked resolved).
func inlineMarker(fingerprint string) string {
	return "<!-- reverify:inline " + fingerprint + " -->"
}

var inlineRE = regexp.MustCompile(`<!-- reverify:inline ([0-9A-Za-z_.:/+=-]+) -->`)

// ResolvedNote is the body an earlier review of the client gets once
// none of its findings is reported any more.
const ResolvedNote = "✅ **reverify**: the findings of this review are resolved as of %s; the summary comment has the current results."

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
	Resolved   int   // earlier own reviews whose findings are all gone, marked resolved
	// ViaChange counts the inline comments placed on a changed line of
	// the counterexample rather than on the assertion's line.
	ViaChange int
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
//  3. GET /repos/{o}/{r}/pulls/{pr}/reviews (all pages): the client's
//     earlier reviews and the fingerprints they list.
//  4. Findings the filter keeps whose fingerprint is not yet commented on
//     become inline comments (path, line, side RIGHT, body with its
//     marker) when their line is commentable; otherwise, when their
//     Trace passes through an added line of the diff, an inline comment
//     on the first such line (body Finding.OnChange: the change lets the
//     assertion fail); otherwise bullets of the review
//     body, unless an earlier review lists them.
//  5. POST /repos/{o}/{r}/pulls/{pr}/reviews if anything is new; the body
//     is minimal (the sticky comment is the source of truth). If GitHub
//     rejects an inline position (422), the review is posted once more
//     with every finding in the body, saying so.
//  6. DELETE /repos/{o}/{r}/pulls/comments/{id} for each own comment whose
//     fingerprint is no longer among findings (fixed or gone).
//  7. PUT /repos/{o}/{r}/pulls/{pr}/reviews/{id} with ResolvedNote for
//     each earlier own review none of whose findings is reported any
//     more (COMMENT reviews cannot be dismissed).
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

	reviews, err := c.ownReviews(ctx, pr)
	if err != nil {
		return res, err
	}
	seen := map[string]bool{} // fingerprints listed in earlier review bodies
	for _, rv := range reviews {
		for _, fp := range fingerprints(rv.GetBody()) {
			seen[fp] = true
		}
	}

	want := map[string]bool{}
	var inline []*gh.DraftReviewComment
	var inlineF, body []Finding
	for _, f := range findings {
		f.Fingerprint = fpOf(f)
		want[f.Fingerprint] = true
		d, changed := files[f.Path]
		onDiff := changed && (d.added[f.Line] || d.context[f.Line] && diff != FilterAdded)
		path, line, text := f.Path, f.Line, ""
		if !onDiff {
			if p, l, ok := firstAdded(f.Trace, files); ok {
				path, line, onDiff, changed = p, l, true, true
				text = f.Body
				if f.OnChange != nil {
					text = f.OnChange(p, l)
				}
			}
		}
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
			if text != "" {
				res.ViaChange++
				f.Body = text
			}
			inlineF = append(inlineF, f)
			inline = append(inline, &gh.DraftReviewComment{
				Path: gh.String(path), Line: gh.Int(line), Side: gh.String("RIGHT"),
				Body: gh.String(commentBody(f)),
			})
		} else if seen[f.Fingerprint] {
			res.Duplicates++
		} else {
			body = append(body, f)
		}
	}

	if len(inline)+len(body) > 0 {
		review := &gh.PullRequestReviewRequest{
			CommitID: gh.String(commitSHA), Event: gh.String("COMMENT"),
			Body: gh.String(reviewBody(inlineF, body, offDiff)), Comments: inline,
		}
		var rv *gh.PullRequestReview
		err := c.call(ctx, "create review", false, func(ctx context.Context) (r *gh.Response, err error) {
			rv, r, err = c.gh.PullRequests.CreateReview(ctx, c.owner, c.repo, pr, review)
			return r, err
		})
		var e *Error
		if errors.As(err, &e) && e.Status == http.StatusUnprocessableEntity && len(inline) > 0 {
			// A line GitHub does not accept (stale diff, renamed file):
			// list everything in the body instead, saying why.
			rejected := inlineF
			review.Comments, review.Body = nil, gh.String(reviewBody(nil, append(append([]Finding(nil), rejected...), body...), func(f Finding) string {
				for _, r := range rejected {
					if r.Fingerprint == f.Fingerprint {
						return rejectedInline
					}
				}
				return offDiff(f)
			}))
			inline, body = nil, append(inlineF, body...)
			res.ViaChange = 0
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

	for _, rv := range reviews {
		fps := fingerprints(rv.GetBody())
		for _, m := range inlineRE.FindAllStringSubmatch(rv.GetBody(), -1) {
			fps = append(fps, m[1])
		}
		stale := len(fps) > 0
		for _, fp := range fps {
			if want[fp] {
				stale = false
			}
		}
		if !stale {
			continue
		}
		note := reviewMarker + "\n" + fmt.Sprintf(ResolvedNote, markdown.Code(shortSHA(commitSHA))) + "\n"
		err := c.call(ctx, "update review", false, func(ctx context.Context) (r *gh.Response, err error) {
			_, r, err = c.gh.PullRequests.UpdateReview(ctx, c.owner, c.repo, pr, rv.GetID(), note)
			return r, err
		})
		if err != nil {
			return res, err
		}
		res.Resolved++
	}
	return res, nil
}

// firstAdded returns the first point of trace on an added line of the
// diff.
func firstAdded(trace []TracePoint, files map[string]diffLines) (string, int, bool) {
	for _, t := range trace {
		if d, ok := files[t.Path]; ok && d.added[t.Line] {
			return t.Path, t.Line, true
		}
	}
	return "", 0, false
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// Reasons a finding is listed in a review body rather than inline.
const rejectedInline = "GitHub rejected the inline comment (the diff may have changed)"

func offDiff(Finding) string {
	return "its line and counterexample are not on this diff"
}

func fpOf(f Finding) string {
	if f.Fingerprint == "" {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Fingerprint
}

// ownReviews returns the client's earlier reviews of pr (those carrying
// the review marker).
func (c *Client) ownReviews(ctx context.Context, pr int) ([]*gh.PullRequestReview, error) {
	var out []*gh.PullRequestReview
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
			if strings.Contains(rv.GetBody(), reviewMarker) && c.isMine(rv.GetUser()) {
				out = append(out, rv)
			}
		}
		if resp.NextPage == 0 {
			return out, nil
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

// reviewBody is the minimal body of a review: the sticky comment is the
// source of truth, so the body names no counts that could go stale. It
// records the fingerprints of the inline comments (inlineMarker) and
// lists the findings not commented inline as bullets, each with its
// marker and the reason why returns for it.
func reviewBody(inline, listed []Finding, why func(Finding) string) string {
	var b strings.Builder
	b.WriteString(reviewMarker + "\n")
	b.WriteString("**reverify**: see the summary comment of this pull request for the current results.")
	for _, f := range inline {
		b.WriteString(inlineMarker(fpOf(f)))
	}
	b.WriteString("\n")
	if len(listed) > 0 {
		b.WriteString("\n")
		sorted := append([]Finding(nil), listed...)
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
			fmt.Fprintf(&b, "- %s: %s (%s) %s\n", markdown.Code(fmt.Sprintf("%s:%d", f.Path, f.Line)), markdown.Escape(text),
				markdown.Escape(why(f)), FindingMarker(fpOf(f)))
		}
	}
	return clip(b.String(), MaxCommentChars, "\n… truncated\n")
}
