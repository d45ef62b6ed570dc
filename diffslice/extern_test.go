package diffslice

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/results"
)

// externFiles: check_g's assertion depends on whether setup calls the
// function without a body log_msg after writing g; check_x's does not
// (x never escapes).
var externFiles = map[string]string{
	".reverify.yml": "sources: [\"src/*.c\"]\nconfig: value\nassume:\n  pure: [log_msg]\n",
	"src/main.c": `#include <assert.h>
int g;
void log_msg(int level);
void setup(void) {
  g = 0;
  log_msg(1);
}
void check_g(void) {
  setup();
  assert(g == 0);
}
void check_x(void) {
  int x = 1;
  log_msg(2);
  assert(x == 1);
}
int main(void) {
  check_x();
  check_g();
  return 0;
}
`,
}

// TestExternAffected: the properties a change re-verifies follow the PDG
// of calls without a body: dropping log_msg from assume.pure re-verifies
// check_g (whose slice now holds the call that may write g) and makes it
// UNKNOWN, never a cached TRUE; moving that call before the write
// re-verifies check_g only and proves it again. The assumption is listed
// on the verdicts while it holds.
func TestExternAffected(t *testing.T) {
	r := newRepo(t)
	b := r.commit("base", externFiles)
	notPure := edit(t, externFiles, ".reverify.yml", "assume:\n  pure: [log_msg]\n", "")
	h1 := r.commit("log_msg not pure", notPure)
	h2 := r.commit("move the call", edit(t, notPure, "src/main.c", "  g = 0;\n  log_msg(1);\n", "  log_msg(1);\n  g = 0;\n"))
	cache := &Cache{Dir: t.TempDir()}
	base := load(t, r.dir, b)
	_, res0 := run(t, nil, base, cache)
	for _, res := range res0 {
		if res.Verdict != results.True || strings.Join(res.Assumptions, ",") != "pure log_msg" {
			t.Errorf("base: %s is %s with assumptions %q, want TRUE assuming pure log_msg", res.Property.ID, res.Verdict, res.Assumptions)
		}
	}
	// Reused from the cache, the verdicts keep their assumption.
	_, again := run(t, base, base, cache)
	for _, res := range again {
		if strings.Join(res.Assumptions, ",") != "pure log_msg" {
			t.Errorf("cached %s: assumptions %q, want pure log_msg", res.Property.ID, res.Assumptions)
		}
	}
	head1 := load(t, r.dir, h1)
	p1, res1 := run(t, base, head1, cache)
	if got := strings.Join(reverified(p1), ","); !strings.Contains(got, "check_g:g==0") {
		t.Errorf("dropping the assumption re-verified %q, want check_g:g==0 among them", got)
	}
	for _, res := range res1 {
		if res.Property.ID == "check_g:g==0" && res.Verdict == results.True {
			t.Errorf("check_g:g==0 is TRUE without the assumption (%s)", res.Reason)
		}
		if len(res.Assumptions) > 0 {
			t.Errorf("%s: assumptions %q after dropping them", res.Property.ID, res.Assumptions)
		}
	}
	head2 := load(t, r.dir, h2)
	p2, res2 := run(t, head1, head2, cache)
	if got := strings.Join(reverified(p2), ","); got != "check_g:g==0" {
		t.Errorf("moving the call re-verified %q, want check_g:g==0", got)
	}
	if v := verdicts(res2)["check_g:g==0"]; v != results.True {
		t.Errorf("check_g:g==0 after moving the call before the write: %s, want TRUE", v)
	}
}
