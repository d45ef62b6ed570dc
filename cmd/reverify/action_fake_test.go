package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// apiRequest is one request the fake GitHub API received.
type apiRequest struct {
	Method, Path string
	Auth         string
	Body         map[string]any
}

// fakeAPI is an in-memory GitHub REST API for the repository o/r, enough
// for report/github: issue comments, pull-request files, review comments,
// reviews and check runs. go-github reaches it through GITHUB_API_URL. It
// records every request; readOnly makes every write answer 403 as GitHub
// does for the token of a pull request from a fork.
type fakeAPI struct {
	srv      *httptest.Server
	mu       sync.Mutex
	reqs     []apiRequest
	nextID   int64
	readOnly bool

	files          []map[string]any // GET pulls/{n}/files
	issueComments  []map[string]any
	reviewComments []map[string]any
	reviews        []map[string]any
	checkRuns      map[int64]map[string]any
	annotations    map[int64][]any
}

func newFakeAPI(t *testing.T) *fakeAPI {
	f := &fakeAPI{nextID: 1000, checkRuns: map[int64]map[string]any{}, annotations: map[int64][]any{}}
	bot := map[string]any{"login": "github-actions[bot]"}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		var on []map[string]any
		for _, c := range f.issueComments {
			if c["issue"] == r.PathValue("n") {
				on = append(on, c)
			}
		}
		reply(w, 200, listOf(on))
	})
	mux.HandleFunc("POST /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		c := map[string]any{"id": f.id(), "body": f.last().Body["body"], "user": bot, "issue": r.PathValue("n")}
		f.issueComments = append(f.issueComments, c)
		reply(w, 201, c)
	})
	mux.HandleFunc("PATCH /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, c := range f.issueComments {
			if fmt.Sprint(c["id"]) == r.PathValue("id") {
				c["body"] = f.last().Body["body"]
				reply(w, 200, c)
				return
			}
		}
		reply(w, 404, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/files", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, listOf(f.files)) })
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/comments", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, listOf(f.reviewComments)) })
	mux.HandleFunc("DELETE /repos/o/r/pulls/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		var keep []map[string]any
		for _, c := range f.reviewComments {
			if fmt.Sprint(c["id"]) != r.PathValue("id") {
				keep = append(keep, c)
			}
		}
		f.reviewComments = keep
		w.WriteHeader(204)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, listOf(f.reviews)) })
	mux.HandleFunc("POST /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		rv := map[string]any{"id": f.id(), "body": body["body"], "user": bot}
		f.reviews = append(f.reviews, rv)
		cs, _ := body["comments"].([]any)
		for _, x := range cs {
			c := x.(map[string]any)
			f.reviewComments = append(f.reviewComments, map[string]any{"id": f.id(), "path": c["path"], "line": c["line"],
				"side": c["side"], "body": c["body"], "user": bot})
		}
		reply(w, 200, rv)
	})
	mux.HandleFunc("PUT /repos/o/r/pulls/{n}/reviews/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, rv := range f.reviews {
			if fmt.Sprint(rv["id"]) == r.PathValue("id") {
				rv["body"] = f.last().Body["body"]
				reply(w, 200, rv)
				return
			}
		}
		reply(w, 404, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		id := f.id()
		f.checkRuns[id] = map[string]any{}
		for k, v := range body {
			f.checkRuns[id][k] = v
		}
		f.annotations[id] = append(f.annotations[id], annotationsIn(body)...)
		reply(w, 201, map[string]any{"id": id, "name": body["name"]})
	})
	mux.HandleFunc("PATCH /repos/o/r/check-runs/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		run := f.checkRuns[id]
		if run == nil {
			reply(w, 404, map[string]any{"message": "Not Found"})
			return
		}
		for k, v := range f.last().Body {
			run[k] = v
		}
		f.annotations[id] = append(f.annotations[id], annotationsIn(f.last().Body)...)
		reply(w, 200, map[string]any{"id": id})
	})
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		raw, _ := io.ReadAll(r.Body)
		req := apiRequest{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &req.Body); err != nil {
				t.Errorf("%s %s: body is not a JSON object: %v", r.Method, r.URL.Path, err)
			}
		}
		f.reqs = append(f.reqs, req)
		if f.readOnly && r.Method != http.MethodGet {
			reply(w, 403, map[string]any{"message": "Resource not accessible by integration"})
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) id() int64        { f.nextID++; return f.nextID }
func (f *fakeAPI) last() apiRequest { return f.reqs[len(f.reqs)-1] }

// take returns the requests since the last call as "METHOD path" lines,
// and the records.
func (f *fakeAPI) take() ([]string, []apiRequest) {
	f.mu.Lock()
	defer f.mu.Unlock()
	reqs := f.reqs
	f.reqs = nil
	var lines []string
	for _, r := range reqs {
		lines = append(lines, r.Method+" "+r.Path)
	}
	return lines, reqs
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func listOf(items []map[string]any) []map[string]any {
	if items == nil {
		return []map[string]any{}
	}
	return items
}

func annotationsIn(body map[string]any) []any {
	out, _ := body["output"].(map[string]any)
	a, _ := out["annotations"].([]any)
	return a
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %s\nwant: %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}
