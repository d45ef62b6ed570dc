package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/markdown"
)

// actionWorld is a GitHub Actions runner in miniature: an origin
// repository, a shallow checkout as the workspace, a HOME with its own
// git configuration, and the fake API.
type actionWorld struct {
	t         *testing.T
	bin       string
	origin    string
	ws        string
	home      string
	api       *fakeAPI
	base      string // commits of origin
	head      string // the pull request's head: clamp() broken
	fix       string // a later head: clamp() fixed again
	runnerTmp string
	runs      int
	files     []string // the files a pull request may change (prFiles)
}

// copyTestdata copies testdata/action/<dir> over root.
func copyTestdata(t *testing.T, dir, root string) {
	t.Helper()
	src := filepath.Join("testdata", "action", dir)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// gitIn runs git in dir with a hermetic configuration.
func gitIn(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func newActionWorld(t *testing.T) *actionWorld {
	return newWorld(t, "", "src/clamp.c", "src/clamp.c", "src/main.c")
}

// newWorld makes the world of the fixture testdata/action/<prefix>base
// (the base commit on main) and <prefix>head (the pull request's head,
// on feature), whose later commit fix restores the base's file fix;
// files are the files a pull request may change.
func newWorld(t *testing.T, prefix, fix string, files ...string) *actionWorld {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	w := &actionWorld{t: t, origin: filepath.Join(root, "origin"), ws: filepath.Join(root, "workspace"),
		home: filepath.Join(root, "home"), runnerTmp: filepath.Join(root, "runner"), bin: filepath.Join(root, "reverify"), files: files}
	os.MkdirAll(w.home, 0o755)
	os.MkdirAll(w.runnerTmp, 0o755)
	if out, err := exec.Command("go", "build", "-o", w.bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := w.gitEnv()
	os.MkdirAll(w.origin, 0o755)
	gitIn(t, w.origin, env, "init", "-q", "-b", "main")
	copyTestdata(t, prefix+"base", w.origin)
	gitIn(t, w.origin, env, "add", "-A")
	gitIn(t, w.origin, env, "commit", "-q", "-m", "base")
	w.base = gitIn(t, w.origin, env, "rev-parse", "HEAD")
	gitIn(t, w.origin, env, "checkout", "-q", "-b", "feature")
	copyTestdata(t, prefix+"head", w.origin)
	gitIn(t, w.origin, env, "commit", "-q", "-a", "-m", "head")
	w.head = gitIn(t, w.origin, env, "rev-parse", "HEAD")
	clamp, _ := os.ReadFile(filepath.Join("testdata", "action", prefix+"base", filepath.FromSlash(fix)))
	os.WriteFile(filepath.Join(w.origin, filepath.FromSlash(fix)), clamp, 0o644)
	gitIn(t, w.origin, env, "commit", "-q", "-a", "-m", "fix")
	w.fix = gitIn(t, w.origin, env, "rev-parse", "HEAD")
	// actions/checkout's default: one commit, the tip of the branch.
	gitIn(t, root, env, "clone", "-q", "--depth=1", "--branch", "feature", "file://"+w.origin, w.ws)
	w.api = newFakeAPI(t)
	return w
}

func (w *actionWorld) gitEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "GIT_CONFIG_GLOBAL=" + filepath.Join(w.home, ".gitconfig"), "GIT_CONFIG_NOSYSTEM=1"}
}

// patch is the unified diff of one file between two commits of origin,
// hunks only, as GitHub's pull-request files API gives it.
func (w *actionWorld) patch(from, to, file string) string {
	out := gitIn(w.t, w.origin, w.gitEnv(), "diff", from, to, "--", file)
	if i := strings.Index(out, "@@"); i >= 0 {
		return out[i:]
	}
	return ""
}

// prFiles sets the fake's list of the pull request's files.
func (w *actionWorld) prFiles(head string) {
	w.api.Files = nil
	for _, f := range w.files {
		if p := w.patch(w.base, head, f); p != "" {
			w.api.Files = append(w.api.Files, map[string]any{"filename": f, "status": "modified", "patch": p})
		}
	}
}

// actionRun is the outcome of one step.
type actionRun struct {
	code            int
	stdout, stderr  string
	summary         string
	outputs         map[string]string
	requests        []string
	records         []apiRequest
	outDir, sarifAt string
}

// actionArgs expands action.yml's runs.args and runs.env for the given
// inputs (defaults from action.yml), as the runner does for a Docker
// action.
func actionArgs(t *testing.T, inputs map[string]string) (args, env []string) {
	t.Helper()
	meta := readActionYAML(t)
	val := func(name string) string {
		if v, ok := inputs[name]; ok {
			return v
		}
		return meta.Inputs[name].Default
	}
	expr := regexp.MustCompile(`\$\{\{\s*inputs\.([a-z0-9-]+)\s*\}\}`)
	expand := func(s string) string {
		return expr.ReplaceAllStringFunc(s, func(m string) string { return val(expr.FindStringSubmatch(m)[1]) })
	}
	for _, a := range meta.Runs.Args {
		args = append(args, expand(a))
	}
	for k, v := range meta.Runs.Env {
		env = append(env, k+"="+expand(v))
	}
	for name := range meta.Inputs {
		env = append(env, "INPUT_"+strings.ToUpper(name)+"="+val(name))
	}
	return args, env
}

// run runs the binary as the Action runs it: `reverify action` with
// action.yml's args, in the workspace, with the environment GitHub sets.
func (w *actionWorld) run(eventName string, event map[string]any, inputs map[string]string) *actionRun {
	t := w.t
	t.Helper()
	w.runs++
	dir := filepath.Join(w.runnerTmp, fmt.Sprint(w.runs))
	os.MkdirAll(dir, 0o755)
	eventPath := filepath.Join(dir, "event.json")
	data, _ := json.Marshal(event)
	os.WriteFile(eventPath, data, 0o644)
	summary, output := filepath.Join(dir, "step_summary"), filepath.Join(dir, "output")
	os.WriteFile(summary, nil, 0o644)
	os.WriteFile(output, nil, 0o644)
	if inputs["github-token"] == "" {
		inputs["github-token"] = "t0ken"
	}
	args, inputEnv := actionArgs(t, inputs)
	cmd := exec.Command(w.bin, append([]string{"action"}, args...)...)
	cmd.Dir = w.ws
	cmd.Env = append(w.gitEnv(), inputEnv...)
	cmd.Env = append(cmd.Env, "CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME="+eventName, "GITHUB_EVENT_PATH="+eventPath,
		"GITHUB_REPOSITORY=o/r", "GITHUB_API_URL="+w.api.URL, "GITHUB_SERVER_URL=https://github.com",
		"GITHUB_WORKSPACE="+w.ws, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_RUN_ID=4242",
		// The merge commit actions/checkout makes for a pull request:
		// never the commit to report on.
		"GITHUB_SHA=ffffffffffffffffffffffffffffffffffffffff")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := &actionRun{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the action: %v", err)
	}
	r.summary = readFile(t, summary)
	r.outputs = parseOutputs(t, readFile(t, output))
	r.requests, r.records = w.api.Take()
	r.outDir = filepath.Join(w.ws, "reverify-out")
	return r
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseOutputs reads a GITHUB_OUTPUT file (name<<DELIMITER ... DELIMITER).
func parseOutputs(t *testing.T, s string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		name, delim, ok := strings.Cut(lines[i], "<<")
		if !ok {
			if lines[i] != "" {
				t.Errorf("GITHUB_OUTPUT: stray line %q", lines[i])
			}
			continue
		}
		var val []string
		for i++; i < len(lines) && lines[i] != delim; i++ {
			val = append(val, lines[i])
		}
		out[name] = strings.Join(val, "\n")
	}
	return out
}

func prEvent(number int, base, head, headRepo string) map[string]any {
	return map[string]any{"action": "synchronize", "number": number, "pull_request": map[string]any{
		"number": number,
		"head":   map[string]any{"sha": head, "ref": "feature", "repo": map[string]any{"full_name": headRepo}},
		"base":   map[string]any{"sha": base, "ref": "main", "repo": map[string]any{"full_name": "o/r"}},
	}}
}

func (r *actionRun) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

func (r *actionRun) wantOutputs(t *testing.T, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if r.outputs[k] != v {
			t.Errorf("output %s = %q, want %q (all: %v)", k, r.outputs[k], v, r.outputs)
		}
	}
	meta := readActionYAML(t)
	if len(r.outputs) != len(meta.Outputs) {
		t.Errorf("outputs %v; action.yml declares %d", r.outputs, len(meta.Outputs))
	}
	for k := range meta.Outputs {
		if _, ok := r.outputs[k]; !ok {
			t.Errorf("output %s declared in action.yml is not set", k)
		}
	}
}

// TestActionEndToEnd runs the built binary as the Action runs it on a
// real repository: a push warms the verdict cache, a pull request breaks
// an assertion (sticky comment, inline review comment, check run), a
// re-run edits the comment without repeating the review, a fix deletes
// the stale review comment, and a pull request from a fork (read-only
// token) falls back to the job summary and annotations. Each run checks
// the exit code of its failure policy.
func TestActionEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	w := newActionWorld(t)

	// 1. Push to main: every property verified and cached; UNKNOWN passes
	// fail-on violation. Nothing is posted but the job summary.
	r := w.run("push", map[string]any{"after": w.base, "before": strings.Repeat("0", 40)}, map[string]string{})
	r.wantCode(t, 0)
	sameLines(t, "push: API requests", r.requests, nil)
	r.wantOutputs(t, map[string]string{"true": "2", "false": "0", "unknown": "1", "reverified": "3", "reused": "0",
		"results": "reverify-out/results.json", "sarif": "reverify-out/results.sarif"})
	if !strings.Contains(r.summary, "✅ 2 assertions proved · ❓ 1 unknown") || !strings.HasPrefix(r.summary, markdown.Marker) {
		t.Errorf("push: job summary:\n%s", r.summary)
	}
	// The scope input defaults to true: each proof names the functions
	// it depends on.
	for _, want := range []string{
		"<br>proof depends on <code>check&#95;clamp</code>, <code>clamp</code>, <code>main</code> (3 of 6 functions) |",
		"<br>proof depends on <code>check&#95;scale</code>, <code>main</code>, <code>scale</code> (3 of 6 functions) |",
	} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("push: job summary lacks the scope %q:\n%s", want, r.summary)
		}
	}
	if !strings.Contains(r.stdout, "reverify: fetched "+w.base[:12]) {
		t.Errorf("push: the base commit was not fetched into the shallow checkout:\n%s", r.stdout)
	}
	if cfg := readFile(t, filepath.Join(w.home, ".gitconfig")); strings.Count(cfg, "directory = "+w.ws) != 1 {
		t.Errorf("safe.directory not set once:\n%s", cfg)
	}

	// 2. The same push under fail-on unknown: all reused, exit 1.
	r = w.run("push", map[string]any{"after": w.base}, map[string]string{"fail-on": "unknown"})
	r.wantCode(t, 1)
	r.wantOutputs(t, map[string]string{"reverified": "0", "reused": "3", "unknown": "1"})
	if cfg := readFile(t, filepath.Join(w.home, ".gitconfig")); strings.Count(cfg, "directory = "+w.ws) != 1 {
		t.Errorf("safe.directory added twice:\n%s", cfg)
	}

	// The push again with a fresh cache and scope false: everything is
	// verified again, and no scope is computed or shown.
	r = w.run("push", map[string]any{"after": w.base}, map[string]string{"scope": "false", "cache": ".reverify/cache-noscope"})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"true": "2", "reverified": "3", "reused": "0"})
	if strings.Contains(r.summary, "depends on <code>") || strings.Contains(readFile(t, filepath.Join(r.outDir, "results.json")), `"scope"`) {
		t.Errorf("scope false: a scope was computed:\n%s", r.summary)
	}

	// 3. The pull request: clamp() returns LIMIT + 1.
	w.prFiles(w.head)
	r = w.run("pull_request", prEvent(7, w.base, w.head, "o/r"), map[string]string{})
	r.wantCode(t, 1)
	sameLines(t, "pull request: API requests", r.requests, []string{
		"GET /repos/o/r/issues/7/comments",
		"POST /repos/o/r/issues/7/comments",
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/pulls/7/reviews",
		"POST /repos/o/r/check-runs",
	})
	if len(r.records) == 7 {
		if a := r.records[1].Auth; a != "Bearer t0ken" {
			t.Errorf("Authorization %q", a)
		}
		body, _ := r.records[1].Body["body"].(string)
		if !strings.HasPrefix(body, markdown.Marker) || !strings.Contains(body, "❌ 1 assertion violated · ✅ 1 proved · ❓ 1 unknown") ||
			!strings.Contains(body, "Re-verified 1 of 3 properties; 2 reused from the cache") || body != readFile(t, filepath.Join(r.outDir, "summary.md")) {
			t.Errorf("sticky comment:\n%s", body)
		}
		// The counterexample's steps: inputs at the call that read them,
		// the changed lines marked, the value at the failure.
		for _, want := range []string{
			"**At the failure:** <code>v</code> = 11",
			"| ✏️\u00a0[<code>src/clamp.c&#58;5</code>](https://github.com/o/r/blob/" + w.head + "/src/clamp.c#L5) | <code>return LIMIT + 1;</code>",
			// the pixel tree as emoji squares with the error path
			"<details><summary>🌳 Pixel tree of the analysis (",
			"🟦 error path · ⬛ state",
			// the run, its artifacts and a one-line reproduction
			"🔗 [Workflow run](https://github.com/o/r/actions/runs/4242) · [artifacts](https://github.com/o/r/actions/runs/4242#artifacts)",
			"```sh\ngit checkout " + w.head + " &&\n  gh run download 4242 -R o/r -n reverify -D reverify-out &&\n  sh reverify-out/check_clamp_v_LIMIT-L9/reproduce.sh\n```",
			// the scope of the counterexample (the proof's is in the cache)
			"<br>counterexample found in <code>check&#95;clamp</code>, <code>clamp</code>, <code>main</code> (3 of 6 functions; partial scope) |",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("sticky comment lacks %q:\n%s", want, body)
			}
		}
		if strings.Contains(body, "skip") {
			t.Errorf("sticky comment shows a skip step:\n%s", body)
		}
		// The pull request changes only clamp(), the callee: the inline
		// comment goes on the changed line the counterexample passes
		// through, not into the review body.
		rv := r.records[5].Body
		cs, _ := rv["comments"].([]any)
		if rv["commit_id"] != w.head || rv["event"] != "COMMENT" || len(cs) != 1 {
			t.Fatalf("review: %v", rv)
		}
		c := cs[0].(map[string]any)
		cb, _ := c["body"].(string)
		if c["path"] != "src/clamp.c" || c["line"] != float64(5) || c["side"] != "RIGHT" ||
			!strings.Contains(cb, github.FindingMarker("")[:len("<!-- reverify:finding ")]) ||
			!strings.HasPrefix(cb, "**❌ reverify: this change lets <code>v</code> reach 11; <code>assert(v &lt;= LIMIT)</code> at [<code>src/main.c&#58;9</code>](https://github.com/o/r/blob/"+w.head+"/src/main.c#L9) fails**") {
			t.Errorf("review comment: %v", c)
		}
		if rb, _ := rv["body"].(string); strings.Contains(rb, "found") || strings.Contains(rb, "outside") {
			t.Errorf("review body is not minimal: %q", rb)
		}
		// As a reviewer sees them: rendered as GitHub does, laid out at
		// the comment column's width (when Chromium is installed).
		checkRendered(t, map[string]string{"sticky-comment": body, "inline-comment": cb, "job-summary": r.summary})
		// One annotation: the violation. The UNKNOWN of check_sensor is
		// reused from the cache and the change does not touch it: it was
		// reported before and is not annotated again (the sticky comment
		// lists it).
		cr := r.records[6].Body
		out, _ := cr["output"].(map[string]any)
		if cr["head_sha"] != w.head || cr["name"] != "reverify" || cr["conclusion"] != "failure" || cr["status"] != "completed" ||
			len(annotationsIn(cr)) != 1 || out["title"] != "❌ 1 assertion violated · ✅ 1 proved · ❓ 1 unknown" {
			t.Errorf("check run: %v", cr)
		}
	}
	r.wantOutputs(t, map[string]string{"true": "1", "false": "1", "unknown": "1", "reverified": "1", "reused": "2"})
	if !strings.Contains(r.summary, "Re-verified 1 of 3 properties; 2 reused") || !strings.Contains(r.summary, "### ❌ Violations") {
		t.Errorf("pull request: job summary:\n%s", r.summary)
	}
	checkSARIF(t, filepath.Join(w.ws, r.outputs["sarif"]), 1, "src/main.c", 9)
	// The code flow: no position-less first step (it became startLine 1),
	// the changed line marked, the value at the failure in the message.
	sarifText := readFile(t, filepath.Join(w.ws, r.outputs["sarif"]))
	for _, want := range []string{`"text": "return LIMIT + 1; [changed]"`, `"text": "assert(v \u003c= LIMIT) is false"`, `At the failure: v = 11.`, `(10 shown, the rest folded)`} {
		if !strings.Contains(sarifText, want) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
	if strings.Contains(sarifText, `"text": "skip"`) || strings.Contains(sarifText, `"startLine": 1,`) {
		t.Errorf("SARIF has a skip step or a step on line 1")
	}
	if strings.Contains(r.stdout, "::error") {
		t.Errorf("workflow-command annotations printed although the check run carries them:\n%s", r.stdout)
	}

	// 4. Re-run on the same head: the sticky comment is edited (if its
	// text changed at all), the review is not repeated.
	firstBody := w.api.IssueComments[0]["body"]
	r = w.run("pull_request", prEvent(7, w.base, w.head, "o/r"), map[string]string{"fail-on": "unknown"})
	r.wantCode(t, 1)
	want := []string{"GET /repos/o/r/issues/7/comments"}
	if readFile(t, filepath.Join(r.outDir, "summary.md")) != firstBody {
		want = append(want, fmt.Sprintf("PATCH /repos/o/r/issues/comments/%v", w.api.IssueComments[0]["id"]))
	}
	want = append(want, "GET /repos/o/r/pulls/7/files", "GET /repos/o/r/pulls/7/comments", "GET /repos/o/r/pulls/7/reviews", "POST /repos/o/r/check-runs")
	sameLines(t, "re-run: API requests", r.requests, want)
	if len(w.api.IssueComments) != 1 || len(w.api.Reviews) != 1 || len(w.api.ReviewComments) != 1 {
		t.Errorf("after the re-run: %d comments, %d reviews, %d review comments; want 1 each",
			len(w.api.IssueComments), len(w.api.Reviews), len(w.api.ReviewComments))
	}

	// 5. The author pushes a fix: the comment is edited, the stale review
	// comment deleted, the review marked resolved; UNKNOWN remains
	// (conclusion neutral, exit 0).
	w.prFiles(w.fix)
	staleID := w.api.ReviewComments[0]["id"]
	r = w.run("pull_request", prEvent(7, w.base, w.fix, "o/r"), map[string]string{})
	r.wantCode(t, 0)
	sameLines(t, "fix: API requests", r.requests, []string{
		"GET /repos/o/r/issues/7/comments",
		fmt.Sprintf("PATCH /repos/o/r/issues/comments/%v", w.api.IssueComments[0]["id"]),
		"GET /repos/o/r/pulls/7/files",
		"GET /repos/o/r/pulls/7/comments",
		"GET /repos/o/r/pulls/7/reviews",
		fmt.Sprintf("DELETE /repos/o/r/pulls/comments/%v", staleID),
		fmt.Sprintf("PUT /repos/o/r/pulls/7/reviews/%v", w.api.Reviews[0]["id"]),
		"POST /repos/o/r/check-runs",
	})
	if len(r.records) == 8 && r.records[7].Body["conclusion"] != "neutral" {
		t.Errorf("fix: conclusion %v", r.records[7].Body["conclusion"])
	}
	if b, _ := w.api.Reviews[0]["body"].(string); !strings.Contains(b, "resolved as of <code>"+w.fix[:12]+"</code>") {
		t.Errorf("fix: the review was not marked resolved: %q", b)
	}
	r.wantOutputs(t, map[string]string{"false": "0", "true": "2", "unknown": "1"})
	checkSARIF(t, filepath.Join(w.ws, r.outputs["sarif"]), 0, "", 0)

	// 6. A pull request from a fork: the token is read-only. The first
	// write answers 403; the job summary and annotations take over and
	// say so. fail-on never: exit 0 despite the violation.
	w.api.ReadOnly = true
	w.prFiles(w.head)
	r = w.run("pull_request", prEvent(8, w.base, w.head, "someone/r"), map[string]string{"fail-on": "never"})
	r.wantCode(t, 0)
	sameLines(t, "fork: API requests", r.requests, []string{
		"GET /repos/o/r/issues/8/comments",
		"POST /repos/o/r/issues/8/comments",
	})
	if !strings.Contains(r.summary, "❌ 1 assertion violated") || !strings.Contains(r.summary, github.ReadOnlyNote) {
		t.Errorf("fork: job summary lacks the results or the read-only note:\n%s", r.summary)
	}
	for _, want := range []string{
		"::error col=3,file=src/main.c,line=9,title=reverify%3A assertion v <= LIMIT violated::",
		"::warning title=reverify::the token cannot write to this repository",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("fork: stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// The cached UNKNOWN the change does not touch: no annotation.
	if strings.Contains(r.stdout, "title=reverify%3A assertion s != 3 unknown::") {
		t.Errorf("fork: the cached UNKNOWN of unchanged code is annotated:\n%s", r.stdout)
	}
	r.wantOutputs(t, map[string]string{"false": "1"})

	// 7. A pull request whose head does not compile: exit 2, and the
	// error is posted: a sticky comment saying
	// nothing was checked and why, a failed check run with an annotation
	// on the file and line, no spurious position-less "-: unexpected
	// <EOF>".
	w.api.ReadOnly = false
	env := w.gitEnv()
	gitIn(t, w.origin, env, "checkout", "-q", "-b", "broken", w.head)
	f, _ := os.OpenFile(filepath.Join(w.origin, "src", "clamp.c"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("int broken( {\n")
	f.Close()
	gitIn(t, w.origin, env, "commit", "-q", "-a", "-m", "broken")
	broken := gitIn(t, w.origin, env, "rev-parse", "HEAD")
	r = w.run("pull_request", prEvent(9, w.base, broken, "o/r"), map[string]string{})
	r.wantCode(t, 2)
	sameLines(t, "parse error: API requests", r.requests, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"POST /repos/o/r/check-runs",
	})
	if len(r.records) == 3 {
		body, _ := r.records[1].Body["body"].(string)
		if !strings.HasPrefix(body, markdown.Marker) || !strings.Contains(body, "**No assertion was checked**") ||
			!strings.Contains(body, "- [<code>src/clamp.c&#58;10</code>](https://github.com/o/r/blob/"+broken+"/src/clamp.c#L10): unexpected") {
			t.Errorf("parse error: sticky comment:\n%s", body)
		}
		cr := r.records[2].Body
		as := annotationsIn(cr)
		if cr["conclusion"] != "failure" || len(as) != 1 {
			t.Fatalf("parse error: check run %v", cr)
		}
		if a := as[0].(map[string]any); a["path"] != "src/clamp.c" || a["start_line"] != float64(10) || a["annotation_level"] != "failure" {
			t.Errorf("parse error: annotation %v", a)
		}
	}
	if strings.Contains(r.stderr+r.stdout, "-: unexpected") {
		t.Errorf("parse error: position-less follow-up errors:\n%s\n%s", r.stdout, r.stderr)
	}
}

// checkSARIF parses a SARIF log and checks its version and that it has
// one assertion-violated result per FALSE verdict, the first at file:line.
func checkSARIF(t *testing.T, path string, violations int, file string, line int) {
	t.Helper()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &log); err != nil {
		t.Fatalf("SARIF: %v", err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "reverify" {
		t.Fatalf("SARIF: version %q, schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	n := 0
	for _, res := range log.Runs[0].Results {
		if res.RuleID != "assertion-violated" {
			continue
		}
		n++
		if res.Level != "error" || len(res.Locations) != 1 {
			t.Errorf("SARIF result %+v", res)
			continue
		}
		loc := res.Locations[0].PhysicalLocation
		if n == 1 && (loc.ArtifactLocation.URI != file || loc.Region.StartLine != line) {
			t.Errorf("SARIF location %s:%d, want %s:%d", loc.ArtifactLocation.URI, loc.Region.StartLine, file, line)
		}
	}
	if n != violations {
		t.Errorf("SARIF: %d violation results, want %d", n, violations)
	}
}

// actionYAML is the part of action.yml the tests read.
type actionYAML struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
	} `yaml:"outputs"`
	Runs struct {
		Using string            `yaml:"using"`
		Image string            `yaml:"image"`
		Env   map[string]string `yaml:"env"`
		Args  []string          `yaml:"args"`
	} `yaml:"runs"`
}

func readActionYAML(t *testing.T) *actionYAML {
	t.Helper()
	var a actionYAML
	if err := yaml.Unmarshal([]byte(readFile(t, filepath.Join("..", "..", "action.yml"))), &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// TestActionFrontendClang runs the Action with the input frontend: clang
// on the pull request of TestActionEndToEnd: the sources are compiled by
// clang and verified as LLVM IR, the violation is found at the same C
// line, its reproducer is named as through the built-in front end, and
// the verdicts are cached apart from the built-in front end's (nothing
// the push cached is reused). A bad value is a one-line error, exit 2.
func TestActionFrontendClang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("clang"); err != nil {
		t.Skip("clang is not installed (scripts/install.sh installs it)")
	}
	w := newActionWorld(t)
	// the push fills the cache through the built-in front end; the pull
	// request through clang reuses none of it (TestActionEndToEnd's
	// reuses 2 of 3)
	r := w.run("push", map[string]any{"after": w.base}, map[string]string{})
	r.wantCode(t, 0)
	r.wantOutputs(t, map[string]string{"reverified": "3"})
	w.prFiles(w.head)
	r = w.run("pull_request", prEvent(7, w.base, w.head, "o/r"), map[string]string{"frontend": "clang"})
	r.wantCode(t, 1)
	r.wantOutputs(t, map[string]string{"false": "1", "reverified": "3", "reused": "0"})
	res := readFile(t, filepath.Join(r.outDir, "results.json"))
	for _, want := range []string{`"file": "src/clamp.c"`, `"line": 9`, `"verdict": "FALSE"`} {
		if !strings.Contains(res, want) {
			t.Errorf("results.json lacks %s:\n%s", want, res)
		}
	}
	if body := r.commentOf(); !strings.Contains(body, "sh reverify-out/check_clamp_v_LIMIT-L9/reproduce.sh") {
		t.Errorf("sticky comment lacks the reproducer:\n%s", body)
	}
	r = w.run("pull_request", prEvent(7, w.base, w.head, "o/r"), map[string]string{"frontend": "gcc"})
	r.wantCode(t, 2)
	if !strings.Contains(r.stderr, `frontend: want cc or clang, got "gcc"`) {
		t.Errorf("bad frontend: stderr %q", r.stderr)
	}
}
