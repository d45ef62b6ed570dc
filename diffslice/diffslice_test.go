package diffslice

import (
	"fmt"
	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/results"
	"strings"
	"testing"
)

// baseFiles is a small code base: three checks in main.c, helpers in
// parse.c and util.c, macros in include/lim.h.
var baseFiles = map[string]string{
	".reverify.yml": "sources: [\"src/*.c\"]\ninclude: [include]\nconfig: value\n",
	"include/lim.h": `#ifndef LIM_H
#define LIM_H
#define MAX_LEN 16
#define SCALE 3
int parse_header(int len);
int read_msg(int n);
int scale(int x);
int unused_helper(int x);
#endif
`,
	"src/parse.c": `#include "lim.h"

/* Clamp a length to [0, MAX_LEN]. */
int parse_header(int len) {
  if (len > MAX_LEN)
    return MAX_LEN;
  if (len < 0)
    return 0;
  return len;
}

int read_msg(int n) { return parse_header(n); }
`,
	"src/util.c": `#include "lim.h"

int scale(int x) { return x * SCALE; }

int unused_helper(int x) {
  return x - 1;
}
`,
	"src/main.c": `#include <assert.h>
#include "lim.h"

extern int __VERIFIER_nondet_int(void);

void check_msg(void) {
  int n = __VERIFIER_nondet_int();
  int len = read_msg(n);
  assert(len <= MAX_LEN);
}

void check_scale(void) {
  int s = scale(2);
  assert(s == 2 * SCALE);
}

void check_plain(void) {
  int a = 5;
  assert(a > 0);
}

int main(void) {
  check_plain();
  check_msg();
  check_scale();
  return 0;
}
`,
}

// scenario commits baseFiles and head, verifies the base from scratch
// (filling the cache), then plans and verifies the head against it.
func scenario(t *testing.T, head map[string]string) (*Plan, []*engine.Result, *Cache) {
	t.Helper()
	r := newRepo(t)
	b := r.commit("base", baseFiles)
	h := r.commit("head", head)
	base, hd := load(t, r.dir, b), load(t, r.dir, h)
	cache := &Cache{Dir: t.TempDir()}
	p0, res0 := run(t, nil, base, cache)
	if got := len(reverified(p0)); got != len(p0.Decisions) || got != 3 {
		t.Fatalf("base run: %d of %d properties verified, want 3 of 3", got, len(p0.Decisions))
	}
	for id, v := range verdicts(res0) {
		if v != results.True {
			t.Fatalf("base: %s is %s, want TRUE", id, v)
		}
	}
	p, res := run(t, base, hd, cache)
	return p, res, cache
}

func decision(t *testing.T, p *Plan, id string) *Decision {
	t.Helper()
	for i := range p.Decisions {
		if p.Decisions[i].Property.ID == id {
			return &p.Decisions[i]
		}
	}
	t.Fatalf("no property %s in %v", id, ids(p))
	return nil
}

func ids(p *Plan) []string {
	var out []string
	for _, d := range p.Decisions {
		out = append(out, d.Property.ID)
	}
	return out
}

func changeList(p *Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, fmt.Sprintf("%s %s %s", c.Def.Kind, c.Def.Name, c.Kind))
	}
	return out
}

// TestOutsideEverySlice: a change to a function no property depends on
// re-verifies nothing.
func TestOutsideEverySlice(t *testing.T) {
	p, res, _ := scenario(t, edit(t, baseFiles, "src/util.c", "return x - 1;", "return x - 2;"))
	if got := changeList(p); strings.Join(got, ";") != "function unused_helper changed" {
		t.Errorf("changes %v, want [function unused_helper changed]", got)
	}
	if c := p.Changes[0]; len(c.Hunks) != 1 || c.Hunks[0].NewStart != 6 {
		t.Errorf("hunks of the change: %v, want one at line 6", c.Hunks)
	}
	if got := reverified(p); len(got) != 0 {
		t.Errorf("re-verified %v, want none", got)
	}
	for id, v := range verdicts(res) {
		if v != results.True {
			t.Errorf("%s: %s from the cache, want TRUE", id, v)
		}
	}
}

// TestMacroOneAssertion: a macro in one assertion's slice re-verifies
// exactly that assertion, and says so.
func TestMacroOneAssertion(t *testing.T) {
	p, res, _ := scenario(t, edit(t, baseFiles, "include/lim.h", "#define SCALE 3", "#define SCALE 4"))
	if got := reverified(p); strings.Join(got, ",") != "check_scale:s==2*SCALE" {
		t.Fatalf("re-verified %v, want [check_scale:s==2*SCALE]", got)
	}
	d := decision(t, p, "check_scale:s==2*SCALE")
	if !strings.Contains(strings.Join(d.Reasons, "; "), "macro `SCALE` changed, in the same function") {
		t.Errorf("reasons %q", d.Reasons)
	}
	if v := verdicts(res)["check_scale:s==2*SCALE"]; v != results.True {
		t.Errorf("verdict %s, want TRUE", v)
	}
}

// TestCommentOnly: comments, blank lines and re-indentation (which move
// every assertion below them and change the __LINE__ that assert.h
// expands) re-verify nothing and change no definition.
func TestCommentOnly(t *testing.T) {
	head := edit(t, baseFiles, "src/main.c", "extern int", "// The checks.\n\n/* nondeterminism */\nextern int")
	head = edit(t, head, "src/parse.c", "  if (len < 0)", "  /* negative lengths */\n  if (len < 0)   ")
	head = edit(t, head, "include/lim.h", "#define SCALE 3", "#define SCALE 3 /* factor */")
	p, _, _ := scenario(t, head)
	if len(p.Changes) != 0 {
		t.Errorf("changes %v, want none", changeList(p))
	}
	if len(p.Cosmetic) != 3 {
		t.Errorf("cosmetic hunks %v, want 3", p.Cosmetic)
	}
	if got := reverified(p); len(got) != 0 {
		t.Errorf("re-verified %v, want none", got)
	}
}

// TestMovedProperty: an assertion whose lines move (same function and
// expression, so the same ID) keeps its cached verdict.
func TestMovedProperty(t *testing.T) {
	head := edit(t, baseFiles, "src/main.c", "void check_plain(void) {", "int added_fn(int x) {\n  return x + 41;\n}\n\n\nvoid check_plain(void) {")
	p, res, _ := scenario(t, head)
	if got := changeList(p); strings.Join(got, ";") != "function added_fn added" {
		t.Errorf("changes %v, want [function added_fn added]", got)
	}
	d := decision(t, p, "check_plain:a>0")
	if d.Reverify || d.Cached == nil {
		t.Errorf("check_plain:a>0 re-verified (%q), want its cached verdict", d.Reasons)
	}
	if d.Property.Pos.Line != 24 {
		t.Errorf("check_plain:a>0 at line %d, want 24 (moved from 19)", d.Property.Pos.Line)
	}
	if got := reverified(p); len(got) != 0 {
		t.Errorf("re-verified %v, want none", got)
	}
	if verdicts(res)["check_plain:a>0"] != results.True {
		t.Errorf("verdicts %v", verdicts(res))
	}
}

// TestBecomesFalse: a change that breaks an assertion turns it FALSE in
// the head's results; the reason names the change and its distance.
func TestBecomesFalse(t *testing.T) {
	p, res, cache := scenario(t, edit(t, baseFiles, "src/parse.c", "    return MAX_LEN;", "    return MAX_LEN + 1;"))
	if got := changeList(p); strings.Join(got, ";") != "function parse_header changed" {
		t.Errorf("changes %v", got)
	}
	d := decision(t, p, "check_msg:len<=MAX_LEN")
	if !d.Reverify || !strings.Contains(strings.Join(d.Reasons, "; "), "`parse_header` changed, 2 calls away") {
		t.Errorf("check_msg: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}
	// check_scale runs after check_msg, whose assertion may abort: it
	// depends on check_msg's assertion, and so on parse_header.
	if d := decision(t, p, "check_scale:s==2*SCALE"); !d.Reverify || !strings.Contains(strings.Join(d.Reasons, "; "), "`parse_header` changed, 4 calls away") {
		t.Errorf("check_scale: reverify %v, reasons %q", d.Reverify, d.Reasons)
	}
	if decision(t, p, "check_plain:a>0").Reverify {
		t.Errorf("check_plain:a>0 re-verified: %q", decision(t, p, "check_plain:a>0").Reasons)
	}
	v := verdicts(res)
	if v["check_msg:len<=MAX_LEN"] != results.False || v["check_plain:a>0"] != results.True || v["check_scale:s==2*SCALE"] != results.True {
		t.Errorf("verdicts %v, want check_msg FALSE and the others TRUE", v)
	}
	// A second run on the same head: the FALSE verdict is re-checked, the
	// others come from the cache.
	p2, res2 := run(t, p.Head, p.Head, cache)
	if got := reverified(p2); strings.Join(got, ",") != "check_msg:len<=MAX_LEN" {
		t.Errorf("second run re-verified %v, want only the FALSE one", got)
	}
	if r := decision(t, p2, "check_msg:len<=MAX_LEN").Reasons; !strings.Contains(strings.Join(r, ";"), "FALSE") {
		t.Errorf("reasons %q", r)
	}
	if verdicts(res2)["check_msg:len<=MAX_LEN"] != results.False {
		t.Errorf("second run verdicts %v", verdicts(res2))
	}
}

// TestRenamedProperty: renaming the function that holds an assertion
// renames the property (its ID names the function), and the property
// keeps its cached verdict: its slice equals the cached one once the
// rename is undone. So do the properties whose slices pass through the
// renamed function; the next change finds the verdicts under the new
// slice hashes. (The new name sorts after main, the old one before: the
// functions of a slice text are ordered by name.)
func TestRenamedProperty(t *testing.T) {
	head := edit(t, baseFiles, "src/main.c", "void check_plain(void) {", "void verify_positive(void) {")
	head = edit(t, head, "src/main.c", "  check_plain();", "  verify_positive();")
	p, res, cache := scenario(t, head)
	if got := strings.Join(changeList(p), "; "); got != "function verify_positive renamed; function main changed" {
		t.Errorf("changes %q, want the rename and main", got)
	}
	d := decision(t, p, "verify_positive:a>0")
	if d.Reverify || d.Cached == nil || d.RenamedFrom != "check_plain:a>0" {
		t.Fatalf("verify_positive:a>0: reverify %v (%q), renamed from %q; want the cached verdict of check_plain:a>0", d.Reverify, d.Reasons, d.RenamedFrom)
	}
	if got := reverified(p); len(got) != 0 {
		t.Errorf("re-verified %v, want none", got)
	}
	if v := verdicts(res); v["verify_positive:a>0"] != results.True || v["check_msg:len<=MAX_LEN"] != results.True {
		t.Errorf("verdicts %v", v)
	}
	// The next change (the same head again) finds every verdict under its
	// own slice hash.
	p2, _ := run(t, p.Head, p.Head, cache)
	for _, d := range p2.Decisions {
		if d.Reverify || d.RenamedFrom != "" || d.Cached == nil {
			t.Errorf("second run: %s reverify %v (%q), renamed from %q", d.Property.ID, d.Reverify, d.Reasons, d.RenamedFrom)
		}
	}
}

// TestRenamedAndChanged: a function renamed and changed in the same
// commit is no rename (removal and addition): its property is new and
// re-verified, and the verdict follows the new body.
func TestRenamedAndChanged(t *testing.T) {
	head := edit(t, baseFiles, "src/main.c", "void check_plain(void) {\n  int a = 5;", "void check_positive(void) {\n  int a = -5;")
	head = edit(t, head, "src/main.c", "  check_plain();", "  check_positive();")
	p, res, _ := scenario(t, head)
	d := decision(t, p, "check_positive:a>0")
	if !d.Reverify || d.RenamedFrom != "" || !strings.Contains(strings.Join(d.Reasons, ";"), "new property") {
		t.Errorf("check_positive:a>0: reverify %v (%q), renamed from %q; want a new property", d.Reverify, d.Reasons, d.RenamedFrom)
	}
	if v := verdicts(res)["check_positive:a>0"]; v != results.False {
		t.Errorf("check_positive:a>0 is %s, want FALSE", v)
	}
}
