package library_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/library"
	"github.com/reverify/reverify/results"
)

var wantRE = regexp.MustCompile(`// want (TRUE|FALSE|UNKNOWN|NOT_CHECKED)\b`)

// TestLibrarySet verifies testdata/lib (a library of 78 functions over 6
// files, no main: buffers with lengths, lists, strings, module state,
// static helpers guarded by their callers, aliasing parameters,
// callbacks, mutual recursion) in library mode and compares every
// assertion's verdict with the `// want` on its line. Every expected
// FALSE was checked with gcc by a driver that calls an API function with
// arguments the contexts allow; every TRUE by a randomised driver over
// those arguments. It also checks what the gate promises: each FALSE is
// reported where an API function reaches it (its own function is an API
// function, or the reason names the API call), and every verdict lists
// its context's assumptions. The fast tier (go test -short) leaves out
// sort.c, the slowest module, which no other module uses.
func TestLibrarySet(t *testing.T) {
	var skip []string
	if testing.Short() {
		skip = []string{"sort.c"}
	}
	checkWants(t, filepath.Join("testdata", "lib"), 5, skip...)
}

// TestPreconditions verifies testdata/cbmc/pre.c: CBMC's
// __CPROVER_precondition of an API function needs a precondition (its
// callers are outside the sources); a static helper's is checked in its
// callers' contexts, TRUE where the caller establishes it and FALSE at
// the API function that does not.
func TestPreconditions(t *testing.T) {
	checkWants(t, filepath.Join("testdata", "cbmc"), 1)
}

// TestContracts verifies testdata/contracts: CBMC's function and loop
// contracts, each clause kind in a holding and a failing version
// (requires at a caller that breaks it, ensures with old values and
// implications, assigns violated through a pointer, by a global write in
// a helper and outside an object_upto frame, loop invariants failing on
// entry or not preserved, decreases clauses that do not decrease,
// quantified invariants over arrays), and contracts on declarations in a
// header written with a project's macro layer (mlkem-native's cbmc.h),
// whose callers use the contracts instead of the bodies. Each line with
// a clause holds the verdict of every property of that clause.
func TestContracts(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute")
	}
	checkWants(t, filepath.Join("testdata", "contracts"), 3)
}

// checkWants verifies the .c files of dir (at least min, include/ on
// the include path) but those named in skip in library mode and compares
// each verdict with the `// want` on its line.
func checkWants(t *testing.T, dir string, min int, skip ...string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.c"))
	if err != nil || len(files) < min {
		t.Fatalf("testdata: %v %v", files, err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(skip, filepath.Base(f)) })
	headers, _ := filepath.Glob(filepath.Join(dir, "include", "*.h"))
	wants := map[string]results.Verdict{} // "file:line"
	for _, f := range append(append([]string(nil), files...), headers...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := wantRE.FindStringSubmatch(line); m != nil {
				wants[f+":"+itoa(i+1)] = results.Verdict(m[1])
			}
		}
	}
	lib, err := library.Load(engine.SourceOptions{IncludeDirs: []string{filepath.Join(dir, "include")}}, files, nil, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	props := lib.Properties()
	lines := map[string]bool{}
	for _, p := range props {
		lines[p.Pos.File+":"+itoa(p.Pos.Line)] = true
	}
	if len(lines) != len(wants) {
		t.Errorf("properties on %d lines, %d wants", len(lines), len(wants))
	}
	cfg := engine.Config{Name: "default", Timeout: 60 * time.Second, Solver: z3.Factory}
	rs, err := lib.Verify(context.Background(), props, cfg)
	if err != nil {
		t.Fatal(err)
	}
	count := map[results.Verdict]int{}
	for _, r := range rs {
		p := r.Property
		at := p.Pos.File + ":" + itoa(p.Pos.Line)
		count[r.Verdict]++
		want, ok := wants[at]
		switch {
		case !ok:
			t.Errorf("%s: %s is %s, with no want on its line", at, p.ID, r.Verdict)
		case r.Verdict != want:
			t.Errorf("%s: %s is %s (%s), want %s", at, p.ID, r.Verdict, r.Reason, want)
		}
		if r.Verdict == results.False && !lib.IsRoot(p.Func) && !strings.Contains(r.Reason, "API function") && !strings.Contains(r.Reason, "contract check of") {
			t.Errorf("%s: FALSE in %s, which is no API function, and the reason names no API call: %s", at, p.ID, r.Reason)
		}
		if (r.Verdict == results.True || r.Verdict == results.False) && len(r.Assumptions) == 0 {
			t.Errorf("%s: %s has no assumptions listed", at, p.ID)
		}
	}
	t.Logf("verdicts: %v", count)
}

func itoa(n int) string {
	b := []byte{}
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestContractAliasing: a call that passes one object for two is_fresh
// parameters breaks the requires clauses (the check assumed them
// separate): FALSE at the API function that makes it; each object's own
// validity holds. Disjoint byte ranges of one object (rows of an array,
// fields of a struct) satisfy them, as CBMC's asserted is_fresh (the
// contract package's disjoint); ranges that overlap by one element do not.
func TestContractAliasing(t *testing.T) {
	dir := filepath.Join("testdata", "contracts_alias")
	lib, err := library.Load(engine.SourceOptions{}, []string{filepath.Join(dir, "alias.c"), filepath.Join(dir, "slices.c"), filepath.Join(dir, "nested.c")}, nil, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Name: "default", Timeout: 60 * time.Second, Solver: z3.Factory}
	rs, err := lib.Verify(context.Background(), lib.Properties(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]results.Verdict{}
	for _, r := range rs {
		got[r.Property.ID] = r.Verdict
	}
	for id, want := range map[string]results.Verdict{
		"__reverify_use_add_into:requiresclauseofadd_into:dstandsrcdonotoverlap":           results.False,
		"__reverify_use_add_into:requiresclauseofadd_into:__CPROVER_r_ok(src,sizeof(int))": results.True,
		"__reverify_check_add_into:ensuresclauseofadd_into:*dst==__CPROVER_old(*dst)+*src": results.True,
		"twice:separate": results.True,
		"__reverify_use_add2:requiresclauseofadd2:dstandsrcdonotoverlap":             results.True,
		"__reverify_use_add2:requiresclauseofadd2:__CPROVER_r_ok(src,2*sizeof(int))": results.True,
		"rows:rows": results.True,
		"__reverify_check_mark:ensuresclauseofmark:*dst==1": results.Unknown,
		"rows:fields": results.True,
		"__reverify_use_shift2:requiresclauseofshift2:dstandsrcdonotoverlap":            results.False,
		"__reverify_check_shift2:ensuresclauseofshift2:dst[0]==src[0]&&dst[1]==src[1]":  results.True,
		"__reverify_use_xor1:requiresclauseofxor1:standddonotoverlap":                   results.True,
		"__reverify_use_xor2:requiresclauseofxor2:d0==d1||__CPROVER_is_fresh(d1,4)":     results.True,
		"__reverify_use_xor2b:requiresclauseofxor2b:(d1==d0||__CPROVER_is_fresh(d1,4))": results.False,
		"__reverify_use_xor2b:requiresclauseofxor2b:standd0donotoverlap":                results.True,
	} {
		if got[id] != want {
			t.Errorf("%s is %q, want %s (all: %v)", id, got[id], want, got)
		}
	}
}
