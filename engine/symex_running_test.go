package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/analysis/symbolic"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/results"
)

// runningFile is seed 000's running example (figure 1, sections 1, 2.4
// and 2.5): a first loop counts x down, y := 1, the error needs
// x < 0 ∧ y < 0, otherwise a second loop runs while y < w.
const runningFile = "testdata/verdicts/cegar_running.c"

// verifyRunning verifies the running example's one property, with src
// replacing the file's text when not empty.
func verifyRunning(t *testing.T, src string, cfg engine.Config) (*cfa.Program, *engine.Result) {
	t.Helper()
	file := runningFile
	if src != "" {
		// dir/v/running.c includes dir/sv.h, a copy of testdata/sv.h.
		dir := t.TempDir()
		sv, err := os.ReadFile("testdata/sv.h")
		if err != nil {
			t.Fatal(err)
		}
		file = filepath.Join(dir, "v", "running.c")
		if err := os.Mkdir(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "sv.h"), sv, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs := verifyFile(t, file, cfg)
	if len(rs) != 1 {
		t.Fatalf("%d properties, want 1", len(rs))
	}
	prog, err := frontend.Translate(frontend.Options{}, file)
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Properties(prog, "main"); len(got) != 1 || got[0].ID != rs[0].Property.ID {
		t.Fatalf("properties %v", got)
	}
	return prog, rs[0]
}

// locByOp returns main's location whose first out-edge is op (a loop
// head: "[x > 0]", "[y < w]").
func locByOp(t *testing.T, prog *cfa.Program, op string) *cfa.Location {
	t.Helper()
	for _, l := range prog.Func("main").Locs {
		if len(l.Out) > 0 && l.Out[0].Op.String() == op {
			return l
		}
	}
	t.Fatalf("main has no location before %q", op)
	return nil
}

// atLoop returns, for the ARG nodes at main's location before op (by
// location index, so that the result of a second translation applies),
// the values of the variable named name that their symbolic memory
// knows, and how many nodes there are.
func atLoop(t *testing.T, prog *cfa.Program, arg *cpa.ARG, op, name string) (nodes int, known []int64) {
	t.Helper()
	head := locByOp(t, prog, op)
	for _, n := range arg.Nodes {
		l := n.Location()
		if n.Removed() || l == nil || l.Func.Name != "main" || l.Index != head.Index {
			continue
		}
		nodes++
		for _, c := range n.State.Comps {
			s, ok := c.(*symbolic.State)
			if !ok {
				continue
			}
			vars, _ := s.Memory().KnownVars()
			for _, v := range vars {
				if v.QualName() == "main::"+name {
					val, _ := s.Memory().Int(v)
					known = append(known, val)
				}
			}
		}
	}
	return nodes, known
}

// TestSymexRunningExample reproduces seed 000, sections 2.3 and 2.5
// (figures 7 and 14), on the running example, by explored-state counts:
//
//   - symex (full precision) does not terminate: it unrolls the first
//     loop, x being unbounded, and explores exactly as many states as
//     its limit allows, for every limit.
//   - symex-cegar never tracks x: no state at the first loop's head
//     knows x, the final precision does not name it, and the state
//     count does not depend on the first loop's bound (x an input, 10
//     or 1000: 62 states each).
//   - With the seed's precision π_SE = ({y}, {x < 0 ∧ y < 0}), y tracked
//     in all of main (figure 14b), symex-cegar refutes the error but
//     unrolls the second loop: it explores as many states as its limit
//     allows, the second loop's head seeing y = 1, 2, 3, ... — more
//     values the higher the limit — while the first loop's head still
//     never knows x.
//   - Our refinement learns location-scoped precisions, y only from
//     y := 1 to the test y < 0, so the default symex-cegar does not
//     track y in the second loop either, and proves the program (TRUE,
//     2 refinements, 62 states) where the seed's symex-cegar does not
//     terminate.
func TestSymexRunningExample(t *testing.T) {
	for _, limit := range []int{100, 200, 400} {
		_, r := verifyRunning(t, "", engine.Config{MemoryLimit: testMemory, Name: "symex", MaxStates: limit})
		if r.Verdict != results.Unknown || r.Reason != "state limit "+strconv.Itoa(limit) || r.States != limit || r.Refinements != 0 {
			t.Errorf("symex, limit %d: %s (%s), %d states, %d refinements; want UNKNOWN (state limit %d) after %d states",
				limit, r.Verdict, r.Reason, r.States, r.Refinements, limit, limit)
		}
	}

	const wantPrec = "main::y@main:+3:decl int w | main::y@main:+3:w = nondet(__VERIFIER_nondet_int) | main::y@main:+4:[x > 0] | " +
		"main::y@main:+5:x = x - 1 | main::y@main:+6:w = w + 1 | main::y@main:+7:w = w * 2 | main::y@main:+8:[x < 0] | main::y@main:+8:[y < 0]"
	src, err := os.ReadFile(runningFile)
	if err != nil {
		t.Fatal(err)
	}
	const input = "int x = __VERIFIER_nondet_int();"
	if !strings.Contains(string(src), input) {
		t.Fatalf("%s: no %q", runningFile, input)
	}
	id := ""
	for _, tc := range []struct{ name, src string }{
		{"x an input", ""},
		{"x = 10", strings.Replace(string(src), input, "int x = 10;     ", 1)},
		{"x = 1000", strings.Replace(string(src), input, "int x = 1000;   ", 1)},
	} {
		prog, r := verifyRunning(t, tc.src, engine.Config{MemoryLimit: testMemory, Name: "symex-cegar", MaxStates: 400, KeepARG: true})
		id = r.Property.ID
		if got := strings.Join(r.Precision, " | "); r.Verdict != results.True || r.States != 62 || r.Refinements != 2 || got != wantPrec {
			t.Errorf("symex-cegar, %s: %s (%s), %d states, %d refinements, precision %q; want TRUE, 62, 2, %q",
				tc.name, r.Verdict, r.Reason, r.States, r.Refinements, got, wantPrec)
		}
		for _, e := range r.Precision {
			if strings.HasPrefix(e, "main::x") {
				t.Errorf("symex-cegar, %s: x tracked (%s)", tc.name, e)
			}
		}
		// The first loop's head: reached, then covered after one
		// iteration, never knowing x.
		if nodes, xs := atLoop(t, prog, r.ARG, "[x > 0]", "x"); nodes != 2 || len(xs) != 0 {
			t.Errorf("symex-cegar, %s: %d states at the first loop's head, x known in %v; want 2, never", tc.name, nodes, xs)
		}
		if _, ys := atLoop(t, prog, r.ARG, "[y < w]", "y"); len(ys) != 0 {
			t.Errorf("symex-cegar, %s: y known at the second loop's head: %v", tc.name, ys)
		}
	}

	// The limit is checked before each expansion, which may add two
	// states: these runs end one state past it.
	prev := 0
	for _, limit := range []int{100, 200, 400} {
		cfg := engine.Config{MemoryLimit: testMemory, Name: "symex-cegar", MaxStates: limit, KeepARG: true}
		init, err := engine.ParsePrecision([]string{"main::y@main"})
		if err != nil {
			t.Fatal(err)
		}
		cfg.InitialPrecision = map[string]engine.Precision{id: init}
		prog, r := verifyRunning(t, "", cfg)
		if r.Verdict != results.Unknown || r.Reason != "state limit "+strconv.Itoa(limit) || r.States != limit+1 || r.Refinements != 0 {
			t.Errorf("symex-cegar from π = {y}, limit %d: %s (%s), %d states, %d refinements; want UNKNOWN (state limit %d) after %d states, 0 refinements",
				limit, r.Verdict, r.Reason, r.States, r.Refinements, limit, limit+1)
		}
		ys, distinct := unrolled(t, prog, r.ARG, fmt.Sprintf("symex-cegar from π = {y}, limit %d", limit))
		k := map[int]int{100: 22, 200: 47, 400: 97}[limit]
		if len(distinct) != k || !distinct[1] || !distinct[int64(k)] || k <= prev {
			t.Errorf("symex-cegar from π = {y}, limit %d: y at the second loop's head %v, want 1..%d", limit, ys, k)
		}
		prev = k
	}

	// Learnt rather than seeded: refining at function scope (the scope of
	// the seed's CPAchecker, --precision-scope function) tracks y in all
	// of main after one refinement and unrolls the second loop the same
	// way; the default adaptive scope stays at location scope here, y
	// being refined twice (cegar.AdaptiveRefinements is 3).
	for _, limit := range []int{200, 400} {
		scope, err := engine.ParsePrecisionScope("function")
		if err != nil {
			t.Fatal(err)
		}
		cfg := engine.Config{MemoryLimit: testMemory, Name: "symex-cegar", MaxStates: limit, KeepARG: true, PrecisionScope: scope}
		prog, r := verifyRunning(t, "", cfg)
		if got := strings.Join(r.Precision, " | "); r.Verdict != results.Unknown || r.Reason != "state limit "+strconv.Itoa(limit) || r.Refinements != 1 || got != "main::y@main" {
			t.Errorf("symex-cegar, function scope, limit %d: %s (%s), %d refinements, precision %q; want UNKNOWN (state limit %d), 1 refinement, main::y@main",
				limit, r.Verdict, r.Reason, r.Refinements, got, limit)
		}
		ys, distinct := unrolled(t, prog, r.ARG, fmt.Sprintf("symex-cegar, function scope, limit %d", limit))
		if len(distinct) < limit/10 || !distinct[1] {
			t.Errorf("symex-cegar, function scope, limit %d: y at the second loop's head %v; want 1, 2, 3, ... (at least %d values)", limit, ys, limit/10)
		}
	}
}

// unrolled checks that no state at the first loop's head knows x and
// returns the values of y at the second loop's head, with the set of
// distinct ones.
func unrolled(t *testing.T, prog *cfa.Program, arg *cpa.ARG, what string) ([]int64, map[int64]bool) {
	t.Helper()
	if _, xs := atLoop(t, prog, arg, "[x > 0]", "x"); len(xs) != 0 {
		t.Errorf("%s: x known at the first loop's head: %v", what, xs)
	}
	_, ys := atLoop(t, prog, arg, "[y < w]", "y")
	distinct := map[int64]bool{}
	for _, y := range ys {
		distinct[y] = true
	}
	return ys, distinct
}
