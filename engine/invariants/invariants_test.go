package invariants_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/invariants"
	"github.com/reverify/reverify/results"
)

func translate(t *testing.T, src string) *cfa.Program {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// render prints an invariant as "a && b || c", states in order.
func render(inv results.Invariant) string {
	var ds []string
	for _, st := range inv.States {
		var cs []string
		for _, f := range st {
			cs = append(cs, f.Expr.String())
		}
		ds = append(ds, strings.Join(cs, " && "))
	}
	return strings.Join(ds, " || ")
}

const counter = `extern void reach_error(void);
int g = 7;
int main(void) {
	int i = 0;
	while (i < 3) {
		i++;
	}
	if (i != 3) reach_error();
	return 0;
}
`

// TestLoops: the value analysis reaches main's loop head with i = 0, 1,
// 2, 3 and g = 7: four disjuncts, each fixing both.
func TestLoops(t *testing.T) {
	prog := translate(t, counter)
	alg, st, _ := cpatest.Run(t, prog, cpatest.Config{}, cpa.Options{})
	if st != cpa.Safe {
		t.Fatalf("status %v, want safe", st)
	}
	invs := invariants.Loops(prog, alg)
	if len(invs) != 1 {
		t.Fatalf("%d invariants, want 1 (main's loop)", len(invs))
	}
	got := render(invs[0])
	for k := 0; k <= 3; k++ {
		if !strings.Contains(got, fmt.Sprintf("i == %d", k)) {
			t.Errorf("invariant %q lacks i == %d", got, k)
		}
	}
	if len(invs[0].States) != 4 || strings.Count(got, "g == 7") != 4 {
		t.Errorf("invariant %q: want 4 disjuncts, each with g == 7", got)
	}
}

// TestProved: a proved condition over a variable not visible at the
// loop head (another function's local) is left out; visible ones are
// kept, in order.
func TestProved(t *testing.T) {
	prog := translate(t, `int g;
int f(int y) { return y; }
int main(void) {
	int i = 0;
	while (i < 3) i++;
	return f(i);
}
`)
	var head *cfa.Location
	for _, l := range prog.Locs {
		if l.LoopHead && l.Func.Name == "main" {
			head = l
		}
	}
	var i, g, y *cfa.Var
	for _, v := range prog.Vars {
		switch {
		case v.Orig == "i" && v.Func == "main":
			i = v
		case v.Name == "g":
			g = v
		case v.Orig == "y":
			y = v
		}
	}
	if head == nil || i == nil || g == nil || y == nil {
		t.Fatalf("loop head %v, vars %v %v %v", head, i, g, y)
	}
	le := func(v *cfa.Var) cfa.Expr {
		return &cfa.Binary{Op: cfa.Le, X: &cfa.VarRef{Var: v}, Y: &cfa.Const{V: 3, T: cfa.IntT}, T: cfa.IntT}
	}
	invs := invariants.Proved(prog, map[*cfa.Location][]cfa.Expr{head: {le(i), le(y), le(g)}})
	if len(invs) != 1 || invs[0].Loc != head {
		t.Fatalf("%d invariants, want 1 at main's loop head", len(invs))
	}
	if got := render(invs[0]); got != "i <= 3 && g <= 3" {
		t.Errorf("invariant %q, want \"i <= 3 && g <= 3\"", got)
	}
}
