package github

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadEvent reads pull-request, push and other payloads: base and
// head commits, number, fork; a deleted branch falls back to GITHUB_SHA;
// malformed and incomplete payloads are errors.
func TestReadEvent(t *testing.T) {
	dir := t.TempDir()
	a, b := strings.Repeat("a", 40), strings.Repeat("b", 40)
	write := func(s string) string {
		p := filepath.Join(dir, fmt.Sprint(len(s))+".json")
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	for _, tt := range []struct {
		name, payload string
		want          Event
		err           string
	}{
		{"pull_request", `{"pull_request":{"number":3,"head":{"sha":"` + b + `","repo":{"full_name":"o/r"}},"base":{"sha":"` + a + `","repo":{"full_name":"o/r"}}}}`,
			Event{Name: "pull_request", PR: 3, Base: a, Head: b}, ""},
		{"pull_request", `{"pull_request":{"number":4,"head":{"sha":"` + b + `","repo":{"full_name":"x/r"}},"base":{"sha":"` + a + `","repo":{"full_name":"o/r"}}}}`,
			Event{Name: "pull_request", PR: 4, Base: a, Head: b, Fork: true}, ""},
		{"pull_request", `{"pull_request":{"number":5,"head":{"sha":"abc"},"base":{"sha":"` + a + `"}}}`, Event{}, "without pull_request.number, head.sha and base.sha"},
		{"push", `{"after":"` + b + `","before":"` + a + `"}`, Event{Name: "push", Base: b, Head: b}, ""},
		{"push", `{"after":"` + strings.Repeat("0", 40) + `"}`, Event{Name: "push", Base: a, Head: a}, ""}, // branch deleted: GITHUB_SHA
		{"workflow_dispatch", `{}`, Event{Name: "workflow_dispatch", Base: a, Head: a}, ""},
		{"workflow_dispatch", `{"inputs":{"x":"1"},"ref":"refs/heads/main","commits":"odd"}`, Event{Name: "workflow_dispatch", Base: a, Head: a}, ""},
		{"push", `{not json`, Event{}, "invalid character"},
		{"schedule", `{not json`, Event{}, "invalid character"},
	} {
		env := Env{EventName: tt.name, EventPath: write(tt.payload), SHA: a}
		ev, err := ReadEvent(env)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %s: err %v, want %q", tt.name, tt.payload, err, tt.err)
			}
			continue
		}
		if err != nil || *ev != tt.want {
			t.Errorf("%s %s: %+v, %v; want %+v", tt.name, tt.payload, ev, err, tt.want)
		}
	}
	if _, err := ReadEvent(Env{}); err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH is not set") {
		t.Errorf("no event: %v", err)
	}
}

// TestReadEnv reads the step's variables through go-githubactions: the
// token input wins over GITHUB_TOKEN, the URLs have GitHub's defaults,
// GITHUB_RUN_ID stays decimal.
func TestReadEnv(t *testing.T) {
	vars := map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "/e.json", "GITHUB_REPOSITORY": "o/r",
		"GITHUB_WORKSPACE": "/ws", "GITHUB_SHA": "s", "GITHUB_RUN_ID": "4242", "GITHUB_TOKEN": "env", "INPUT_GITHUB-TOKEN": "input"}
	get := func(k string) string { return vars[k] }
	want := Env{EventName: "pull_request", EventPath: "/e.json", Repository: "o/r", APIURL: "https://api.github.com",
		ServerURL: "https://github.com", Workspace: "/ws", Token: "input", SHA: "s", RunID: "4242"}
	if got := ReadEnv(get); got != want {
		t.Errorf("ReadEnv = %+v, want %+v", got, want)
	}
	delete(vars, "INPUT_GITHUB-TOKEN")
	vars["GITHUB_API_URL"], vars["GITHUB_SERVER_URL"], vars["GITHUB_RUN_ID"] = "http://api", "http://srv", ""
	want.Token, want.APIURL, want.ServerURL, want.RunID = "env", "http://api", "http://srv", ""
	if got := ReadEnv(get); got != want {
		t.Errorf("ReadEnv = %+v, want %+v", got, want)
	}
}

// TestInputDefault: a set input (even empty) wins over the default, an
// unset one gives the default; the name is upper-cased with hyphens kept.
func TestInputDefault(t *testing.T) {
	vars := map[string]string{"INPUT_FAIL-ON": "never", "INPUT_CHECK-NAME": ""}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	for _, tt := range []struct{ name, def, want string }{
		{"fail-on", "violation", "never"}, {"check-name", "reverify", ""}, {"comment-mode", "all", "all"},
	} {
		if got := InputDefault(lookup, tt.name, tt.def); got != tt.want {
			t.Errorf("InputDefault(%q, %q) = %q, want %q", tt.name, tt.def, got, tt.want)
		}
	}
}

// TestWorkflowCommands prints the commands as GitHub reads them, with
// the message escaped.
func TestWorkflowCommands(t *testing.T) {
	var b strings.Builder
	a := NewActions(func(string) string { return "" }, &b)
	a.Warning("reverify", "50% done\nnext")
	a.Error("reverify", "bad")
	a.Group("shard 1/2")
	a.EndGroup()
	want := "::warning title=reverify::50%25 done%0Anext\n::error title=reverify::bad\n::group::shard 1/2\n::endgroup::\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
