package engine_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/results"
)

// wantScopeJSON is the scope of testdata/scope/two.c: 2 of 5 functions in
// scope, 3 in the static slice (parse_header's result flows into
// clamp_len's argument, but clamp_len bounds it whatever it is).
const wantScopeJSON = `{"functions":["clamp_len","main"],"functions_explored":5,"functions_total":5,"locations":5,"locations_explored":25,"locations_total":25,"share":0.2,"kept_functions":2,"kept_locations":5,"slice_functions":3,"slice_locations":15}`

// TestScopeTwoOfFive: the assertion len <= 64 depends on clamp_len (which
// bounds len) and main; parse_header, log_msg and checksum are explored
// but value-cegar's precision never keeps what they write, so they are
// outside the scope (seed 004, chapter 3).
func TestScopeTwoOfFive(t *testing.T) {
	rs := verifyFile(t, "testdata/scope/two.c", engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Scope: true})
	r := rs[0]
	if r.Verdict != results.True || r.Scope == nil {
		t.Fatalf("%s (%s), scope %v; want TRUE with a scope", r.Verdict, r.Reason, r.Scope)
	}
	s := r.Scope
	if got, err := json.Marshal(s); err != nil || string(got) != wantScopeJSON {
		t.Errorf("scope %s (%v)\nwant  %s", got, err, wantScopeJSON)
	}
	if line := "scope: 2 of 5 functions (clamp_len, main), 5 of 25 locations (20.0%); explored 5 functions, 25 locations; slice 3 functions, 15 locations; kept 2 functions, 5 locations"; s.Line(8) != line {
		t.Errorf("line %q\nwant %q", s.Line(8), line)
	}
	if line := "scope: 2 of 5 functions (clamp_len, …), 5 of 25 locations (20.0%); explored 5 functions, 25 locations; slice 3 functions, 15 locations; kept 2 functions, 5 locations"; s.Line(1) != line {
		t.Errorf("line %q\nwant %q", s.Line(1), line)
	}
	// The call graph: main calls each other function; the ARG enters
	// log_msg four times (twice on each of clamp_len's two returns) and
	// checksum twice.
	g := s.Graph
	byName := map[string]results.ScopeFunc{}
	for _, f := range g.Funcs {
		byName[f.Name] = f
	}
	if g.Funcs[0].Name != "main" || len(g.Calls) != 4 || byName["log_msg"].Calls != 4 || byName["checksum"].Calls != 2 || byName["clamp_len"].Calls != 1 {
		t.Errorf("call graph %+v", g)
	}
	for _, c := range g.Calls {
		if c.From != 0 {
			t.Errorf("call %s → %s; want all from main", g.Funcs[c.From].Name, g.Funcs[c.To].Name)
		}
	}
	if imp := byName["checksum"].Importance(); imp != 0 {
		t.Errorf("checksum importance %v, want 0", imp)
	}
	if imp := byName["clamp_len"].Importance(); imp <= 0 || imp > 1 {
		t.Errorf("clamp_len importance %v, want in (0, 1]", imp)
	}

	// results.json carries the scope object.
	prog, err := frontend.Translate(frontend.Options{}, "testdata/scope/two.c")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := engine.NewReport("test", prog, "main", "value-cegar", rs).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties []struct {
			Scope json.RawMessage `json:"scope"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, doc.Properties[0].Scope); err != nil {
		t.Fatal(err)
	}
	if compact.String() != wantScopeJSON {
		t.Errorf("results.json scope %s\nwant %s", compact.String(), wantScopeJSON)
	}
}

// TestScopeViolated: a FALSE verdict's scope is marked partial (seed 004,
// section 3.1.6): here clamp_len lets 65 through, and the scope misses it;
// without Config.Scope there is none.
func TestScopeViolated(t *testing.T) {
	r := verifyFile(t, "testdata/scope/two_false.c", engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Scope: true})[0]
	if r.Verdict != results.False || r.Scope == nil || !r.Scope.Partial || !strings.HasSuffix(r.Scope.Line(0), "(partial: stopped at the first counterexample)") {
		t.Fatalf("%s (%s), scope %+v; want FALSE with a partial scope", r.Verdict, r.Reason, r.Scope)
	}
	// The first error path is feasible under the empty precision: no
	// refinement, so only the assertion's own site is in scope.
	if !reflect.DeepEqual(r.Scope.Functions, []string{"main"}) {
		t.Errorf("functions in scope %v, want [main]", r.Scope.Functions)
	}
	if r := verifyFile(t, "testdata/scope/two.c", engine.Config{MemoryLimit: testMemory, Name: "value-cegar"})[0]; r.Scope != nil {
		t.Errorf("scope %+v without Config.Scope", r.Scope)
	}
}

// TestScopeNotForSkipping is the reason diffslice keeps deciding by the
// slice: init is outside the base proof's scope (it writes nothing), but
// the head changes only init, and the verdict flips.
func TestScopeNotForSkipping(t *testing.T) {
	base := verifyFile(t, "testdata/scope/init_base.c", engine.Config{MemoryLimit: testMemory, Name: "value-cegar", Scope: true})[0]
	if base.Verdict != results.True || base.Scope == nil {
		t.Fatalf("base: %s (%s); want TRUE with a scope", base.Verdict, base.Reason)
	}
	for _, f := range base.Scope.Functions {
		if f == "init" {
			t.Fatalf("base scope %v contains init", base.Scope.Functions)
		}
	}
	if head := verifyFile(t, "testdata/scope/init_head.c", engine.Config{MemoryLimit: testMemory, Name: "value-cegar"})[0]; head.Verdict != results.False {
		t.Errorf("head: %s (%s); want FALSE", head.Verdict, head.Reason)
	}
}

// TestScopeByConfiguration: the scope is the deciding analysis's. Value
// interpolation (with or without the slicing CPA) keeps only what bounds
// len; symbolic execution keeps parse_header's result, predicate
// abstraction has no predicates here (no loop) and so keeps everything,
// as does the full-precision value analysis: for those three the slice
// alone narrows the scope (kept_functions 3, 5 and 5 says how much).
func TestScopeByConfiguration(t *testing.T) {
	for _, c := range []struct {
		config string
		funcs  string
		kept   int
	}{
		{"value-cegar", "clamp_len main", 2},
		{"value-slicing-cegar", "clamp_len main", 2},
		{"symex-cegar", "clamp_len main parse_header", 3},
		{"predicate-cegar", "clamp_len main parse_header", 5},
		{"value", "clamp_len main parse_header", 5},
	} {
		r := verifyFile(t, "testdata/scope/two.c", engine.Config{MemoryLimit: testMemory, Name: c.config, Scope: true})[0]
		if r.Verdict != results.True || r.Scope == nil {
			t.Errorf("%s: %s (%s), scope %v; want TRUE with a scope", c.config, r.Verdict, r.Reason, r.Scope)
			continue
		}
		if got := strings.Join(r.Scope.Functions, " "); got != c.funcs || r.Scope.KeptFunctions != c.kept || r.Scope.SliceFunctions != 3 {
			t.Errorf("%s: scope %q, kept %d, slice %d functions; want %q, %d, 3", c.config, got, r.Scope.KeptFunctions, r.Scope.SliceFunctions, c.funcs, c.kept)
		}
	}
}
