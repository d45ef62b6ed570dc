package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/internal/wants"
	"github.com/reverify/reverify/results"
)

// The expectation format of the verdict programs is internal/wants's
// (its doc.go); the names below are the ones the engine's tests use.
var (
	wantRE       = wants.WantRE
	maxStatesRE  = wants.MaxStatesRE
	overflowRE   = wants.OverflowRE
	assumePureRE = wants.AssumePureRE
	reduceRE     = wants.ReduceRE
	entryRE      = wants.EntryRE
	memoryRE     = wants.MemoryRE
	sitesRE      = wants.SitesRE
	mallocRE     = wants.MallocRE
	wantItemRE   = wants.WantItemRE
)

// verdictConfigs are the configurations every file of testdata/verdicts
// runs under unless it says otherwise: zero wrong verdicts under each.
var verdictConfigs = wants.DefaultConfigs

type want = wants.Want

// TestVerdicts verifies the programs of testdata/verdicts that
// shortVerdictRuns picks, each under the configuration it picks among
// those the program names (a `// configs:` line) or else verdictConfigs,
// and compares each property's verdict with the `// want` comment on its
// line: missing and unexpected properties both fail. A `// max-states: N`
// line sets the state limit of the file's runs.
//
// This share runs in-process in both tiers; the full sweep, every program
// under each of its configurations, is the verdict suite
// (testdata/suites/verdicts.txt, run by `reverify bench` in
// cmd/reverify's TestVerdictSuite, full tier).
// testMemory is the memory limit of the tests that are not about
// limits: the memory watch measures the whole test process, which the
// parallel verdict sweeps share.
const testMemory = 6 << 30

func TestVerdicts(t *testing.T) {
	files := verdictFiles(t)
	short := shortVerdictRuns(files)
	for _, vf := range files {
		for _, config := range vf.configs {
			name := config + "/" + filepath.Base(vf.file)
			if !short[name] {
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

// shortVerdictRuns is the share of the verdict sweep TestVerdicts runs
// in-process, by subtest name (config/file), chosen from the sorted file list alone:
// the first program of each name prefix (the part before the first "_"
// or ".": atexit, cbmc, memsafety, ...) and the first program of each
// directive (shortDirectives) under its first configuration, and each
// configuration on the first program that names it. About one run in
// eight; the verdict suite runs every program under each of its
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
		out = append(out, verdictFile{file, string(src), wants.Parse(file, string(src)).Configs})
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

// parseWants returns the expectations of src for config, by line
// (wants.Program.Wants).
func parseWants(t *testing.T, file, src, config string, first ...string) map[int]want {
	w, err := wants.Parse(file, src).Wants(config, first...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// checkFile verifies file under config and compares the verdicts with its
// wants (wants.Program.Check); reduce, when given, overrides the file's
// `// reduce:` line.
func checkFile(t *testing.T, file, src, config string, reduce ...string) {
	label := config
	if len(reduce) > 0 && reduce[0] != "none" {
		label = "reduce" // a `reduce:` item, where given, is the verdict under reduction
		if strings.Contains(src, "reduce-"+reduce[0]+":") {
			label = "reduce-" + reduce[0] // `reduce-full:`: under that level only
		}
	}
	vp := wants.Parse(file, src)
	lineWants, err := vp.Wants(config, label)
	if err != nil {
		t.Fatal(err)
	}
	var fcfg frontend.Options
	if vp.MallocMayFail {
		fcfg.Malloc = frontend.MallocMayFail
	}
	prog, err := frontend.Translate(fcfg, file)
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Check(); err != nil {
		t.Fatalf("CFA sanity: %v", err)
	}
	entry := vp.Entry
	props := spec.Properties(prog, entry)
	for _, id := range vp.MemoryIDs {
		subs := spec.MemSafetySubs
		if id == spec.MemCleanupID {
			subs = []string{spec.MemCleanupID}
		}
		props = append(props, spec.MemoryProperty(entry, subs))
	}
	if vp.Sites {
		props = append(props, spec.MemorySites(prog, entry, []string{spec.DerefID, spec.FreeID})...)
	}
	// Verdicts are decided by state limits, not by time: the per-property
	// timeout only stops a runaway, and is generous because CI runs
	// packages in parallel on two loaded cores.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The memory watchdog measures the whole test process, in which the
	// other verdict programs run in parallel: a limit above the default
	// keeps one program's verdict from depending on its neighbours'
	// memory (lists_nested.c under --reduce alone peaks near 2 GB).
	cfg := engine.Config{Name: config, Entry: entry, Timeout: 2 * time.Minute, Solver: z3.Factory, MemoryLimit: 6 << 30,
		MaxStates: vp.MaxStates, SignedOverflow: engine.OverflowMode(vp.SignedOverflow), AssumePure: vp.AssumePure, Reduce: vp.Reduce}
	if len(reduce) > 0 {
		cfg.Reduce = reduce[0]
	}
	rs, err := engine.Verify(ctx, prog, props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []wants.Got
	for _, r := range rs {
		g := wants.Got{ID: r.Property.ID, Line: r.Property.Pos.Line, Verdict: r.Verdict, Reason: r.Reason,
			Memory: len(r.Property.Memory) > 0, Steps: len(r.Counterexample), ViolationLine: r.ViolationPos.Line}
		if r.Property.Sites != nil {
			g.Site = r.Property.Memory[0]
		}
		got = append(got, g)
	}
	for _, e := range vp.Check(lineWants, got) {
		t.Error(e)
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
		{engine.Config{MemoryLimit: testMemory, Name: "nonsense", Solver: z3.Factory}, `unknown configuration "nonsense"`},
		{engine.Config{MemoryLimit: testMemory, Entry: "start", Solver: z3.Factory}, `entry function "start" has no body`},
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
	cfg := engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Solver: z3.Factory}
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
		cfg := engine.Config{MemoryLimit: testMemory, Name: "value", Timeout: time.Minute, Solver: z3.Factory}
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
