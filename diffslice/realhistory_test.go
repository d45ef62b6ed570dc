package diffslice

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// realHistory describes an open-source C code base whose commit history
// BenchmarkRealHistory replays. Its code is never committed here: the
// benchmark reads a bare mirror (the fetch tool's snapshot, or any clone)
// and skips, with a message, when the mirror is absent. Only the harness
// in testdata/realhistory/<Name> (entry function and .reverify.yml) is
// ours.
type realHistory struct {
	Name string
	// Mirror is the default git directory; the environment variable
	// REVERIFY_REALHISTORY_REPO overrides it.
	Mirror string
	// Paths are the library files replayed (the history is that of the
	// commits touching them).
	Paths []string
	// Until pins the newest commit replayed (the mirror may move on).
	Until string
}

// tinyBignum is kokke/tiny-bignum-c: bn.c and bn.h, multiple-precision
// arithmetic with 63 require() assertions (assert(p && msg)), 22 commits
// touching the library from 2017-10-28 to 2020-02-03.
var tinyBignum = realHistory{
	Name:   "tiny-bignum-c",
	Mirror: "/work/.mirror/kokke+tiny-bignum-c/repo",
	Paths:  []string{"bn.c", "bn.h"},
	Until:  "cb8b53925ae79e5fb8f6a2f21b371fb2c3c8e7ec",
}

// realHistoryConfig is the engine configuration of the real-history
// replay: value-cegar under a state limit that binds before the time
// limit, so that an UNKNOWN is the same in every run (a timeout is not
// reproducible and is never cached) and incremental and from-scratch
// verdicts can be compared exactly.
func realHistoryConfig() engine.Config {
	cfg := testConfig()
	cfg.Name = "value-cegar"
	cfg.Timeout = 10 * time.Second
	cfg.MaxStates = 6000
	cfg.Workers = 1 // measure work, not parallelism
	return cfg
}

// BenchmarkRealHistory replays the real commit history of an
// open-source C code base (tinyBignum; at least 20 consecutive commits
// touching the library), each commit as a pull request against the
// previous one: the incremental re-verification (base loaded from the
// summary its own run left in the cache, head translated, changed
// definitions, slices, verification of the affected properties, cache
// update — what `reverify check --base parent` does) against verifying
// every property of the head from scratch, in the same run. Per commit
// it logs the changed definitions, the properties re-verified and
// reused, both times and their ratio, and every verdict that differs
// between the two (a TRUE against a FALSE fails the benchmark: that
// would be a soundness bug of diffslice or the cache). For the
// re-verified properties it also runs them again without precision
// reuse and logs refinements and time with and without (Beyer et al.,
// FSE 2013).
//
//	go test -bench RealHistory -run '^$' -benchtime 1x -timeout 60m ./diffslice
//
// REVERIFY_REALHISTORY_REPO names the mirror (a bare git directory or a
// clone); REVERIFY_REALHISTORY_COMMITS limits the number of commits
// replayed (for a quick look).
func BenchmarkRealHistory(b *testing.B) {
	h := tinyBignum
	mirror := h.Mirror
	if env := os.Getenv("REVERIFY_REALHISTORY_REPO"); env != "" {
		mirror = env
	}
	if _, err := os.Stat(mirror); err != nil {
		b.Skipf("real history: no mirror of %s at %s (fetch github:kokke/tiny-bignum-c, or set REVERIFY_REALHISTORY_REPO): %v", h.Name, mirror, err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	for range b.N {
		r, labels := h.rebuild(b, mirror)
		if n := os.Getenv("REVERIFY_REALHISTORY_COMMITS"); n != "" {
			if k, err := strconv.Atoi(n); err == nil && k+1 < len(labels) {
				labels = labels[:k+1]
			}
		}
		cfg := realHistoryConfig()
		st := replayHistory(b, r, labels, cfg, true)
		b.ReportMetric(st.medianRatio, "median-ratio")
		b.ReportMetric(float64(st.differing), "differing-verdicts")
		reportReuse(b, st)
	}
}

// rebuild builds a temporary git repository whose commits are the
// library files of every commit of the mirror touching h.Paths (oldest
// first, up to h.Until), each with the harness of testdata laid over it.
// It returns the repository and, per commit, "<hash> <subject>" of the
// original.
func (h realHistory) rebuild(b *testing.B, mirror string) (*gitRepo, []string) {
	b.Helper()
	mgit := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir", gitDir(mirror)}, args...)...).Output()
		if err != nil {
			b.Fatalf("git %s in %s: %v", strings.Join(args, " "), mirror, err)
		}
		return string(out)
	}
	revs := strings.Fields(mgit(append([]string{"rev-list", "--reverse", "--topo-order", h.Until, "--"}, h.Paths...)...))
	if len(revs) < 21 {
		b.Fatalf("%s: %d commits touch %v, want at least 21 (20 pull requests)", h.Name, len(revs), h.Paths)
	}
	harness := filepath.Join("testdata", "realhistory", h.Name)
	overlay := map[string]string{}
	ents, err := os.ReadDir(harness)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(harness, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		overlay[e.Name()] = string(data)
	}
	r := newRepo(b)
	var labels []string
	for _, rev := range revs {
		files := map[string]string{}
		for k, v := range overlay {
			files[k] = v
		}
		for _, p := range h.Paths {
			files[p] = mgit("show", rev+":"+p)
		}
		subject := strings.TrimSpace(mgit("log", "-1", "--format=%s", rev))
		labels = append(labels, rev[:7]+" "+subject)
		r.commit(rev+" "+subject, files)
	}
	// Map the labels to the commits of the temporary repository.
	ours := strings.Fields(r.git("rev-list", "--reverse", "HEAD"))
	for i := range labels {
		labels[i] = ours[i] + " " + labels[i]
	}
	return r, labels
}

// gitDir returns the git directory of a mirror: itself when bare, else
// its .git.
func gitDir(repo string) string {
	if st, err := os.Stat(filepath.Join(repo, ".git")); err == nil && st.IsDir() {
		return filepath.Join(repo, ".git")
	}
	return repo
}

// historyStats are the totals of replayHistory.
type historyStats struct {
	medianRatio, medianCPURatio float64
	differing, conflicting      int // verdicts differing; of those, TRUE against FALSE
	untranslatable              int // commits that do not compile
	reverified, reused          int
	// Precision reuse over all re-verified properties: refinements and
	// engine seconds with the reused precision and without.
	refinementsWith, refinementsWithout int
	secondsWith, secondsWithout         float64
	// The same over the properties that started from a reused precision.
	seeded                                          int
	seededRefinementsWith, seededRefinementsWithout int
	seededSecondsWith, seededSecondsWithout         float64
}

// replayHistory verifies the first commit of labels ("<our commit>
// <original hash> <subject>") from scratch into an empty cache, then
// replays every further commit as a pull request against the previous
// one, comparing the incremental run with a from-scratch run of the same
// head (and, with precision, the re-verified properties without
// precision reuse).
func replayHistory(b *testing.B, r *gitRepo, labels []string, cfg engine.Config, precision bool) historyStats {
	b.Helper()
	opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}
	cache := &Cache{Dir: b.TempDir()}
	ctx := context.Background()
	commit := func(i int) string { return strings.Fields(labels[i])[0] }
	original := func(i int) string { _, rest, _ := strings.Cut(labels[i], " "); return rest }

	start := time.Now()
	base := load(b, r.dir, commit(0))
	p0 := NewPlan(nil, base, cache, opts)
	res0, err := p0.Verify(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if err := p0.Store(cache, res0, nil); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d properties (%d reachable from %s), verified from scratch in %.1fs; %s",
		original(0), len(p0.Properties), reachable(p0.Properties), opts.withDefaults(base).Entry, time.Since(start).Seconds(), verdictCounts(res0))
	b.Logf("%-8s %-40s %7s %6s %6s %8s %8s %6s %7s %7s  %s", "commit", "subject", "changed", "re-ver", "reused",
		"incr s", "scratch", "ratio", "cpu-rat", "refine", "differing")

	var st historyStats
	var ratios, cpuRatios []float64
	last := 0 // the newest commit that translates: the base of the next
	for c := 1; c < len(labels); c++ {
		if _, err := LoadRevision(r.dir, commit(c), SourceConfig{}); err != nil {
			// The commit does not compile (it happens in real
			// histories): the pull request's check fails with this
			// error whether incremental or not; the next commit is
			// replayed against the last one that translates.
			st.untranslatable++
			b.Logf("%-8s %-40s  does not translate, incrementally or from scratch: %s", strings.Fields(original(c))[0],
				clip(strings.SplitN(original(c), " ", 2)[1], 40), strings.Join(strings.Fields(err.Error()), " "))
			continue
		}
		var without map[string]*engine.Result
		if precision {
			without = withoutReuse(b, r.dir, commit(last), commit(c), cache, opts, cfg)
		}

		runtime.GC() // each measured run starts from a collected heap
		startI, cpuI := time.Now(), cpuTime()
		bs, err := cache.LoadBase(r.dir, commit(last), SourceConfig{}, testVersion)
		if err != nil {
			b.Fatal(err)
		}
		hd, err := LoadRevision(r.dir, commit(c), SourceConfig{})
		if err != nil {
			b.Fatal(err)
		}
		if last != c-1 {
			b.Logf("         (base: %s, the last commit that translates)", strings.Fields(original(last))[0])
		}
		last = c
		p := NewPlan(bs, hd, cache, opts)
		res, err := p.Verify(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Store(cache, res, nil); err != nil {
			b.Fatal(err)
		}
		incr, incrCPU := time.Since(startI), cpuTime()-cpuI

		runtime.GC()
		startS, cpuS := time.Now(), cpuTime()
		full, err := LoadRevision(r.dir, commit(c), SourceConfig{})
		if err != nil {
			b.Fatal(err)
		}
		entry := opts.withDefaults(full).Entry
		fres, err := engine.Verify(ctx, full.Program, spec.Properties(full.Program, entry), withEntry(cfg, entry))
		if err != nil {
			b.Fatal(err)
		}
		scratch, scratchCPU := time.Since(startS), cpuTime()-cpuS

		// Every verdict that differs between the two runs.
		want := map[string]*engine.Result{}
		for _, fr := range fres {
			want[fr.Property.ID] = fr
		}
		var diffs []string
		for i, ir := range res {
			fr := want[ir.Property.ID]
			if fr == nil {
				diffs = append(diffs, ir.Property.ID+": only incremental")
				continue
			}
			delete(want, ir.Property.ID)
			if ir.Verdict == fr.Verdict {
				continue
			}
			st.differing++
			src := "re-verified"
			if !p.Decisions[i].Reverify {
				src = "cached"
			}
			diffs = append(diffs, fmt.Sprintf("%s: %s (%s, %s) incrementally, %s (%s) from scratch", ir.Property.ID, ir.Verdict, src, ir.Reason, fr.Verdict, fr.Reason))
			if decided(ir.Verdict) && decided(fr.Verdict) {
				st.conflicting++
				b.Errorf("commit %s: %s is %s incrementally but %s from scratch", original(c), ir.Property.ID, ir.Verdict, fr.Verdict)
			}
		}
		for id := range want {
			diffs = append(diffs, id+": only from scratch")
			st.differing++
		}

		// Precision reuse: the re-verified properties again, from the
		// empty precision.
		refine := "-"
		if precision {
			with, without := reuseComparison(b, p, res, without)
			st.refinementsWith += with.refinements
			st.refinementsWithout += without.refinements
			st.secondsWith += with.seconds
			st.secondsWithout += without.seconds
			st.seeded += with.seeded
			st.seededRefinementsWith += with.seededRefinements
			st.seededRefinementsWithout += without.seededRefinements
			st.seededSecondsWith += with.seededSeconds
			st.seededSecondsWithout += without.seededSeconds
			if with.seeded > 0 {
				refine = fmt.Sprintf("%d/%d", with.refinements, without.refinements)
			}
		}

		nre := len(p.Affected())
		st.reverified += nre
		st.reused += len(p.Decisions) - nre
		ratio, cpuRatio := incr.Seconds()/scratch.Seconds(), incrCPU.Seconds()/scratchCPU.Seconds()
		ratios, cpuRatios = append(ratios, ratio), append(cpuRatios, cpuRatio)
		orig := original(c)
		hash, subject, _ := strings.Cut(orig, " ")
		subject = clip(subject, 40)
		d := "0"
		if len(diffs) > 0 {
			d = fmt.Sprintf("%d: %s", len(diffs), strings.Join(diffs, "; "))
		}
		b.Logf("%-8s %-40s %7d %6d %6d %8.2f %8.2f %6.3f %7.3f %7s  %s", hash, subject, len(p.Changes), nre,
			len(p.Decisions)-nre, incr.Seconds(), scratch.Seconds(), ratio, cpuRatio, refine, d)
		for _, ch := range p.Changes {
			b.Logf("           %s", ch.String())
		}
	}
	st.medianRatio, st.medianCPURatio = median(ratios), median(cpuRatios)
	b.Logf("%d pull requests (%d more do not translate): median ratio %.3f wall (max %.3f), %.3f cpu; %d re-verified, %d reused; %d differing verdicts (%d TRUE against FALSE)",
		len(ratios), st.untranslatable, st.medianRatio, slices.Max(ratios), st.medianCPURatio, st.reverified, st.reused, st.differing, st.conflicting)
	if precision {
		b.Logf("precision reuse on the re-verified properties: %d refinements with, %d without; %.2fs with, %.2fs without",
			st.refinementsWith, st.refinementsWithout, st.secondsWith, st.secondsWithout)
		b.Logf("  of which the %d that started from a reused precision: %d refinements with, %d without; %.2fs with, %.2fs without",
			st.seeded, st.seededRefinementsWith, st.seededRefinementsWithout, st.seededSecondsWith, st.seededSecondsWithout)
	}
	return st
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

// reportReuse reports what precision reuse saved, over the properties
// that started from a reused precision: refinements and engine seconds
// with reuse divided by those without.
func reportReuse(b *testing.B, st historyStats) {
	if st.seededRefinementsWithout > 0 {
		b.ReportMetric(float64(st.seededRefinementsWith)/float64(st.seededRefinementsWithout), "refinement-ratio-reuse")
	}
	if st.seededSecondsWithout > 0 {
		b.ReportMetric(st.seededSecondsWith/st.seededSecondsWithout, "time-ratio-reuse")
	}
}

func withEntry(cfg engine.Config, entry string) engine.Config {
	cfg.Entry = entry
	return cfg
}

func reachable(props []*spec.Property) int {
	n := 0
	for _, p := range props {
		if p.Reachable {
			n++
		}
	}
	return n
}

func verdictCounts(res []*engine.Result) string {
	n := map[results.Verdict]int{}
	for _, r := range res {
		n[r.Verdict]++
	}
	var parts []string
	for _, v := range []results.Verdict{results.True, results.False, results.Unknown} {
		parts = append(parts, fmt.Sprintf("%d %s", n[v], v))
	}
	if k := len(res) - n[results.True] - n[results.False] - n[results.Unknown]; k > 0 {
		parts = append(parts, fmt.Sprintf("%d other", k))
	}
	return strings.Join(parts, ", ")
}

// verbose logs every re-verified property of the precision-reuse
// comparison (REVERIFY_REALHISTORY_VERBOSE=1).
var verbose = os.Getenv("REVERIFY_REALHISTORY_VERBOSE") != ""

// reuseRun sums the statistics of the re-verified properties of a run.
type reuseRun struct {
	refinements int
	seconds     float64
	seeded      int // properties that started from a reused precision
	// The same sums over those properties only.
	seededRefinements int
	seededSeconds     float64
}

// withoutReuse verifies the properties a pull request base → head would
// re-verify, each from the empty precision, on freshly loaded revisions
// (the engine keeps per-program state that a second run on the same
// program would find warm), before the incremental run updates the
// cache. It returns the results by property ID.
func withoutReuse(b *testing.B, repo, base, head string, cache *Cache, opts Options, cfg engine.Config) map[string]*engine.Result {
	b.Helper()
	bs, err := cache.LoadBase(repo, base, SourceConfig{}, testVersion)
	if err != nil {
		b.Fatal(err)
	}
	hd, err := LoadRevision(repo, head, SourceConfig{})
	if err != nil {
		b.Fatal(err)
	}
	p := NewPlan(bs, hd, cache, opts)
	runtime.GC()
	seeded := false
	for i := range p.Decisions {
		seeded = seeded || len(p.Decisions[i].InitialPrecision) > 0
		p.Decisions[i].InitialPrecision, p.Decisions[i].PrecisionFrom = nil, ""
	}
	out := map[string]*engine.Result{}
	if !seeded {
		return out // the incremental run reuses nothing: nothing to compare
	}
	res, err := p.Verify(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i, d := range p.Decisions {
		if d.Reverify {
			out[d.Property.ID] = res[i]
		}
	}
	return out
}

// reuseComparison sums, over the re-verified properties of plan p (with
// precision reuse: results res), the refinements and seconds with reuse
// and those of the same properties from the empty precision (without,
// from withoutReuse). Verdicts of the two runs must agree unless one is
// UNKNOWN.
func reuseComparison(b *testing.B, p *Plan, res []*engine.Result, without map[string]*engine.Result) (w, wo reuseRun) {
	b.Helper()
	if len(without) == 0 {
		return w, wo
	}
	for i, d := range p.Decisions {
		if !d.Reverify {
			continue
		}
		r, o := res[i], without[d.Property.ID]
		if o == nil {
			b.Errorf("%s: re-verified incrementally but not in the run without precision reuse", d.Property.ID)
			continue
		}
		w.refinements += r.Refinements
		w.seconds += r.Seconds
		wo.refinements += o.Refinements
		wo.seconds += o.Seconds
		if len(d.InitialPrecision) > 0 {
			w.seeded++
			wo.seeded++
			w.seededRefinements += r.Refinements
			w.seededSeconds += r.Seconds
			wo.seededRefinements += o.Refinements
			wo.seededSeconds += o.Seconds
		}
		if r.Verdict != o.Verdict && decided(r.Verdict) && decided(o.Verdict) {
			b.Errorf("%s: %s with the reused precision, %s without", d.Property.ID, r.Verdict, o.Verdict)
		}
		if verbose {
			b.Logf("    %-50s with %d entries from %q: %-7s %6d states %3d refinements %6.2fs  without: %-7s %6d states %3d refinements %6.2fs",
				clip(d.Property.ID, 50), len(d.InitialPrecision), d.PrecisionFrom, r.Verdict, r.States, r.Refinements, r.Seconds,
				o.Verdict, o.States, o.Refinements, o.Seconds)
		}
	}
	return w, wo
}
