package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/reverify/reverify/diffslice"
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/proofs"
	"github.com/reverify/reverify/report/bench"
	"github.com/reverify/reverify/results"
)

// proofSummary is one proof's line of the summary table.
type proofSummary struct {
	name, entry          string
	props                int // assertions
	trueN, falseN, unknN int // their verdicts
	// memory properties (--checks makefile: valid-deref and valid-free
	// per site, valid-memcleanup) and their verdicts
	mem                           int
	memTrue, memFalse, memUnknown int
	notChecked                    []string // CBMC's checks in effect that reverify did not check
	seconds                       float64
	note                          string // why the proof did not run, or the first UNKNOWN reason
	// with --cache: the properties whose verdicts came from the cache,
	// and whether any property was verified (the proof was re-run)
	cached int
	rerun  bool
}

// runProofs runs the CBMC proofs under DIR (package proofs reads their
// Makefiles): for each, the assertions reachable from HARNESS_ENTRY and,
// with --checks makefile (the default), the memory-safety properties
// that stand for the implicit checks the Makefiles have CBMC make
// (proofs.MemoryChecks: valid-deref and valid-free per access site,
// valid-memcleanup), with verdicts, UNKNOWN reasons and times, the CBMC
// checks reverify did not check, then a summary table.
func runProofs(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("proofs", stderr)
	config := fs.String("config", "default", "configuration: "+strings.Join(engine.ConfigNames(), ", "))
	timeout := fs.Duration("timeout", 30*time.Second, "time limit per property")
	memory := fs.String("memory", engine.HumanBytes(engine.DefaultMemoryLimit), "memory limit per property, e.g. 6GiB, 512MiB, the verifier and its solver processes together: a property that exceeds it is UNKNOWN \"memory limit\" (a proof's properties are verified in parallel, one per core, and share limit × their number)")
	proofTimeout := fs.Duration("proof-timeout", 5*time.Minute, "time limit per proof, from reading its sources to its last verdict (its properties still open then are UNKNOWN)")
	maxStates := fs.Int("max-states", 0, "state limit per analysis run (0: engine default)")
	match := fs.String("run", "", "run only the proofs whose name matches this regular expression")
	dataModel := fs.String("data-model", "LP64", "data model: ILP32 or LP64")
	markdown := fs.String("markdown", "", "write the summary table (Markdown) to this file")
	multi := fs.String("multi-property", "", "all properties of a proof in one run: \"\" (auto), on or off (engine.Config.MultiProperty)")
	schedule := fs.String("schedule", "rounds", "how a proof's properties share its time: rounds (growing budgets, the proof's time shared; engine.Config.ShareDeadline) or sequential (each gets --timeout in turn)")
	reduceLevel := fs.String("reduce", "none", "size reduction per property, as reverify check --reduce: none, slice, full, thin or value")
	checks := fs.String("checks", "makefile", "what to check: makefile (the assertions and the memory properties standing for the implicit checks each proof's Makefiles have CBMC make: valid-deref per access site for --bounds-check/--pointer-check, valid-free per free for CBMC's built-in preconditions of free, valid-memcleanup for --memory-leak-check/--memory-cleanup-check; the other checks are listed as not checked) or assertions (the assertions only)")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the run to this file (go tool pprof)")
	unwindset := fs.String("unwindset", "", "bmc: per-loop unwinding bounds LOOP:N,… (CBMC's --unwindset) added to each proof's UNWINDSET (these win)")
	unwind := fs.Int("unwind", 0, "bmc: the one unwinding bound (CBMC's --unwind; 0: bounds 1, 2, 4, … and k-induction)")
	cacheDir := fs.String("cache", "", "verdict cache directory: a property whose slice (with the contracts that replace its callees) has a cached verdict reuses it, so a re-run after a change re-verifies only the properties the change touches (memory properties are always verified; \"\": no cache)")
	dirs, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify proofs: "+format+"\n", a...)
		return 2
	}
	if len(dirs) != 1 {
		return fail("want one directory (a CBMC starter-kit proofs directory, or one proof)")
	}
	if *checks != "makefile" && *checks != "assertions" {
		return fail("--checks: want makefile or assertions, not %q", *checks)
	}
	if engine.ConfigDoc(*config) == "" {
		return fail("unknown configuration %q (known: %s)", *config, strings.Join(engine.ConfigNames(), ", "))
	}
	memLimit, err := bench.ParseBytes(*memory)
	if err != nil {
		return fail("--memory: %v", err)
	}
	dm, err := engine.ParseDataModel(*dataModel)
	if err != nil {
		return fail("%v", err)
	}
	var re *regexp.Regexp
	if *match != "" {
		if re, err = regexp.Compile(*match); err != nil {
			return fail("--run: %v", err)
		}
	}
	all, err := proofs.Find(dirs[0])
	if err != nil {
		return fail("%v", err)
	}
	if len(all) == 0 {
		return fail("no proof under %s (no Makefile setting HARNESS_ENTRY)", dirs[0])
	}
	switch *multi {
	case engine.MultiAuto, engine.MultiOn, engine.MultiOff:
	default:
		return fail("--multi-property: want on or off, not %q", *multi)
	}
	if *schedule != "rounds" && *schedule != "sequential" {
		return fail("--schedule: want rounds or sequential, not %q", *schedule)
	}
	if err := engine.ParseReduce(*reduceLevel); err != nil {
		return fail("--reduce: %v", err)
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return fail("--cpuprofile: %v", err)
	}
	defer stopProfile()
	uset, err := parseUnwindset(*unwindset)
	if err != nil {
		return fail("--unwindset: %v", err)
	}
	rs := runSettings{config: *config, timeout: *timeout, maxStates: *maxStates, clock: "wall", multi: *multi, reduce: *reduceLevel, unwind: *unwind, unwindset: uset, memory: memLimit}
	var pc *proofCache
	if *cacheDir != "" {
		pc = &proofCache{cache: &diffslice.Cache{Dir: *cacheDir}, schedule: *schedule, checks: *checks, proofTimeout: *proofTimeout}
	}
	var sums []proofSummary
	exit := 0
	for _, p := range all {
		if re != nil && !re.MatchString(p.Name) {
			continue
		}
		s := runProof(p, dm, rs, *proofTimeout, *schedule == "rounds", *checks == "makefile", pc, stdout)
		if s.falseN+s.memFalse > 0 {
			exit = 1
		}
		sums = append(sums, s)
	}
	table := proofsTable(sums, pc != nil)
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, table)
	if *markdown != "" {
		if err := os.WriteFile(*markdown, []byte(table), 0o644); err != nil {
			return fail("%v", err)
		}
	}
	return exit
}

// runProof translates and verifies one proof, printing its results.
// With share, the properties share the proof's limit
// (engine.Config.ShareDeadline). With makefile, the memory properties of
// the proof's CBMC checks (proofs.MemoryChecks) are verified with the
// assertions, in the same engine.Verify call and under the same limit,
// as `reverify check --properties assertions,memory` verifies them.
// With pc, properties with a cached verdict for their slice are not
// verified again (proofCache).
// loadProof reads and translates a proof's sources (engine.Load); tests
// replace it.
var loadProof = engine.Load

func runProof(p *proofs.Proof, dm engine.DataModel, rs runSettings, limit time.Duration, share, makefile bool, pc *proofCache, w io.Writer) (s proofSummary) {
	s = proofSummary{name: p.Name, entry: p.Entry}
	fmt.Fprintf(w, "== %s  (entry %s, %s)\n", p.Name, p.Entry, p.Dir)
	for _, u := range p.Unresolved {
		fmt.Fprintf(w, "   makefile: could not resolve %s\n", u)
	}
	var subs []string
	if makefile {
		var note string
		subs, s.notChecked, note = proofs.MemoryChecks(p.Checks)
		if len(subs) > 0 {
			fmt.Fprintf(w, "   checks: memory properties for CBMC's implicit checks: %s\n", strings.Join(subs, ", "))
		}
		if note != "" {
			fmt.Fprintf(w, "   checks: %s\n", note)
		}
	} else {
		// today's behaviour: every CBMC check but the assertions is left out
		for _, c := range p.Checks {
			if c != proofs.BuiltinAssertions {
				c = "--" + c
			}
			s.notChecked = append(s.notChecked, c)
		}
	}
	if len(s.notChecked) > 0 {
		fmt.Fprintf(w, "   not checked: %s\n", strings.Join(s.notChecked, ", "))
	}
	start := time.Now()
	defer func() {
		s.seconds = time.Since(start).Seconds()
		fmt.Fprintf(w, "-- %s: %d assertions, %d TRUE, %d FALSE, %d UNKNOWN; %d memory properties, %d TRUE, %d FALSE, %d UNKNOWN; %.1fs\n",
			p.Name, s.props, s.trueN, s.falseN, s.unknN, s.mem, s.memTrue, s.memFalse, s.memUnknown, s.seconds)
	}()
	if p.Entry == "" || len(p.Sources) == 0 {
		s.note = "not run: " + strings.Join(p.Unresolved, "; ")
		fmt.Fprintf(w, "   %s\n", s.note)
		return s
	}
	cfg := engine.SourceOptions{DataModel: dm, IncludeDirs: p.Includes, Defines: p.Defines, Malloc: engine.MallocMayFail, CBMC: true}
	if !p.MallocMayFail {
		cfg.Malloc = engine.MallocNeverFails
	}
	if len(p.RemoveFunctionBody) > 0 {
		cfg.RemoveBody, cfg.RemoveBodyIn = map[string]bool{}, map[string]bool{}
		for _, f := range p.RemoveFunctionBody {
			cfg.RemoveBody[f] = true
		}
		for _, f := range p.ProjectSources {
			cfg.RemoveBodyIn[f] = true
		}
	}
	if len(p.CheckContracts) > 0 {
		// the callees' contracts replace their calls as
		// USE_FUNCTION_CONTRACTS says; the checked function's own body runs
		cfg.UseContracts = map[string]bool{}
		for _, f := range p.UseContracts {
			cfg.UseContracts[f] = true
		}
	}
	prog, err := loadProof(cfg, p.Sources...)
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		s.note = "translation failed: " + first
		fmt.Fprintf(w, "   %s\n", s.note)
		return s
	}
	entry := p.Entry
	if len(p.CheckContracts) > 0 {
		// CHECK_FUNCTION_CONTRACTS: the harness's call of f becomes f's
		// contract check, whose requires clauses make f's context (one
		// function per proof, as the starter kit's proofs do)
		f := p.CheckContracts[0]
		entry = engine.ContractCheck(prog, f)
		if entry == "" {
			s.note = fmt.Sprintf("CHECK_FUNCTION_CONTRACTS: %s has no contract", f)
			fmt.Fprintf(w, "   %s\n", s.note)
			return s
		}
		fmt.Fprintf(w, "   makefile: CHECK_FUNCTION_CONTRACTS: %s checked against its contract; USE_FUNCTION_CONTRACTS: %s\n", f, strings.Join(p.UseContracts, " "))
		if len(p.CheckContracts) > 1 {
			fmt.Fprintf(w, "   makefile: CHECK_FUNCTION_CONTRACTS: only %s is checked (%d named)\n", f, len(p.CheckContracts))
		}
	}
	if prog.Func(entry) == nil {
		s.note = fmt.Sprintf("entry %s is not defined", entry)
		fmt.Fprintf(w, "   %s\n", s.note)
		return s
	}
	// REMOVE_FUNCTION_BODY, as CBMC reads it: the project's body is gone;
	// a function left without a body has no side effects and an
	// unconstrained result (the starter kit's Makefile.common), which is
	// reverify's assume-pure
	// (static functions by CBMC's name for them, __CPROVER_file_local_…)
	var stubbed, pure []string
	for _, f := range p.RemoveFunctionBody {
		if prog.Func(f) != nil {
			stubbed = append(stubbed, f)
		} else {
			pure = append(pure, f)
		}
	}
	if len(stubbed) > 0 {
		fmt.Fprintf(w, "   makefile: REMOVE_FUNCTION_BODY: the project's bodies removed, the proof's stubs kept: %s\n", strings.Join(stubbed, " "))
	}
	if len(pure) > 0 {
		fmt.Fprintf(w, "   makefile: REMOVE_FUNCTION_BODY: without a body, assumed pure (no side effects, any result, as CBMC): %s\n", strings.Join(pure, " "))
	}
	engine.SetAssumePure(prog, pure) // before the properties, as check does
	var props []*engine.Property
	for _, prop := range engine.Properties(prog, entry) {
		if prop.Reachable {
			props = append(props, prop)
		}
	}
	s.props = len(props)
	if len(subs) > 0 {
		for _, prop := range engine.MemoryProperties(prog, entry, subs) {
			if prop.Reachable {
				props = append(props, prop)
				s.mem++
			}
		}
	}
	if len(props) == 0 {
		s.note = "no assertion reachable from the entry"
		if makefile {
			s.note = "no assertion and no memory access reachable from the entry"
		}
		fmt.Fprintf(w, "   %s\n", s.note)
		return s
	}
	ecfg := rs.engineConfig(rs.config, entry, rs.timeout)
	ecfg.ShareDeadline = share
	ecfg.Unwindset = map[string]int{}
	for id, n := range p.Unwindset {
		ecfg.Unwindset[id] = n
	}
	for id, n := range rs.unwindset {
		ecfg.Unwindset[id] = n
	}
	ecfg.AssumePure = append(ecfg.AssumePure, pure...)
	// The proof's limit counts from its start: reading and translating
	// its sources (seconds for aws-c-common's) come out of it, as they
	// do out of CBMC's time for the same proof.
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(limit))
	defer cancel()
	var verdicts []*engine.Result
	if pc == nil {
		s.rerun = true
		verdicts, err = engine.Verify(ctx, prog, props, ecfg)
	} else {
		verdicts, err = pc.verify(ctx, p, prog, props, rs, ecfg, cfg, &s, w)
	}
	if err != nil {
		s.note = "verification failed: " + err.Error()
		fmt.Fprintf(w, "   %s\n", s.note)
		return s
	}
	for _, r := range verdicts {
		fmt.Fprint(w, "   ")
		printResult(w, r)
		mem := len(r.Property.Memory) > 0
		switch {
		case r.Verdict == results.True && mem:
			s.memTrue++
		case r.Verdict == results.True:
			s.trueN++
		case r.Verdict == results.False && mem:
			s.memFalse++
		case r.Verdict == results.False:
			s.falseN++
		default:
			if mem {
				s.memUnknown++
			} else {
				s.unknN++
			}
			if s.note == "" {
				s.note = r.Reason
			}
		}
	}
	return s
}

// proofsTable is the summary: one Markdown row per proof (the assertions'
// counts, the time, the memory properties' counts, CBMC's checks not
// checked, the first UNKNOWN reason or a note), then the share of
// properties and of proofs decided (every property TRUE or FALSE).
func proofsTable(sums []proofSummary, cached bool) string {
	var b strings.Builder
	b.WriteString("| proof | assertions | TRUE | FALSE | UNKNOWN | time (s) | memory properties | TRUE | FALSE | UNKNOWN | CBMC checks not checked | first UNKNOWN reason / note |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n")
	var props, decided, asserts, assertsDecided, mem, memDecided, proofsDecided int
	for _, s := range sums {
		note := s.note
		if len(note) > 160 {
			note = note[:160] + "…"
		}
		note = strings.ReplaceAll(note, "|", `\|`)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.1f | %d | %d | %d | %d | %s | %s |\n", s.name, s.props, s.trueN, s.falseN, s.unknN, s.seconds,
			s.mem, s.memTrue, s.memFalse, s.memUnknown, strings.Join(s.notChecked, ", "), note)
		asserts += s.props
		assertsDecided += s.trueN + s.falseN
		mem += s.mem
		memDecided += s.memTrue + s.memFalse
		if s.props+s.mem > 0 && s.unknN+s.memUnknown == 0 {
			proofsDecided++
		}
	}
	props, decided = asserts+mem, assertsDecided+memDecided
	pct := func(a, n int) float64 {
		if n == 0 {
			return 0
		}
		return 100 * float64(a) / float64(n)
	}
	fmt.Fprintf(&b, "\nproperties decided: %d of %d (%.0f%%); proofs with every property decided: %d of %d (%.0f%%)\n",
		decided, props, pct(decided, props), proofsDecided, len(sums), pct(proofsDecided, len(sums)))
	fmt.Fprintf(&b, "assertions decided: %d of %d (%.0f%%); memory properties decided: %d of %d (%.0f%%)\n",
		assertsDecided, asserts, pct(assertsDecided, asserts), memDecided, mem, pct(memDecided, mem))
	if cached {
		var fromCache, rerun int
		for _, s := range sums {
			fromCache += s.cached
			if s.rerun {
				rerun++
			}
		}
		fmt.Fprintf(&b, "from the cache: %d of %d properties; proofs re-verified: %d of %d\n", fromCache, props, rerun, len(sums))
	}
	return b.String()
}

// proofCache is `reverify proofs --cache`: the verdict cache of package
// diffslice over each proof's program (diffslice.NewPropertyPlan). A
// proof's settings that its program's text does not show (the malloc
// model, its unwinding bounds, the schedule and the checks) are part of
// every slice hash, so verdicts are shared only under equal settings.
// The proof's time limit is one of the limits (diffslice.Limits.Budget):
// an UNKNOWN that it ended is stored and reused under a limit not larger,
// so an unchanged proof is not re-tried on every run; a larger
// --proof-timeout re-tries it.
type proofCache struct {
	cache        *diffslice.Cache
	schedule     string
	checks       string
	proofTimeout time.Duration
}

// verify verifies the properties of one proof that the cache cannot
// answer, returns a result for every property (cached ones with zero
// seconds), and stores the new verdicts. It fills s.cached and s.rerun.
func (pc *proofCache) verify(ctx context.Context, p *proofs.Proof, prog *engine.Program, props []*engine.Property, rs runSettings,
	ecfg engine.Config, src engine.SourceOptions, s *proofSummary, w io.Writer) ([]*engine.Result, error) {
	head := &diffslice.Revision{Repo: p.Dir, Program: prog, Config: diffslice.SourceConfig{Entry: ecfg.Entry, Config: ecfg.Name}}
	opts := rs.planOptions(ecfg)
	// the proof's time limit is one of its limits: an UNKNOWN it ended
	// is kept and reused under a limit not larger
	opts.Limits.Budget = pc.proofTimeout
	v := []string{fmt.Sprintf("schedule %s, checks %s, malloc %v", pc.schedule, pc.checks, src.Malloc)}
	if len(ecfg.Unwindset) > 0 {
		v = append(v, "proof unwindset "+unwindsetText(ecfg.Unwindset))
	}
	if opts.Variant != "" {
		v = append(v, opts.Variant)
	}
	opts.Variant = strings.Join(v, ", ")
	plan := diffslice.NewPropertyPlan(head, props, pc.cache, opts)
	fmt.Fprintf(w, "   cache: %s\n", plan.Summary())
	s.cached = len(props) - len(plan.Affected())
	s.rerun = len(plan.Affected()) > 0
	rs2, err := plan.Verify(ctx, ecfg)
	if err != nil {
		return nil, err
	}
	if err := plan.Store(pc.cache, rs2, nil); err != nil {
		fmt.Fprintf(w, "   cache: %v\n", err)
	}
	return rs2, nil
}
