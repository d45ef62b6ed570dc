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
	"unicode/utf8"

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
	// Label is the one-line Markdown that names the finding when it is
	// folded into another finding's inline comment (a <summary>): its
	// property and file:line; empty means Title at Path:Line.
	Label string
	// Brief is the Markdown shown inside that fold: what fails and the
	// counterexample's inputs, without its steps; empty means Message.
	Brief string
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

// cappedMarker records in a review body the fingerprint of a finding
// that the cap on inline comments kept out of the review's comments,
// so that a re-run does not post it either.
func cappedMarker(fingerprint string) string {
	return "<!-- reverify:capped " + fingerprint + " -->"
}

var cappedRE = regexp.MustCompile(`<!-- reverify:capped ([0-9A-Za-z_.:/+=-]+) -->`)

// resolvedMarker replaces the FindingMarker of a finding in an inline
// comment that groups several findings once that one is no longer
// reported while others still are (Review).
func resolvedMarker(fingerprint string) string {
	return "<!-- reverify:resolved " + fingerprint + " -->"
}

// groupMarker ends the header of an inline comment that groups several
// findings; the first finding's section starts after it.
const groupMarker = "<!-- reverify:group -->"

// sectionEndRE matches what ends one finding's section of an inline
// comment: its marker, or a resolved one.
var sectionEndRE = regexp.MustCompile(`<!-- reverify:(?:finding|resolved) [0-9A-Za-z_.:/+=-]+ -->|` + regexp.QuoteMeta(groupMarker))

// MaxInlineComments is the default cap on the inline comments of one
// review (WithMaxInlineComments): findings on further lines are not
// commented inline; the review body says how many, and the summary
// comment lists them.
const MaxInlineComments = 20

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
	ReviewID int64 // 0 if no review was posted
	// Inline counts the new inline comments; each carries the new
	// findings of one line (path, line, side RIGHT).
	Inline int
	// Grouped counts the new findings that share their line's inline
	// comment with an earlier finding (folded into it).
	Grouped    int
	InBody     int // new findings listed in the review body
	Duplicates int // findings already commented on, not posted again
	Filtered   int // findings the DiffFilter dropped
	// Capped counts the findings left out of the inline comments
	// because the review had its cap of comments
	// (WithMaxInlineComments); the review body says how many, the
	// summary comment lists them.
	Capped   int
	Deleted  int // stale own comments deleted
	Edited   int // own grouped comments edited: some of their findings resolved
	Resolved int // earlier own reviews whose findings are all gone, marked resolved
	// ViaChange counts the findings placed on a changed line of the
	// counterexample rather than on the assertion's line.
	ViaChange int
}

// diffLines is what the diff of one file allows.
type diffLines struct{ added, context map[int]bool }

// lineGroup is the new findings of one inline comment: one line (path,
// line, side RIGHT).
type lineGroup struct {
	path    string
	line    int
	fs      []Finding
	failure bool // some finding is of LevelFailure
}

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
//     go inline (path, line, side RIGHT) when their line is commentable;
//     otherwise, when their Trace passes through an added line of the
//     diff, on the first such line (body Finding.OnChange: the change
//     lets the assertion fail); otherwise they become bullets of the
//     review body, unless an earlier review lists them. The findings of
//     one line make ONE inline comment (groupBody): the first finding's
//     body in full, the others folded, each with its Label and Brief,
//     and every finding's FindingMarker. Lines with a failure come
//     first; beyond the cap of inline comments (MaxInlineComments, or
//     WithMaxInlineComments) the findings of further lines are not
//     commented inline: the review body says how many and that the
//     summary comment lists them, and records their fingerprints
//     ("<!-- reverify:capped FP -->"), so that a re-run does not post
//     them inline either.
//  5. POST /repos/{o}/{r}/pulls/{pr}/reviews if anything is new; the body
//     is minimal (the sticky comment is the source of truth). If GitHub
//     rejects an inline position (422), the review is posted once more
//     with every finding in the body, saying so.
//  6. DELETE /repos/{o}/{r}/pulls/comments/{id} for each own comment none
//     of whose fingerprints is among findings any more (fixed or gone);
//     PATCH /repos/{o}/{r}/pulls/comments/{id} for an own grouped comment
//     some of whose findings are gone while others are not: each gone
//     one is marked resolved in place (a note before its section, its
//     marker replaced by "<!-- reverify:resolved FP -->"), and the
//     comment stays for the others.
//  7. PUT /repos/{o}/{r}/pulls/{pr}/reviews/{id} with ResolvedNote for
//     each earlier own review none of whose findings is reported any
//     more (COMMENT reviews cannot be dismissed).
//
// Findings without a fingerprint get one from path and line. Bodies are
// cut to MaxCommentChars, never cutting a marker.
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
	seen := map[string]bool{}    // fingerprints listed in earlier review bodies
	capSeen := map[string]bool{} // fingerprints an earlier review's cap kept from inline comments
	for _, rv := range reviews {
		for _, fp := range fingerprints(rv.GetBody()) {
			seen[fp] = true
		}
		for _, m := range cappedRE.FindAllStringSubmatch(rv.GetBody(), -1) {
			capSeen[m[1]] = true
		}
	}

	want := map[string]bool{}
	via := map[string]bool{} // placed on a changed line of their counterexample
	var groups []*lineGroup
	byLine := map[string]*lineGroup{}
	var body []Finding
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
		if posted[f.Fingerprint] || onDiff && capSeen[f.Fingerprint] {
			res.Duplicates++
			continue
		}
		if onDiff {
			if text != "" {
				via[f.Fingerprint] = true
				f.Body = text
			}
			key := path + "\x00" + strconv.Itoa(line)
			g := byLine[key]
			if g == nil {
				g = &lineGroup{path: path, line: line}
				byLine[key] = g
				groups = append(groups, g)
			}
			g.fs = append(g.fs, f)
			g.failure = g.failure || f.Level == LevelFailure
		} else if seen[f.Fingerprint] {
			res.Duplicates++
		} else {
			body = append(body, f)
		}
	}
	// Lines with a failure first, else in the order of the findings.
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].failure && !groups[j].failure })
	var capped []Finding
	if limit := c.inlineCap(); len(groups) > limit {
		for _, g := range groups[limit:] {
			capped = append(capped, g.fs...)
		}
		groups = groups[:limit]
	}
	var inline []*gh.DraftReviewComment
	var inlineF []Finding
	for _, g := range groups {
		for _, f := range g.fs {
			if via[f.Fingerprint] {
				res.ViaChange++
			}
		}
		inlineF = append(inlineF, g.fs...)
		inline = append(inline, &gh.DraftReviewComment{
			Path: gh.String(g.path), Line: gh.Int(g.line), Side: gh.String("RIGHT"),
			Body: gh.String(groupBody(g.fs)),
		})
	}

	if len(inline)+len(body)+len(capped) > 0 {
		review := &gh.PullRequestReviewRequest{
			CommitID: gh.String(commitSHA), Event: gh.String("COMMENT"),
			Body: gh.String(reviewBody(inlineF, body, capped, c.inlineCap(), offDiff)), Comments: inline,
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
			review.Comments, review.Body = nil, gh.String(reviewBody(nil, append(append([]Finding(nil), rejected...), body...), capped, c.inlineCap(), func(f Finding) string {
				for _, r := range rejected {
					if r.Fingerprint == f.Fingerprint {
						return rejectedInline
					}
				}
				return offDiff(f)
			}))
			inline, inlineF, body = nil, nil, append(inlineF, body...)
			res.ViaChange = 0
			err = c.call(ctx, "create review (findings in body)", false, func(ctx context.Context) (r *gh.Response, err error) {
				rv, r, err = c.gh.PullRequests.CreateReview(ctx, c.owner, c.repo, pr, review)
				return r, err
			})
		}
		if err != nil {
			return res, err
		}
		res.ReviewID, res.Inline, res.InBody, res.Capped = rv.GetID(), len(inline), len(body), len(capped)
		res.Grouped = len(inlineF) - len(inline)
	}

	for _, cm := range own {
		var gone []string
		fps := fingerprints(cm.GetBody())
		for _, fp := range fps {
			if !want[fp] {
				gone = append(gone, fp)
			}
		}
		switch {
		case len(gone) == 0:
			continue
		case len(gone) < len(fps):
			// A grouped comment some of whose findings still fail:
			// it stays for them; the others are marked resolved.
			text := cm.GetBody()
			for _, fp := range gone {
				text = markResolved(text, fp, commitSHA)
			}
			err := c.call(ctx, "edit review comment", false, func(ctx context.Context) (r *gh.Response, err error) {
				_, r, err = c.gh.PullRequests.EditComment(ctx, c.owner, c.repo, cm.GetID(), &gh.PullRequestComment{Body: gh.String(text)})
				return r, err
			})
			if err != nil {
				return res, err
			}
			res.Edited++
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
		for _, m := range cappedRE.FindAllStringSubmatch(rv.GetBody(), -1) {
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

// markResolved marks the finding with fingerprint fp resolved in the
// body of a grouped inline comment: a note before its section (which
// starts after the previous section's marker, or after the group's
// header) and its FindingMarker replaced by its resolvedMarker. A body
// without the marker is returned unchanged.
func markResolved(body, fp, sha string) string {
	m := FindingMarker(fp)
	end := strings.Index(body, m)
	if end < 0 {
		return body
	}
	start := 0
	for _, loc := range sectionEndRE.FindAllStringIndex(body[:end], -1) {
		start = loc[1]
	}
	note := fmt.Sprintf("\n\n✅ **Resolved as of %s**: the next finding is no longer reported.\n\n", markdown.Code(shortSHA(sha)))
	if start == 0 {
		note = strings.TrimLeft(note, "\n")
	}
	return body[:start] + note + strings.TrimLeft(body[start:end], "\n") + resolvedMarker(fp) + body[end+len(m):]
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

// groupBody is the body of the inline comment on one line. For one
// finding it is commentBody's. For several it is a header that counts
// them (ending with groupMarker), the first finding's Markdown in full
// with its FindingMarker, and each further finding folded in a
// <details> block (its Label as the summary, its Brief inside) followed
// by its marker:
//
//	**❌ reverify: 60 findings at this line**: the first in full, the other 59 folded below, …
//	<!-- reverify:group -->
//
//	**❌ reverify: this change lets <code>assert(…)</code> at … fail** …
//
//	<!-- reverify:finding FP1 -->
//
//	<details><summary>❌ <code>assert(x &gt; 1)</code> at <code>src/main.c&#58;12</code> (property …)</summary>
//	…
//	</details>
//	<!-- reverify:finding FP2 -->
//
// The body stays within MaxCommentChars without losing a marker: the
// first finding's Markdown is cut to half the room, and folds that no
// longer fit are replaced by a line counting them, their markers kept.
func groupBody(fs []Finding) string {
	if len(fs) == 1 {
		return commentBody(fs[0])
	}
	icon := "⚠️"
	for _, f := range fs {
		if f.Level == LevelFailure {
			icon = "❌"
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s reverify: %d findings at this line**: the first in full, the other %d folded below, each with its property and location; the summary comment lists them all.\n%s\n\n",
		icon, len(fs), len(fs)-1, groupMarker)
	left := MaxCommentChars - utf8.RuneCountInString(b.String()) - 200 // room for the closing line
	for _, f := range fs {
		left -= len(FindingMarker(fpOf(f))) + 2
	}
	first := f0Body(fs[0])
	first = clip(first, max(left/2, 0), "\n\n… truncated")
	left -= utf8.RuneCountInString(first)
	b.WriteString(first + "\n\n" + FindingMarker(fpOf(fs[0])) + "\n")
	for i, f := range fs[1:] {
		label := f.Label
		if label == "" {
			label = levelIcon(f.Level) + " " + markdown.Escape(f.Title) + " at " + markdown.Code(fmt.Sprintf("%s:%d", f.Path, f.Line))
		}
		brief := strings.TrimRight(f.Brief, "\n")
		if brief == "" {
			brief = markdown.Escape(f.Message)
		}
		sec := "\n<details><summary>" + label + "</summary>\n\n" + brief + "\n\n</details>\n"
		if n := utf8.RuneCountInString(sec); n <= left {
			left -= n
			b.WriteString(sec + FindingMarker(fpOf(f)) + "\n")
			continue
		}
		more := fs[1+i:]
		fmt.Fprintf(&b, "\n… and %d more, not shown to stay within GitHub's size limit; the summary comment lists them.\n", len(more))
		for _, f := range more {
			b.WriteString(FindingMarker(fpOf(f)) + "\n")
		}
		break
	}
	return b.String()
}

// f0Body is the Markdown of a finding shown in full: Body, else Message.
func f0Body(f Finding) string {
	b := f.Body
	if b == "" {
		b = f.Message
	}
	return strings.TrimRight(b, "\n")
}

func levelIcon(level string) string {
	switch level {
	case LevelFailure:
		return "❌"
	case LevelWarning:
		return "⚠️"
	}
	return "ℹ️"
}

// reviewBody is the minimal body of a review: the sticky comment is the
// source of truth, so the body names no counts that could go stale. It
// records the fingerprints of the inline comments (inlineMarker) and
// lists the findings not commented inline as bullets, each with its
// marker and the reason why returns for it. Findings left out of the
// inline comments by the cap (capped; limit is the cap) are counted in
// one sentence that sends the reader to the summary comment, with their
// fingerprints (cappedMarker).
func reviewBody(inline, listed, capped []Finding, limit int, why func(Finding) string) string {
	var b strings.Builder
	b.WriteString(reviewMarker + "\n")
	b.WriteString("**reverify**: see the summary comment of this pull request for the current results.")
	for _, f := range inline {
		b.WriteString(inlineMarker(fpOf(f)))
	}
	b.WriteString("\n")
	if len(capped) > 0 {
		fmt.Fprintf(&b, "\n%d more %s not commented inline: a review gets at most %d inline comments. The summary comment lists %s. ",
			len(capped), plural(len(capped), "finding is", "findings are"), limit, plural(len(capped), "it", "them"))
		for _, f := range capped {
			b.WriteString(cappedMarker(fpOf(f)))
		}
		b.WriteString("\n")
	}
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
