package diffslice

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

var earlierFiles = map[string]string{
	".reverify.yml": "sources: [\"*.c\"]\nconfig: value\n",
	"m.c": `#include <assert.h>
extern unsigned __VERIFIER_nondet_uint(void);
unsigned twice(unsigned x) { return 2 * x; }
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  if (n < 100)
    assert(twice(n) != 10);
  assert(twice(3) == 6);
  return 0;
}
`,
}

// TestAnnotateEarlier: the UNKNOWN properties of a report get the verdict
// the cache holds for them at the base (from the base's SDG, or from the
// summary a verified head left), and, when that is not FALSE, a FALSE
// cached under their own slice hash. Decided properties get none.
func TestAnnotateEarlier(t *testing.T) {
	r := newRepo(t)
	base := r.commit("base", earlierFiles)
	head := r.commit("head", edit(t, earlierFiles, "m.c", "return 2 * x;", "return x + x;"))
	cache := &Cache{Dir: t.TempDir()}
	_, res := run(t, nil, load(t, r.dir, base), cache) // the base verified (a push)
	ids := map[results.Verdict]string{}
	for _, x := range res {
		ids[x.Verdict] = x.Property.ID
	}
	violated, proved := ids[results.False], ids[results.True]
	if violated == "" || proved == "" {
		t.Fatalf("base verdicts %v, want one FALSE and one TRUE", verdicts(res))
	}
	summary, err := cache.LoadBase(r.dir, base, SourceConfig{}, testVersion)
	if err != nil || summary.Program != nil {
		t.Fatalf("LoadBase: %v (from the summary: %v)", err, summary != nil && summary.Program == nil)
	}
	report := func() *results.Report {
		return &results.Report{Properties: []results.PropertyReport{
			{ID: violated, Verdict: results.Unknown}, {ID: proved, Verdict: results.Unknown}, {ID: "main:other", Verdict: results.True},
		}}
	}
	for name, b := range map[string]*Revision{"translated": load(t, r.dir, base), "summary": summary} {
		cfg := testConfig()
		p := NewPlan(b, load(t, r.dir, head), cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)})
		rep := report()
		p.AnnotateEarlier(cache, rep)
		want := []*results.Earlier{{Verdict: results.False, On: results.EarlierBase, Commit: base}, {Verdict: results.True, On: results.EarlierBase, Commit: base}, nil}
		for i, w := range want {
			if got := rep.Properties[i].Earlier; !reflect.DeepEqual(got, w) {
				t.Errorf("%s base: %s: earlier %+v, want %+v", name, rep.Properties[i].ID, got, w)
			}
		}
		if !rep.Properties[0].Unresolved() || rep.Properties[1].Unresolved() {
			t.Errorf("%s base: unresolved %v %v, want true false", name, rep.Properties[0].Unresolved(), rep.Properties[1].Unresolved())
		}
	}

	// A FALSE cached for the proved property's head slice (found on
	// another commit) outranks its base TRUE.
	cfg := testConfig()
	p := NewPlan(summary, load(t, r.dir, head), cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)})
	d := decision(t, p, proved)
	if err := cache.Put(&Entry{SliceHash: d.SliceHash, Property: proved, Verdict: results.False, EngineVersion: testVersion, Config: "value", Commit: "0ther"}); err != nil {
		t.Fatal(err)
	}
	p = NewPlan(summary, load(t, r.dir, head), cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)})
	rep := report()
	p.AnnotateEarlier(cache, rep)
	if got, want := rep.Properties[1].Earlier, (&results.Earlier{Verdict: results.False, On: results.EarlierSlice, Commit: "0ther"}); !reflect.DeepEqual(got, want) {
		t.Errorf("same slice: earlier %+v, want %+v", got, want)
	}

	// Without a base nothing is known.
	p = NewPlan(nil, load(t, r.dir, head), cache, Options{EngineVersion: testVersion, Config: cfg.Name, Limits: LimitsOf(cfg)})
	rep = report()
	p.AnnotateEarlier(cache, rep)
	if rep.Properties[0].Earlier != nil {
		t.Errorf("no base: earlier %+v", rep.Properties[0].Earlier)
	}
}

// TestOpenFindingsFile: the open findings of a pull request survive in
// the cache directory; an empty set removes the file; a file of another
// pull request or schema reads as none.
func TestOpenFindingsFile(t *testing.T) {
	c := &Cache{Dir: t.TempDir()}
	if got := c.OpenFindings(7); len(got) != 0 {
		t.Fatalf("no file: %v", got)
	}
	open := results.OpenFindings{"f:x<=10": {Verdict: results.False, On: results.EarlierPullRequest, Commit: "abc"}}
	if err := c.StoreOpenFindings(7, open); err != nil {
		t.Fatal(err)
	}
	if got := c.OpenFindings(7); !reflect.DeepEqual(got, open) {
		t.Errorf("read back %v, want %v", got, open)
	}
	if got := c.OpenFindings(8); len(got) != 0 {
		t.Errorf("pull request 8: %v", got)
	}
	path := filepath.Join(c.Dir, "pulls", "7.json")
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"f:x<=10"`) || !strings.Contains(string(data), `"pull_request": 7`) {
		t.Errorf("file:\n%s", data)
	}
	os.WriteFile(filepath.Join(c.Dir, "pulls", "9.json"), []byte(`{"schema": 99, "pull_request": 9, "open": {"a": {"verdict": "FALSE"}}}`), 0o644)
	if got := c.OpenFindings(9); len(got) != 0 {
		t.Errorf("another schema: %v", got)
	}
	if err := c.StoreOpenFindings(7, results.OpenFindings{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("empty set: the file remains (%v)", err)
	}
	if err := (&Cache{}).StoreOpenFindings(7, open); err != nil {
		t.Errorf("no cache directory: %v", err)
	}
}
