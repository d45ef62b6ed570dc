package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/results"
)

// TestActionYAMLInputs checks action.yml against `reverify action`: a
// Docker action running the published image of this version
// (TestVersionsAgree checks the tag); every input is passed as
// --name=${{ inputs.name }} and is a flag of the command (github-token
// goes through GITHUB_TOKEN), and every flag is an input.
func TestActionYAMLInputs(t *testing.T) {
	meta := readActionYAML(t)
	if meta.Runs.Using != "docker" || !strings.HasPrefix(meta.Runs.Image, actionImage+":") {
		t.Errorf("runs: using %q, image %q; want a docker action running %s:TAG", meta.Runs.Using, meta.Runs.Image, actionImage)
	}
	fs, _ := actionFlags(&bytes.Buffer{})
	flags := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { flags[f.Name] = true })
	passed := map[string]bool{}
	argRE := regexp.MustCompile(`^--([a-z0-9-]+)=\$\{\{ inputs\.([a-z0-9-]+) \}\}$`)
	for _, a := range meta.Runs.Args {
		m := argRE.FindStringSubmatch(a)
		if m == nil || m[1] != m[2] {
			t.Errorf("runs.args: %q is not --NAME=${{ inputs.NAME }}", a)
			continue
		}
		if passed[m[1]] {
			t.Errorf("runs.args: %s passed twice", m[1])
		}
		passed[m[1]] = true
	}
	if meta.Runs.Env["GITHUB_TOKEN"] != "${{ inputs.github-token }}" {
		t.Errorf("runs.env.GITHUB_TOKEN = %q, want ${{ inputs.github-token }}", meta.Runs.Env["GITHUB_TOKEN"])
	}
	for name, in := range meta.Inputs {
		if in.Description == "" {
			t.Errorf("input %s has no description", name)
		}
		if name == "github-token" {
			continue
		}
		if !passed[name] {
			t.Errorf("input %s is not passed in runs.args", name)
		}
		if !flags[name] {
			t.Errorf("input %s is not a flag of reverify action", name)
		}
	}
	for name := range flags {
		if _, ok := meta.Inputs[name]; !ok {
			t.Errorf("flag --%s of reverify action is no input of action.yml", name)
		}
	}
	for name := range passed {
		if _, ok := meta.Inputs[name]; !ok {
			t.Errorf("runs.args passes %s, which is no input", name)
		}
	}
	// Inputs without a default in action.yml must mean the same as the
	// flag's default.
	for name, in := range meta.Inputs {
		if f := fs.Lookup(name); f != nil && f.DefValue != in.Default {
			t.Errorf("input %s: default %q in action.yml, %q in reverify action", name, in.Default, f.DefValue)
		}
	}
	want := github.StepOutputs(&results.Report{Summary: map[string]int{}}, "r", "s")
	for name := range meta.Outputs {
		if _, ok := want[name]; !ok {
			t.Errorf("action.yml output %s is not written by reverify action", name)
		}
	}
	for name := range want {
		if _, ok := meta.Outputs[name]; !ok {
			t.Errorf("reverify action writes output %s, which action.yml does not declare", name)
		}
	}
}

// TestDockerfileUsesInstallScript checks that the Dockerfile's build
// stage runs exactly scripts/install.sh, that .ci/run runs it too, and
// that the runtime stage is Debian slim with libz3-4, git and a C
// compiler, entering `reverify action`.
func TestDockerfileUsesInstallScript(t *testing.T) {
	root := filepath.Join("..", "..")
	stages, entry := readDockerfile(t)
	if len(stages) != 2 {
		t.Fatalf("Dockerfile has %d stages, want 2 (build, runtime)", len(stages))
	}
	if b := stages[0]; !regexp.MustCompile(`^golang:[0-9.]+-bookworm AS build$`).MatchString(b.from) ||
		len(b.runs) != 1 || b.runs[0] != "scripts/install.sh" {
		t.Errorf("build stage: FROM %q, RUN %q; want a golang bookworm image running exactly scripts/install.sh", b.from, b.runs)
	}
	rt := stages[1]
	if rt.from != "debian:bookworm-slim" {
		t.Errorf("runtime stage FROM %q, want debian:bookworm-slim", rt.from)
	}
	install := strings.Join(rt.runs, " ")
	for _, pkg := range []string{"libz3-4", "git", "gcc", "libc6-dev"} {
		if !regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(pkg) + `(\s|$)`).MatchString(install) {
			t.Errorf("runtime stage does not install %s: %q", pkg, install)
		}
	}
	if entry != `["/usr/local/bin/reverify", "action"]` {
		t.Errorf("ENTRYPOINT %s", entry)
	}
	ci := readFile(t, filepath.Join(root, ".ci", "run"))
	if !regexp.MustCompile(`(?m)^scripts/install\.sh\s*$`).MatchString(ci) {
		t.Errorf(".ci/run does not run scripts/install.sh")
	}
	if st, err := os.Stat(filepath.Join(root, "scripts", "install.sh")); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("scripts/install.sh is missing or not executable: %v", err)
	}
}

// dockerStage is one stage of the Dockerfile: its FROM line after the
// keyword and its RUN commands, continuation lines joined and runs of
// white space made one space.
type dockerStage struct {
	from string
	runs []string
}

// readDockerfile parses the repository's Dockerfile into its stages and
// the ENTRYPOINT's argument (comments and blank lines skipped).
func readDockerfile(t *testing.T) (stages []*dockerStage, entry string) {
	t.Helper()
	docker := readFile(t, filepath.Join("..", "..", "Dockerfile"))
	var cont string
	for _, line := range strings.Split(docker, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		if cont != "" {
			line = cont + " " + line
			cont = ""
		}
		if strings.HasSuffix(line, "\\") {
			cont = strings.TrimSuffix(line, "\\")
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		switch strings.ToUpper(word) {
		case "FROM":
			stages = append(stages, &dockerStage{from: rest})
		case "RUN":
			if len(stages) == 0 {
				t.Fatalf("Dockerfile: RUN before FROM")
			}
			stages[len(stages)-1].runs = append(stages[len(stages)-1].runs, strings.Join(strings.Fields(rest), " "))
		case "ENTRYPOINT":
			entry = rest
		}
	}
	return stages, entry
}

// TestFailurePolicy: per policy, whether FALSE, UNKNOWN and unresolved
// findings (FALSE earlier, UNKNOWN now; counted among the UNKNOWN) fail
// the step, and the check run's conclusion.
func TestFailurePolicy(t *testing.T) {
	for _, tt := range []struct {
		f, u, open  int
		policy      string
		fails       bool
		conclusionI string
	}{
		{0, 0, 0, "violation", false, "success"},
		{1, 0, 0, "violation", true, "failure"},
		{0, 2, 0, "violation", false, "neutral"},
		{0, 2, 1, "violation", false, "neutral"},
		{0, 0, 0, "unresolved", false, "success"},
		{1, 0, 0, "unresolved", true, "failure"},
		{0, 2, 0, "unresolved", false, "neutral"},
		{0, 2, 1, "unresolved", true, "failure"},
		{0, 2, 0, "unknown", true, "failure"},
		{0, 2, 1, "unknown", true, "failure"},
		{1, 0, 0, "unknown", true, "failure"},
		{0, 0, 0, "unknown", false, "success"},
		{3, 3, 1, "never", false, "neutral"},
	} {
		r := &results.Report{Summary: map[string]int{"FALSE": tt.f, "UNKNOWN": tt.u, "TRUE": 4}}
		for i := 0; i < tt.u; i++ {
			p := results.PropertyReport{ID: fmt.Sprint("p", i), Verdict: results.Unknown}
			if i < tt.open {
				p.Earlier = &results.Earlier{Verdict: results.False, On: results.EarlierBase}
			} else if i%2 == 0 {
				p.Earlier = &results.Earlier{Verdict: results.True, On: results.EarlierBase}
			}
			r.Properties = append(r.Properties, p)
		}
		if got := policyFails(tt.policy, r); got != tt.fails {
			t.Errorf("%d FALSE, %d UNKNOWN (%d unresolved), fail-on %s: fails %v", tt.f, tt.u, tt.open, tt.policy, got)
		}
		if got := conclusion(tt.policy, r); got != tt.conclusionI {
			t.Errorf("%d FALSE, %d UNKNOWN (%d unresolved), fail-on %s: conclusion %s, want %s", tt.f, tt.u, tt.open, tt.policy, got, tt.conclusionI)
		}
	}
	var stderr bytes.Buffer
	fs, in := actionFlags(&stderr)
	if err := fs.Parse(nil); err != nil || in.post.failOn != "unresolved" {
		t.Errorf("the default of --fail-on is %q (%v), want unresolved", in.post.failOn, err)
	}
	if d := readActionYAML(t).Inputs["fail-on"].Default; d != "unresolved" {
		t.Errorf("action.yml: the default of fail-on is %q, want unresolved", d)
	}
}

// TestActionBadInput: one-line errors (and an ::error:: command), exit 2.
func TestActionBadInput(t *testing.T) {
	t.Setenv("GITHUB_EVENT_PATH", "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"action", "--fail-on=sometimes"}, `fail-on: unknown policy "sometimes"`},
		{[]string{"action", "--comment-mode=loud"}, `comment-mode: unknown mode "loud"`},
		{[]string{"action", "--config=fast"}, `config: unknown configuration "fast"`},
		{[]string{"action", "--timeout=soon"}, `timeout: "soon" is not a positive duration`},
		{[]string{"action", "--time-budget=-1m"}, `time-budget: "-1m" is not a positive duration`},
		{[]string{"action", "--scope=maybe"}, `scope: "maybe" is not true or false`},
		{[]string{"action", "--properties=memory"}, `properties: "memory": want assertions or assertions,memory`},
		{[]string{"action", "--properties=assertions,heap"}, `properties: "assertions,heap"`},
		{[]string{"action", "--properties="}, "GITHUB_EVENT_PATH is not set"}, // empty: assertions
		{[]string{"action", "--properties=assertions,memory"}, "GITHUB_EVENT_PATH is not set"},
		{[]string{"action", "--shard=3/2"}, `bad shard "3/2"`},
		{[]string{"action", "--shard=1/2", "--merge=x"}, "merge and shard exclude each other"},
		{[]string{"action"}, "GITHUB_EVENT_PATH is not set"},
		{[]string{"action", "extra"}, "unexpected arguments extra"},
		{[]string{"merge"}, "no shard directories given"},
		{[]string{"merge", filepath.Join(t.TempDir(), "nope")}, "no such shard directory"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) || strings.Count(strings.TrimSpace(stderr.String()), "\n") > 1 {
			t.Errorf("%v: stderr %q, want one line with %q", tt.args, stderr.String(), tt.want)
		}
	}
}

// TestPublishBatchesAnnotations reports 120 findings through
// publishReport against the fake API: the check run is created with 50
// annotations and updated with 50 and 20; findings off the diff go into
// one review body; the outputs are written.
func TestPublishBatchesAnnotations(t *testing.T) {
	api := newFakeAPI(t)
	dir := t.TempDir()
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(dir, "summary"))
	t.Setenv("GITHUB_OUTPUT", filepath.Join(dir, "output"))
	r := &results.Report{Schema: results.SchemaVersion, Engine: version, Entry: "main", Config: "value", Summary: map[string]int{}}
	for i := 0; i < 120; i++ {
		v := results.False
		if i%2 == 1 {
			v = results.Unknown
		}
		r.Properties = append(r.Properties, results.PropertyReport{ID: fmt.Sprintf("main:x!=%d", i), File: "src/big.c", Line: i + 1,
			Column: 3, Function: "main", Expression: fmt.Sprintf("x != %d", i), Verdict: v, Reason: "r", Config: "value"})
		r.Summary[string(v)]++
	}
	env := github.Env{Repository: "o/r", APIURL: api.URL, ServerURL: "https://github.com", Token: "t0ken"}
	ev := &event{Event: github.Event{Name: "pull_request", PR: 9, Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40)}}
	var stdout, stderr bytes.Buffer
	o := postFlags{failOn: "never", commentMode: "all", checkName: "reverify", output: filepath.Join(dir, "out")}
	if code := publishReport(context.Background(), env, ev, r, o, false, &stdout, &stderr); code != 0 {
		t.Errorf("exit %d under fail-on never", code)
	}
	got, reqs := api.Take()
	sameLines(t, "requests", got, []string{
		"GET /repos/o/r/issues/9/comments",
		"POST /repos/o/r/issues/9/comments",
		"GET /repos/o/r/pulls/9/files",
		"GET /repos/o/r/pulls/9/comments",
		"GET /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/pulls/9/reviews",
		"POST /repos/o/r/check-runs",
		"PATCH /repos/o/r/check-runs/1003",
		"PATCH /repos/o/r/check-runs/1003",
	})
	if len(reqs) != 9 {
		t.Fatalf("%d requests", len(reqs))
	}
	var sizes, statuses []string
	for _, q := range reqs[6:] {
		sizes = append(sizes, fmt.Sprint(len(annotationsIn(q.Body))))
		statuses = append(statuses, fmt.Sprint(q.Body["status"], "/", q.Body["conclusion"]))
	}
	sameLines(t, "annotation batches", sizes, []string{"50", "50", "20"})
	sameLines(t, "status/conclusion", statuses, []string{"in_progress/<nil>", "<nil>/<nil>", "completed/neutral"})
	if n := len(api.Annotations[1003]); n != 120 {
		t.Errorf("the check run holds %d annotations, want 120", n)
	}
	body, _ := reqs[5].Body["body"].(string)
	if cs, _ := reqs[5].Body["comments"].([]any); len(cs) != 0 || strings.Count(body, "<!-- reverify:finding ") != 60 {
		t.Errorf("review: %d inline comments, %d findings in the body; want 0 and 60", len(cs), strings.Count(body, "<!-- reverify:finding "))
	}
	if !strings.Contains(stdout.String(), "reverify: reported: comment ok; review ok; check-run ok; job-summary ok; annotations skipped (check run carries them); outputs ok") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	outs := parseOutputs(t, readFile(t, filepath.Join(dir, "output")))
	if outs["false"] != "60" || outs["unknown"] != "60" || outs["reverified"] != "120" {
		t.Errorf("outputs %v", outs)
	}

	// comment-mode off: no comment, no review; a 5xx that outlasts the
	// retries is a warning, never a different exit code.
	o.commentMode, o.failOn = "off", "violation"
	api.ReadOnly = false
	stdout.Reset()
	srvDown := github.Env{Repository: "o/r", APIURL: "http://127.0.0.1:1", ServerURL: "https://github.com", Token: "t0ken"}
	if code := publishReport(context.Background(), srvDown, ev, r, o, false, &stdout, &stderr); code != 1 {
		t.Errorf("exit %d, want 1 (FALSE under fail-on violation) despite the reporting error", code)
	}
	for _, want := range []string{"comment skipped (comment-mode off); review skipped (comment-mode off); check-run failed",
		"::warning title=reverify::reporting failed (the verdicts are unaffected"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestTimeBudget: a budget that ends before any property starts makes
// every re-verified property UNKNOWN "time budget", and none of them is
// cached; the reused verdicts stand.
func TestTimeBudget(t *testing.T) {
	base := map[string]string{"src/m.c": diffMain, ".reverify.yml": "sources: [src/*.c]\nconfig: value\n"}
	head := map[string]string{"src/m.c": strings.Replace(diffMain, "    return LIMIT;", "    return LIMIT + 1;", 1)}
	dir, b, h := diffRepo(t, base, head)
	cache := filepath.Join(t.TempDir(), "cache")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--repo", dir, "--base", b, "--head", b, "--cache", cache}, &stdout, &stderr); code != 0 {
		t.Fatalf("warming: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	before, _ := filepath.Glob(filepath.Join(cache, "*.json"))
	stdout.Reset()
	js := filepath.Join(t.TempDir(), "r.json")
	code := run([]string{"check", "--repo", dir, "--base", b, "--head", h, "--cache", cache, "--time-budget", "1ns", "--json", js}, &stdout, &stderr)
	if code != 0 {
		t.Errorf("exit %d, want 0 (no FALSE)\n%s%s", code, stdout.String(), stderr.String())
	}
	r := readReport(t, js)
	got := map[string]string{}
	for _, p := range r.Properties {
		got[p.ID] = string(p.Verdict) + " " + p.Reason
	}
	if want := "UNKNOWN " + budgetReason(1); got["check_clamp:v<=LIMIT"] != want {
		t.Errorf("check_clamp: %q, want %q", got["check_clamp:v<=LIMIT"], want)
	}
	if !strings.HasPrefix(got["check_const:k==4"], "TRUE") {
		t.Errorf("check_const (reused): %q", got["check_const:k==4"])
	}
	if after, _ := filepath.Glob(filepath.Join(cache, "*.json")); len(after) != len(before) {
		t.Errorf("the cache grew from %d to %d entries: a budget verdict was cached", len(before), len(after))
	}
}

// TestSeveralEntries verifies two entry functions in one run: one
// results.json with the entries' properties combined, artifacts per entry.
func TestSeveralEntries(t *testing.T) {
	dir, b, _ := diffRepo(t, map[string]string{"src/m.c": diffMain, ".reverify.yml": "sources: [src/*.c]\nconfig: value\n"}, map[string]string{"README": "x\n"})
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	rf := &revFlags{repo: dir, base: b, head: b, cacheDir: filepath.Join(t.TempDir(), "cache")}
	res, err := runIncremental(context.Background(), incRequest{rf: rf, s: runSettings{set: map[string]bool{}}, entries: []string{"main", "check_const"},
		outDir: out, stdout: &stdout, stderr: &stderr, prefix: "test"})
	if err != nil {
		t.Fatal(err)
	}
	r := res.report
	var got []string
	for _, p := range r.Properties {
		got = append(got, p.ID+"="+string(p.Verdict))
	}
	// check_clamp is not reachable from check_const (NOT_CHECKED there)
	// and TRUE from main: combined TRUE.
	sameLines(t, "properties", got, []string{"check_clamp:v<=LIMIT=TRUE", "check_const:k==4=TRUE"})
	if r.Entry != "main check_const" || len(res.plans) != 2 {
		t.Errorf("entry %q, %d plans", r.Entry, len(res.plans))
	}
	for _, e := range []string{"main", "check_const"} {
		if m, _ := filepath.Glob(filepath.Join(out, e, "*", "pixeltree.png")); len(m) == 0 {
			t.Errorf("no artifacts below %s/%s", out, e)
		}
	}
	if !strings.Contains(stdout.String(), "entry check_const:\n") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}
