package github

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v60/github"
	"github.com/sethvargo/go-githubactions"
)

// Env is the environment of a GitHub Actions step, as the runner sets it
// for a Docker action (GitHub docs, "Variables", default environment
// variables).
type Env struct {
	EventName  string // GITHUB_EVENT_NAME: pull_request, push, …
	EventPath  string // GITHUB_EVENT_PATH: the webhook payload (JSON)
	Repository string // GITHUB_REPOSITORY: owner/name
	APIURL     string // GITHUB_API_URL; https://api.github.com when unset
	ServerURL  string // GITHUB_SERVER_URL; https://github.com when unset
	Workspace  string // GITHUB_WORKSPACE: the checkout
	// Token is the Action's github-token input (INPUT_GITHUB-TOKEN),
	// else GITHUB_TOKEN; "" when neither is set.
	Token string
	SHA   string // GITHUB_SHA: the commit that triggered the run
	RunID string // GITHUB_RUN_ID in decimal; "" when unset
}

// ReadEnv reads the step's environment through go-githubactions
// (Action.Context, Action.GetInput) over getenv (nil: os.Getenv). The
// payload is not read here but by ReadEvent, into go-github's event
// types; a malformed numeric variable (GITHUB_RUN_ID) reads as unset.
func ReadEnv(getenv func(string) string) Env {
	if getenv == nil {
		getenv = os.Getenv
	}
	// Context would also parse the payload, into a map, and give no
	// context at all when that fails: ReadEvent reports that instead.
	noPayload := func(k string) string {
		if k == "GITHUB_EVENT_PATH" {
			return ""
		}
		return getenv(k)
	}
	a := githubactions.New(githubactions.WithGetenv(noPayload))
	c, _ := a.Context() // its errors are malformed numbers and Booleans, read as zero
	e := Env{EventName: c.EventName, EventPath: getenv("GITHUB_EVENT_PATH"), Repository: c.Repository,
		APIURL: c.APIURL, ServerURL: c.ServerURL, Workspace: c.Workspace, SHA: c.SHA,
		Token: a.GetInput("github-token")}
	if c.RunID != 0 {
		e.RunID = strconv.FormatInt(c.RunID, 10)
	}
	if e.Token == "" {
		e.Token = getenv("GITHUB_TOKEN")
	}
	return e
}

// Event is what reverify needs from the webhook payload.
type Event struct {
	Name string
	PR   int    // pull-request number; 0 for other events
	Base string // base commit (equal to Head for pushes: verify everything)
	Head string // the commit verified and reported on
	Fork bool   // pull request from another repository
}

// ReadEvent reads the payload at env.EventPath into go-github's event
// types. For pull_request (and pull_request_target) events Base and Head
// are pull_request.base.sha and pull_request.head.sha
// (gh.PullRequestEvent): the head commit, not the merge commit in
// GITHUB_SHA, is where reviews and check runs belong; Fork says that the
// head repository differs from the base repository. For push the head is
// "after" (gh.PushEvent; GITHUB_SHA if absent or all zeros, a deleted
// branch), and Base equals Head: every property not in the cache is
// verified (cache warming). Other events (workflow_dispatch, schedule)
// are treated as pushes of GITHUB_SHA. Errors: no GITHUB_EVENT_PATH, an
// unreadable or malformed payload, a pull-request payload without number
// and commit SHAs, no commit to verify.
func ReadEvent(env Env) (*Event, error) {
	if env.EventPath == "" {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH is not set: reverify action runs as a GitHub Actions step (locally, use reverify check --base)")
	}
	data, err := os.ReadFile(env.EventPath)
	if err != nil {
		return nil, fmt.Errorf("event: %v", err)
	}
	ev := &Event{Name: env.EventName}
	switch env.EventName {
	case "pull_request", "pull_request_target":
		var p gh.PullRequestEvent
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("event %s: %v", env.EventPath, err)
		}
		pr := p.GetPullRequest()
		if pr == nil || pr.GetNumber() <= 0 || !IsSHA(pr.GetHead().GetSHA()) || !IsSHA(pr.GetBase().GetSHA()) {
			return nil, fmt.Errorf("event %s: a %s event without pull_request.number, head.sha and base.sha", env.EventPath, env.EventName)
		}
		ev.PR, ev.Base, ev.Head = pr.GetNumber(), pr.GetBase().GetSHA(), pr.GetHead().GetSHA()
		head, base := pr.GetHead().GetRepo().GetFullName(), pr.GetBase().GetRepo().GetFullName()
		ev.Fork = head != "" && head != base
	default:
		// Other events' payloads (workflow_dispatch, schedule) are read
		// for "after" only: a field whose type differs from the push
		// event's is no error, malformed JSON is.
		var p gh.PushEvent
		var te *json.UnmarshalTypeError
		if err := json.Unmarshal(data, &p); err != nil && (env.EventName == "push" || !errors.As(err, &te)) {
			return nil, fmt.Errorf("event %s: %v", env.EventPath, err)
		}
		ev.Head = env.SHA
		if after := p.GetAfter(); IsSHA(after) && strings.Trim(after, "0") != "" {
			ev.Head = after
		}
		if !IsSHA(ev.Head) {
			return nil, fmt.Errorf("event %s: no commit to verify (GITHUB_SHA %q)", env.EventName, env.SHA)
		}
		ev.Base = ev.Head
	}
	return ev, nil
}

// IsSHA reports whether s is a full commit hash in lower-case
// hexadecimal: 40 digits (SHA-1) or 64 (SHA-256).
func IsSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// InputDefault is the default of the command-line flag for the Action
// input name: the input's value as go-githubactions reads it
// (Action.GetInput: INPUT_<NAME>, upper-cased with spaces as
// underscores and hyphens kept, e.g. INPUT_FAIL-ON; surrounding white
// space trimmed) when the variable is set, even to "", else def. lookup
// is os.LookupEnv or a test's stand-in (nil: os.LookupEnv).
func InputDefault(lookup func(string) (string, bool), name, def string) string {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	set := false
	a := githubactions.New(githubactions.WithGetenv(func(k string) string {
		v, ok := lookup(k)
		set = ok
		return v
	}))
	if v := a.GetInput(name); set {
		return v
	}
	return def
}
