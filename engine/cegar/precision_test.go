package cegar_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/smt/z3"
)

// fromPrecision runs value CEGAR on src starting from the precision
// texts (value.ScopedPrecision.Format form).
func fromPrecision(t *testing.T, src string, texts []string) run {
	t.Helper()
	prec, err := value.ParseScopedPrecision(texts)
	if err != nil {
		t.Fatal(err)
	}
	prog, comp := composite(t, src, prec)
	ref, err := cegar.NewValueRefiner(prog, comp, cegar.ValueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return run{cegar.Run(context.Background(), prog, comp, cegar.Options{Solver: z3.Factory, Refiner: ref}), ref}
}

// TestPrecisionSurvivesEdits: the precision learnt on the running
// example, in its text form, proves edited versions of the program
// without a refinement: a function added above main, and a statement
// added at the top of main (which renumbers every location of main).
// A stale precision — the index form of earlier versions, or another
// program's precision — tracks nothing here and costs the two
// refinements, never the verdict.
func TestPrecisionSurvivesEdits(t *testing.T) {
	first := valueCEGAR(t, runningExample, 10*time.Second, cegar.Options{}, cegar.ValueOptions{})
	learnt := first.res.PrecisionText(first.ref)
	if got := strings.Join(learnt, " | "); first.res.Status != cegar.Safe || got != runningPrecision {
		t.Fatalf("first run: %v, precision %q", first.res.Status, got)
	}
	const above = "int unrelated(int k) {\n\tif (k > 3)\n\t\treturn k - 1;\n\treturn k;\n}\n"
	for _, tc := range []struct {
		name, src           string
		prec                []string
		states, refinements int
	}{
		// 18 states: no spurious error path is explored at all (47
		// from the empty precision).
		{"same program", runningExample, learnt, 18, 0},
		{"function added above main", above + runningExample, learnt, 18, 0},
		// The call of unrelated (a branch and two returns) adds 7 states.
		{"statement added in main", above + strings.Replace(runningExample, "int main(void) {",
			"int main(void) {\n\tint z = unrelated(__VERIFIER_nondet_int());", 1), learnt, 25, 0},
		{"index form", runningExample, []string{"main::y@main:L5", "main::y@main:L6", "main::y@main:L12"}, 47, 2},
		{"another program's precision", runningExample, []string{"main::flag@main:[i < 1000000]", "main::i@main:i = i + 1", "f::y@f"}, 47, 2},
	} {
		r := fromPrecision(t, tc.src, tc.prec)
		w := want{status: cegar.Safe, states: tc.states, refinements: tc.refinements, precision: runningPrecision}
		if tc.name == "statement added in main" {
			// The same locations, one line further into main.
			w.precision = shiftLines(runningPrecision, 1)
		}
		check(t, tc.name, r, w)
	}
}

// shiftLines adds d to the relative line of every location key in the
// " | "-separated precision text.
func shiftLines(prec string, d int) string {
	return regexp.MustCompile(`:\+([0-9]+):`).ReplaceAllStringFunc(prec, func(m string) string {
		n, _ := strconv.Atoi(m[2 : len(m)-1])
		return ":+" + strconv.Itoa(n+d) + ":"
	})
}
