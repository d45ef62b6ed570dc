// Package github posts reverify's results to GitHub, in the manner of
// reviewdog's service/github: idempotent (hidden markers, no duplicates),
// bounded (GitHub's per-request and size limits) and degradable (a
// read-only token falls back to the runner). It is the only package that
// imports go-github and go-githubactions (layers_test.go). DESIGN.md,
// "The Action".
//
// Two kinds of channel:
//
//   - [Client], the REST API (go-github v60), for one owner/repo:
//     [Client.UpsertSummary] keeps one sticky pull-request comment,
//     [Client.Review] posts a review with inline comments on violated
//     assertions, [Client.CheckRun] reports a check run with annotations.
//   - [Actions], the runner (go-githubactions): [Actions.JobSummary]
//     appends to GITHUB_STEP_SUMMARY, [Actions.Annotate] prints workflow
//     commands (as do [Actions.Warning], [Actions.Error] and
//     [Actions.Group]), [Actions.SetOutput] writes GITHUB_OUTPUT.
//
// The step's side: [ReadEnv] reads the runner's variables
// (go-githubactions' Context and GetInput), [ReadEvent] the webhook
// payload into go-github's event types (pull request: base and head
// commit, number, fork; push and other events: the commit to verify),
// and [InputDefault] an Action input as a flag's default.
//
// A workflow-command annotation as printed for a violated assertion:
//
//	::error col=3,file=src/a.c,line=12,title=reverify%3A assertion x > 0 violated::Assertion x > 0 is violated in main. …
//
// [Publish] drives them all and returns a [Result] naming the channels
// that worked; reporting errors are returned, never fatal, and the caller
// does not fail the build because of them.
//
// # Markers
//
// The sticky comment starts with markdown.Marker
// ("<!-- reverify:summary -->"). Every finding in an inline comment and
// every bullet of a review body ends with [FindingMarker]
// ("<!-- reverify:finding FP -->", FP = sarif.Fingerprint of entry
// function and property ID, which survive edits). A re-run therefore
// edits the sticky comment instead of adding one, skips findings already
// commented on, and deletes its own inline comments none of whose
// fingerprints is reported any more (the assertions were fixed or
// removed). Review bodies are minimal (the sticky comment is the source
// of truth) and record the fingerprints of their inline comments
// ("<!-- reverify:inline FP -->") and of the findings the cap kept out
// of them ("<!-- reverify:capped FP -->"); a review none of whose
// findings is reported any more gets [ResolvedNote] as its body.
// Comments by others are never touched; [WithLogin] narrows "own" to one
// author.
//
// # One comment per line
//
// The findings of one line (path, line, side RIGHT: their own line, or
// the changed line their counterexamples pass through) make one inline
// comment: a header counting them, ending with "<!-- reverify:group -->",
// the first finding's Body in full, then each other finding folded in a
// <details> block named by its Label and holding its Brief, every
// finding followed by its marker:
//
//	**❌ reverify: 60 findings at this line**: the first in full, the other 59 folded below, …
//	<!-- reverify:group -->
//
//	**❌ reverify: this change lets v reach 11; assert(v <= LIMIT + 0) at src/main.c:101 fails** …
//
//	<!-- reverify:finding 0d7c… -->
//
//	<details><summary>❌ assert(v <= LIMIT + 1) at src/main.c:102 (property check_2:…)</summary> … </details>
//	<!-- reverify:finding fcd6… -->
//
// A grouped comment stays while any of its findings is reported; when
// some are gone, it is edited (PATCH): each gone finding gets a
// "✅ Resolved as of SHA" note above its section and its marker becomes
// "<!-- reverify:resolved FP -->" (no longer a finding marker, so the
// finding is posted anew if it fails again). A review carries at most
// [MaxInlineComments] inline comments ([WithMaxInlineComments]), lines
// with a failure first; the findings of further lines are counted in the
// review body, which sends the reader to the summary comment.
//
// # Diff
//
// Review comments may only address lines of the pull request's diff.
// [ParsePatch] turns each file's patch (GET …/pulls/{n}/files) into the
// added and context line numbers of the new side; a finding on such a
// line becomes an inline comment (line, side RIGHT). A finding elsewhere
// whose counterexample (Finding.Trace) passes through an added line, the
// usual case when a change breaks an assertion in a caller, becomes an
// inline comment on the first such line (Finding.OnChange: "this change
// lets h->len reach 193; assert(…) at proto.c:20 fails"); any other goes
// into the review body. [DiffFilter] selects findings as reviewdog's modes do;
// the default, [FilterNoFilter], keeps all, because a change can break
// an assertion on a line it does not touch.
//
// # Limits
//
//   - comment and review bodies: 65,536 characters ([MaxCommentChars]);
//     a grouped inline comment drops folded sections that do not fit,
//     never a marker;
//   - inline comments: [MaxInlineComments] per review;
//   - check runs: 50 annotations per request ([MaxAnnotationsPerRequest]):
//     the run is created with the first 50 (status in_progress unless
//     that is all) and updated with each further 50, the last update
//     completing it; output summary ≤ 65,535 characters;
//   - job summary: 1 MiB per step ([MaxStepSummaryBytes]);
//   - lists are read 100 per page, following the Link header.
//
// # Failures
//
// A 401 or 403 that is not a rate limit, or a 404 from the check-runs
// API, means a read-only token (pull requests from forks): the error
// matches [ErrReadOnly], the Client makes no further API calls, and
// Publish writes the job summary (ending with [ReadOnlyNote], which
// says why there is no comment) and workflow-command annotations instead
// (Result.ReadOnly). Note that GitHub also answers 403 when a
// conversation is locked; that, too, ends API use for the run.
//
// Rate limits (403 with X-RateLimit-Remaining: 0 or Retry-After, and 429)
// and 5xx responses are retried by the HTTP transport up to
// [DefaultMaxRetries] times, waiting 1 s, 2 s, 4 s or longer when
// Retry-After or X-RateLimit-Reset ask for it (each wait at most 60 s;
// [WithSleep] and [WithClock] make this testable). Transport errors are
// retried except for POST, which might have taken effect. A POST that
// answered 5xx may still have taken effect too; for the sticky comment a
// duplicate is deleted on the next run. What still fails is an [*Error]
// naming the operation, status and retries; rate limits match
// [ErrRateLimited].
//
// A 422 on creating a review (a line GitHub does not accept, e.g. after a
// force push) is answered by posting the review again with every finding
// in its body, each saying that GitHub rejected its inline comment.
package github
