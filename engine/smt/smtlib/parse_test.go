package smtlib

import (
	"testing"

	"github.com/reverify/reverify/engine/smt"
)

// z3Answer is Spacer's answer for Inv(0, 7); Inv(x, y) ∧ x <s 10 ⇒
// Inv(x+1, y); Inv(x, y) ∧ (x >s 10 ∨ y ≠ 7) ⇒ error, as Z3 4.8 prints
// it (Z3_fixedpoint_get_answer).
const z3Answer = `(and (= error
            (exists ((x!1 (_ BitVec 32)) (x!2 (_ BitVec 8)))
              (! (and (bvsle x!1 #x0000000a)
                      (= x!2 #x07)
                      (or (not (= x!2 #x07)) (not (bvsle x!1 #x0000000a))))
                 :weight 0)))
         (forall ((A (_ BitVec 32)) (B (_ BitVec 8)))
           (! (= (R0 A B) (and (bvsle A #x0000000a) (= B #x07))) :weight 0)))`

func TestReadSolution(t *testing.T) {
	b := smt.NewBuilder()
	inv := &smt.Relation{Name: "inv", Args: []smt.Sort{smt.BVSort(32), smt.BVSort(8)}}
	h := &smt.HornSystem{Relations: []*smt.Relation{inv}}
	sol, err := ReadSolution(h, b, z3Answer)
	if err != nil {
		t.Fatal(err)
	}
	args := smt.HornArgs(b, inv)
	want := b.And(b.Sle(args[0], b.BV(10, 32)), b.Eq(args[1], b.BV(7, 8)))
	if sol[inv] != want {
		t.Errorf("solution %v, want %v", sol[inv], want)
	}
}

func TestParseTerm(t *testing.T) {
	b := smt.NewBuilder()
	x, y := b.Var("x", smt.BVSort(8)), b.Var("y", smt.BVSort(8))
	env := map[string]*smt.Term{"x": x, "y": y}
	for _, c := range []struct {
		text string
		want *smt.Term
	}{
		{"(bvadd x y #x01)", b.Add(b.Add(x, y), b.BV(1, 8))},
		{"(let ((a!1 (bvmul x x))) (bvule a!1 y))", b.Ule(b.Mul(x, x), y)},
		{"((_ zero_extend 8) x)", b.ZeroExt(x, 16)},
		{"((_ extract 3 0) y)", b.Extract(y, 3, 0)},
		{"(bvsge x #b00000011)", b.Sle(b.BV(3, 8), x)},
		{"(=> (= x y) (distinct x #x00))", b.Implies(b.Eq(x, y), b.Not(b.Eq(x, b.BV(0, 8))))},
		{"(select ((as const (Array (_ BitVec 8) (_ BitVec 8))) #x07) x)", b.Select(b.ConstArray(smt.ArraySort(8, 8), b.BV(7, 8)), x)},
	} {
		es, err := ParseSExprs(c.text)
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", c.text, err)
		}
		got, err := ParseTerm(b, es[0], env)
		if err != nil || got != c.want {
			t.Errorf("%s: %v (%v), want %v", c.text, got, err, c.want)
		}
	}
	for _, bad := range []string{"(bvadd x)", "(foo x)", "(bvadd x (_ bv1 16))", "z", "(bvadd x ((_ zero_extend 8) y))"} {
		es, err := ParseSExprs(bad)
		if err != nil {
			continue
		}
		if got, err := ParseTerm(b, es[0], env); err == nil {
			t.Errorf("%s: %v, want an error", bad, got)
		}
	}
}

// FuzzReadSolution: any text gives a solution or an error, never a
// panic.
func FuzzReadSolution(f *testing.F) {
	f.Add(z3Answer)
	f.Add("(forall ((A (_ BitVec 8))) (= (R0 A) (bvult A #x03)))")
	f.Add("((((")
	f.Fuzz(func(t *testing.T, text string) {
		b := smt.NewBuilder()
		inv := &smt.Relation{Name: "inv", Args: []smt.Sort{smt.BVSort(32), smt.BVSort(8)}}
		h := &smt.HornSystem{Relations: []*smt.Relation{inv}}
		sol, err := ReadSolution(h, b, text)
		if err == nil && sol[inv] != nil && !sol[inv].Sort.IsBool() {
			t.Errorf("a solution of sort %s", sol[inv].Sort)
		}
	})
}

// TestParseSort reads the sorts smt.Sort prints, and nothing else.
func TestParseSort(t *testing.T) {
	for _, srt := range []smt.Sort{smt.BoolSort, smt.BVSort(1), smt.BVSort(128), smt.ArraySort(64, 8)} {
		es, err := ParseSExprs(srt.String())
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v", srt, err)
		}
		if got, err := ParseSort(es[0]); err != nil || got != srt {
			t.Errorf("%s: %v (%v)", srt, got, err)
		}
	}
	for _, bad := range []string{"Int", "(_ BitVec 0)", "(_ BitVec 129)", "(Array Int Int)", "(_ FloatingPoint 8 24)"} {
		es, _ := ParseSExprs(bad)
		if got, err := ParseSort(es[0]); err == nil {
			t.Errorf("%s: %v, want an error", bad, got)
		}
	}
}
