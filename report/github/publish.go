package github

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Channel names one way of reporting.
type Channel string

// Channels, in the order Publish uses them.
const (
	ChannelComment     Channel = "comment"     // sticky pull-request comment
	ChannelReview      Channel = "review"      // review with inline comments
	ChannelCheckRun    Channel = "check-run"   // check run with annotations
	ChannelJobSummary  Channel = "job-summary" // GITHUB_STEP_SUMMARY
	ChannelAnnotations Channel = "annotations" // workflow commands on stdout
	ChannelOutputs     Channel = "outputs"     // GITHUB_OUTPUT
)

// Publication is everything Publish posts.
type Publication struct {
	PR       int    // pull request number; 0 (not a pull request) skips comment and review
	HeadSHA  string // commit of the review and the check run
	Summary  string // Markdown (markdown.Summary): comment, check-run summary, job summary
	Findings []Finding
	Diff     DiffFilter
	// CheckName is the check run's stable name; empty skips the check
	// run (workflow-command annotations are printed instead).
	CheckName  string
	Conclusion string            // check-run conclusion
	Outputs    map[string]string // step outputs
	// Disabled turns API channels off (ChannelComment, ChannelReview,
	// ChannelCheckRun), with the reason Result.Skipped records, e.g.
	// "comment-mode off".
	Disabled map[Channel]string
}

// ReadOnlyNote is appended to the job summary when the API refused
// writes, so that readers of the summary learn why there is no comment.
const ReadOnlyNote = "> [!NOTE]\n> The token of this run cannot write to the repository (a pull request from a fork, or read-only permissions), " +
	"so reverify reported here and as workflow annotations instead of a pull-request comment, review and check run.\n"

// Result says which channels worked. Reporting never decides the build:
// callers log it (String) and go on.
type Result struct {
	Done    []Channel          // channels that succeeded, in order
	Skipped map[Channel]string // channel → why it was not attempted
	Failed  map[Channel]error
	// ReadOnly is set when the API refused writes (ErrReadOnly) and the
	// runner channels took over.
	ReadOnly bool
}

func (r *Result) done(ch Channel)             { r.Done = append(r.Done, ch) }
func (r *Result) skip(ch Channel, why string) { r.Skipped[ch] = why }
func (r *Result) fail(ch Channel, err error)  { r.Failed[ch] = err }

// OK reports whether ch succeeded.
func (r *Result) OK(ch Channel) bool {
	for _, d := range r.Done {
		if d == ch {
			return true
		}
	}
	return false
}

// Err joins the failures, or returns nil.
func (r *Result) Err() error {
	var errs []error
	for _, ch := range r.channels() {
		if err := r.Failed[ch]; err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ch, err))
		}
	}
	return errors.Join(errs...)
}

func (r *Result) channels() []Channel {
	var all []Channel
	for ch := range r.Failed {
		all = append(all, ch)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	return all
}

// String is a one-line account, e.g. "comment failed (…); review skipped
// (read-only token); job-summary ok; annotations ok (fallback)".
func (r *Result) String() string {
	var parts []string
	for _, ch := range []Channel{ChannelComment, ChannelReview, ChannelCheckRun, ChannelJobSummary, ChannelAnnotations, ChannelOutputs} {
		switch {
		case r.OK(ch):
			parts = append(parts, string(ch)+" ok")
		case r.Failed[ch] != nil:
			parts = append(parts, fmt.Sprintf("%s failed (%v)", ch, r.Failed[ch]))
		case r.Skipped[ch] != "":
			parts = append(parts, fmt.Sprintf("%s skipped (%s)", ch, r.Skipped[ch]))
		}
	}
	s := strings.Join(parts, "; ")
	if r.ReadOnly {
		s += "; read-only token: fell back to the job summary and workflow-command annotations"
	}
	return s
}

// Publish reports p on every channel it can:
//
//  1. the sticky comment (Client.UpsertSummary), if p.PR > 0;
//  2. the review (Client.Review) of the findings marked for it
//     (Finding.Review: violations, unresolved findings, new UNKNOWN
//     verdicts the change touches), if p.PR > 0;
//  3. the check run (Client.CheckRun) with all findings as annotations,
//     if p.CheckName is set;
//  4. the job summary (Actions.JobSummary), with ReadOnlyNote appended
//     when the API refused writes;
//  5. workflow-command annotations (Actions.Annotate), only if the check
//     run did not succeed, so annotations are not shown twice;
//  6. step outputs (Actions.SetOutput).
//
// Channels in p.Disabled are skipped with the reason given. c may be nil
// (no token: API channels skipped), a may be nil (not in
// Actions). After the first ErrReadOnly the remaining API channels are
// skipped and Result.ReadOnly is set. Other API failures (rate limits
// after retries, 5xx) are recorded and the next channel is tried.
func Publish(ctx context.Context, c *Client, a *Actions, p Publication) *Result {
	res := &Result{Skipped: map[Channel]string{}, Failed: map[Channel]error{}}
	api := func(ch Channel, why string, f func() error) {
		if why == "" {
			why = p.Disabled[ch]
		}
		switch {
		case why != "":
			res.skip(ch, why)
		case c == nil:
			res.skip(ch, "no API client")
		case c.ReadOnly():
			res.skip(ch, "read-only token")
		default:
			if err := f(); err != nil {
				res.fail(ch, err)
				if errors.Is(err, ErrReadOnly) {
					res.ReadOnly = true
				}
				return
			}
			res.done(ch)
		}
	}
	notPR := ""
	if p.PR <= 0 {
		notPR = "not a pull request"
	}
	api(ChannelComment, notPR, func() error {
		_, _, err := c.UpsertSummary(ctx, p.PR, p.Summary)
		return err
	})
	api(ChannelReview, notPR, func() error {
		_, err := c.Review(ctx, p.PR, p.HeadSHA, ReviewFindings(p.Findings), p.Diff)
		return err
	})
	noCheck := ""
	if p.CheckName == "" {
		noCheck = "no check name"
	}
	api(ChannelCheckRun, noCheck, func() error {
		_, err := c.CheckRun(ctx, p.HeadSHA, p.CheckName, p.Conclusion, p.Summary, Annotations(p.Findings))
		return err
	})
	if a == nil {
		for _, ch := range []Channel{ChannelJobSummary, ChannelAnnotations, ChannelOutputs} {
			res.skip(ch, "not in GitHub Actions")
		}
		return res
	}
	summary := p.Summary
	if res.ReadOnly {
		summary = strings.TrimRight(summary, "\n") + "\n\n" + ReadOnlyNote
	}
	if err := a.JobSummary(summary); err != nil {
		res.fail(ChannelJobSummary, err)
	} else {
		res.done(ChannelJobSummary)
	}
	if res.OK(ChannelCheckRun) {
		res.skip(ChannelAnnotations, "check run carries them")
	} else if err := a.Annotate(p.Findings); err != nil {
		res.fail(ChannelAnnotations, err)
	} else {
		res.done(ChannelAnnotations)
	}
	if len(p.Outputs) > 0 {
		var names []string
		for k := range p.Outputs {
			names = append(names, k)
		}
		sort.Strings(names)
		var errs []error
		for _, k := range names {
			if err := a.SetOutput(k, p.Outputs[k]); err != nil {
				errs = append(errs, err)
			}
		}
		if err := errors.Join(errs...); err != nil {
			res.fail(ChannelOutputs, err)
		} else {
			res.done(ChannelOutputs)
		}
	}
	return res
}
