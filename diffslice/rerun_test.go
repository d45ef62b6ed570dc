package diffslice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
)

// TestRerunSameHead: a second run on the same head re-verifies nothing,
// although its slices contain changed definitions: equal slice hash
// means equal verdict. The changes are still listed as hits.
func TestRerunSameHead(t *testing.T) {
	head := edit(t, baseFiles, "src/parse.c", "    return MAX_LEN;", "    return MAX_LEN - 1;")
	p, res, cache := scenario(t, head)
	if got := reverified(p); len(got) == 0 {
		t.Fatalf("first run re-verified nothing; want check_msg (parse_header changed)")
	}
	p2, res2 := run(t, p.Base, p.Head, cache)
	if got := reverified(p2); len(got) != 0 {
		t.Errorf("re-run of the same head re-verified %v, want none", got)
	}
	d := decision(t, p2, "check_msg:len<=MAX_LEN")
	if len(d.Hits) == 0 || d.Cached == nil || len(d.Reasons) != 0 {
		t.Errorf("check_msg: hits %d, cached %v, reasons %q; want the change as a hit, the cached verdict, no reasons", len(d.Hits), d.Cached != nil, d.Reasons)
	}
	v1, v2 := verdicts(res), verdicts(res2)
	for id, v := range v1 {
		if v2[id] != v {
			t.Errorf("%s: %s on the re-run, %s on the first", id, v2[id], v)
		}
	}
}

// loopFiles has one property value analysis cannot decide in 200 ms: a
// counter over a nondeterministic bound.
var loopFiles = map[string]string{
	".reverify.yml": "sources: [\"*.c\"]\nconfig: value\n",
	"loop.c": `#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  unsigned i = 0, s = 0;
  while (i < n) { i++; s += 2; }
  assert(s == 2 * i);
  return 0;
}
`,
}

// TestUnknownByTimeoutCached: an UNKNOWN by timeout is stored with its
// limits and reused under limits not larger; under a larger timeout it
// is re-tried, and the reason says so.
func TestUnknownByTimeoutCached(t *testing.T) {
	r := newRepo(t)
	head := load(t, r.dir, r.commit("head", loopFiles))
	cache := &Cache{Dir: t.TempDir()}
	plan := func(timeout time.Duration) (*Plan, engine.Config) {
		cfg := testConfig()
		cfg.Timeout = timeout
		return NewPlan(nil, head, cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}), cfg
	}
	p, cfg := plan(200 * time.Millisecond)
	res, err := p.Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Verdict != results.Unknown {
		t.Fatalf("first run: %v, want one UNKNOWN", verdicts(res))
	}
	if err := p.Store(cache, res, nil); err != nil {
		t.Fatal(err)
	}
	e, ok := cache.Get(p.Decisions[0].SliceHash)
	if !ok || e.Verdict != results.Unknown || e.Limits.Timeout != 200*time.Millisecond {
		t.Fatalf("cache entry %+v (found %v), want the UNKNOWN with its 200ms timeout", e, ok)
	}
	for _, timeout := range []time.Duration{200 * time.Millisecond, 100 * time.Millisecond} {
		if p, _ := plan(timeout); len(p.Affected()) != 0 {
			t.Errorf("timeout %s: re-verified (%q), want the cached UNKNOWN of 200ms", timeout, p.Decisions[0].Reasons)
		}
	}
	for _, timeout := range []time.Duration{time.Second, 0} {
		p, _ := plan(timeout)
		if len(p.Affected()) != 1 || !strings.Contains(strings.Join(p.Decisions[0].Reasons, ";"), "cached UNKNOWN re-tried under larger limits (then timeout 200ms") {
			t.Errorf("timeout %s: reverify %v, reasons %q; want a re-try under the larger limit", timeout, p.Decisions[0].Reverify, p.Decisions[0].Reasons)
		}
	}
}

// TestStorable: which UNKNOWN results the cache keeps, by cause: the
// limits of the run, an analysis's own end; not an internal error, not
// a run the caller stopped, not the shared memory limit, not a
// disagreement, not an UNKNOWN without a cause.
func TestStorable(t *testing.T) {
	for kind, want := range map[results.CauseKind]bool{
		results.CauseTimeout:      true,
		results.CauseStates:       true,
		results.CauseRefinements:  true,
		results.CauseUnsupported:  true,
		results.CauseUnmodelled:   true,
		results.CauseIncomplete:   true,
		results.CauseBudget:       false,
		results.CauseInternal:     false,
		results.CauseMemory:       false,
		results.CauseDisagreement: false,
	} {
		r := &engine.Result{}
		r.SetUnknown(&results.Cause{Kind: kind}, "")
		if got := storable(r); got != want {
			t.Errorf("storable(UNKNOWN %s) = %v, want %v", kind, got, want)
		}
	}
	if storable(&engine.Result{Verdict: results.Unknown, Reason: "timeout after 30s"}) {
		t.Error("an UNKNOWN without a cause was stored")
	}
	if !storable(&engine.Result{Verdict: results.True}) || !storable(&engine.Result{Verdict: results.False}) {
		t.Error("verdicts must be storable")
	}
}

// TestCallDistanceAlongSlice: g lies 4 calls below the property's
// function (P → a → b → c → g); main also calls g directly, which the
// property does not depend on. The distance is the slice's, 4, not the
// shortcut P ← main → g.
func TestCallDistanceAlongSlice(t *testing.T) {
	files := map[string]string{
		".reverify.yml": "sources: [\"*.c\"]\nconfig: value\n",
		"a.c": `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int g(int x) { if (x > 10) return 10; return x; }
int c(int x) { return g(x); }
int b(int x) { return c(x); }
int a(int x) { return b(x); }
void P(void) {
  int n = __VERIFIER_nondet_int();
  int r = a(n);
  assert(r <= 10);
}
int main(void) {
  int k = g(3);
  P();
  return 0;
}
`,
	}
	r := newRepo(t)
	base := load(t, r.dir, r.commit("base", files))
	head := load(t, r.dir, r.commit("head", edit(t, files, "a.c", "return 10; return x;", "return 9; return x;")))
	p := NewPlan(base, head, nil, Options{EngineVersion: testVersion})
	d := decision(t, p, "P:r<=10")
	if got := strings.Join(d.Reasons, "; "); got != "`g` changed, 4 calls away" {
		t.Errorf("reasons %q, want \"`g` changed, 4 calls away\"", got)
	}
}
