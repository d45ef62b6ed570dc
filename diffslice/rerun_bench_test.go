package diffslice

import (
	"context"
	"testing"
	"time"
)

// BenchmarkRerun measures the verdict cache on a re-run of the same pull
// request: the generated code base of BenchmarkReplayCommits (harness
// layout, 40 properties) with a head that changes three functions. The
// first run of the pull request (the cache warmed by its base, as the
// main branch's job leaves it) re-verifies the affected properties; the
// re-run on the same head finds every slice hash cached and must
// re-verify none. Both are measured in the same run — load both
// revisions, plan, verify, store —, with the time of verifying the head
// without a cache as the baseline: it reports rerun/first and
// rerun/scratch in wall-clock and CPU time.
func BenchmarkRerun(b *testing.B) {
	for range b.N {
		r := newRepo(b)
		tweak := map[string]int{}
		base := r.commit("base", benchSources(tweak, "harness"))
		for _, fn := range []string{"m0_norm", "m3_sum", "m6_step"} {
			tweak[fn]++
		}
		head := r.commit("head", benchSources(tweak, "harness"))
		cfg := testConfig()
		cfg.Workers = 1 // measure work, not parallelism
		opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}
		ctx := context.Background()
		// step loads base (nil: none) and head, plans, verifies and
		// stores, as a pull-request job does.
		step := func(cache *Cache, baseRev string) (time.Duration, time.Duration, int, int) {
			start, cpu0 := time.Now(), cpuTime()
			var bs *Revision
			if baseRev != "" {
				var err error
				if bs, err = cache.LoadBase(r.dir, baseRev, SourceConfig{}, testVersion); err != nil {
					b.Fatal(err)
				}
			}
			hd, err := LoadRevision(r.dir, head, SourceConfig{})
			if err != nil {
				b.Fatal(err)
			}
			p := NewPlan(bs, hd, cache, opts)
			res, err := p.Verify(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			if err := p.Store(cache, res, nil); err != nil {
				b.Fatal(err)
			}
			return time.Since(start), cpuTime() - cpu0, len(p.Affected()), len(p.Properties)
		}
		// Baseline: the head without a cache.
		scratch, scratchCPU, n, total := step(&Cache{Dir: b.TempDir()}, "")
		if n != total {
			b.Fatalf("scratch run re-verified %d of %d", n, total)
		}
		// The main branch's job: the base, from scratch.
		cache := &Cache{Dir: b.TempDir()}
		bp := NewPlan(nil, load(b, r.dir, base), cache, opts)
		bres, err := bp.Verify(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := bp.Store(cache, bres, nil); err != nil {
			b.Fatal(err)
		}
		first, firstCPU, n1, _ := step(cache, base)
		rerun, rerunCPU, n2, _ := step(cache, base)
		if n2 != 0 {
			b.Fatalf("re-run re-verified %d properties, want 0", n2)
		}
		b.Logf("%d properties: scratch %.3fs (cpu %.3fs); first PR run re-verified %d in %.3fs (cpu %.3fs); re-run re-verified %d in %.3fs (cpu %.3fs)",
			total, scratch.Seconds(), scratchCPU.Seconds(), n1, first.Seconds(), firstCPU.Seconds(), n2, rerun.Seconds(), rerunCPU.Seconds())
		b.ReportMetric(rerun.Seconds()/first.Seconds(), "rerun/first")
		b.ReportMetric(rerun.Seconds()/scratch.Seconds(), "rerun/scratch")
		b.ReportMetric(rerunCPU.Seconds()/firstCPU.Seconds(), "rerun/first-cpu")
		b.ReportMetric(float64(n1), "first-reverified")
		b.ReportMetric(float64(n2), "rerun-reverified")
	}
}
