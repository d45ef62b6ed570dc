package github_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/github/githubfake"
)

// fakeGitHub is the repository's fake GitHub API (githubfake) with
// pages of two items, so the client's pagination is exercised.
type fakeGitHub = githubfake.Server

type failure = githubfake.Failure

func newFake(t *testing.T) *fakeGitHub {
	f := githubfake.New(t)
	f.PageSize = 2
	return f
}

func asSlice(x any) []any { s, _ := x.([]any); return s }

// sleeps records the waits of the client instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// clientOf returns a client for the fake with recorded sleeps and a
// fixed clock.
func clientOf(f *fakeGitHub, t *testing.T, opts ...github.Option) (*github.Client, *sleeps) {
	t.Helper()
	s := &sleeps{}
	opts = append([]github.Option{github.WithSleep(s.sleep), github.WithClock(func() time.Time { return epoch })}, opts...)
	c, err := github.New(f.Client, f.URL, "t0ken", "o", "r", opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

func equal(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %s\nwant: %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}
