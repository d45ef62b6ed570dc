package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// wantRE matches expectations on assertion lines, in the manner of
// x/tools' analysistest: `// want VERDICT` or `// want VERDICT "reason"`,
// for every configuration the file runs under, or per configuration:
// `// want TRUE value:UNKNOWN "state limit 100000"` (value answers
// UNKNOWN with a reason containing "state limit 100000", every other
// configuration TRUE; a reason belongs to the item it follows).
var (
	wantRE     = regexp.MustCompile(`// want (.*)$`)
	wantItemRE = regexp.MustCompile(`^\s*(?:([a-z][a-z0-9-]*):)?(TRUE|FALSE|UNKNOWN|NOT_CHECKED)(?: "([^"]*)")?`)
	// configsRE matches a file's `// configs: value value-cegar` line:
	// the configurations the file runs under (default: verdictConfigs).
	configsRE = regexp.MustCompile(`(?m)^// configs:((?:\s+[a-z][a-z0-9-]*)+)\s*$`)
	// maxStatesRE matches `// max-states: N`: the state limit of each
	// run (Config.MaxStates), so that a file can show a configuration
	// hitting it quickly.
	maxStatesRE = regexp.MustCompile(`(?m)^// max-states: ([0-9]+)\s*$`)
	// overflowRE matches `// signed-overflow: MODE`: the file's
	// Config.SignedOverflow (wrap or assume-none).
	overflowRE = regexp.MustCompile(`(?m)^// signed-overflow: ([a-z-]+)\s*$`)
	// assumePureRE matches `// assume-pure: f g`: the file's
	// Config.AssumePure.
	assumePureRE = regexp.MustCompile(`(?m)^// assume-pure:((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*$`)
	// reduceRE matches `// reduce: LEVEL`: the file's Config.Reduce
	// (none, slice or full).
	reduceRE = regexp.MustCompile(`(?m)^// reduce: ([a-z]+)\s*$`)
	// entryRE matches `// entry: f`: the file's entry function
	// (default main).
	entryRE = regexp.MustCompile(`(?m)^// entry: ([A-Za-z_][A-Za-z0-9_]*)\s*$`)
	// memoryRE matches `// memory: valid-memsafety FALSE "valid-deref"`
	// (or valid-memcleanup): the file also checks that whole-program
	// memory-safety property (spec.MemoryProperty) and wants that
	// verdict, with the reason containing the quoted text; a FALSE must
	// be at the line marked `// violation`, if there is one.
	memoryRE = regexp.MustCompile(`(?m)^// memory: (valid-memsafety|valid-memcleanup) (TRUE|FALSE|UNKNOWN)(?: "([^"]*)")?\s*$`)
	// sitesRE matches `// memory: sites`: the file also checks the
	// per-site memory properties (spec.MemorySites: valid-deref and
	// valid-free); the line of every site carries `// site:` wants, e.g.
	// `// site: valid-deref FALSE "offset 8" valid-free TRUE`, and a
	// FALSE must be violated at its own line.
	sitesRE    = regexp.MustCompile(`(?m)^// memory: sites\s*$`)
	siteRE     = regexp.MustCompile(`// site:(.*)$`)
	siteItemRE = regexp.MustCompile(`(valid-deref|valid-free) (TRUE|FALSE|UNKNOWN)(?: "([^"]*)")?`)
	// violationRE marks the line of a memory-safety violation.
	violationRE = regexp.MustCompile(`// violation\s*$`)
	// mallocRE matches `// malloc: may-fail`: malloc and calloc may
	// return NULL (frontend.MallocMayFail).
	mallocRE = regexp.MustCompile(`(?m)^// malloc: may-fail\s*$`)
)

// verdictConfigs are the configurations every file of testdata/verdicts
// runs under unless it says otherwise: zero wrong verdicts under each.
var verdictConfigs = []string{"value", "value-cegar"}

type want struct {
	verdict results.Verdict
	reason  string
}

// TestVerdicts verifies every program in testdata/verdicts under each
// configuration it names (a `// configs:` line) or else verdictConfigs,
// and compares each property's verdict with the `// want` comment on its
// line: missing and unexpected properties both fail. A `// max-states: N`
// line sets the state limit of the file's runs.
//
// The fast tier (go test -short) runs the share shortVerdictRuns picks.
func TestVerdicts(t *testing.T) {
	files := verdictFiles(t)
	short := shortVerdictRuns(files)
	for _, vf := range files {
		for _, config := range vf.configs {
			name := config + "/" + filepath.Base(vf.file)
			if testing.Short() && !short[name] {
				continue
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				checkFile(t, vf.file, vf.src, config)
			})
		}
	}
}

// shortDirectives are the file directives of testdata/verdicts that
// shortVerdictRuns covers.
var shortDirectives = []*regexp.Regexp{maxStatesRE, overflowRE, assumePureRE, reduceRE, entryRE, memoryRE, sitesRE, mallocRE}

// shortVerdictRuns is the share of TestVerdicts the fast tier keeps, by
// subtest name (config/file), chosen from the sorted file list alone:
// the first program of each name prefix (the part before the first "_"
// or ".": atexit, cbmc, memsafety, ...) and the first program of each
// directive (shortDirectives) under its first configuration, and each
// configuration on the first program that names it. About one run in
// eight; the full tier runs every program under each of its
// configurations.
func shortVerdictRuns(files []verdictFile) map[string]bool {
	runs := map[string]bool{}
	seen := map[string]bool{} // name prefixes, directives and configurations covered
	for _, vf := range files {
		base := filepath.Base(vf.file)
		first := vf.configs[0] + "/" + base
		if prefix := strings.FieldsFunc(base, func(r rune) bool { return r == '_' || r == '.' })[0]; !seen["prefix "+prefix] {
			seen["prefix "+prefix] = true
			runs[first] = true
		}
		for i, re := range shortDirectives {
			if key := fmt.Sprint("directive ", i); !seen[key] && re.MatchString(vf.src) {
				seen[key] = true
				runs[first] = true
			}
		}
	}
	for _, vf := range files {
		for _, config := range vf.configs {
			if !seen["config "+config] {
				seen["config "+config] = true
				runs[config+"/"+filepath.Base(vf.file)] = true
			}
		}
	}
	return runs
}

// verdictFile is a program of testdata/verdicts with the configurations
// it runs under (its `// configs:` line, else verdictConfigs).
type verdictFile struct {
	file, src string
	configs   []string
}

// verdictFiles reads every program of testdata/verdicts.
func verdictFiles(t *testing.T) []verdictFile {
	files, _ := filepath.Glob("testdata/verdicts/*.c")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	var out []verdictFile
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		configs := verdictConfigs
		if m := configsRE.FindSubmatch(src); m != nil {
			configs = strings.Fields(string(m[1]))
		}
		out = append(out, verdictFile{file, string(src), configs})
	}
	return out
}

// TestVerdictsReduced verifies every program in testdata/verdicts under
// its first configuration with --reduce slice, full, and thin or value
// (alternating), and expects the verdicts of its wants: reduction must
// preserve every verdict (engine/reduce).
func TestVerdictsReduced(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies every verdict program under three reduction levels; the full tier runs it, and the fast tier's TestVerdicts runs a program with a `// reduce:` line")
	}
	for i, vf := range verdictFiles(t) {
		config := vf.configs[0]
		// Thin and value slicing on alternate files: both are covered,
		// at the cost of three levels per file.
		finer := []string{"thin", "value"}[i%2]
		if strings.Contains(vf.src, "reduce-thin:") || strings.Contains(vf.src, "reduce-value:") {
			finer = "thin"
		}
		for _, level := range []string{"slice", "full", finer} {
			t.Run(level+"/"+config+"/"+filepath.Base(vf.file), func(t *testing.T) {
				t.Parallel()
				checkFile(t, vf.file, vf.src, config, level)
			})
		}
	}
}

// parseWants returns the expectations of src for config, by line: the
// item labelled first (when it is not config) wins over config's, which
// wins over the unlabelled one.
func parseWants(t *testing.T, file, src, config string, first ...string) map[int]want {
	wants := map[int]want{}
	for i, line := range strings.Split(src, "\n") {
		m := wantRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var all, mine, pref *want
		for rest := m[1]; strings.TrimSpace(rest) != ""; {
			it := wantItemRE.FindStringSubmatch(rest)
			if it == nil {
				t.Fatalf("%s:%d: bad want %q", file, i+1, m[1])
			}
			rest = rest[len(it[0]):]
			w := &want{results.Verdict(it[2]), it[3]}
			switch it[1] {
			case "":
				all = w
			case config:
				mine = w
			}
			if len(first) > 0 && first[0] != config && it[1] == first[0] {
				pref = w
			}
		}
		switch {
		case pref != nil:
			wants[i+1] = *pref
		case mine != nil:
			wants[i+1] = *mine
		case all != nil:
			wants[i+1] = *all
		default:
			t.Fatalf("%s:%d: no want for configuration %s", file, i+1, config)
		}
	}
	return wants
}

// checkFile verifies file under config and compares the verdicts with its
// wants; reduce, when given, overrides the file's `// reduce:` line.
func checkFile(t *testing.T, file, src, config string, reduce ...string) {
	label := config
	if len(reduce) > 0 && reduce[0] != "none" {
		label = "reduce" // a `reduce:` item, where given, is the verdict under reduction
		if strings.Contains(src, "reduce-"+reduce[0]+":") {
			label = "reduce-" + reduce[0] // `reduce-full:`: under that level only
		}
	}
	wants := parseWants(t, file, src, config, label)
	var fcfg frontend.Options
	if mallocRE.MatchString(src) {
		fcfg.Malloc = frontend.MallocMayFail
	}
	prog, err := frontend.Translate(fcfg, file)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	entry := "main"
	if m := entryRE.FindStringSubmatch(src); m != nil {
		entry = m[1]
	}
	props := spec.Properties(prog, entry)
	memWants := map[string]want{}
	for _, m := range memoryRE.FindAllStringSubmatch(src, -1) {
		subs := spec.MemSafetySubs
		if m[1] == spec.MemCleanupID {
			subs = []string{spec.MemCleanupID}
		}
		props = append(props, spec.MemoryProperty(entry, subs))
		memWants[m[1]] = want{results.Verdict(m[2]), m[3]}
	}
	violationLine := 0
	siteWants := map[string]want{} // by line and subproperty, "12 valid-deref"
	for i, line := range strings.Split(src, "\n") {
		if violationRE.MatchString(line) {
			violationLine = i + 1
		}
		if m := siteRE.FindStringSubmatch(line); m != nil {
			for _, it := range siteItemRE.FindAllStringSubmatch(m[1], -1) {
				siteWants[fmt.Sprintf("%d %s", i+1, it[1])] = want{results.Verdict(it[2]), it[3]}
			}
		}
	}
	if sitesRE.MatchString(src) {
		props = append(props, spec.MemorySites(prog, entry, []string{spec.DerefID, spec.FreeID})...)
	}
	siteSeen := map[string]bool{}
	// Verdicts are decided by state limits, not by time: the per-property
	// timeout only stops a runaway, and is generous because CI runs
	// packages in parallel on two loaded cores.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The memory watchdog measures the whole test process, in which the
	// other verdict programs run in parallel: a limit above the default
	// keeps one program's verdict from depending on its neighbours'
	// memory (lists_nested.c under --reduce alone peaks near 2 GB).
	cfg := engine.Config{Name: config, Entry: entry, Timeout: 2 * time.Minute, Solver: z3.Factory, MemoryLimit: 6 << 30}
	if m := maxStatesRE.FindStringSubmatch(src); m != nil {
		cfg.MaxStates, _ = strconv.Atoi(m[1])
	}
	if m := overflowRE.FindStringSubmatch(src); m != nil {
		cfg.SignedOverflow = engine.OverflowMode(m[1])
	}
	if m := assumePureRE.FindStringSubmatch(src); m != nil {
		cfg.AssumePure = strings.Fields(m[1])
	}
	if m := reduceRE.FindStringSubmatch(src); m != nil {
		cfg.Reduce = m[1]
	}
	if len(reduce) > 0 {
		cfg.Reduce = reduce[0]
	}
	rs, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range rs {
		if r.Property.Sites != nil {
			key := fmt.Sprintf("%d %s", r.Property.Pos.Line, r.Property.Memory[0])
			siteSeen[key] = true
			w, ok := siteWants[key]
			switch {
			case !ok:
				t.Errorf("%s:%d: unexpected memory site %s: %s (%s)", file, r.Property.Pos.Line, r.Property.ID, r.Verdict, r.Reason)
			case r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason):
				t.Errorf("%s: %s: got %s (%s), want %s %q", file, r.Property.ID, r.Verdict, r.Reason, w.verdict, w.reason)
			case r.Verdict == results.False && (len(r.Counterexample) == 0 || r.ViolationPos.Line != r.Property.Pos.Line):
				t.Errorf("%s: %s: FALSE at line %d with %d steps, want the violation at its own line", file, r.Property.ID, r.ViolationPos.Line, len(r.Counterexample))
			}
			continue
		}
		if w, ok := memWants[r.Property.ID]; ok && len(r.Property.Memory) > 0 {
			if r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
				t.Errorf("%s: %s: got %s (%s), want %s %q", file, r.Property.ID, r.Verdict, r.Reason, w.verdict, w.reason)
			}
			if r.Verdict == results.False && (len(r.Counterexample) == 0 || violationLine != 0 && r.ViolationPos.Line != violationLine) {
				t.Errorf("%s: %s: FALSE at line %d with %d steps, want the violation at line %d", file, r.Property.ID, r.ViolationPos.Line, len(r.Counterexample), violationLine)
			}
			continue
		}
		line := r.Property.Pos.Line
		seen[line] = true
		w, ok := wants[line]
		if !ok {
			t.Errorf("%s:%d: unexpected property %s: %s (%s)", file, line, r.Property.ID, r.Verdict, r.Reason)
			continue
		}
		if r.Verdict != w.verdict || !strings.Contains(r.Reason, w.reason) {
			t.Errorf("%s:%d: %s: got %s (%s), want %s %q", file, line, r.Property.ID, r.Verdict, r.Reason, w.verdict, w.reason)
		}
		if r.Verdict == results.False && len(r.Counterexample) == 0 {
			t.Errorf("%s:%d: FALSE without a counterexample", file, line)
		}
	}
	for line, w := range wants {
		if !seen[line] {
			t.Errorf("%s:%d: no property found, want %s", file, line, w.verdict)
		}
	}
	for key, w := range siteWants {
		if !siteSeen[key] {
			t.Errorf("%s: no memory site at line %s, want %s", file, key, w.verdict)
		}
	}
}

// TestNoProperties checks that a program without assertions yields none
// (the command line reports that loudly).
func TestNoProperties(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{Defines: map[string]string{"NDEBUG": ""}}, []frontend.Source{{Name: "t.c", Content: `
#ifdef NDEBUG
#define assert(x) ((void)0)
#endif
int main(void) { int x = 1; assert(x == 1); return 0; }`}})
	if err != nil {
		t.Fatal(err)
	}
	if props := spec.Properties(prog, "main"); len(props) != 0 {
		t.Errorf("got %d properties under NDEBUG, want 0", len(props))
	}
}

// TestBadConfig checks the errors Verify returns for bad configurations.
func TestBadConfig(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: `int main(void) { return 0; }`}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cfg  engine.Config
		want string
	}{
		{engine.Config{Name: "nonsense", Solver: z3.Factory}, `unknown configuration "nonsense"`},
		{engine.Config{Entry: "start", Solver: z3.Factory}, `entry function "start" has no body`},
		{engine.Config{}, "no SMT solver"},
	} {
		_, err := engine.Verify(context.Background(), prog, nil, tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Verify(%+v) error = %v, want %q", tt.cfg.Name, err, tt.want)
		}
	}
}

// TestInitialPrecision: value-cegar reports its refinements and final
// precision (also in results.json), and a run that starts from that
// precision needs no refinement.
func TestInitialPrecision(t *testing.T) {
	prog, err := frontend.Translate(frontend.Options{}, "testdata/verdicts/cegar_running.c")
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	cfg := engine.Config{Name: "value-cegar", Solver: z3.Factory}
	first, err := engine.Verify(context.Background(), prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := first[0]
	want := "main::y@main:+3:decl int w main::y@main:+3:w = nondet(__VERIFIER_nondet_int) main::y@main:+4:[x > 0] main::y@main:+5:x = x - 1 " +
		"main::y@main:+6:w = w + 1 main::y@main:+7:w = w * 2 main::y@main:+8:[x < 0] main::y@main:+8:[y < 0]"
	if r.Verdict != results.True || r.Refinements != 2 || strings.Join(r.Precision, " ") != want {
		t.Fatalf("%s (%s), %d refinements, precision %q; want TRUE, 2, %q", r.Verdict, r.Reason, r.Refinements, r.Precision, want)
	}
	if rep := engine.NewReport("test", prog, "main", cfg.Name, first); strings.Join(rep.Properties[0].Precision, " ") != want || rep.Properties[0].Refinements != 2 {
		t.Errorf("report: precision %q, %d refinements", rep.Properties[0].Precision, rep.Properties[0].Refinements)
	}
	init, err := engine.ParsePrecision(r.Precision)
	if err != nil {
		t.Fatal(err)
	}
	cfg.InitialPrecision = map[string]engine.Precision{r.Property.ID: init}
	again, err := engine.Verify(context.Background(), prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r := again[0]; r.Verdict != results.True || r.Refinements != 0 || strings.Join(r.Precision, " ") != want {
		t.Errorf("from the learnt precision: %s (%s), %d refinements, precision %q", r.Verdict, r.Reason, r.Refinements, r.Precision)
	}
	if _, err := engine.ParsePrecision([]string{"x", "x@"}); err == nil || !strings.Contains(err.Error(), "bad precision entry") {
		t.Errorf("ParsePrecision of a malformed entry: error %v", err)
	}
}

// TestEntryVerdicts checks the programs of testdata/entry, whose
// properties depend on the entry function's parameters, like
// TestVerdicts; a file's `// entry: f` line names its entry function.
// They are apart from testdata/verdicts, whose harnesses all start at
// main and demand that symbolic execution never rely on path exclusion
// (main's argc ≥ 0 is known to the path encoder, not to the analyses).
func TestEntryVerdicts(t *testing.T) {
	files, _ := filepath.Glob("testdata/entry/*.c")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, config := range []string{"default", "value", "value-cegar", "symex-cegar"} {
			t.Run(config+"/"+filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				checkFile(t, file, string(src), config)
			})
		}
	}
}

// TestUnsupportedCause: an assertion that holds on every path the value
// analysis follows, past a construct it does not model (inline
// assembly), is UNKNOWN with the typed cause of the analysis's
// explanation (cpa.Explanation): unsupported, at the construct's
// position; a path through an unmodelled call to a failing assertion is
// UNKNOWN with the function's name.
func TestUnsupportedCause(t *testing.T) {
	verify := func(src string) *engine.Result {
		t.Helper()
		prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
		if err != nil {
			t.Fatal(err)
		}
		cfg := engine.Config{Name: "value", Timeout: time.Minute, Solver: z3.Factory}
		rs, err := engine.Verify(context.Background(), prog, spec.Properties(prog, "main"), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 1 {
			t.Fatalf("%d results, want 1", len(rs))
		}
		return rs[0]
	}
	r := verify(`#include <assert.h>
int main(void) {
  int x = 1;
  __asm__("nop");
  assert(x == 1);
  return 0;
}
`)
	if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseUnsupported || r.Cause.At != "t.c:4:3" {
		t.Errorf("asm: %s %+v (%s), want UNKNOWN unsupported at t.c:4:3", r.Verdict, r.Cause, r.Reason)
	}
	r = verify(`#include <assert.h>
extern int ext(int);
int main(void) {
  int y = ext(1);
  assert(y != 7);
  return 0;
}
`)
	if r.Verdict != results.Unknown || r.Cause == nil || r.Cause.Kind != results.CauseUnmodelled || len(r.Cause.Names) != 1 || r.Cause.Names[0] != "ext" {
		t.Errorf("ext: %s %+v (%s), want UNKNOWN unmodelled ext", r.Verdict, r.Cause, r.Reason)
	}
}
