package diffslice

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/spec"
)

// The generated code base of BenchmarkReplayCommits: benchModules files
// src/mod_I.c, each with four functions (norm, sum, step, mix) and four
// checks (one assertion each), a header with macros and prototypes, and a
// main.c that runs the checks. Every function has a tweak site; a commit
// changes the tweak of one function, keeping every assertion true.
const (
	benchModules = 10
	benchLoop    = 400 // iterations of each sum loop
)

var benchFuncs = []string{"norm", "sum", "step", "mix", "check_sum"}

// benchSources renders the code base; tweak maps "mI_fn" to its tweak.
// layout "harness" dispatches nondeterministically to one check (a
// verification harness); "sequential" runs every check in turn, so each
// assertion also depends on every earlier one not aborting.
func benchSources(tweak map[string]int, layout string) map[string]string {
	files := map[string]string{
		".reverify.yml": "sources: [\"src/*.c\"]\ninclude: [include]\nconfig: value\n",
	}
	var h strings.Builder
	h.WriteString("#ifndef MOD_H\n#define MOD_H\n#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n\n")
	for i := 0; i < benchModules; i++ {
		fmt.Fprintf(&h, "#define M%d_LIMIT %d\n#define M%d_LOOP %d\n", i, 50+i, i, benchLoop)
		for _, f := range []string{"int m%d_norm(int x);", "int m%d_sum(int n);", "int m%d_step(int x);", "int m%d_mix(int a, int b);",
			"void m%d_check_norm(void);", "void m%d_check_sum(void);", "void m%d_check_step(void);", "void m%d_check_mix(void);"} {
			fmt.Fprintf(&h, f+"\n", i)
		}
	}
	h.WriteString("#endif\n")
	files["include/mod.h"] = h.String()
	for i := 0; i < benchModules; i++ {
		t := func(fn string) int { return tweak[fmt.Sprintf("m%d_%s", i, fn)] }
		prev := (i + benchModules - 1) % benchModules
		files[fmt.Sprintf("src/mod_%d.c", i)] = fmt.Sprintf(`#include "mod.h"

/* Clamps x to [0, M%[1]d_LIMIT - tweak]. */
int m%[1]d_norm(int x) {
  if (x > M%[1]d_LIMIT - %[3]d)
    x = M%[1]d_LIMIT - %[3]d;
  if (x < 0)
    x = 0;
  return x;
}

int m%[1]d_sum(int n) {
  int s = 0;
  for (int k = 0; k < M%[1]d_LOOP; k++)
    s += (k %% 3) * (1 + %[4]d);
  return s + n;
}

int m%[1]d_step(int x) {
  return m%[2]d_norm(x) + 1 + %[5]d;
}

int m%[1]d_mix(int a, int b) {
  int r = m%[1]d_norm(a);
  if (b > 0)
    r = r + m%[1]d_norm(b) / (2 + %[6]d);
  return r;
}

void m%[1]d_check_norm(void) {
  int v = __VERIFIER_nondet_int();
  assert(m%[1]d_norm(v) <= M%[1]d_LIMIT);
}

void m%[1]d_check_sum(void) {
  int s = m%[1]d_sum(3 + %[7]d);
  assert(s >= 0);
}

void m%[1]d_check_step(void) {
  int v = __VERIFIER_nondet_int();
  assert(m%[1]d_step(v) >= 1);
}

void m%[1]d_check_mix(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  assert(m%[1]d_mix(a, b) <= 2 * M%[1]d_LIMIT);
}
`, i, prev, t("norm"), t("sum"), t("step"), t("mix"), t("check_sum"))
	}
	var m strings.Builder
	m.WriteString("#include \"mod.h\"\n\nint main(void) {\n")
	checks := []string{"norm", "sum", "step", "mix"}
	if layout == "harness" {
		m.WriteString("  switch (__VERIFIER_nondet_int()) {\n")
		n := 0
		for i := 0; i < benchModules; i++ {
			for _, c := range checks {
				fmt.Fprintf(&m, "  case %d:\n    m%d_check_%s();\n    break;\n", n, i, c)
				n++
			}
		}
		m.WriteString("  }\n")
	} else {
		for i := 0; i < benchModules; i++ {
			for _, c := range checks {
				fmt.Fprintf(&m, "  m%d_check_%s();\n", i, c)
			}
		}
	}
	m.WriteString("  return 0;\n}\n")
	files["src/main.c"] = m.String()
	return files
}

// BenchmarkReplayCommits replays a series of commits, each touching one
// function of a generated multi-file code base, and reports per commit
// the time of the incremental re-verification (load both revisions — the
// base from the summary its own run left in the cache —, compare, slice,
// verify the affected properties, update the cache) divided by the time
// of verifying the head from scratch (load, verify every property), both
// measured in the same run, in wall-clock and in CPU time (the machine
// may be shared). The incremental verdicts must equal the from-scratch
// ones.
//
// The code base is a verification harness: main runs one check chosen
// nondeterministically. (With main running every check in turn, each
// assertion depends on every earlier check not aborting, so a change
// early in the sequence affects every later assertion — correctly — and
// the explicit-value analysis meets a path explosion over 40 sequential
// checks; benchSources still renders that layout as "sequential".)
func BenchmarkReplayCommits(b *testing.B) {
	for range b.N {
		replay(b, "harness", 12)
	}
}

func replay(b *testing.B, layout string, commits int) {
	r := newRepo(b)
	tweak := map[string]int{}
	revs := []string{r.commit("base", benchSources(tweak, layout))}
	var touched []string
	for c := 0; c < commits; c++ {
		fn := fmt.Sprintf("m%d_%s", (c*3)%benchModules, benchFuncs[c%len(benchFuncs)])
		tweak[fn]++
		touched = append(touched, fn)
		revs = append(revs, r.commit("touch "+fn, benchSources(tweak, layout)))
	}
	cfg := testConfig()
	cfg.Workers = 1 // measure work, not parallelism
	opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}
	cache := &Cache{Dir: b.TempDir()}
	ctx := context.Background()

	// Warm the cache with the base, as CI would have on the main branch.
	base := load(b, r.dir, revs[0])
	p0 := NewPlan(nil, base, cache, opts)
	res0, err := p0.Verify(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := p0.Store(cache, res0, nil); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s layout: %d files, %d functions, %d properties, %d commits", layout, len(base.Files),
		len(base.Program.Funcs), len(p0.Properties), commits)

	var ratios, cpuRatios []float64
	for c := 1; c < len(revs); c++ {
		// Incremental: everything a pull-request job does.
		start, cpu0 := time.Now(), cpuTime()
		bs, err := cache.LoadBase(r.dir, revs[c-1], SourceConfig{}, testVersion)
		if err != nil {
			b.Fatal(err)
		}
		hd, err := LoadRevision(r.dir, revs[c], SourceConfig{})
		if err != nil {
			b.Fatal(err)
		}
		loaded := time.Since(start)
		p := NewPlan(bs, hd, cache, opts)
		planned := time.Since(start)
		res, err := p.Verify(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Store(cache, res, nil); err != nil {
			b.Fatal(err)
		}
		incr, incrCPU := time.Since(start), cpuTime()-cpu0

		// From scratch: load the head and verify every property.
		start, cpu0 = time.Now(), cpuTime()
		full, err := LoadRevision(r.dir, revs[c], SourceConfig{})
		if err != nil {
			b.Fatal(err)
		}
		props := spec.Properties(full.Program, "main")
		fres, err := engine.Verify(ctx, full.Program, props, cfg)
		if err != nil {
			b.Fatal(err)
		}
		scratch, scratchCPU := time.Since(start), cpuTime()-cpu0

		want := verdicts(fres)
		for id, v := range verdicts(res) {
			if want[id] != v {
				b.Fatalf("commit %d (%s): %s is %s incrementally but %s from scratch", c, touched[c-1], id, v, want[id])
			}
		}
		ratio := incr.Seconds() / scratch.Seconds()
		cpuRatio := incrCPU.Seconds() / scratchCPU.Seconds()
		ratios = append(ratios, ratio)
		cpuRatios = append(cpuRatios, cpuRatio)
		b.Logf("commit %2d touches %-13s re-verified %2d/%d  wall: incremental %.3fs (load %.3fs, plan %.3fs) scratch %.3fs ratio %.3f  cpu: %.3fs / %.3fs ratio %.3f",
			c, touched[c-1], len(p.Affected()), len(p.Properties), incr.Seconds(), loaded.Seconds(),
			(planned - loaded).Seconds(), scratch.Seconds(), ratio, incrCPU.Seconds(), scratchCPU.Seconds(), cpuRatio)
	}
	med, cmed := median(ratios), median(cpuRatios)
	b.Logf("%s layout: median ratio wall %.3f (max %.3f), cpu %.3f (max %.3f)", layout, med, slices.Max(ratios), cmed, slices.Max(cpuRatios))
	b.ReportMetric(med, "median-ratio")
	b.ReportMetric(cmed, "median-cpu-ratio")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	sort.Float64s(s)
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// cpuTime is the CPU time (user and system) of this process and its
// waited-for children (git).
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

// BenchmarkPrecisionReuse replays the generated history of
// BenchmarkReplayCommits under value-cegar, the configuration with a
// refinable precision, and measures what precision reuse saves (Beyer,
// Löwe, Novikov, Stahlbauer, Wendler, FSE 2013): each re-verified
// property runs once from the precision cached for it at the base
// revision and once from the empty precision, in the same run; it
// reports the refinements and engine seconds of both (and, as
// BenchmarkReplayCommits does, incremental against from-scratch time).
func BenchmarkPrecisionReuse(b *testing.B) {
	for range b.N {
		r, labels := syntheticHistory(b, "harness", 12)
		cfg := testConfig()
		cfg.Name = "value-cegar"
		cfg.Workers = 1
		st := replayHistory(b, r, labels, cfg, true)
		reportReuse(b, st)
		b.ReportMetric(st.medianRatio, "median-ratio")
	}
}

// syntheticHistory commits the generated code base and then commits
// that each touch one function, as replay does; labels are "<commit>
// <commit> touch <function>" for replayHistory.
func syntheticHistory(b *testing.B, layout string, commits int) (*gitRepo, []string) {
	r := newRepo(b)
	tweak := map[string]int{}
	c0 := r.commit("base", benchSources(tweak, layout))
	labels := []string{c0 + " " + c0[:7] + " base"}
	for c := 0; c < commits; c++ {
		fn := fmt.Sprintf("m%d_%s", (c*3)%benchModules, benchFuncs[c%len(benchFuncs)])
		tweak[fn]++
		h := r.commit("touch "+fn, benchSources(tweak, layout))
		labels = append(labels, h+" "+h[:7]+" touch "+fn)
	}
	return r, labels
}
