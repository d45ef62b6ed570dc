package interp_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

var scalarTypes = []*cfa.Type{
	cfa.CharType, cfa.UCharType, cfa.ShortType, cfa.IntType(16, false),
	cfa.IntT, cfa.UIntType, cfa.LLType, cfa.ULLType, cfa.BoolType,
}

func promote(t *cfa.Type) *cfa.Type {
	if t.Kind == cfa.Bool || t.Bits < 32 {
		return cfa.IntT
	}
	return t
}

// common is the usual arithmetic conversion of two integer types.
func common(a, b *cfa.Type) *cfa.Type {
	return cfa.UsualArithmetic(promote(a), promote(b))
}

func conv(x cfa.Expr, t *cfa.Type) cfa.Expr {
	if cfa.Same(x.Type(), t) {
		return x
	}
	return &cfa.Cast{X: x, T: t}
}

type gen struct {
	r    *rand.Rand
	vars []*cfa.Var
}

func (g *gen) value(t *cfa.Type) uint64 {
	w := t.Width()
	if t.Kind == cfa.Bool {
		return uint64(g.r.Intn(2)) // a _Bool holds 0 or 1
	}
	switch g.r.Intn(6) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return cfa.Truncate(^uint64(0), w) // -1 / max
	case 3:
		return 1 << uint(w-1) // min / sign bit
	case 4:
		return cfa.Truncate(1<<uint(w-1)-1, w)
	}
	return cfa.Truncate(g.r.Uint64()>>uint(g.r.Intn(64)), w)
}

func (g *gen) leaf() cfa.Expr {
	if g.r.Intn(3) == 0 {
		t := scalarTypes[g.r.Intn(len(scalarTypes)-1)]
		return &cfa.Const{T: t, V: g.value(t)}
	}
	return ref(g.vars[g.r.Intn(len(g.vars))])
}

var binOps = []cfa.BinaryOp{cfa.Add, cfa.Sub, cfa.Mul, cfa.Div, cfa.Rem, cfa.Shl, cfa.Shr,
	cfa.And, cfa.Or, cfa.Xor, cfa.Eq, cfa.Ne, cfa.Lt, cfa.Le, cfa.Gt, cfa.Ge}

func (g *gen) expr(depth int) cfa.Expr {
	if depth == 0 || g.r.Intn(4) == 0 {
		return g.leaf()
	}
	if g.r.Intn(6) == 0 {
		x := g.expr(depth - 1)
		op := []cfa.UnaryOp{cfa.Neg, cfa.BNot, cfa.LNot}[g.r.Intn(3)]
		if op == cfa.LNot {
			return &cfa.Unary{Op: op, X: x, T: cfa.IntT}
		}
		pt := promote(x.Type())
		return &cfa.Unary{Op: op, X: conv(x, pt), T: pt}
	}
	if g.r.Intn(8) == 0 {
		return conv(g.expr(depth-1), scalarTypes[g.r.Intn(len(scalarTypes))])
	}
	op := binOps[g.r.Intn(len(binOps))]
	x, y := g.expr(depth-1), g.expr(depth-1)
	switch op {
	case cfa.Shl, cfa.Shr:
		px, py := promote(x.Type()), promote(y.Type())
		yy := conv(y, py)
		if g.r.Intn(10) != 0 { // mostly in range
			yy = &cfa.Binary{Op: cfa.And, X: yy, Y: &cfa.Const{T: py, V: uint64(px.Bits - 1)}, T: py}
		}
		return &cfa.Binary{Op: op, X: conv(x, px), Y: yy, T: px}
	}
	ct := common(x.Type(), y.Type())
	rt := ct
	if op.IsComparison() {
		rt = cfa.IntT
	}
	return &cfa.Binary{Op: op, X: conv(x, ct), Y: conv(y, ct), T: rt}
}

// randomProgram: k nondet inputs, n assignments of random expressions to
// variables of random types, return the xor of all as unsigned long long.
func randomProgram(t *testing.T, r *rand.Rand) (*cfa.Program, []uint64) {
	p := newProgram(cfa.LP64)
	m := function(p, "main", cfa.ULLType, nil)
	g := &gen{r: r}
	var inputs []uint64
	for i := 0; i < 1+r.Intn(3); i++ {
		ty := scalarTypes[r.Intn(len(scalarTypes))]
		v := m.Local(fmt.Sprintf("in%d", i), ty)
		m.Op(&cfa.Decl{Var: v})
		inputs = append(inputs, g.value(cfa.ULLType)) // decl value
		m.Op(&cfa.Havoc{LHS: ref(v), Source: "__VERIFIER_nondet_" + ty.Name})
		inputs = append(inputs, g.value(ty))
		g.vars = append(g.vars, v)
	}
	var acc cfa.Expr = &cfa.Const{T: cfa.ULLType, V: 0}
	for i := 0; i < 1+r.Intn(4); i++ {
		ty := scalarTypes[r.Intn(len(scalarTypes))]
		v := m.Local(fmt.Sprintf("t%d", i), ty)
		m.Op(assign(ref(v), conv(g.expr(3), ty)))
		g.vars = append(g.vars, v)
		acc = &cfa.Binary{Op: cfa.Xor, X: acc, Y: conv(ref(v), cfa.ULLType), T: cfa.ULLType}
	}
	m.Ret(acc)
	p.Finish()
	return p, inputs
}

// evalFormula evaluates a path formula forward: inputs get their values,
// each SSA definition x@n = e binds x@n, fresh undefined values are 0.
func evalFormula(t *testing.T, f *smt.PathFormula, inputs []uint64) map[*smt.Term][2]uint64 {
	env := map[*smt.Term][2]uint64{}
	for i, in := range f.Inputs {
		env[in.Term] = [2]uint64{inputs[i], 0}
	}
	assign := func(v *smt.Term) (uint64, uint64, bool) {
		if x, ok := env[v]; ok {
			return x[0], x[1], true
		}
		if strings.HasPrefix(v.Name, "undef!") {
			return 0, 0, true
		}
		return 0, 0, false
	}
	for _, c := range f.Conjuncts {
		if c.Op == smt.Ule {
			// The range of a _Bool input (0 or 1): it must hold.
			if lo, _, err := smt.Eval(c, assign); err != nil || lo != 1 {
				t.Fatalf("input constraint %s: %d, %v", c, lo, err)
			}
			continue
		}
		if c.Op != smt.Eq {
			t.Fatalf("conjunct %s is no definition", c)
		}
		def, val := c.Args[0], c.Args[1]
		if _, bound := env[def]; bound || def.Op != smt.Var || strings.HasPrefix(def.Name, "undef!") {
			def, val = val, def
		}
		lo, hi, err := smt.Eval(val, assign)
		if err != nil {
			t.Fatalf("eval %s: %v", val, err)
		}
		if _, bound := env[def]; bound {
			if env[def] != [2]uint64{lo, hi} {
				t.Fatalf("conjunct %s: %v vs %d", c, env[def], lo)
			}
			continue
		}
		env[def] = [2]uint64{lo, hi}
	}
	return env
}

// TestCrossCheck: on random straight-line programs with random inputs,
// the concrete interpreter (csem) and the SMT encoding (evaluated term by
// term, and through Z3 models) agree on every value and on undefined
// behaviour.
func TestCrossCheck(t *testing.T) {
	r := rand.New(rand.NewSource(20260101))
	n := 3000
	if testing.Short() {
		n = 300
	}
	ubs, z3checks := 0, 0
	for iter := 0; iter < n; iter++ {
		p, inputs := randomProgram(t, r)
		tr, err := interp.Run(context.Background(), p, "main", inputs, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		steps := tr.Steps
		if tr.Stop == interp.UndefinedBehaviour {
			// include the refused step
			loc := p.Func("main").Entry
			if len(steps) > 0 {
				loc = steps[len(steps)-1].Next()
			}
			steps = append(steps, cfa.Step{Edge: loc.Out[0], Kind: cfa.Intra})
		} else if tr.Stop != interp.ReachedExit {
			t.Fatalf("program %d: stop %v (%s)\n%s", iter, tr.Stop, tr.Reason, p.Text())
		}
		b := smt.NewBuilder()
		f, err := smt.EncodePath(b, p, steps)
		if err != nil {
			t.Fatalf("program %d: %v", iter, err)
		}
		if len(f.Inputs) != len(inputs) {
			t.Fatalf("program %d: %d inputs encoded, %d used", iter, len(f.Inputs), len(inputs))
		}
		env := evalFormula(t, f, inputs)
		assign := func(v *smt.Term) (uint64, uint64, bool) {
			if x, ok := env[v]; ok {
				return x[0], x[1], true
			}
			return 0, 0, strings.HasPrefix(v.Name, "undef!")
		}
		// An expression may have several undefined operations: the
		// interpreter reports the first in evaluation order, the encoder
		// all whose conditions hold (later ones may involve undefined
		// values); the first must be among them.
		var kinds []string
		matched := false
		for _, u := range f.UB {
			lo, _, err := smt.Eval(u.Cond, assign)
			if err != nil {
				t.Fatal(err)
			}
			if lo == 1 {
				kinds = append(kinds, u.Kind)
				matched = matched || strings.Contains(tr.Reason, u.Kind)
			}
		}
		if (tr.Stop == interp.UndefinedBehaviour) != (len(kinds) > 0) || len(kinds) > 0 && !matched {
			t.Fatalf("program %d: encoder UB %q, interpreter %v (%s)\n%s\n%s", iter, kinds, tr.Stop, tr.Reason, p.Text(), f)
		}
		if tr.Stop == interp.UndefinedBehaviour {
			ubs++
			continue
		}
		var ret *smt.Term
		for _, d := range f.Defs {
			if d.Var == p.Func("main").RetVar {
				ret = d.Term
			}
		}
		if got := env[ret][0]; got != tr.Exit {
			t.Fatalf("program %d: encoder %#x, interpreter %#x\ninputs %v\n%s\n%s", iter, got, tr.Exit, inputs, p.Text(), f)
		}
		if iter%10 == 0 {
			// through Z3: fix the inputs, the model gives the same value
			z3checks++
			s := z3.New(b)
			for _, c := range f.Conjuncts {
				s.Assert(c)
			}
			for i, in := range f.Inputs {
				s.Assert(b.Eq(in.Term, b.BV(inputs[i], in.Term.Sort.Width)))
			}
			s.Assert(f.NoUB(b))
			res, err := s.Check(context.Background())
			if res != smt.Sat {
				t.Fatalf("program %d: z3 %v %v", iter, res, err)
			}
			if lo, _ := s.Model().Eval(ret); lo != tr.Exit {
				t.Fatalf("program %d: z3 model %#x, interpreter %#x\n%s", iter, lo, tr.Exit, p.Text())
			}
			s.Close()
		}
	}
	t.Logf("%d programs, %d with undefined behaviour, %d checked through z3", n, ubs, z3checks)
}
