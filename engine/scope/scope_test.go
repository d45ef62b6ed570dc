package scope

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/spec"
)

const twoOfThree = `
extern void __assert_fail(const char *, const char *, unsigned, const char *);
#define assert(c) ((c) ? (void)0 : __assert_fail(#c, "t.c", __LINE__, "main"))
int logged;
void log_msg(int v) { logged = logged + v; }
int clamp(int x) { if (x > 64) return 64; return x; }
int main(void) {
	int n = 100;
	log_msg(n);
	int len = clamp(n);
	assert(len <= 64);
	return 0;
}
`

// TestOfSliceBounds: the value analysis with its full precision explores
// all three functions and keeps what each writes, but log_msg's writes
// lie outside the assertion's static slice, so only clamp and main are in
// the scope; without a slice log_msg is in it too (the seed's definition
// alone, seed 004 chapter 3). An empty ARG has no scope.
func TestOfSliceBounds(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: twoOfThree}})
	if err != nil {
		t.Fatal(err)
	}
	props := spec.Properties(prog, "main")
	if len(props) != 1 {
		t.Fatalf("%d properties, want 1", len(props))
	}
	p := props[0]
	alg, st, _ := cpatest.Run(t, prog, cpatest.Config{Errors: p.ErrorEdges}, cpa.Options{})
	if st != cpa.Safe {
		t.Fatalf("status %v, want safe", st)
	}
	sl := pdg.Build(prog).Slice(p.ErrorEdges)
	s := Of(prog, p, alg.ARG(), false, sl)
	if s == nil {
		t.Fatal("no scope")
	}
	if got := strings.Join(s.Functions, " "); got != "clamp main" {
		t.Errorf("in scope: %s, want clamp main", got)
	}
	if s.FunctionsExplored != 3 || s.FunctionsTotal != 3 || s.Partial {
		t.Errorf("explored %d of %d functions (partial %v), want 3 of 3, complete", s.FunctionsExplored, s.FunctionsTotal, s.Partial)
	}
	if s.KeptFunctions != 3 || s.SliceFunctions != 2 {
		t.Errorf("kept %d functions, slice %d; want 3 and 2", s.KeptFunctions, s.SliceFunctions)
	}
	if s.Locations == 0 || s.Locations >= s.LocationsExplored || s.LocationsExplored > s.LocationsTotal {
		t.Errorf("locations %d of %d explored of %d", s.Locations, s.LocationsExplored, s.LocationsTotal)
	}
	unsliced := Of(prog, p, alg.ARG(), false, nil)
	if got := strings.Join(unsliced.Functions, " "); got != "clamp log_msg main" {
		t.Errorf("without a slice: %s, want clamp log_msg main", got)
	}
	if Of(prog, p, nil, false, sl) != nil || Of(prog, p, &cpa.ARG{}, false, sl) != nil {
		t.Error("a scope without an ARG")
	}
}
