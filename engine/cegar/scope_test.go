package cegar_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/frontend"
)

// TestScopeWidener feeds a sequence of refinements (entries in text
// form, "name@func:Lk" by location index) through a ScopeWidener and
// checks the entries each refinement adds under each scope.
func TestScopeWidener(t *testing.T) {
	refinements := [][]string{
		{"main::y@main:L3", "main::y@main:L4", "g"},
		{"main::y@main:L5", "main::p@main:L5"},
		{"main::p@main:L6"},
		{"main::y@main:L9", "f::y@f:L2"},
		{"main::y@main:L10"},
		{"main::p@main:L6"}, // already tracked: not counted
		{"main::p@main:L7"},
	}
	for _, tc := range []struct {
		scope cegar.Scope
		want  []string // per refinement, the entries added, sorted
	}{
		{cegar.LocationScope, []string{
			"g main::y@main:L3 main::y@main:L4", "main::p@main:L5 main::y@main:L5", "main::p@main:L6",
			"f::y@f:L2 main::y@main:L9", "main::y@main:L10", "main::p@main:L6", "main::p@main:L7"}},
		{cegar.FunctionScope, []string{
			"g main::y@main main::y@main", "main::p@main main::y@main", "main::p@main",
			"f::y@f main::y@main", "main::y@main", "main::p@main", "main::p@main"}},
		// y reaches 3 refinements in main at the fourth (f's y counts
		// apart); p at the seventh (the sixth adds nothing new).
		{cegar.AdaptiveScope, []string{
			"g main::y@main:L3 main::y@main:L4", "main::p@main:L5 main::y@main:L5", "main::p@main:L6",
			"f::y@f:L2 main::y@main", "main::y@main", "main::p@main:L6", "main::p@main"}},
	} {
		t.Run(tc.scope.String(), func(t *testing.T) {
			w := cegar.NewScopeWidener(tc.scope)
			var prec *value.ScopedPrecision
			has := func(e value.Entry) bool { return prec != nil && prec.Contains(e) }
			for i, texts := range refinements {
				var es []value.Entry
				for _, s := range texts {
					e, err := value.ParseEntry(s)
					if err != nil {
						t.Fatal(err)
					}
					if j := strings.Index(s, ":L"); j >= 0 {
						n, err := strconv.Atoi(s[j+2:])
						if err != nil {
							t.Fatal(err)
						}
						e.At, e.Loc = "", n
					}
					es = append(es, e)
				}
				out := w.Widen(es, has)
				var got []string
				for _, e := range out {
					got = append(got, e.String())
				}
				slices.Sort(got)
				if g := strings.Join(got, " "); g != tc.want[i] {
					t.Errorf("refinement %d: %q, want %q", i+1, g, tc.want[i])
				}
				prec = prec.With(out...)
			}
		})
	}
	if _, err := cegar.ParseScope("everywhere"); err == nil {
		t.Error("ParseScope(everywhere): no error")
	}
	for _, s := range []string{"location", "function", "adaptive"} {
		if sc, err := cegar.ParseScope(s); err != nil || sc.String() != s {
			t.Errorf("ParseScope(%s) = %v, %v", s, sc, err)
		}
	}
}

// TestWidenLoopFree: at adaptive scope, a variable that no loop assigns
// (p, g) is widened at its first refinement; one a loop assigns (i)
// keeps location scope until AdaptiveRefinements.
func TestWidenLoopFree(t *testing.T) {
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: `
int g;
int main(void) {
	int p = 1, i = 0;
	while (i < 10)
		i = i + 1;
	return p + g;
}`}})
	if err != nil {
		t.Fatal(err)
	}
	w := cegar.NewScopeWidener(cegar.AdaptiveScope)
	w.WidenLoopFree(prog)
	in := []value.Entry{
		{Name: "main::p", Func: "main", Loc: 3},
		{Name: "main::i", Func: "main", Loc: 3},
		{Name: "g", Func: "main", Loc: 3},
	}
	var got []string
	for _, e := range w.Widen(in, func(value.Entry) bool { return false }) {
		got = append(got, e.String())
	}
	if g := strings.Join(got, " "); g != "main::p@main main::i@main:L3 g@main" {
		t.Errorf("widened %q, want %q", g, "main::p@main main::i@main:L3 g@main")
	}
}
