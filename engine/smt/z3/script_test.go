package z3

import (
	"context"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/smt"
)

// TestCheckScript decides smt.Script's text of a satisfiable and an
// unsatisfiable query; the values of the satisfiable one are get-value's
// answer for every variable, arrays as store chains.
func TestCheckScript(t *testing.T) {
	b := smt.NewBuilder()
	m := b.Var("mem", smt.ArraySort(64, 8))
	x := b.Var("x", smt.BVSort(32))
	p := b.Var("p", smt.BVSort(64))
	shared := b.Add(p, b.BV(1, 64))
	sat := []*smt.Term{
		b.Eq(b.Select(m, p), b.BV(7, 8)),
		b.Eq(b.Select(m, shared), b.BV(9, 8)),
		b.Ult(shared, b.BV(100, 64)),
		b.Ult(b.BV(5, 32), x), b.Var("flag", smt.BoolSort),
	}
	text, vars := smt.Script(sat)
	if len(vars) != 4 || !strings.Contains(text, "(define-fun s0 () (_ BitVec 64) (bvadd v1 #x0000000000000001))") {
		t.Fatalf("script of %d variables, the shared sum not defined once:\n%s", len(vars), text)
	}
	head, _, values, err := CheckScript(context.Background(), text, len(vars))
	if err != nil || head != "sat" {
		t.Fatalf("satisfiable query: %s, %v", head, err)
	}
	for i := range vars {
		if !strings.Contains(values, "(v"+string(rune('0'+i))+" ") {
			t.Errorf("no value of v%d in %s", i, values)
		}
	}
	if !strings.Contains(values, "(store") {
		t.Errorf("the array's value is not a store chain: %s", values)
	}
	text, vars = smt.Script([]*smt.Term{b.Ult(x, b.BV(3, 32)), b.Ult(b.BV(5, 32), x)})
	if head, _, _, err := CheckScript(context.Background(), text, len(vars)); err != nil || head != "unsat" {
		t.Fatalf("unsatisfiable query: %s, %v", head, err)
	}
	if _, _, _, err := CheckScript(context.Background(), "(assert (bvult v0 #x01))\n", 1); err == nil {
		t.Fatal("a script with an undeclared symbol was not rejected")
	}
}
