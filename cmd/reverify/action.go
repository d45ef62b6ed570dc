package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reverify/reverify/diffslice"
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/report/github"
	"github.com/reverify/reverify/report/markdown"
	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

// inputDefault is the default of the flag for an Action input: the
// INPUT_<NAME> variable GitHub sets for it (github.InputDefault), else
// def. action.yml also passes every input as --name=value, which wins.
func inputDefault(name, def string) string { return github.InputDefault(os.LookupEnv, name, def) }

// Failure policies (input fail-on), from strict to lenient, and comment
// modes (input comment-mode). unresolved, the default, fails on FALSE and
// on an unresolved finding (FALSE before, UNKNOWN now: results
// PropertyReport.Unresolved); violation on FALSE only; unknown on FALSE
// or any UNKNOWN.
var (
	failPolicies = []string{"unknown", "unresolved", "violation", "never"}
	commentModes = []string{"all", "sticky", "review", "off"}
)

// postFlags are the flags of the reporting step, shared by action and
// merge.
type postFlags struct {
	failOn, commentMode, checkName, output string
	shardText                              string // --shard as given
	shard                                  results.Shard
}

func (o *postFlags) register(fs *flag.FlagSet, action bool) {
	fs.StringVar(&o.failOn, "fail-on", inputDefault("fail-on", "unresolved"), "failure policy: unresolved (exit 1 on FALSE, or on UNKNOWN where the property was FALSE before), violation (on FALSE only), unknown (on FALSE or any UNKNOWN) or never")
	fs.StringVar(&o.commentMode, "comment-mode", inputDefault("comment-mode", "all"), "pull-request comments: all (sticky summary and review), sticky, review or off")
	fs.StringVar(&o.checkName, "check-name", inputDefault("check-name", "reverify"), "name of the check run (the one to require in branch protection); empty: no check run")
	fs.StringVar(&o.output, "output", inputDefault("output", "reverify-out"), "directory for results.json, results.sarif, summary.md, witnesses, reproducers and pixel trees")
	if action {
		fs.StringVar(&o.shardText, "shard", inputDefault("shard", ""), "verify only shard K/N of the properties (a matrix job; reverify merge posts)")
	}
}

func (o *postFlags) validate() error {
	if !contains(failPolicies, o.failOn) {
		return fmt.Errorf("fail-on: unknown policy %q (want %s)", o.failOn, strings.Join(failPolicies, ", "))
	}
	if !contains(commentModes, o.commentMode) {
		return fmt.Errorf("comment-mode: unknown mode %q (want %s)", o.commentMode, strings.Join(commentModes, ", "))
	}
	if o.output == "" {
		return fmt.Errorf("output: empty directory name")
	}
	var err error
	o.shard, err = results.ParseShard(o.shardText)
	return err
}

// event is the payload's event (github.ReadEvent) and the head lines the
// change added or modified (the hunks of diffslice's changed
// definitions); changed is nil when unknown (merge of shards).
type event struct {
	github.Event
	changed *lineSet
}

// readGitHubEnv reads the step's environment (github.ReadEnv).
func readGitHubEnv(getenv func(string) string) github.Env { return github.ReadEnv(getenv) }

// readEvent reads the payload (github.ReadEvent).
func readEvent(env github.Env) (*event, error) {
	ev, err := github.ReadEvent(env)
	if err != nil {
		return nil, err
	}
	return &event{Event: *ev}, nil
}

// lineSet is a set of lines per repository-relative file.
type lineSet map[string]map[int]bool

// changedLines collects the head lines of the hunks of the plans'
// changed definitions.
func changedLines(plans []*diffslice.Plan) *lineSet {
	out := lineSet{}
	for _, p := range plans {
		for _, c := range p.Changes {
			for _, h := range c.Hunks {
				if h.NewFile == "" {
					continue
				}
				f := results.RepoPath(h.NewFile, "")
				if out[f] == nil {
					out[f] = map[int]bool{}
				}
				for l := h.NewStart; l < h.NewStart+h.NewCount; l++ {
					out[f][l] = true
				}
			}
		}
	}
	return &out
}

// actionInputs are the flags of `reverify action` besides postFlags.
type actionInputs struct {
	paths, compileCommands, includeDirs, defines string
	entry, config, timeout, budget, cache, merge string
	scope                                        string // "true" or "false" ("": true)
	properties                                   string
	frontend                                     string
	post                                         postFlags
}

// actionFlags declares the flags of `reverify action`: one per input of
// action.yml (TestActionYAMLInputs checks the correspondence).
func actionFlags(stderr io.Writer) (*flag.FlagSet, *actionInputs) {
	fs := newFlagSet("action", stderr)
	in := &actionInputs{}
	str := func(p *string, name, def, usage string) { fs.StringVar(p, name, inputDefault(name, def), usage) }
	str(&in.paths, "paths", "", "globs or directories of C sources, repository-relative (space- or newline-separated; a directory: every .c and .i file under it); empty: .reverify.yml, compile_commands.json or **/*.c and **/*.i")
	str(&in.compileCommands, "compile-commands", "", "compilation database inside the repository (empty: compile_commands.json at the root, if any)")
	str(&in.includeDirs, "include-dirs", "", "include directories, repository-relative (space-separated)")
	str(&in.defines, "defines", "", "macros, NAME or NAME=VALUE (space-separated)")
	str(&in.entry, "entry", "", "entry functions (space-separated), or auto (library mode); empty: .reverify.yml's, else main, else auto")
	str(&in.config, "config", "", "analysis configuration ("+strings.Join(engine.ConfigNames(), ", ")+"); empty: .reverify.yml's, else default")
	str(&in.timeout, "timeout", "", "time limit per property (Go duration, e.g. 60s); empty: .reverify.yml's, else 60s")
	str(&in.budget, "time-budget", "", "total time budget (Go duration); properties not decided in it are UNKNOWN \"time budget\"; empty: none")
	str(&in.cache, "cache", diffslice.DefaultCacheDir, "verdict cache directory, relative to the workspace (restore and save it with actions/cache)")
	str(&in.merge, "merge", "", "instead of verifying, merge these shard output directories (globs) and report")
	str(&in.scope, "scope", "true", "compute the scope of each verified property (engine.Config.Scope): the comment says which functions its verdict depends on; true or false (empty: true)")
	str(&in.properties, "properties", "assertions", "what to check: assertions, or assertions,memory (also the memory-safety properties of each entry: valid-deref and valid-free per access site, valid-memtrack of the whole program, verified anew on every run: never cached)")
	str(&in.frontend, "frontend", "", "who reads the C sources: cc (the built-in front end) or clang (compiled by clang at -O0 -g, verified as LLVM IR, positions mapped to C lines by the debug information); empty: .reverify.yml's, else cc")
	in.post.register(fs, true)
	return fs, in
}

// runAction implements `reverify action`, the entry point of the Docker
// action (action.yml): read the event, fetch missing commits, verify
// (runIncremental, as check --base does) or merge shards, write results,
// artifacts and SARIF, then report (publishReport). Exit code: 2 for bad
// input, else by the failure policy; reporting errors never change it.
func runAction(args []string, stdout, stderr io.Writer) int {
	fs, in := actionFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		fmt.Fprintf(stderr, "reverify action: %s\n", msg)
		github.NewActions(os.Getenv, stdout).Error("reverify", msg)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments %s (inputs are flags or INPUT_ variables)", strings.Join(fs.Args(), " "))
	}
	if err := in.post.validate(); err != nil {
		return fail("%v", err)
	}
	s := runSettings{config: in.config, timeout: 60 * time.Second, set: map[string]bool{}}
	if in.config != "" {
		if engine.ConfigDoc(in.config) == "" {
			return fail("config: unknown configuration %q (known: %s)", in.config, strings.Join(engine.ConfigNames(), ", "))
		}
		s.set["config"] = true
	}
	if in.timeout != "" {
		d, err := time.ParseDuration(in.timeout)
		if err != nil || d <= 0 {
			return fail("timeout: %q is not a positive duration (e.g. 60s)", in.timeout)
		}
		s.timeout, s.set["timeout"] = d, true
	}
	if strings.TrimSpace(in.properties) == "" {
		in.properties = "assertions"
	}
	wantAssertions, wantMemory, err := parseProperties(in.properties)
	if err != nil || !wantAssertions {
		return fail("properties: %q: want assertions or assertions,memory", in.properties)
	}
	s.memSafety = wantMemory
	var budget time.Duration
	if in.budget != "" {
		d, err := time.ParseDuration(in.budget)
		if err != nil || d <= 0 {
			return fail("time-budget: %q is not a positive duration (e.g. 30m)", in.budget)
		}
		budget = d
	}
	if in.scope != "" {
		b, err := strconv.ParseBool(in.scope)
		if err != nil {
			return fail("scope: %q is not true or false", in.scope)
		}
		s.scope = b
	} else {
		s.scope = true
	}
	entries := strings.Fields(in.entry)
	if len(entries) == 1 {
		s.entry, s.set["entry"] = entries[0], true
	}
	if in.merge != "" && in.post.shard.Active() {
		return fail("merge and shard exclude each other: shards verify, the merge job reports")
	}

	env := readGitHubEnv(os.Getenv)
	ev, err := readEvent(env)
	if err != nil {
		return fail("%v", err)
	}
	acts := github.NewActions(os.Getenv, stdout)
	if ev.Name == "pull_request_target" {
		acts.Warning("reverify", "pull_request_target runs with a write token on the pull request's code; use pull_request")
	}
	if env.Workspace != "" {
		if err := os.Chdir(env.Workspace); err != nil {
			return fail("GITHUB_WORKSPACE: %v", err)
		}
		abs, _ := filepath.Abs(".")
		if err := diffslice.MarkSafeDirectory(abs); err != nil {
			acts.Warning("reverify", fmt.Sprintf("could not mark %s a git safe.directory: %v", abs, err))
		}
	}

	var report *results.Report
	if in.merge != "" {
		dirs, err := results.ExpandDirs(strings.Fields(in.merge))
		if err != nil {
			return fail("merge: %v", err)
		}
		if report, err = results.MergeDirs(dirs, in.post.output); err != nil {
			return fail("merge: %v", err)
		}
		if err := writeJSON(filepath.Join(in.post.output, "results.json"), report); err != nil {
			return fail("%v", err)
		}
		fmt.Fprintf(stdout, "merged %d shards: %d properties\n", len(dirs), len(report.Properties))
	} else {
		did, err := diffslice.EnsureCommits(".", ev.Base, ev.Head)
		for _, d := range did {
			fmt.Fprintf(stdout, "reverify: %s\n", d)
		}
		if err != nil {
			return fail("%v", err)
		}
		rf := &revFlags{repo: ".", base: ev.Base, head: ev.Head, cacheDir: in.cache}
		ff := &frontendFlags{includes: strings.Fields(in.includeDirs), defines: strings.Fields(in.defines), dataModel: "LP64"}
		rf.sources = strings.Fields(in.paths)
		sc, err := rf.sourceConfig(ff, s)
		if err != nil {
			return fail("%v", err)
		}
		sc.CompileCommands = in.compileCommands
		switch in.frontend {
		case "":
		case "cc", "clang":
			sc.Frontend = in.frontend
		default:
			return fail("frontend: want cc or clang, got %q", in.frontend)
		}
		if len(rf.sources) > 0 {
			sc.SetOrigin("sources", "input paths")
		}
		var ents []string
		if len(entries) > 1 {
			ents = entries
		}
		res, err := runIncremental(context.Background(), incRequest{rf: rf, sc: sc, s: s, entries: ents, outDir: in.post.output,
			shard: in.post.shard, budget: budget, stdout: stdout, stderr: stderr, prefix: "reverify action",
			mode: progressMode(stderr, os.Getenv), pr: ev.PR})
		if err != nil {
			if what, problems := sourceProblems(err); len(problems) > 0 {
				fmt.Fprintf(stderr, "reverify action: %v\n", err)
				publishProblems(context.Background(), env, ev, what, problems, in.post, stdout)
				return 2
			}
			return fail("%v", err)
		}
		report = res.report
		ev.changed = changedLines(res.plans)
	}
	return publishReport(context.Background(), env, ev, report, in.post, ev.PR == 0, stdout, stderr)
}

// policyFails reports whether the failure policy rejects the report. An
// unresolved finding (FALSE before, UNKNOWN now) fails unresolved and
// unknown: only TRUE resolves a finding.
func policyFails(failOn string, r *results.Report) bool {
	f, u := r.Summary[string(results.False)], r.Summary[string(results.Unknown)]
	switch failOn {
	case "violation":
		return f > 0
	case "unresolved":
		return f > 0 || r.Unresolved() > 0
	case "unknown":
		return f+u > 0
	}
	return false
}

// conclusion is the check run's conclusion.
func conclusion(failOn string, r *results.Report) string {
	switch {
	case policyFails(failOn, r):
		return "failure"
	case r.Summary[string(results.False)]+r.Summary[string(results.Unknown)] > 0:
		return "neutral"
	}
	return "success"
}

// publishReport writes results.sarif and summary.md into the output
// directory, then reports: for a pull request through report/github
// (sticky comment, review and check run as the comment mode and shard
// allow, job summary, workflow-command annotations when the check run is
// not possible, step outputs); for other events (warm, e.g. a push) only
// the job summary and the outputs. Without an event (ev nil, outside
// Actions) it only writes the files. Reporting failures are printed as
// ::warning:: and never change the exit code, which follows the failure
// policy.
func publishReport(ctx context.Context, env github.Env, ev *event, r *results.Report, o postFlags, warm bool, stdout, stderr io.Writer) int {
	exit := 0
	if policyFails(o.failOn, r) {
		exit = 1
	}
	a := github.NewActions(os.Getenv, stdout)
	warn := func(format string, args ...any) { a.Warning("reverify", fmt.Sprintf(format, args...)) }
	if err := os.MkdirAll(o.output, 0o755); err != nil {
		warn("output: %v", err)
	}
	resultsPath := filepath.Join(o.output, "results.json")
	sarifPath := filepath.Join(o.output, "results.sarif")
	var changed func(string, int) bool
	if ev != nil && ev.changed != nil {
		changed = func(file string, line int) bool { return (*ev.changed)[file][line] }
	}
	var sb bytes.Buffer
	if err := sarif.Write(&sb, r, sarif.Options{Changed: changed}); err != nil {
		warn("SARIF: %v", err)
	} else if err := os.WriteFile(sarifPath, sb.Bytes(), 0o644); err != nil {
		warn("SARIF: %v", err)
	}
	opts := markdown.Options{PixelTrees: pixelTreeTexts(r, ".txt"), PixelMosaics: pixelTreeTexts(r, ".mosaic.txt"), Baselines: readBaselines(r), NoBaseline: warm, ReproducerCommand: reproducerCommand, Changed: changed}
	if o.shard.Active() {
		opts.Title = "reverify (shard " + o.shard.String() + ")"
	}
	if ev != nil && env.Repository != "" {
		opts.SourceURL = strings.TrimSuffix(env.ServerURL, "/") + "/" + env.Repository + "/blob/" + ev.Head + "/"
		if env.RunID != "" {
			opts.RunURL = strings.TrimSuffix(env.ServerURL, "/") + "/" + env.Repository + "/actions/runs/" + env.RunID
			opts.ArtifactURL = opts.RunURL + "#artifacts"
			opts.ReproducerCommand = func(p *results.PropertyReport) string {
				return runReproducerCommand(env, ev, o.output, p)
			}
		}
	}
	md := markdown.Summary(r, opts)
	if err := os.WriteFile(filepath.Join(o.output, "summary.md"), []byte(md), 0o644); err != nil {
		warn("summary: %v", err)
	}
	fmt.Fprintf(stdout, "reverify: %s; %s, %s\n", markdown.Headline(r), resultsPath, sarifPath)
	if ev == nil {
		return exit
	}
	outputs := github.StepOutputs(r, resultsPath, sarifPath)
	if warm || o.shard.Active() {
		// A push (cache warming) or one shard of a matrix: nothing to
		// post on; the merge job or the next pull request reports.
		if err := a.JobSummary(md); err != nil {
			warn("job summary: %v", err)
		}
		for _, k := range sortedKeys(outputs) {
			if err := a.SetOutput(k, outputs[k]); err != nil {
				warn("output %s: %v", k, err)
			}
		}
		return exit
	}
	pub := github.Publication{PR: ev.PR, HeadSHA: ev.Head, Summary: md, CheckName: o.checkName,
		Conclusion: conclusion(o.failOn, r), Outputs: outputs, Disabled: map[github.Channel]string{},
		Findings: github.FindingsFromReport(r, "", opts)}
	switch o.commentMode {
	case "sticky":
		pub.Disabled[github.ChannelReview] = "comment-mode sticky"
	case "review":
		pub.Disabled[github.ChannelComment] = "comment-mode review"
	case "off":
		pub.Disabled[github.ChannelComment] = "comment-mode off"
		pub.Disabled[github.ChannelReview] = "comment-mode off"
	}
	var client *github.Client
	owner, repo, ok := strings.Cut(env.Repository, "/")
	switch {
	case env.Token == "":
		warn("no github-token: reporting only to the job summary and as annotations")
	case !ok || owner == "" || repo == "":
		warn("GITHUB_REPOSITORY %q is not owner/name: reporting only to the job summary and as annotations", env.Repository)
	default:
		c, err := github.New(nil, env.APIURL, env.Token, owner, repo)
		if err != nil {
			warn("%v", err)
		} else {
			client = c
		}
	}
	res := github.Publish(ctx, client, a, pub)
	fmt.Fprintf(stdout, "reverify: reported: %s\n", res)
	if res.ReadOnly {
		warn("the token cannot write to this repository (a pull request from a fork?): the results are in the job summary and the annotations instead of a comment, review and check run")
	}
	if err := res.Err(); err != nil {
		warn("reporting failed (the verdicts are unaffected; see the job summary and %s): %v", o.output, err)
	}
	return exit
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// pixelTreeTexts reads a form of the pixel trees of the violated
// properties written next to the PNG by artifacts.Write: suffix ".txt"
// (text) or ".mosaic.txt" (emoji squares).
func pixelTreeTexts(r *results.Report, suffix string) map[string]string {
	out := map[string]string{}
	for _, p := range r.Properties {
		if p.Verdict != results.False || !strings.HasSuffix(p.PixelTree, ".png") {
			continue
		}
		if b, err := os.ReadFile(strings.TrimSuffix(p.PixelTree, ".png") + suffix); err == nil {
			out[p.ID] = strings.TrimRight(string(b), "\n")
		}
	}
	return out
}

// reproducerCommand is the command that builds and runs a reproducer in
// the job's workspace.
func reproducerCommand(p *results.PropertyReport) string {
	if p.Reproducer == "" {
		return ""
	}
	return "sh " + artifacts.ShellQuote(filepath.ToSlash(filepath.Join(filepath.Dir(results.RepoPath(p.Reproducer, "")), "reproduce.sh")))
}

// runReproducerCommand is the one command (three lines, to fit the
// comment column) that reproduces a
// violation of this run on a reviewer's machine, in a clone of the
// repository: check out the head commit, download the run's artifact with
// the GitHub CLI (named "reverify" as in the README's workflow) into the
// output directory, and run the reproducer's script.
func runReproducerCommand(env github.Env, ev *event, outDir string, p *results.PropertyReport) string {
	script := reproducerCommand(p)
	if script == "" {
		return ""
	}
	return fmt.Sprintf("git checkout %s &&\n  gh run download %s -R %s -n reverify -D %s &&\n  %s",
		ev.Head, env.RunID, artifacts.ShellQuote(env.Repository), artifacts.ShellQuote(filepath.ToSlash(outDir)), script)
}

// problemRE matches a positioned frontend error, "file:line:col: message".
var problemRE = regexp.MustCompile(`^([^\s:][^:]*):(\d+):(\d+): (.+)$`)

// sourceProblems splits the error of a run that stopped before verifying
// into its positioned frontend errors (syntax and type errors of the C
// sources) and a description of what failed (the other lines, e.g.
// "translating 1a2b3c:"). It returns no problems when no line has a
// position: the error is then not about the sources.
func sourceProblems(err error) (what string, problems []markdown.Problem) {
	var other []string
	for _, line := range strings.Split(err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if m := problemRE.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[2])
			c, _ := strconv.Atoi(m[3])
			problems = append(problems, markdown.Problem{File: results.RepoPath(m[1], ""), Line: l, Column: c, Message: m[4]})
		} else if line != "" {
			other = append(other, strings.TrimSuffix(line, ":"))
		}
	}
	what = "translating the C sources"
	if len(other) > 0 {
		what = strings.Join(other, "; ")
	}
	return what, problems
}

// publishProblems reports a run whose sources do not translate: the
// sticky comment (markdown.Problems) for a pull request, a failed check
// run with one annotation per error at its file and line (workflow-command
// annotations when the check run is not possible), the job summary and
// summary.md. Reporting failures are printed as warnings; the caller's
// exit code (2, bad input) stands.
func publishProblems(ctx context.Context, env github.Env, ev *event, what string, problems []markdown.Problem, o postFlags, stdout io.Writer) {
	a := github.NewActions(os.Getenv, stdout)
	warn := func(format string, args ...any) { a.Warning("reverify", fmt.Sprintf(format, args...)) }
	opts := markdown.Options{}
	if env.Repository != "" {
		opts.SourceURL = strings.TrimSuffix(env.ServerURL, "/") + "/" + env.Repository + "/blob/" + ev.Head + "/"
		if env.RunID != "" {
			opts.RunURL = strings.TrimSuffix(env.ServerURL, "/") + "/" + env.Repository + "/actions/runs/" + env.RunID
		}
	}
	md := markdown.Problems(what, problems, opts)
	if err := os.MkdirAll(o.output, 0o755); err == nil {
		if err := os.WriteFile(filepath.Join(o.output, "summary.md"), []byte(md), 0o644); err != nil {
			warn("summary: %v", err)
		}
	}
	var findings []github.Finding
	for _, p := range problems {
		findings = append(findings, github.Finding{Path: p.File, Line: p.Line, Column: p.Column, Level: github.LevelFailure,
			Title: "reverify: the C source does not compile", Message: p.Message})
	}
	pub := github.Publication{PR: ev.PR, HeadSHA: ev.Head, Summary: md, CheckName: o.checkName, Conclusion: "failure",
		Findings: findings, Disabled: map[github.Channel]string{github.ChannelReview: "no verdicts: the sources do not compile"}}
	if o.commentMode == "off" || o.commentMode == "review" || o.shard.Active() {
		pub.Disabled[github.ChannelComment] = "comment-mode " + o.commentMode
	}
	var client *github.Client
	if owner, repo, ok := strings.Cut(env.Repository, "/"); ok && env.Token != "" {
		if c, err := github.New(nil, env.APIURL, env.Token, owner, repo); err == nil {
			client = c
		} else {
			warn("%v", err)
		}
	}
	res := github.Publish(ctx, client, a, pub)
	fmt.Fprintf(stdout, "reverify: reported: %s\n", res)
	if err := res.Err(); err != nil {
		warn("reporting failed: %v", err)
	}
}
