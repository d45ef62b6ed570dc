package main

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/report/github/githubfake"
)

// The end-to-end tests of the Action use the repository's one fake GitHub
// API (report/github/githubfake); go-github reaches it through
// GITHUB_API_URL. IDs start at 1001.
type fakeAPI = githubfake.Server

type apiRequest = githubfake.Request

func newFakeAPI(t *testing.T) *fakeAPI {
	f := githubfake.New(t)
	f.NextID = 1000
	return f
}

func annotationsIn(body map[string]any) []any { return githubfake.AnnotationsOf(body) }

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %s\nwant: %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}
