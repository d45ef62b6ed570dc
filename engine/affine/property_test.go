package affine_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/affine"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

// TestEqualitiesHold runs random programs of affine assignments,
// nondeterministic values and branches in one or two loops, and checks
// at every visit of a loop head that each equality the analysis reports
// there holds (modulo 2^32, as the program computes): an equality that
// some execution violates is an under-approximated hull (as when two
// locations shared one).
func TestEqualitiesHold(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for i := range n {
		src := randomProgram(rng)
		prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: "extern int __VERIFIER_nondet_int(void);\n" + src}})
		if err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, src)
		}
		f := prog.Func("main")
		eqs := affine.LoopEqualities(f)
		for run := range 20 {
			if bad := execute(f, eqs, rand.New(rand.NewSource(int64(i*100+run)))); bad != "" {
				t.Fatalf("program %d, run %d: %s\n%s", i, run, bad, src)
			}
		}
		for _, xs := range eqs {
			checked += len(xs)
		}
	}
	if checked < n {
		t.Errorf("only %d equalities over %d programs: the generator makes too few", checked, n)
	}
}

// randomProgram is main with 4–6 int variables, some initialised by
// constants and some by inputs, and one or two loops under
// nondeterministic conditions whose bodies assign affine expressions
// (sometimes in both arms of a branch) and inputs.
func randomProgram(rng *rand.Rand) string {
	nv := 4 + rng.Intn(3)
	var b strings.Builder
	b.WriteString("int main(void) {\n")
	for i := range nv {
		if rng.Intn(2) == 0 {
			fmt.Fprintf(&b, "\tint v%d = %d;\n", i, rng.Intn(7)-3)
		} else {
			fmt.Fprintf(&b, "\tint v%d = __VERIFIER_nondet_int();\n", i)
		}
	}
	v := func() string { return fmt.Sprintf("v%d", rng.Intn(nv)) }
	stmt := func() string {
		switch rng.Intn(6) {
		case 0:
			return fmt.Sprintf("%s = %s + %s;", v(), v(), v())
		case 1:
			return fmt.Sprintf("%s = %s - %d;", v(), v(), rng.Intn(4))
		case 2:
			return fmt.Sprintf("%s = %d * %s + %d;", v(), rng.Intn(3)+1, v(), rng.Intn(5))
		case 3:
			return fmt.Sprintf("%s = __VERIFIER_nondet_int();", v())
		default:
			x := v()
			return fmt.Sprintf("%s = %s + 1;", x, x)
		}
	}
	for range 1 + rng.Intn(2) {
		b.WriteString("\twhile (__VERIFIER_nondet_int()) {\n")
		for range 1 + rng.Intn(4) {
			if rng.Intn(4) == 0 {
				fmt.Fprintf(&b, "\t\tif (__VERIFIER_nondet_int()) { %s } else { %s }\n", stmt(), stmt())
			} else {
				fmt.Fprintf(&b, "\t\t%s\n", stmt())
			}
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn v0;\n}\n")
	return b.String()
}

// execute runs f from its entry with random inputs (small, and 0 for a
// loop condition one time in three) for at most 400 steps, and returns
// what was wrong at a loop head: an equality of eqs that the state
// violates ("" when none).
func execute(f *cfa.Function, eqs map[*cfa.Location][]cfa.Expr, rng *rand.Rand) string {
	env := map[*cfa.Var]int64{}
	input := func() int64 {
		if rng.Intn(3) == 0 {
			return 0
		}
		return int64(rng.Intn(41) - 20)
	}
	var eval func(x cfa.Expr) int64
	eval = func(x cfa.Expr) int64 {
		switch x := x.(type) {
		case *cfa.Const:
			return int64(int32(uint32(x.V)))
		case *cfa.VarRef:
			if _, ok := env[x.Var]; !ok {
				env[x.Var] = input()
			}
			return env[x.Var]
		case *cfa.Cast:
			return eval(x.X)
		case *cfa.Unary:
			if x.Op == cfa.Neg {
				return -eval(x.X)
			}
		case *cfa.Binary:
			a, b := eval(x.X), eval(x.Y)
			switch x.Op {
			case cfa.Add:
				return a + b
			case cfa.Sub:
				return a - b
			case cfa.Mul:
				return a * b
			case cfa.Eq:
				return b2i(uint32(a) == uint32(b))
			case cfa.Ne:
				return b2i(uint32(a) != uint32(b))
			}
		}
		panic(fmt.Sprintf("execute: %T %v", x, x))
	}
	l := f.Entry
	for range 400 {
		for _, q := range eqs[l] {
			if eval(q) == 0 {
				return fmt.Sprintf("at %s, %s is false (%v)", l, q, env)
			}
		}
		if len(l.Out) == 0 {
			return ""
		}
		e := l.Out[0]
		for _, o := range l.Out {
			if a, ok := o.Op.(*cfa.Assume); ok && (eval(a.Cond) != 0) == a.Truth {
				e = o
			}
		}
		switch op := e.Op.(type) {
		case *cfa.Decl:
			env[op.Var] = input()
		case *cfa.Assign:
			env[op.LHS.(*cfa.VarRef).Var] = eval(op.RHS)
		case *cfa.Havoc:
			env[op.LHS.(*cfa.VarRef).Var] = input()
		case *cfa.Call:
			if r, ok := op.Result.(*cfa.VarRef); ok {
				env[r.Var] = input()
			}
		case *cfa.Return:
			return ""
		}
		l = e.To
	}
	return ""
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
