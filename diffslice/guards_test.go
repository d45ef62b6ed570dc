package diffslice

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/results"
)

// guardFiles exercises globals, function pointers and a harness that
// dispatches nondeterministically to one check.
var guardFiles = map[string]string{
	"g.c": `#include <assert.h>
extern int __VERIFIER_nondet_int(void);

int threshold = 5;
int other_global = 1;

static int inc(int x) { return x + 1; }
static int dec(int x) {
  return x - 1;
}
int (*op)(int) = inc;

int apply(int x) { return op(x); }

void check_threshold(void) {
  int v = __VERIFIER_nondet_int();
  if (v > threshold)
    v = threshold;
  assert(v <= 5);
}

void check_other(void) { assert(other_global == 1); }

void check_apply(void) {
  int r = apply(1);
  assert(r >= 0);
}

int main(void) {
  int c = __VERIFIER_nondet_int();
  if (c == 0)
    check_threshold();
  else if (c == 1)
    check_other();
  else
    check_apply();
  return dec(0) + 1;
}
`,
}

// guardScenario verifies the base into a cache and plans the head.
func guardScenario(t *testing.T, head map[string]string) (*Plan, *Cache) {
	t.Helper()
	r := newRepo(t)
	b := r.commit("base", guardFiles)
	h := r.commit("head", head)
	base, hd := load(t, r.dir, b), load(t, r.dir, h)
	cache := &Cache{Dir: t.TempDir()}
	run(t, nil, base, cache)
	cfg := testConfig()
	return NewPlan(base, hd, cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}), cache
}

// TestGlobalInitialiser: a changed initialiser affects exactly the
// properties whose slice reads the global.
func TestGlobalInitialiser(t *testing.T) {
	p, _ := guardScenario(t, edit(t, guardFiles, "g.c", "int threshold = 5;", "int threshold = 4;"))
	if got := strings.Join(reverified(p), ","); got != "check_threshold:v<=5" {
		t.Fatalf("re-verified %s, want check_threshold:v<=5", got)
	}
	if r := strings.Join(decision(t, p, "check_threshold:v<=5").Reasons, "; "); !strings.Contains(r, "global `threshold` changed, in the same function") {
		t.Errorf("reasons %q", r)
	}
}

// TestPointerTargets: taking the address of another function changes
// the possible targets of every call through a pointer.
func TestPointerTargets(t *testing.T) {
	head := edit(t, guardFiles, "g.c", "int (*op)(int) = inc;", "int (*op)(int) = inc;\nstatic int twice(int x) { return 2 * x; }\nint (*spare)(int) = twice;")
	p, _ := guardScenario(t, head)
	if got := strings.Join(reverified(p), ","); got != "check_apply:r>=0" {
		t.Fatalf("re-verified %s, want check_apply:r>=0", got)
	}
	if r := strings.Join(decision(t, p, "check_apply:r>=0").Reasons, "; "); !strings.Contains(r, "function-pointer targets (+twice)") {
		t.Errorf("reasons %q", r)
	}
}

// TestRenamed: a function renamed with its body unchanged is one rename;
// its callers change.
func TestRenamed(t *testing.T) {
	head := edit(t, guardFiles, "g.c", "static int dec(int x) {", "static int decrement(int x) {")
	head = edit(t, head, "g.c", "return dec(0) + 1;", "return decrement(0) + 1;")
	p, _ := guardScenario(t, head)
	got := strings.Join(changeList(p), "; ")
	if got != "function decrement renamed; function main changed" {
		t.Errorf("changes %q", got)
	}
	for _, c := range p.Changes {
		if c.Kind == Renamed && (c.Old == nil || c.Old.Name != "dec" || !strings.Contains(c.String(), "dec renamed to decrement")) {
			t.Errorf("rename %s", c.String())
		}
	}
}

// rewrite edits the cache entry of a property.
func rewrite(t *testing.T, cache *Cache, d *Decision, f func(e *Entry)) {
	t.Helper()
	e, ok := cache.Get(d.SliceHash)
	if !ok {
		t.Fatalf("no cache entry for %s", d.Property.ID)
	}
	f(e)
	if err := cache.Put(e); err != nil {
		t.Fatal(err)
	}
}

// TestCacheGuards: UNKNOWN is reused only under limits not larger; entries
// of another engine version or configuration are ignored; corrupt
// entries are misses.
func TestCacheGuards(t *testing.T) {
	p, cache := guardScenario(t, guardFiles)
	if got := reverified(p); len(got) != 0 {
		t.Fatalf("unchanged head re-verified %v", got)
	}
	cfg := testConfig()
	opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg), Base: p.Base}
	replan := func() *Plan { return NewPlan(p.Base, p.Head, cache, opts) }

	other := decision(t, p, "check_other:other_global==1")
	rewrite(t, cache, other, func(e *Entry) { e.Verdict, e.Limits = results.Unknown, Limits{MaxStates: 10} })
	d := decision(t, replan(), other.Property.ID)
	if !d.Reverify || !strings.Contains(strings.Join(d.Reasons, ";"), "cached UNKNOWN re-tried under larger limits (then timeout none, max states 10,") {
		t.Errorf("UNKNOWN under smaller limits: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}
	rewrite(t, cache, other, func(e *Entry) { e.Limits = LimitsOf(cfg) })
	if d := decision(t, replan(), other.Property.ID); d.Reverify {
		t.Errorf("UNKNOWN under the same limits re-verified: %q", d.Reasons)
	}
	rewrite(t, cache, other, func(e *Entry) { e.Limits = Limits{MaxStates: 5_000_000, Clock: "wall"} })
	if d := decision(t, replan(), other.Property.ID); d.Reverify || d.Cached == nil || d.Cached.Verdict != results.Unknown {
		t.Errorf("UNKNOWN under larger limits re-verified: %q", d.Reasons)
	}
	rewrite(t, cache, other, func(e *Entry) { e.Limits = Limits{Clock: "cpu"} })
	if d := decision(t, replan(), other.Property.ID); !d.Reverify || !strings.Contains(strings.Join(d.Reasons, ";"), "re-tried") {
		t.Errorf("UNKNOWN measured on another clock: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}

	thr := decision(t, p, "check_threshold:v<=5")
	rewrite(t, cache, thr, func(e *Entry) { e.EngineVersion = "0.0.1" })
	if d := decision(t, replan(), thr.Property.ID); !d.Reverify || !strings.Contains(strings.Join(d.Reasons, ";"), "computed by engine 0.0.1") {
		t.Errorf("other engine version: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}

	app := decision(t, p, "check_apply:r>=0")
	if err := os.WriteFile(filepath.Join(cache.Dir, app.SliceHash+".json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := decision(t, replan(), app.Property.ID); !d.Reverify || !strings.Contains(strings.Join(d.Reasons, ";"), "no cached verdict") {
		t.Errorf("corrupt entry: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}

	// Another configuration hashes differently: nothing is shared.
	opts.Config = "value-cegar"
	for _, d := range replan().Decisions {
		if !d.Reverify {
			t.Errorf("%s reused across configurations", d.Property.ID)
		}
	}
}

// TestCacheFormat checks the entry file: one JSON file per slice hash
// with the verdict, statistics, engine version, configuration and limits.
func TestCacheFormat(t *testing.T) {
	p, cache := guardScenario(t, guardFiles)
	d := decision(t, p, "check_threshold:v<=5")
	data, err := os.ReadFile(filepath.Join(cache.Dir, d.SliceHash+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "slice_hash", "property", "verdict", "reason", "seconds", "states", "engine_version", "configuration", "limits", "created"} {
		if _, ok := m[k]; !ok {
			t.Errorf("cache entry lacks %q: %s", k, data)
		}
	}
	if m["verdict"] != "TRUE" || m["engine_version"] != testVersion || m["configuration"] != "value" {
		t.Errorf("entry %s", data)
	}
	if _, ok := cache.Get("../../etc/passwd"); ok {
		t.Error("Get accepted a path")
	}
}

// TestPrecisionReuse: an affected property of a CEGAR configuration
// starts from the final precision cached for the same property at the
// base revision.
func TestPrecisionReuse(t *testing.T) {
	r := newRepo(t)
	b := r.commit("base", guardFiles)
	h := r.commit("head", edit(t, guardFiles, "g.c", "  if (v > threshold)\n    v = threshold;", "  if (v >= threshold)\n    v = threshold;"))
	base, head := load(t, r.dir, b), load(t, r.dir, h)
	cache := &Cache{Dir: t.TempDir()}
	cfg := testConfig()
	cfg.Name = "value-cegar"
	opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}
	p0 := NewPlan(nil, base, cache, opts)
	res0, err := p0.Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p0.Store(cache, res0, nil); err != nil {
		t.Fatal(err)
	}
	var basePrec []string
	for _, r := range res0 {
		if r.Property.ID == "check_threshold:v<=5" {
			basePrec = r.Precision
		}
	}
	if len(basePrec) == 0 {
		t.Skip("value-cegar ended with an empty precision: nothing to reuse")
	}
	p := NewPlan(base, head, cache, opts)
	d := decision(t, p, "check_threshold:v<=5")
	if !d.Reverify || strings.Join(d.InitialPrecision, ",") != strings.Join(basePrec, ",") || !strings.Contains(d.PrecisionFrom, "base revision") {
		t.Fatalf("reverify %v, initial precision %v from %q, want %v from the base", d.Reverify, d.InitialPrecision, d.PrecisionFrom, basePrec)
	}
	res, err := p.Verify(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Property.ID == d.Property.ID && (r.Verdict != results.True || r.Refinements != 0) {
			t.Errorf("with the reused precision: %s after %d refinements, want TRUE after 0", r.Verdict, r.Refinements)
		}
	}
}

// TestBaseFromSummary: a base that was verified as a head before is
// loaded from its cached summary, without translation, and yields the
// same decisions as the translated base.
func TestBaseFromSummary(t *testing.T) {
	r := newRepo(t)
	b := r.commit("base", guardFiles)
	h := r.commit("head", edit(t, guardFiles, "g.c", "int threshold = 5;", "int threshold = 4;"))
	base, head := load(t, r.dir, b), load(t, r.dir, h)
	cache := &Cache{Dir: t.TempDir()}
	run(t, nil, base, cache)
	sum, err := cache.LoadBase(r.dir, b, SourceConfig{}, testVersion)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Program != nil || sum.summary == nil {
		t.Fatal("base translated again although its summary is cached")
	}
	if other, _ := cache.LoadBase(r.dir, b, SourceConfig{}, "other-version"); other.Program == nil {
		t.Error("summary of another engine version used")
	}
	cfg := testConfig()
	opts := Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)}
	want, got := NewPlan(base, head, cache, opts), NewPlan(sum, head, cache, opts)
	if fmt.Sprint(changeList(want)) != fmt.Sprint(changeList(got)) {
		t.Errorf("changes %v, want %v", changeList(got), changeList(want))
	}
	for i := range want.Decisions {
		w, g := want.Decisions[i], got.Decisions[i]
		if w.Reverify != g.Reverify || strings.Join(w.Reasons, ";") != strings.Join(g.Reasons, ";") || w.SliceHash != g.SliceHash {
			t.Errorf("%s: from the summary %v %q, translated %v %q", w.Property.ID, g.Reverify, g.Reasons, w.Reverify, w.Reasons)
		}
	}
}

// TestUnsupportedElsewhere: the engine answers UNKNOWN for every property
// once its analysis reaches an untranslatable construct, on any path; so
// a construct added outside a property's slice must not let the property
// reuse its cached TRUE (the from-scratch verdict is UNKNOWN), and
// removing it again restores the cached verdict.
func TestUnsupportedElsewhere(t *testing.T) {
	files := map[string]string{"u.c": `#include <assert.h>
extern int __VERIFIER_nondet_int(void);
struct s { int a[4]; };
void take(struct s *p) { p->a[0] = 1; }
void other(void) { struct s t; take(&t); }
void good(void) { int x = 3; assert(x > 0); }
int main(void) {
  if (__VERIFIER_nondet_int()) other(); else good();
  return 0;
}
`}
	// A struct passed where a pointer is expected (a commit of
	// tiny-bignum-c did this): the front end makes it an unsupported edge.
	broken := edit(t, files, "u.c", "take(&t);", "take(t);")
	r := newRepo(t)
	c0, c1, c2 := r.commit("base", files), r.commit("broken", broken), r.commit("fixed", files)
	cache := &Cache{Dir: t.TempDir()}
	base := load(t, r.dir, c0)
	_, res := run(t, nil, base, cache)
	if v := verdicts(res)["good:x>0"]; v != results.True {
		t.Fatalf("base: good:x>0 is %s, want TRUE", v)
	}
	head := load(t, r.dir, c1)
	p, res := run(t, base, head, cache)
	d := decision(t, p, "good:x>0")
	if !d.Reverify || !strings.Contains(strings.Join(d.Reasons, ";"), "unsupported constructs") {
		t.Errorf("broken head: reverify %v, reasons %q; want re-verified because of the unsupported construct", d.Reverify, d.Reasons)
	}
	if r := res[0]; r.Verdict != results.Unknown || !strings.Contains(r.Reason, "u.c:5") {
		t.Errorf("broken head: %s (%s), want UNKNOWN naming u.c:5", r.Verdict, r.Reason)
	}
	fixed := load(t, r.dir, c2)
	p, res = run(t, head, fixed, cache)
	if d := decision(t, p, "good:x>0"); d.Reverify || verdicts(res)["good:x>0"] != results.True {
		t.Errorf("fixed head: reverify %v (%q), verdict %s; want the cached TRUE", d.Reverify, d.Reasons, verdicts(res)["good:x>0"])
	}
}

// TestLimitsNotLarger: a cached UNKNOWN's limits against a new run's.
func TestLimitsNotLarger(t *testing.T) {
	sec := time.Second
	for _, c := range []struct {
		now, then Limits
		want      bool
	}{
		{Limits{Timeout: 30 * sec}, Limits{Timeout: 30 * sec}, true},
		{Limits{Timeout: 10 * sec}, Limits{Timeout: 30 * sec}, true},
		{Limits{Timeout: 60 * sec}, Limits{Timeout: 30 * sec}, false},
		{Limits{Timeout: 0}, Limits{Timeout: 30 * sec}, false}, // none is larger
		{Limits{Timeout: 30 * sec}, Limits{Timeout: 0}, true},
		{Limits{Timeout: 30 * sec, Clock: "wall"}, Limits{Timeout: 30 * sec}, true},
		{Limits{Timeout: 30 * sec, Clock: "cpu"}, Limits{Timeout: 30 * sec}, false},
		{Limits{Timeout: 30 * sec}, Limits{Timeout: 30 * sec, Clock: "cpu"}, false},
		{Limits{MaxStates: 1_000_000}, Limits{}, true}, // the engine's default
		{Limits{MaxStates: 1_000_001}, Limits{}, false},
		{Limits{}, Limits{MaxStates: 10}, false},
		{Limits{MaxDepth: 32}, Limits{}, true},
		{Limits{MaxDepth: 128}, Limits{}, false},
		{Limits{MaxRefinements: 10}, Limits{MaxRefinements: 9}, false},
		// the budget the properties of a proof share
		{Limits{Timeout: 30 * sec, Budget: 60 * sec}, Limits{Timeout: 30 * sec, Budget: 60 * sec}, true},
		{Limits{Timeout: 30 * sec, Budget: 30 * sec}, Limits{Timeout: 30 * sec, Budget: 60 * sec}, true},
		{Limits{Timeout: 30 * sec, Budget: 120 * sec}, Limits{Timeout: 30 * sec, Budget: 60 * sec}, false},
		{Limits{Timeout: 30 * sec}, Limits{Timeout: 30 * sec, Budget: 60 * sec}, false}, // none is larger
		{Limits{Timeout: 30 * sec, Budget: 60 * sec}, Limits{Timeout: 30 * sec}, true},
	} {
		if got := c.now.NotLarger(c.then); got != c.want {
			t.Errorf("%s not larger than %s: %v, want %v", c.now, c.then, got, c.want)
		}
	}
}
