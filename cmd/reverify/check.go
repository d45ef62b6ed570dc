package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/library"
	"github.com/reverify/reverify/report/artifacts"
	"github.com/reverify/reverify/report/bench"
	"github.com/reverify/reverify/results"
)

// runCheck implements `reverify check`: one line per property, results.json.
// Exit codes: 0 when no property is FALSE, 1 when one is, 2 on bad input.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("check", stderr)
	var ff frontendFlags
	ff.register(fs)
	entry := fs.String("entry", "main", "entry function, or auto: every function that contains an assertion or calls one is verified in its most general context, without a harness (the default when the sources define no main)")
	ctxDepth := fs.Int("context-depth", 0, "with --entry auto: levels of pointers to fresh objects below a parameter or global (0: 2)")
	ctxBound := fs.Int("context-bound", 0, "with --entry auto: most elements of an array with a length parameter, and characters of a string (0: 4)")
	config := fs.String("config", "default", "configuration: "+strings.Join(engine.ConfigNames(), ", "))
	timeout := fs.Duration("timeout", 60*time.Second, "time limit per property")
	maxStates := fs.Int("max-states", 0, "state limit per analysis run (0: engine default)")
	jsonOut := fs.String("json", "", "write results.json to this file")
	outDir := fs.String("output", "", "write results.json (and later witnesses, reproducers, pixel trees) into this directory")
	svcomp := fs.String("svcomp", "", "SV-COMP task definition (.yml): check its unreach-call property")
	prp := fs.String("spec", "", "SV-COMP property file (unreach-call.prp): check the whole program as one property")
	properties := fs.String("properties", "assertions", "what to check, comma-separated: assertions, memory (valid-deref and valid-free per access site, valid-memtrack of the whole program), memory-sites (valid-deref and valid-free per access site only), valid-memsafety or valid-memcleanup (the whole-program property of SV-COMP's property file of that name); all but assertions and memory need an entry function and no --base")
	overflow := fs.String("signed-overflow", "wrap", "signed overflow semantics: wrap (gcc -fwrapv) or assume-none (cut paths that overflow, as SV-COMP's labels assume)")
	var rf revFlags // --base: verify only what the change affects (diff.go)
	rf.register(fs)
	var sh results.Shard // --shard K/N: one job of a matrix
	fs.Var(&sh, "shard", "verify only shard K/N of the properties (split by a hash of the property ID; reverify merge combines)")
	var funcs functionGlobs // --functions: the functions whose properties are checked
	fs.Var(&funcs, "functions", "comma-separated globs of the functions whose assertions (and memory accesses) are checked, e.g. 'parse_*,crc32' (default: all; in library mode a violation still goes up to the callers' contexts)")
	budget := fs.Duration("time-budget", 0, "with --base: total time budget; properties not decided in it are UNKNOWN (0: none)")
	scope := fs.String("precision-scope", "", "scope of the precision entries CEGAR refinement adds: location, function or adaptive (location, widened to the function for a variable refined 3 times; the default)")
	reduceLevel := fs.String("reduce", "none", "size reduction of the program per property before the analyses (engine/reduce, seed 002): none, slice (backward slice), full (slice, inlining, constant propagation and folding, dead branches), thin or value (full with thin or value slicing, refined on spurious counterexamples); a TRUE on the reduced program is the verdict, a FALSE is lifted to the original program and checked there; the reduced program gets at most half of the property's limit, and anything else is decided on the original program with the rest")
	slicingCrit := fs.String("slicing-criterion", "path", "slicing refinement criteria of the slicing configurations: path (target-path slicing) or location (target-location slicing; seed 000, section 3.3)")
	clock := fs.String("clock", "wall", "what --timeout measures: wall (wall-clock time) or cpu (this process's CPU time; properties are then verified one at a time, and default's configurations take turns on one core)")
	initPrec := fs.String("initial-precision", "", "start each property's CEGAR precision from the one it has in this results.json of an earlier run (precision.go)")
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the run to this file (go tool pprof)")
	noListAbs := fs.Bool("no-list-abstraction", false, "do not abstract linked lists into list segments at loop heads (value analyses)")
	unwind := fs.Int("unwind", 0, "bmc: the one unwinding bound (loop iterations and recursion depth; CBMC's --unwind; 0: bounds 1, 2, 4, … and k-induction)")
	assumePure := fs.String("assume-pure", "", "comma-separated functions without a body to assume side-effect-free (they write nothing and return any value); every verdict lists the assumption")
	memory := fs.String("memory", engine.HumanBytes(engine.DefaultMemoryLimit), "memory limit per property, e.g. 2GiB, 512MiB: a property that exceeds it is UNKNOWN \"memory limit\" (the Go heap and the resident set are measured: properties verified in parallel share limit × their number)")
	multi := fs.String("multi-property", "", "multi-property verification: \"\" (auto: `default` first verifies the properties of the entry in one value run when there are at least 4), on (plain configurations such as value too) or off (one property at a time)")
	propScope := fs.Bool("scope", false, "compute each decided property's scope (engine/scope, seed 004): print it, add it to results.json and, with --output, draw its call graph")
	unwindset := fs.String("unwindset", "", "bmc: per-loop unwinding bounds in CBMC's form, LOOP:N,… (CBMC's --unwindset: loop ids function.N, N one more than the iterations); each listed loop is unrolled at least that far")
	jobs := fs.Int("jobs", 0, "cores to use: analyses running at once (0: the number of CPUs); `default` runs its configurations in parallel on them")
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	pure, err := parsePureList(*assumePure)
	if err != nil {
		fmt.Fprintf(stderr, "reverify check: %v\n", err)
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "reverify check: "+format+"\n", a...)
		return 2
	}
	if err := checkLimits(fs); err != nil {
		return fail("%v", err)
	}
	uset, err := parseUnwindset(*unwindset)
	if err != nil {
		return fail("--unwindset: %v", err)
	}
	memLimit, err := bench.ParseBytes(*memory)
	if err != nil {
		return fail("--memory: %v", err)
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return fail("--cpuprofile: %v", err)
	}
	defer stopProfile()
	if _, ok := map[string]bool{}[*config]; !ok && engine.ConfigDoc(*config) == "" {
		return fail("unknown configuration %q (known: %s)", *config, strings.Join(engine.ConfigNames(), ", "))
	}
	ovf, err := engine.ParseOverflowMode(*overflow)
	if err != nil {
		return fail("%v", err)
	}
	if *clock != "wall" && *clock != "cpu" {
		return fail("--clock %q: want wall or cpu", *clock)
	}
	if *jobs < 0 {
		return fail("--jobs %d: want 0 (all CPUs) or more", *jobs)
	}
	setJobs(*jobs)
	precScope, err := engine.ParsePrecisionScope(*scope)
	if err != nil {
		return fail("--precision-scope: %v", err)
	}
	slicingCriterion, err := engine.ParseSlicingCriterion(*slicingCrit)
	if err != nil {
		return fail("--slicing-criterion: %v", err)
	}
	if err := engine.ParseReduce(*reduceLevel); err != nil {
		return fail("--reduce: %v", err)
	}
	var initial map[string]engine.Precision
	if *initPrec != "" {
		if initial, err = readInitialPrecision(*initPrec); err != nil {
			return fail("--initial-precision: %v", err)
		}
	}
	rs := runSettings{entry: *entry, config: *config, timeout: *timeout, maxStates: *maxStates, set: explicitFlags(fs),
		clock: *clock, overflow: ovf, slicingCriterion: slicingCriterion, precisionScope: precScope, reduce: *reduceLevel, initial: initial, keepARG: *outDir != "", assumePure: pure, memory: memLimit, jobs: *jobs, multi: *multi, scope: *propScope, noListAbstraction: *noListAbs, unwind: *unwind, unwindset: uset}
	if rf.active() {
		a, m, err := parseProperties(*properties)
		if err == nil && !a {
			err = fmt.Errorf("with --base, memory needs assertions too (assertions,memory)")
		}
		if err != nil {
			return fail("--properties: %v", err)
		}
		rs.memSafety = m
		if len(files) > 0 || *svcomp != "" || *prp != "" {
			return fail("with --base the sources come from the repository (--sources, .reverify.yml or compile_commands.json), not from arguments, --svcomp or --spec")
		}
		if len(funcs) > 0 {
			return fail("--functions selects properties of the files given; with --base the change selects them")
		}
		return runCheckIncremental(&rf, &ff, checkOptions{rs, *jsonOut, *outDir, nil}, sh, *budget, stdout, stderr)
	} else if set := rs.set; set["head"] || set["head-dir"] || set["repo"] || set["cache"] || set["sources"] {
		return fail("--head, --head-dir, --repo, --cache and --sources need --base or --base-dir")
	}
	cfg, err := ff.config()
	if err != nil {
		return fail("%v", err)
	}
	svMode := false
	var prpMemory []string
	kinds, err := parsePropertyKinds(*properties)
	if err != nil {
		return fail("--properties: %v", err)
	}
	wantAssertions, wantMemory := kinds.assertions, kinds.memory
	if *svcomp != "" {
		task, err := bench.ReadTask(*svcomp)
		if err != nil {
			return fail("%v", err)
		}
		files = append(files, task.Inputs...)
		cfg.DataModel = task.DataModel
		*prp = task.Property
		svMode = true
	}
	if *prp != "" {
		text, err := os.ReadFile(*prp)
		if err != nil {
			return fail("%v", err)
		}
		e, mem, err := engine.ParsePRPAll(string(text))
		if err != nil {
			return fail("%s: %v", *prp, err)
		}
		*entry = e
		prpMemory = mem
		svMode = true
	}
	if len(files) == 0 {
		return fail("no input files")
	}
	if svMode && len(funcs) > 0 {
		return fail("--functions: an SV-COMP property is one property of the whole program")
	}
	libMode := *entry == "auto" && !svMode
	phase := rs.watchPhase("reading the sources of "+describeFiles(files), stderr)
	defer phase.Stop()
	if libMode && (len(kinds.whole) > 0 || kinds.sites) {
		return fail("--properties: valid-memsafety, valid-memcleanup and memory-sites need an entry function (library mode checks assertions and memory)")
	}
	if libMode {
		if cfg.Frontend == "clang" {
			return fail("--frontend clang: library mode (--entry auto) reads C with the built-in front end only")
		}
		return runLibrary(files, cfg, nil, library.Options{Depth: *ctxDepth, Bound: *ctxBound}, checkOptions{rs, *jsonOut, *outDir, phase}, wantAssertions, wantMemory, sh, funcs, stdout, stderr)
	}
	prog, err := loadProgram(cfg, files...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if prog.Func(*entry) == nil && *entry == "main" && !rs.set["entry"] && !svMode {
		if cfg.Frontend == "clang" || len(files) > 0 && engine.IsIR(files[0]) {
			return fail("%s: no main: library mode reads C with the built-in front end only (pass --entry f to verify from f)", strings.Join(files, ", "))
		}
		if len(kinds.whole) > 0 || kinds.sites {
			return fail("%s: no main: --properties valid-memsafety, valid-memcleanup and memory-sites need an entry function (--entry f)", strings.Join(files, ", "))
		}
		rs.entry = "auto"
		return runLibrary(files, cfg, prog, library.Options{Depth: *ctxDepth, Bound: *ctxBound}, checkOptions{rs, *jsonOut, *outDir, phase}, wantAssertions, wantMemory, sh, funcs, stdout, stderr)
	}
	if prog.Func(*entry) == nil {
		return fail("entry function %q is not defined in %s", *entry, strings.Join(files, ", "))
	}
	engine.SetAssumePure(prog, pure) // before the properties: pure functions call nothing back
	var props []*engine.Property
	if svMode && len(prpMemory) > 0 {
		props = []*engine.Property{engine.MemoryProperty(*entry, prpMemory)}
	} else if svMode {
		props = []*engine.Property{engine.UnreachCall(prog, *entry)}
	} else {
		if wantAssertions {
			props = funcs.filter(filterShard(sh, engine.Properties(prog, *entry)))
		}
		if wantMemory {
			props = append(props, funcs.filter(filterShard(sh, engine.MemoryProperties(prog, *entry, engine.MemSafetySubs)))...)
		}
		for _, id := range kinds.whole {
			subs := engine.MemSafetySubs
			if id == "valid-memcleanup" {
				subs = []string{id}
			}
			props = append(props, filterShard(sh, []*engine.Property{engine.MemoryProperty(*entry, subs)})...)
		}
		if kinds.sites {
			props = append(props, funcs.filter(filterShard(sh, engine.MemoryProperties(prog, *entry, []string{"valid-deref", "valid-free"})))...)
		}
		if len(props) == 0 && !sh.Active() && len(funcs) == 0 {
			fmt.Fprintf(stderr, "reverify check: WARNING: no assertion found in %s (compiled with -DNDEBUG?): nothing was verified\n", strings.Join(files, ", "))
		}
	}
	ecfg := rs.engineConfig(*config, *entry, *timeout)
	var pg *checkProgress
	if !svMode {
		pg = newCheckProgress(stdout, stderr, progressMode(stderr, os.Getenv), "", len(props))
	}
	ecfg.OnResult = func(r *engine.Result) {
		if pg != nil {
			pg.result(r, true)
		}
	}
	observe(ecfg, nil)
	phase.Stop() // the properties' own limits from here (engine.Verify)
	verdicts, err := engine.Verify(context.Background(), prog, props, ecfg)
	if pg != nil {
		pg.finish()
	}
	if err != nil {
		return fail("%v", err)
	}
	if svMode {
		printSVComp(stdout, verdicts[0])
	}
	report := engine.NewReport(version, prog, *entry, *config, verdicts)
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return fail("%v", err)
		}
		spec := "CHECK( init(" + *entry + "()), LTL(G ! call(reach_error())) )"
		task := artifacts.Task{Program: prog, Files: files, Entry: *entry, Config: *config, Specification: spec, Version: version, Timeout: *timeout, Solver: z3.Factory, IncludeDirs: cfg.IncludeDirs, Defines: cfg.Defines}
		if err := artifacts.Write(*outDir, task, verdicts, report); err != nil {
			fmt.Fprintf(stderr, "reverify check: %v\n", err)
		}
		if err := artifacts.WriteScopes(*outDir, verdicts); err != nil {
			fmt.Fprintf(stderr, "reverify check: %v\n", err)
		}
		if err := writeJSON(filepath.Join(*outDir, "results.json"), report); err != nil {
			return fail("%v", err)
		}
	}
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, report); err != nil {
			return fail("%v", err)
		}
	}
	for _, r := range verdicts {
		if r.Verdict == results.False {
			return 1
		}
	}
	return 0
}

func writeJSON(path string, r *results.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// printResults prints one line per property: verdict, location, ID, time,
// states, and the reason for UNKNOWN.
func printResults(w io.Writer, rs []*engine.Result) {
	for _, r := range rs {
		printResult(w, r)
	}
}

// printResult prints one property's line (printResults), and the inputs
// of a counterexample.
func printResult(w io.Writer, r *engine.Result) {
	{
		p := r.Property
		pos := p.Pos
		if r.ViolationPos.Line != 0 { // a memory-safety property: where it is violated
			pos = r.ViolationPos
		}
		line := fmt.Sprintf("%-11s %s:%d:%d  %s  %.2fs  %d states", r.Verdict, pos.File, pos.Line, pos.Col, p.ID, r.Seconds, r.States)
		if r.Verdict != results.True && r.Reason != "" {
			line += "  (" + r.Reason + ")"
		}
		fmt.Fprintln(w, line)
		printScope(w, r)
		if r.Verdict == results.False {
			srcs, vals := make([]string, len(r.Inputs)), make([]int64, len(r.Inputs))
			for i, in := range r.Inputs {
				srcs[i], vals[i] = in.Source, in.Value
			}
			unread := results.EnvUnread(srcs, vals)
			for i, in := range r.Inputs {
				if strings.HasPrefix(in.Source, "decl ") || unread[i] {
					continue // indeterminate initial values the program overwrites or never reads
				}
				fmt.Fprintf(w, "    input %s = %d  (line %d)\n", in.Source, in.Value, in.Pos.Line)
			}
		}
	}
}

// parseProperties parses --properties where only assertions and memory
// are known (the Action, --base, library mode): a comma-separated list.
func parseProperties(s string) (assertions, memory bool, err error) {
	k, err := parsePropertyKinds(s)
	if err != nil {
		return false, false, err
	}
	if len(k.whole) > 0 || k.sites {
		return false, false, fmt.Errorf("%q: valid-memsafety, valid-memcleanup and memory-sites are for checking the given files from an entry function (known here: assertions, memory)", s)
	}
	return k.assertions, k.memory, nil
}

// propertyKinds are what --properties selects.
type propertyKinds struct {
	assertions, memory bool
	// whole are the whole-program memory-safety properties, in the order
	// given: valid-memsafety (valid-deref, valid-free and valid-memtrack
	// as one property, SV-COMP's valid-memsafety.prp) and
	// valid-memcleanup.
	whole []string
	// sites: valid-deref and valid-free per access site, without
	// memory's valid-memtrack.
	sites bool
}

// parsePropertyKinds parses --properties: a comma-separated list of
// assertions, memory, memory-sites, valid-memsafety and valid-memcleanup.
func parsePropertyKinds(s string) (propertyKinds, error) {
	var k propertyKinds
	for _, p := range strings.Split(s, ",") {
		switch p = strings.TrimSpace(p); p {
		case "assertions":
			k.assertions = true
		case "memory":
			k.memory = true
		case "memory-sites":
			k.sites = true
		case "valid-memsafety", "valid-memcleanup":
			if !slices.Contains(k.whole, p) {
				k.whole = append(k.whole, p)
			}
		default:
			return k, fmt.Errorf("unknown property kind %q (known: assertions, memory, memory-sites, valid-memsafety, valid-memcleanup)", p)
		}
	}
	return k, nil
}

// printSVComp prints the SV-COMP verdict line.
func printSVComp(w io.Writer, r *engine.Result) {
	v := "UNKNOWN"
	switch r.Verdict {
	case results.True:
		v = "TRUE"
	case results.False:
		v = "FALSE(unreach-call)"
		if r.Violated != "" {
			v = "FALSE(" + r.Violated + ")"
		}
	}
	if r.Verdict == results.Unknown && r.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", r.Reason)
	}
	printScope(w, r)
	fmt.Fprintf(w, "Verification result: %s\n", v)
}

// parsePureList parses --assume-pure's comma-separated C identifiers.
func parsePureList(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		for i, r := range f {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
				return nil, fmt.Errorf("--assume-pure: %q is not a C identifier", f)
			}
		}
		out = append(out, f)
	}
	return out, nil
}
