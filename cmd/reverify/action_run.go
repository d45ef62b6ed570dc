package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reverify/reverify/diffslice"
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/library"
	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/results"
)

// incRequest is one incremental verification (reverify check --base and
// reverify action): the base and head revisions of rf, verified once per
// entry function.
type incRequest struct {
	rf *revFlags
	sc diffslice.SourceConfig // settings given explicitly (flags, Action inputs)
	s  runSettings
	// entries are the entry functions; empty means the head's configured
	// one (.reverify.yml, else main).
	entries []string
	// outDir receives results.json and the artifacts ("" writes none);
	// jsonOut is a further copy of results.json.
	outDir, jsonOut string
	shard           results.Shard
	// budget bounds the whole verification (0: none); properties it cuts
	// off are UNKNOWN with the reason "time budget …".
	budget         time.Duration
	stdout, stderr io.Writer
	prefix         string // "reverify check", for messages
	// mode is how progress shows (progressMode): "terminal", "action"
	// or "plain" ("" too).
	mode string
	// pr is the pull request under review (0: none): its open findings
	// (diffslice.Cache.OpenFindings) give the UNKNOWN properties their
	// earlier FALSE and learn this run's verdicts.
	pr int
}

// incResult is what runIncremental produced.
type incResult struct {
	report *results.Report // merged over the entries
	plans  []*diffslice.Plan
}

// budgetReason is the reason of a property the total time budget cut off.
func budgetReason(budget time.Duration) string {
	return fmt.Sprintf("time budget: the total time budget of %s ran out before this property was decided", budget)
}

// runIncremental is the code path of `reverify check --base` that
// `reverify action` shares: load both revisions (diffslice), decide per
// entry which properties the change affects (and which the shard owns),
// verify those, take the cached verdicts of the others, write
// artifacts, results.json and the verdict cache, and print one line per
// property. Properties not decided when the budget ends are UNKNOWN with
// a "time budget" reason and are not cached. An UNKNOWN property carries
// the verdict it had before (at the base, from the cache; on an earlier
// head of the pull request q.pr, from its open findings). Errors are bad input (exit
// code 2 for the caller); an error writing artifacts is printed, not
// returned.
func runIncremental(ctx context.Context, q incRequest) (*incResult, error) {
	phase := q.s.watchPhase("loading the revisions", q.stderr)
	base, head, err := q.rf.load(q.sc)
	phase.Stop()
	if err != nil {
		return nil, err
	}
	hc := head.Config
	timeout := q.s.timeout
	if !q.s.set["timeout"] && hc.Timeout > 0 {
		timeout = hc.Timeout
	}
	entries := q.entries
	if len(entries) == 0 {
		entries = []string{hc.Entry}
	}
	for _, e := range entries {
		if e == diffslice.AutoEntry {
			if head.Attached == nil {
				return nil, fmt.Errorf("entry auto needs the contexts of library mode, which %s was loaded without", head.Label())
			}
			if q.s.memSafety {
				return nil, fmt.Errorf("entry auto (library mode) checks assertions; memory safety needs entry functions (entry from %s)", entryOrigin(hc, q.entries))
			}
			continue
		}
		if head.Program.Func(e) == nil {
			return nil, fmt.Errorf("entry function %q is not defined in %s (entry from %s)", e, head.Label(), entryOrigin(hc, q.entries))
		}
	}
	bctx := ctx
	if q.budget > 0 {
		var cancel context.CancelFunc
		bctx, cancel = context.WithTimeout(ctx, q.budget)
		defer cancel()
	}
	cache := q.rf.cache()
	res := &incResult{}
	var reports []*results.Report
	for _, entry := range entries {
		s := q.s
		s.keepARG = q.outDir != ""
		cfg := s.engineConfig(hc.Config, entry, timeout)
		cfg.AssumePure = hc.AssumePure
		opts := s.planOptions(cfg)
		var lib *library.Library
		if entry == diffslice.AutoEntry {
			lib = library.New(head.Attached)
			opts.Verify = lib.Verify
		}
		observe(cfg, &opts)
		p := diffslice.NewPlan(base, head, cache, opts)
		res.plans = append(res.plans, p)
		sub, index := shardPlan(p, q.shard)
		if len(p.Properties) == 0 {
			fmt.Fprintf(q.stderr, "%s: WARNING: no assertion found in %s (compiled with -DNDEBUG?): nothing was verified\n", q.prefix, strings.Join(head.Files, ", "))
		}
		// A property the total budget cut off is UNKNOWN "time budget",
		// never cached.
		budgetCut := func(r *engine.Result) bool {
			if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseBudget {
				return false
			}
			if r.Cause.Limit != "" {
				return true // already said
			}
			if q.budget > 0 && bctx.Err() != nil && ctx.Err() == nil {
				r.Cause = &results.Cause{Kind: results.CauseBudget, Limit: q.budget.String()}
				r.Reason = budgetReason(q.budget)
				return true
			}
			return false
		}
		if len(entries) > 1 && q.mode != "action" {
			fmt.Fprintf(q.stdout, "entry %s:\n", entry)
		}
		// The log group (GitHub Actions): one per shard and entry.
		title := fmt.Sprintf("entry %s: %d properties, %d to verify", entry, len(sub.Decisions), len(sub.Affected()))
		if q.shard.Active() {
			title = fmt.Sprintf("shard %s, %s", q.shard, title)
		}
		// The memory-safety properties (runSettings.memSafety: one per
		// access site, and valid-memtrack) are the shard's that own their
		// IDs, verified anew: the plan and the verdict cache know
		// assertions only.
		var memProps []*engine.Property
		if q.s.memSafety {
			memProps = filterShard(q.shard, engine.MemoryProperties(head.Program, entry, engine.MemSafetySubs))
		}
		pg := newCheckProgress(q.stdout, q.stderr, q.mode, title, len(sub.Affected())+len(memProps))
		reused := map[*engine.Property]bool{}
		for _, d := range sub.Decisions {
			reused[d.Property] = !d.Reverify
		}
		cfg.OnResult = func(r *engine.Result) {
			if !reused[r.Property] {
				budgetCut(r)
			}
			pg.result(r, !reused[r.Property])
		}
		rs, err := sub.Verify(bctx, cfg)
		all := rs
		if err == nil && len(memProps) > 0 {
			var mrs []*engine.Result
			mrs, err = engine.Verify(bctx, head.Program, memProps, cfg)
			all = append(rs[:len(rs):len(rs)], mrs...)
		}
		pg.finish()
		if err != nil {
			return nil, err
		}
		// Not cached either: any run the budget's end may have stopped
		// (under --clock cpu its wall seconds say nothing about its own
		// timeout).
		cut := map[int]bool{}
		for i, d := range sub.Decisions {
			r := rs[i]
			if d.Reverify && (budgetCut(r) || q.budget > 0 && bctx.Err() != nil && r.Verdict == results.Unknown && r.Cause.Limited()) {
				cut[i] = true
			}
		}
		summary := sub.Summary()
		if q.shard.Active() {
			summary = fmt.Sprintf("shard %s: %s (of %d in all)", q.shard, summary, len(p.Decisions))
		}
		fmt.Fprintf(q.stdout, "diffslice: %d changed definitions; %s\n", len(p.Changes), summary)
		report := engine.NewReport(version, head.Program, cfg.Entry, cfg.Name, all)
		if lib != nil {
			report.Functions = results.SummarizeFunctions(report.Properties, lib.IsRoot)
		}
		if q.outDir != "" {
			dir := q.outDir
			if len(entries) > 1 {
				dir = filepath.Join(q.outDir, artifacts.SafeName(entry))
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			files, err := headFiles(head, q.outDir)
			if err != nil {
				return nil, err
			}
			spec := "CHECK( init(" + cfg.Entry + "()), LTL(G ! call(reach_error())) )"
			task := artifacts.Task{Program: head.Program, Files: files, Entry: cfg.Entry, Config: cfg.Name, Specification: spec, Version: version, Timeout: cfg.Timeout, Solver: z3.Factory, Defines: hc.Defines}
			root := head.Dir
			if root == "" {
				root = filepath.Join(q.outDir, "sources") // headFiles materialized the head there
			}
			for _, inc := range hc.Include {
				task.IncludeDirs = append(task.IncludeDirs, filepath.Join(root, filepath.FromSlash(inc)))
			}
			if lib != nil { // the reproducers compile the files with their contexts
				task.Sources = map[string]string{}
				for i, f := range head.Files {
					task.Sources[files[i]] = lib.Sources()[f]
				}
			}
			if err := artifacts.Write(dir, task, all, report); err != nil {
				fmt.Fprintf(q.stderr, "%s: %v\n", q.prefix, err)
			}
			writeBaselines(bctx, dir, head.Program, cfg, all)
		}
		sub.Annotate(report)
		p.AnnotateEarlier(cache, report)
		reports = append(reports, report)
		// The cache learns the shard's fresh verdicts (aligned with all
		// of p's decisions; nil is "not verified here"), never a verdict
		// the budget cut off.
		store := make([]*engine.Result, len(p.Decisions))
		for i, r := range rs {
			if !cut[i] {
				store[index[i]] = r
			}
		}
		defer func(p *diffslice.Plan, report *results.Report) {
			if err := p.Store(cache, store, report); err != nil {
				fmt.Fprintf(q.stderr, "%s: %v\n", q.prefix, err)
			}
		}(p, report)
	}
	merged, err := results.Merge(reports)
	if err != nil {
		return nil, err
	}
	res.report = merged
	if q.pr > 0 {
		// Findings of earlier heads of the pull request stay open until
		// a run proves them.
		open := cache.OpenFindings(q.pr)
		open.Track(merged, head.Commit)
		if err := cache.StoreOpenFindings(q.pr, open); err != nil {
			fmt.Fprintf(q.stderr, "%s: open findings: %v\n", q.prefix, err)
		}
	}
	if q.outDir != "" {
		if err := writeJSON(filepath.Join(q.outDir, "results.json"), merged); err != nil {
			return nil, err
		}
	}
	if q.jsonOut != "" {
		if err := writeJSON(q.jsonOut, merged); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func entryOrigin(hc diffslice.SourceConfig, given []string) string {
	if len(given) > 0 {
		return "flag"
	}
	return hc.Origin("entry")
}

// shardPlan returns the plan restricted to the properties the shard owns
// and, per kept decision, its index in p.Decisions. p itself is left
// whole, so the cache's summary of the head lists every property.
func shardPlan(p *diffslice.Plan, s results.Shard) (*diffslice.Plan, []int) {
	sub := *p
	sub.Properties, sub.Decisions = nil, nil
	var index []int
	for i, d := range p.Decisions {
		if s.Owns(d.Property.ID) {
			sub.Properties = append(sub.Properties, d.Property)
			sub.Decisions = append(sub.Decisions, d)
			index = append(index, i)
		}
	}
	return &sub, index
}

// runCheckIncremental is `reverify check --base`: runIncremental with
// check's flags; exit code 1 when a property is FALSE.
func runCheckIncremental(rf *revFlags, ff *frontendFlags, o checkOptions, sh results.Shard, budget time.Duration, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify check: "+format+"\n", a...)
		return 2
	}
	sc, err := rf.sourceConfig(ff, o.runSettings)
	if err != nil {
		return fail("%v", err)
	}
	var entries []string
	if o.set["entry"] {
		entries = []string{o.entry}
	}
	res, err := runIncremental(context.Background(), incRequest{rf: rf, sc: sc, s: o.runSettings, entries: entries,
		outDir: o.outDir, jsonOut: o.jsonOut, shard: sh, budget: budget, stdout: stdout, stderr: stderr, prefix: "reverify check",
		mode: progressMode(stderr, os.Getenv)})
	if err != nil {
		return fail("%v", err)
	}
	if res.report.Summary[string(results.False)] > 0 {
		return 1
	}
	return 0
}
