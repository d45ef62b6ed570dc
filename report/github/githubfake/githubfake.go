package githubfake

import (
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
)

// Request is one request the fake received.
type Request struct {
	Method, Path, Query string
	Auth                string         // the Authorization header
	Body                map[string]any // the JSON body, nil if none
}

func (r Request) String() string { return r.Method + " " + r.Path }

// Failure makes the fake answer Status (with Header and Body; Body empty
// means {"message": <status text>}) to requests with Method whose path
// starts with PathPrefix, Times times (< 0: always).
type Failure struct {
	Method, PathPrefix string
	Status             int
	Header             map[string]string
	Body               string
	Times              int
}

// Server is the fake. Its exported slices are the repository's state;
// tests may seed and inspect them between requests.
type Server struct {
	URL    string       // base URL of the API
	Client *http.Client // a client for it

	// PageSize, if positive, is the page size of every list.
	PageSize int
	// ReadOnly makes every write answer 403 "Resource not accessible by
	// integration".
	ReadOnly bool
	// NextID is the last ID handed out (ID increments it).
	NextID int64

	// Issue comments carry "issue" (the number, as a string) when the
	// fake created them; a seeded comment without it is listed on every
	// issue.
	IssueComments  []map[string]any
	ReviewComments []map[string]any
	Reviews        []map[string]any
	Files          []map[string]any // GET pulls/{n}/files
	CheckRuns      map[int64]map[string]any
	Annotations    map[int64][]any // per check run, over all its requests

	mu       sync.Mutex
	reqs     []Request
	failures []*Failure
}

// bot is the user of everything the fake creates.
var bot = map[string]any{"login": "github-actions[bot]"}

// New starts a fake; it is closed when the test ends.
func New(t testing.TB) *Server {
	f := &Server{NextID: 100, CheckRuns: map[int64]map[string]any{}, Annotations: map[int64][]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		var on []map[string]any
		for _, c := range f.IssueComments {
			if n, ok := c["issue"]; !ok || n == r.PathValue("n") {
				on = append(on, c)
			}
		}
		f.list(w, r, on)
	})
	mux.HandleFunc("POST /repos/o/r/issues/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		c := map[string]any{"id": f.ID(), "body": f.last().Body["body"], "user": bot, "issue": r.PathValue("n")}
		f.IssueComments = append(f.IssueComments, c)
		Reply(w, http.StatusCreated, c)
	})
	mux.HandleFunc("PATCH /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		if c := find(f.IssueComments, r.PathValue("id")); c != nil {
			c["body"] = f.last().Body["body"]
			Reply(w, http.StatusOK, c)
			return
		}
		Reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("DELETE /repos/o/r/issues/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.IssueComments = remove(f.IssueComments, r.PathValue("id"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/files", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.Files)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/comments", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.ReviewComments)
	})
	mux.HandleFunc("PATCH /repos/o/r/pulls/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		if c := find(f.ReviewComments, r.PathValue("id")); c != nil {
			c["body"] = f.last().Body["body"]
			Reply(w, http.StatusOK, c)
			return
		}
		Reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("DELETE /repos/o/r/pulls/comments/{id}", func(w http.ResponseWriter, r *http.Request) {
		f.ReviewComments = remove(f.ReviewComments, r.PathValue("id"))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) {
		f.list(w, r, f.Reviews)
	})
	mux.HandleFunc("POST /repos/o/r/pulls/{n}/reviews", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		rv := map[string]any{"id": f.ID(), "body": body["body"], "user": bot}
		f.Reviews = append(f.Reviews, rv)
		cs, _ := body["comments"].([]any)
		for _, x := range cs {
			c := x.(map[string]any)
			f.ReviewComments = append(f.ReviewComments, map[string]any{"id": f.ID(), "path": c["path"], "line": c["line"],
				"side": c["side"], "body": c["body"], "user": bot, "pull_request_review_id": rv["id"]})
		}
		Reply(w, http.StatusOK, rv)
	})
	mux.HandleFunc("PUT /repos/o/r/pulls/{n}/reviews/{id}", func(w http.ResponseWriter, r *http.Request) {
		if rv := find(f.Reviews, r.PathValue("id")); rv != nil {
			rv["body"] = f.last().Body["body"]
			Reply(w, http.StatusOK, rv)
			return
		}
		Reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
	})
	mux.HandleFunc("POST /repos/o/r/check-runs", func(w http.ResponseWriter, r *http.Request) {
		body := f.last().Body
		id := f.ID()
		f.CheckRuns[id] = map[string]any{}
		for k, v := range body {
			f.CheckRuns[id][k] = v
		}
		f.Annotations[id] = append(f.Annotations[id], AnnotationsOf(body)...)
		Reply(w, http.StatusCreated, map[string]any{"id": id, "name": body["name"]})
	})
	mux.HandleFunc("PATCH /repos/o/r/check-runs/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		run := f.CheckRuns[id]
		if run == nil {
			Reply(w, http.StatusNotFound, map[string]any{"message": "Not Found"})
			return
		}
		body := f.last().Body
		for k, v := range body {
			run[k] = v
		}
		f.Annotations[id] = append(f.Annotations[id], AnnotationsOf(body)...)
		Reply(w, http.StatusOK, map[string]any{"id": id})
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		raw, _ := io.ReadAll(r.Body)
		req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Auth: r.Header.Get("Authorization")}
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &req.Body); err != nil {
				t.Errorf("%s %s: body is not a JSON object: %v", r.Method, r.URL.Path, err)
			}
		}
		f.reqs = append(f.reqs, req)
		for _, fl := range f.failures {
			if fl.Times != 0 && r.Method == fl.Method && strings.HasPrefix(r.URL.Path, fl.PathPrefix) {
				fl.Times--
				for k, v := range fl.Header {
					w.Header().Set(k, v)
				}
				body := fl.Body
				if body == "" {
					body = fmt.Sprintf(`{"message": %q}`, http.StatusText(fl.Status))
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(fl.Status)
				io.WriteString(w, body)
				return
			}
		}
		if f.ReadOnly && r.Method != http.MethodGet {
			Reply(w, http.StatusForbidden, map[string]any{"message": "Resource not accessible by integration"})
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.URL, f.Client = srv.URL, srv.Client()
	return f
}

// ID hands out the next ID.
func (f *Server) ID() int64 { f.NextID++; return f.NextID }

func (f *Server) last() Request { return f.reqs[len(f.reqs)-1] }

// Fail adds a failure rule; rules are tried in the order added.
func (f *Server) Fail(fl Failure) {
	f.mu.Lock()
	f.failures = append(f.failures, &fl)
	f.mu.Unlock()
}

// Take returns the requests received since the last call, as "METHOD
// path" lines (with "?page=N" for later pages of a list), and their
// records.
func (f *Server) Take() ([]string, []Request) {
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

// list serves items, one page at a time with a Link header to the next
// when PageSize is set.
func (f *Server) list(w http.ResponseWriter, r *http.Request, items []map[string]any) {
	if f.PageSize > 0 {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if page < 1 {
			page = 1
		}
		lo := min((page-1)*f.PageSize, len(items))
		hi := min(lo+f.PageSize, len(items))
		if hi < len(items) {
			q := r.URL.Query()
			q.Set("page", strconv.Itoa(page+1))
			next := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, next.String()))
		}
		items = items[lo:hi]
	}
	if items == nil {
		items = []map[string]any{}
	}
	Reply(w, http.StatusOK, items)
}

// Reply writes v as a JSON response with the given status.
func Reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func find(items []map[string]any, id string) map[string]any {
	for _, c := range items {
		if fmt.Sprint(c["id"]) == id {
			return c
		}
	}
	return nil
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

// AnnotationsOf returns the output.annotations of a check-run request
// body.
func AnnotationsOf(body map[string]any) []any {
	out, _ := body["output"].(map[string]any)
	a, _ := out["annotations"].([]any)
	return a
}
