package github

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	gh "github.com/google/go-github/v60/github"
)

// Retry defaults.
const (
	DefaultMaxRetries = 3                // retries after the first attempt
	DefaultBackoff    = time.Second      // first wait; doubled per retry
	DefaultMaxWait    = 60 * time.Second // cap of one wait
	perPage           = 100              // GitHub's maximum page size
)

// ErrReadOnly says that the token may not write: GitHub answered 401 or
// 403 (not a rate limit), or 404 from the check-runs API. Pull requests
// from forks get such a token. Once seen, the Client makes no further API
// calls and every method returns an error matching ErrReadOnly.
var ErrReadOnly = errors.New("token cannot write to the repository (pull request from a fork or read-only permissions)")

// ErrRateLimited says that GitHub's rate limit (403 with
// X-RateLimit-Remaining: 0, a secondary limit, or 429) still held after
// the retries.
var ErrRateLimited = errors.New("rate limited")

// Error is a failed API call, after retries.
type Error struct {
	Op      string // what the client tried, e.g. "create issue comment"
	Status  int    // HTTP status of the last attempt; 0 if none arrived
	Retries int    // retries made after the first attempt
	Err     error  // go-github's error, or ErrReadOnly when skipped
	kind    error  // ErrReadOnly, ErrRateLimited or nil
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "github: %s", e.Op)
	if e.Status != 0 {
		fmt.Fprintf(&b, ": %d %s", e.Status, http.StatusText(e.Status))
	}
	if e.Retries > 0 {
		fmt.Fprintf(&b, " after %d %s", e.Retries, plural(e.Retries, "retry", "retries"))
	}
	if e.kind != nil && e.kind != e.Err {
		fmt.Fprintf(&b, " (%v)", e.kind)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %s", plainTimes(e.Err.Error()))
	}
	return b.String()
}

// goTime matches a time.Time as %v prints it, with the monotonic clock
// reading that go-github's rate-limit messages carry ("2026-11-27
// 02:25:41.5 +0000 UTC m=+195.029207925").
var goTime = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? [+-]\d{4} [A-Za-z0-9+-]+(?: m=[+-][0-9.]+)?`)

// plainTimes rewrites the times in a message as "2026-11-27 02:25:41
// UTC": no fractional seconds, no monotonic clock reading.
func plainTimes(msg string) string {
	return goTime.ReplaceAllStringFunc(msg, func(m string) string {
		if i := strings.Index(m, " m="); i >= 0 {
			m = m[:i]
		}
		t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", m)
		if err != nil {
			return m
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	})
}

func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrReadOnly) and errors.Is(err, ErrRateLimited)
// work.
func (e *Error) Is(target error) bool { return target != nil && target == e.kind }

// Client posts to one repository through the GitHub REST API. Its methods
// are safe for concurrent use. Every method returns errors as *Error.
type Client struct {
	gh          *gh.Client
	owner, repo string
	login       string
	maxRetries  int
	backoff     time.Duration
	maxWait     time.Duration
	sleep       func(context.Context, time.Duration) error
	now         func() time.Time
	readOnly    atomic.Bool
	maxInline   int // 0: MaxInlineComments
}

// Option configures a Client.
type Option func(*Client)

// WithSleep replaces the wait between retries (tests record the waits
// instead of sleeping). The function must return ctx.Err() when ctx ends.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithClock replaces time.Now (used for X-RateLimit-Reset and
// completed_at).
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithRetries sets the number of retries (default DefaultMaxRetries) and
// the first backoff (default DefaultBackoff; doubled per retry, each wait
// capped at DefaultMaxWait).
func WithRetries(n int, backoff time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.backoff = n, backoff }
}

// WithLogin restricts the comments the Client regards as its own (sticky
// summary, review comments it may delete) to those by this user, e.g.
// "github-actions[bot]". Without it, the hidden markers alone decide.
func WithLogin(login string) Option { return func(c *Client) { c.login = login } }

// WithMaxInlineComments sets the cap on the inline comments of one
// review (Review); n ≤ 0 means MaxInlineComments.
func WithMaxInlineComments(n int) Option { return func(c *Client) { c.maxInline = n } }

func (c *Client) inlineCap() int {
	if c.maxInline <= 0 {
		return MaxInlineComments
	}
	return c.maxInline
}

// New returns a client for owner/repo. httpClient may be nil
// (http.DefaultClient's transport is used); it is copied, not modified.
// baseURL is the REST API root, GITHUB_API_URL in Actions
// ("https://api.github.com", "https://ghe.example.com/api/v3"), or an
// httptest server URL; empty means https://api.github.com/. token may be
// empty for anonymous (read-only) access.
func New(httpClient *http.Client, baseURL, token, owner, repo string, opts ...Option) (*Client, error) {
	c := &Client{owner: owner, repo: repo, maxRetries: DefaultMaxRetries, backoff: DefaultBackoff,
		maxWait: DefaultMaxWait, sleep: sleepCtx, now: time.Now}
	for _, o := range opts {
		o(c)
	}
	if owner == "" || repo == "" {
		return nil, fmt.Errorf("github: owner and repository must not be empty (got %q/%q)", owner, repo)
	}
	hc := &http.Client{}
	if httpClient != nil {
		*hc = *httpClient
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &retryTransport{base: base, c: c}
	g := gh.NewClient(hc)
	if token != "" {
		g = g.WithAuthToken(token)
	}
	if baseURL != "" {
		u, err := url.Parse(baseURL)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("github: bad API URL %q", baseURL)
		}
		if !strings.HasSuffix(u.Path, "/") {
			u.Path += "/"
		}
		g.BaseURL = u
	}
	c.gh = g
	return c, nil
}

// ReadOnly reports whether the client has met a read-only token and
// stopped calling the API.
func (c *Client) ReadOnly() bool { return c.readOnly.Load() }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type retriesKey struct{}

// call runs one API call: it refuses when the token is known to be
// read-only, counts the transport's retries and classifies the error.
// notFoundReadOnly makes 404 mean a read-only token (check-runs API).
func (c *Client) call(ctx context.Context, op string, notFoundReadOnly bool, f func(context.Context) (*gh.Response, error)) error {
	if c.readOnly.Load() {
		return &Error{Op: op, Err: ErrReadOnly, kind: ErrReadOnly}
	}
	n := new(int)
	resp, err := f(context.WithValue(ctx, retriesKey{}, n))
	if err == nil {
		return nil
	}
	e := &Error{Op: op, Retries: *n, Err: err}
	if resp != nil && resp.Response != nil {
		e.Status = resp.StatusCode
	}
	var rl *gh.RateLimitError
	var arl *gh.AbuseRateLimitError
	switch {
	case errors.As(err, &rl), errors.As(err, &arl), e.Status == http.StatusTooManyRequests:
		e.kind = ErrRateLimited
	case e.Status == http.StatusUnauthorized, e.Status == http.StatusForbidden,
		e.Status == http.StatusNotFound && notFoundReadOnly:
		e.kind = ErrReadOnly
		c.readOnly.Store(true)
	}
	return e
}

// retryTransport retries rate limits, 5xx responses and (except for POST)
// transport errors, with exponential backoff.
type retryTransport struct {
	base http.RoundTripper
	c    *Client
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(ctx)
			if req.Body != nil && req.Body != http.NoBody {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		resp, err := t.base.RoundTrip(r)
		wait, retry := t.decide(req, resp, err, attempt)
		if !retry || attempt >= t.c.maxRetries || (req.Body != nil && req.Body != http.NoBody && req.GetBody == nil) {
			return resp, err
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
		}
		if err := t.c.sleep(ctx, wait); err != nil {
			return nil, err
		}
		if n, ok := ctx.Value(retriesKey{}).(*int); ok {
			*n = attempt + 1
		}
	}
}

// decide says whether to retry and how long to wait first.
func (t *retryTransport) decide(req *http.Request, resp *http.Response, err error, attempt int) (time.Duration, bool) {
	wait := t.c.backoff << attempt
	if err != nil {
		if req.Context().Err() != nil || req.Method == http.MethodPost {
			return 0, false
		}
		return min(wait, t.c.maxWait), true
	}
	s := resp.StatusCode
	limited := s == http.StatusTooManyRequests ||
		s == http.StatusForbidden && (resp.Header.Get("X-RateLimit-Remaining") == "0" || resp.Header.Get("Retry-After") != "")
	if !limited && s < 500 {
		return 0, false
	}
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && time.Duration(ra)*time.Second > wait {
		wait = time.Duration(ra) * time.Second
	}
	if limited && resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if reset, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			if d := time.Unix(reset, 0).Sub(t.c.now()); d > wait {
				wait = d
			}
		}
	}
	return min(wait, t.c.maxWait), true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
