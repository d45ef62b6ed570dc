package github_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reverify/reverify/report/github"
)

// request is one request the fake GitHub API received.
type request struct {
	Method, Path, Query string
	Auth                string
	Body                map[string]any
}

func (r request) String() string { return r.Method + " " + r.Path }

// failure makes the fake answer status to matching requests, times times
// (< 0: always).
type failure struct {
	method, pathPrefix string
	status             int
	header             map[string]string
	body               string
	times              int
}

// fakeGitHub is a small in-memory GitHub REST API for one repository o/r:
// issue comments, pull-request files, review comments, reviews and check
// runs. Lists are served pageSize at a time with Link headers, so the
// client's pagination is exercised.
type fakeGitHub struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	reqs     []request
	nextID   int64
	pageSize int
	failures []*failure

	issueComments  []map[string]any
	reviewComments []map[string]any
	reviews        []map[string]any
	files          []map[string]any
	checkRuns      map[int64]map[string]any
	annotations    map[int64][]any
}

func newFake(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{t: t, nextID: 100, pageSize: 2, checkRuns: map[int64]map[string]any{}, annotations: map[int64][]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.issueComments)
	})
	mux.HandleFunc("POST /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		c := map[string]any{"id": f.id(), "body": f.last().Body["body"], "user": map[string]any{"login": "github-actions[bot]"}}
		f.issueComments = append(f.issueComments, c)
		reply(w, http.StatusCreated, c)
	})
	mux.HandleFunc("PATCH /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, c := range f.issueComments {
			if fmt.Sprint(c["id"]) == r.PathValue("id") {
				c["body"] = f.last().Body["body"]
				reply(w, http.StatusOK, c)
				return
			}
		}
		reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("DELETE /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.issueComments = remove(f.issueComments, r.PathValue("id"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/files", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.files)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.reviewComments)
	})
	mux.HandleFunc("DELETE /repos/o/r/pulls/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.reviewComments = remove(f.reviewComments, r.PathValue("id"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.reviews)
	})
	mux.HandleFunc("POST /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		rv := map[string]any{"id": f.id(), "body": body["body"], "user": map[string]any{"login": "github-actions[bot]"}}
		f.reviews = append(f.reviews, rv)
		for _, x := range asSlice(body["comments"]) {
			c := x.(map[string]any)
			f.reviewComments = append(f.reviewComments, map[string]any{"id": f.id(), "path": c["path"], "line": c["line"],
				"side": c["side"], "body": c["body"], "user": map[string]any{"login": "github-actions[bot]"}})
		}
		reply(w, http.StatusOK, rv)
	})
	mux.HandleFunc("PUT /repos/o/r/pulls/{n}/reviews/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, rv := range f.reviews {
			if fmt.Sprint(rv["id"]) == r.PathValue("id") {
				rv["body"] = f.last().Body["body"]
				reply(w, http.StatusOK, rv)
				return
			}
		}
		reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		id := f.id()
		f.checkRuns[id] = map[string]any{}
		for k, v := range body {
			f.checkRuns[id][k] = v
		}
		f.annotations[id] = append(f.annotations[id], annotationsOf(body)...)
		reply(w, http.StatusCreated, map[string]any{"id": id, "name": body["name"]})
	})
	mux.HandleFunc("PATCH /repos/o/r/check-runs/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if f.checkRuns[id] == nil {
			reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
			return
		}
		body := f.last().Body
		for k, v := range body {
			f.checkRuns[id][k] = v
		}
		f.annotations[id] = append(f.annotations[id], annotationsOf(body)...)
		reply(w, http.StatusOK, map[string]any{"id": id})
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		raw, _ := io.ReadAll(r.Body)
		req := request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization")}
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &req.Body); err != nil {
				t.Errorf("%s %s: body is not a JSON object: %v", r.Method, r.URL.Path, err)
			}
		}
		f.reqs = append(f.reqs, req)
		for _, fl := range f.failures {
			if fl.times != 0 && r.Method == fl.method && strings.HasPrefix(r.URL.Path, fl.pathPrefix) {
				fl.times--
				for k, v := range fl.header {
					w.Header().Set(k, v)
				}
				body := fl.body
				if body == "" {
					body = fmt.Sprintf(`{"message": %q}`, http.StatusText(fl.status))
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(fl.status)
				io.WriteString(w, body)
				return
			}
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGitHub) id() int64     { f.nextID++; return f.nextID }
func (f *fakeGitHub) last() request { return f.reqs[len(f.reqs)-1] }
func (f *fakeGitHub) fail(fl failure) {
	f.mu.Lock()
	f.failures = append(f.failures, &fl)
	f.mu.Unlock()
}

// list serves one page of items with a Link header to the next.
func (f *fakeGitHub) list(w http.ResponseWriter, r *http.Request, items []map[string]any) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if page < 1 {
		page = 1
	}
	lo := min((page-1)*f.pageSize, len(items))
	hi := min(lo+f.pageSize, len(items))
	if hi < len(items) {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(page+1))
		next := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, next.String()))
	}
	out := items[lo:hi]
	if out == nil {
		out = []map[string]any{}
	}
	reply(w, http.StatusOK, out)
}

// take returns the requests received since the last call, as
// "METHOD path" strings, and their records.
func (f *fakeGitHub) take() ([]string, []request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	reqs := f.reqs
	f.reqs = nil
	var s []string
	for _, r := range reqs {
		line := r.String()
		if r.Method == http.MethodGet && r.Query != "" {
			q, _ := url.ParseQuery(r.Query)
			if p := q.Get("page"); p != "" {
				line += "?page=" + p
			}
		}
		s = append(s, line)
	}
	return s, reqs
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func remove(items []map[string]any, id string) []map[string]any {
	var out []map[string]any
	for _, c := range items {
		if fmt.Sprint(c["id"]) != id {
			out = append(out, c)
		}
	}
	return out
}

func annotationsOf(body map[string]any) []any {
	out, _ := body["output"].(map[string]any)
	return asSlice(out["annotations"])
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

// client returns a client for the fake with recorded sleeps and a fixed
// clock.
func (f *fakeGitHub) client(t *testing.T, opts ...github.Option) (*github.Client, *sleeps) {
	t.Helper()
	s := &sleeps{}
	opts = append([]github.Option{github.WithSleep(s.sleep), github.WithClock(func() time.Time { return epoch })}, opts...)
	c, err := github.New(f.srv.Client(), f.srv.URL, "t0ken", "o", "r", opts...)
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
