package smt_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

func check(t *testing.T, p *cfa.Program, path []cfa.Step) smt.PathResult {
	t.Helper()
	b := smt.NewBuilder()
	r, err := smt.CheckPath(context.Background(), b, z3.Factory, p, path)
	if err != nil {
		t.Fatalf("CheckPath: %v", err)
	}
	return r
}

// unsigned char x = nondet; if (x + 1 == 0): promotion to int makes the
// path infeasible, while (unsigned char)(x + 1) == 0 holds for x = 255.
func TestPromotion(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cond   func(x *cfa.Var) cfa.Expr
		status smt.Result
		x      uint64
	}{
		{"x+1==0", func(x *cfa.Var) cfa.Expr {
			return bin(cfa.Eq, bin(cfa.Add, cast(ref(x), intT), c(1, intT), intT), c(0, intT), intT)
		}, smt.Unsat, 0},
		{"(uchar)(x+1)==0", func(x *cfa.Var) cfa.Expr {
			sum := bin(cfa.Add, cast(ref(x), intT), c(1, intT), intT)
			return bin(cfa.Eq, cast(cast(sum, ucharT), intT), c(0, intT), intT)
		}, smt.Sat, 255},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			x := m.Local("x", ucharT)
			m.Op(&cfa.Decl{Var: x})
			m.Op(havoc(ref(x)))
			m.Assume(tc.cond(x), true)
			r := check(t, p, path)
			if r.Status != tc.status {
				t.Fatalf("status %v (%s), want %v", r.Status, r.Reason, tc.status)
			}
			if r.Status == smt.Sat {
				// inputs: decl x, nondet x
				if len(r.Inputs) != 2 || r.Inputs[1].Value != tc.x || r.Inputs[1].Source != "__VERIFIER_nondet_unsigned char" {
					t.Errorf("inputs %+v, want x = %d second", r.Inputs, tc.x)
				}
				if !strings.HasPrefix(r.Inputs[0].Source, "decl ") {
					t.Errorf("first input %q, want a decl", r.Inputs[0].Source)
				}
			}
		})
	}
}

// int a[4]; i = nondet; a[i] = 5; assume(a[2] == 5): feasible only with
// i = 2 (other indices in bounds leave a[2] uninitialised-but-arbitrary,
// so check a[2] == 5 && a[1] != 5 after zeroing).
func TestArraySymbolicIndex(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	a := m.Local("a", cfa.ArrayOf(intT, 4))
	a.AddrTaken = true
	i := m.Local("i", intT)
	m.Op(&cfa.Decl{Var: a})
	for k := int64(0); k < 4; k++ {
		m.Op(assign(index(ref(a), c(k, intT)), c(0, intT)))
	}
	m.Op(havoc(ref(i)))
	m.Op(assign(index(ref(a), ref(i)), c(5, intT)))
	m.Assume(bin(cfa.Eq, index(ref(a), c(2, intT)), c(5, intT), intT), true)
	r := check(t, p, path)
	if r.Status != smt.Sat {
		t.Fatalf("status %v: %s", r.Status, r.Reason)
	}
	// inputs: decl i (implicit at havoc), nondet i
	got := r.Inputs[len(r.Inputs)-1]
	if got.Value != 2 {
		t.Errorf("i = %d, want 2 (inputs %+v)", got.Value, r.Inputs)
	}
	// a[i] = 5 with a[3] == 5 and a[2] == 5 is infeasible.
	m.Assume(bin(cfa.Eq, index(ref(a), c(3, intT)), c(5, intT), intT), true)
	if r := check(t, p, path); r.Status != smt.Unsat {
		t.Fatalf("status %v, want unsat", r.Status)
	}
}

// An out-of-bounds write is undefined behaviour: the path is then only
// feasible through UB, which is Unknown.
func TestArrayOutOfBounds(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	a := m.Local("a", cfa.ArrayOf(intT, 4))
	i := m.Local("i", intT)
	m.Op(havoc(ref(i)))
	m.Assume(bin(cfa.Ge, ref(i), c(4, intT), intT), true)
	m.Op(assign(index(ref(a), ref(i)), c(5, intT)))
	r := check(t, p, path)
	if r.Status != smt.Unknown || !strings.Contains(r.Reason, "out of object bounds") && !strings.Contains(r.Reason, "invalid memory access") {
		t.Fatalf("status %v (%s), want unknown: out of object bounds or invalid memory access", r.Status, r.Reason)
	}
	// a[i] with i in bounds but after the object is gone... and an
	// invalid access through a pointer one past the end:
	var path2 []cfa.Step
	p2 := newProgram(cfa.LP64)
	m2 := function(p2, "main", intT, &path2)
	a2 := m2.Local("a", cfa.ArrayOf(intT, 4))
	m2.Op(assign(index(ref(a2), c(4, intT)), c(5, intT)))
	r = check(t, p2, path2)
	if r.Status != smt.Unknown || !strings.Contains(r.Reason, "invalid memory access") {
		t.Fatalf("a[4] = 5: %v (%s), want unknown: invalid memory access", r.Status, r.Reason)
	}
}

func TestPointerToLocal(t *testing.T) {
	for _, tc := range []struct {
		op     cfa.BinaryOp
		status smt.Result
	}{{cfa.Eq, smt.Sat}, {cfa.Ne, smt.Unsat}} {
		var path []cfa.Step
		p := newProgram(cfa.ILP32)
		m := function(p, "main", intT, &path)
		x := m.Local("x", intT)
		ptr := m.Local("p", cfa.PointerTo(intT, 32))
		m.Op(&cfa.Decl{Var: x})
		m.Op(assign(ref(ptr), addr(ref(x), 32)))
		m.Op(assign(deref(ref(ptr)), c(3, intT)))
		m.Assume(bin(tc.op, ref(x), c(3, intT), intT), true)
		if r := check(t, p, path); r.Status != tc.status {
			t.Errorf("x %s 3: %v (%s), want %v", tc.op, r.Status, r.Reason, tc.status)
		}
	}
}

func structType() *cfa.Type {
	return &cfa.Type{Kind: cfa.Struct, Name: "struct s", Size: 8, Align: 4, Fields: []cfa.Field{
		{Name: "a", Type: intT, Offset: 0},
		{Name: "b", Type: cfa.CharType, Offset: 4},
	}}
}

func TestStructMember(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	st := structType()
	s := m.Local("s", st)
	s2 := m.Local("s2", st)
	ptr := m.Local("p", cfa.PointerTo(st, 64))
	y := m.Local("y", cfa.CharType)
	m.Op(&cfa.Decl{Var: s})
	m.Op(assign(member(ref(s), 0), c(-1, intT)))
	m.Op(assign(member(ref(s), 1), c(7, cfa.CharType)))
	m.Op(assign(ref(s2), ref(s))) // struct copy
	m.Op(assign(ref(ptr), addr(ref(s2), 64)))
	m.Op(havoc(ref(y)))
	m.Assume(bin(cfa.Eq, cast(member(deref(ref(ptr)), 1), intT), cast(ref(y), intT), intT), true)
	m.Assume(bin(cfa.Eq, member(deref(ref(ptr)), 0), c(-1, intT), intT), true)
	r := check(t, p, path)
	if r.Status != smt.Sat {
		t.Fatalf("status %v: %s", r.Status, r.Reason)
	}
	if v := r.Inputs[len(r.Inputs)-1].Value; v != 7 {
		t.Errorf("y = %d, want 7", v)
	}
}

// int f(int n) { if (n <= 0) return 0; int t = f(n - 1); return t + 1; }
// main: x = f(2); assume(x == want).
func recursiveProgram(t *testing.T, want int64) (*cfa.Program, []cfa.Step) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	f := function(p, "f", intT, nil)
	n := f.Param("n", intT)
	tv := f.Local("t", intT)
	// f's CFA: L0 -[n<=0]-> ret 0; -[!(n<=0)]-> t = f(n-1); return t+1
	cond := bin(cfa.Le, ref(n), c(0, intT), intT)
	base, rec := p.NewLocation(f.Fn), p.NewLocation(f.Fn)
	eBase := p.AddEdge(f.Fn.Entry, base, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "")
	eRec := p.AddEdge(f.Fn.Entry, rec, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "")
	eRet0 := p.AddEdge(base, f.Fn.Exit, &cfa.Return{X: c(0, intT)}, cfa.Range{}, "")
	after := p.NewLocation(f.Fn)
	callF := p.AddEdge(rec, after, &cfa.Call{Fn: "f", Args: []cfa.Expr{bin(cfa.Sub, ref(n), c(1, intT), intT)}, Result: ref(tv)}, cfa.Range{}, "")
	eRet := p.AddEdge(after, f.Fn.Exit, &cfa.Return{X: bin(cfa.Add, ref(tv), c(1, intT), intT)}, cfa.Range{}, "")

	// Init: one no-op, then the path enters main
	initEdge := p.AddEdge(p.Init.Entry, p.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
	path = append(path, cfa.Step{Edge: initEdge, Kind: cfa.Intra}, cfa.Step{Kind: cfa.Enter, Callee: m.Fn})
	x := m.Local("x", intT)
	callMain := m.Call(&cfa.Call{Fn: "f", Args: []cfa.Expr{c(2, intT)}, Result: ref(x)})
	ff := f.Fn
	in := func(e *cfa.Edge) cfa.Step { return cfa.Step{Edge: e, Kind: cfa.Intra} }
	path = append(path,
		cfa.Step{Edge: callMain, Kind: cfa.Enter, Callee: ff}, // f(2)
		in(eRec),
		cfa.Step{Edge: callF, Kind: cfa.Enter, Callee: ff}, // f(1)
		in(eRec),
		cfa.Step{Edge: callF, Kind: cfa.Enter, Callee: ff}, // f(0)
		in(eBase), in(eRet0),
		cfa.Step{Edge: callF, Kind: cfa.Leave, Callee: ff},
		in(eRet),
		cfa.Step{Edge: callF, Kind: cfa.Leave, Callee: ff},
		in(eRet),
		cfa.Step{Edge: callMain, Kind: cfa.Leave, Callee: ff},
	)
	m.Assume(bin(cfa.Eq, ref(x), c(want, intT), intT), true)
	m.Ret(c(0, intT))
	p.Finish()
	return p, path
}

func TestRecursion(t *testing.T) {
	p, path := recursiveProgram(t, 2)
	if err := p.Check(); err != nil {
		t.Fatalf("CFA: %v", err)
	}
	r := check(t, p, path)
	if r.Status != smt.Sat {
		t.Fatalf("f(2) == 2: %v (%s)\n%s", r.Status, r.Reason, r.Formula)
	}
	p, path = recursiveProgram(t, 3)
	if r := check(t, p, path); r.Status != smt.Unsat {
		t.Fatalf("f(2) == 3: %v (%s)", r.Status, r.Reason)
	}
	b := smt.NewBuilder()
	f, err := smt.EncodePath(b, p, path)
	if err != nil {
		t.Fatal(err)
	}
	s := f.String()
	for _, name := range []string{"f::n@1", "f#1::n@1", "f#2::n@1", "main::x@"} {
		if !strings.Contains(s, name) {
			t.Errorf("formula lacks %s:\n%s", name, s)
		}
	}
}

func TestDivisionByZero(t *testing.T) {
	build := func(zero bool) (*cfa.Program, []cfa.Step) {
		var path []cfa.Step
		p := newProgram(cfa.LP64)
		m := function(p, "main", intT, &path)
		y, z := m.Local("y", intT), m.Local("z", intT)
		m.Op(havoc(ref(y)))
		if zero {
			m.Assume(bin(cfa.Eq, ref(y), c(0, intT), intT), true)
		}
		m.Op(assign(ref(z), bin(cfa.Div, c(10, intT), ref(y), intT)))
		m.Assume(bin(cfa.Eq, ref(z), c(5, intT), intT), true)
		return p, path
	}
	p, path := build(false)
	r := check(t, p, path)
	if r.Status != smt.Sat || nondet(r)[0] != 2 {
		t.Fatalf("10/y == 5: %v %+v", r.Status, r.Inputs)
	}
	p, path = build(true)
	r = check(t, p, path)
	if r.Status != smt.Unknown || !strings.Contains(r.Reason, "division by zero") {
		t.Fatalf("10/0 == 5: %v (%s), want unknown (division by zero)", r.Status, r.Reason)
	}
}

// nondet returns the values of the inputs from nondet calls.
func nondet(r smt.PathResult) []uint64 {
	var out []uint64
	for _, in := range r.Inputs {
		if strings.HasPrefix(in.Source, "__VERIFIER_nondet_") {
			out = append(out, in.Value)
		}
	}
	return out
}

func TestShortCircuitGuardsUB(t *testing.T) {
	// assume(y != 0 && 10 / y == 5): no UB, since the division is
	// evaluated only when y != 0.
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	y := m.Local("y", intT)
	m.Op(havoc(ref(y)))
	cond := bin(cfa.LAnd, bin(cfa.Ne, ref(y), c(0, intT), intT),
		bin(cfa.Eq, bin(cfa.Div, c(10, intT), ref(y), intT), c(5, intT), intT), intT)
	m.Assume(cond, false)
	m.Assume(bin(cfa.Eq, ref(y), c(0, intT), intT), true)
	r := check(t, p, path)
	if r.Status != smt.Sat {
		t.Fatalf("%v (%s)", r.Status, r.Reason)
	}
}

func TestCalloc(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	pt := cfa.PointerTo(intT, 64)
	q := m.Local("q", pt)
	n := m.Local("n", cfa.ULLType)
	i := m.Local("i", intT)
	m.Op(havoc(ref(n)))
	m.Op(&cfa.Call{Fn: "calloc", Args: []cfa.Expr{ref(n), c(4, cfa.ULLType)}, Result: ref(q)})
	m.Op(havoc(ref(i)))
	// *(q + i) = 7; assume(*(q + 3) == 7): calloc zeroes, so i = 3
	m.Op(assign(deref(bin(cfa.Add, ref(q), ref(i), pt)), c(7, intT)))
	m.Assume(bin(cfa.Eq, deref(bin(cfa.Add, ref(q), c(3, intT), pt)), c(7, intT), intT), true)
	m.Op(&cfa.Call{Fn: "free", Args: []cfa.Expr{ref(q)}})
	r := check(t, p, path)
	if r.Status != smt.Sat {
		t.Fatalf("%v (%s)", r.Status, r.Reason)
	}
	nd := nondet(r)
	if nd[0] < 4 || nd[1] != 3 {
		t.Errorf("n = %d, i = %d; want n ≥ 4, i = 3", nd[0], nd[1])
	}
	// use after free
	m.Assume(bin(cfa.Eq, deref(ref(q)), c(0, intT), intT), true)
	r = check(t, p, path)
	if r.Status != smt.Unknown || !strings.Contains(r.Reason, "invalid memory access") {
		t.Errorf("use after free: %v (%s), want unknown: invalid memory access", r.Status, r.Reason)
	}
}

func TestMallocDoubleFree(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.ILP32)
	m := function(p, "main", intT, &path)
	pt := cfa.PointerTo(intT, 32)
	q := m.Local("q", pt)
	m.Op(&cfa.Call{Fn: "malloc", Args: []cfa.Expr{c(8, uintT)}, Result: ref(q)})
	m.Op(assign(deref(ref(q)), c(1, intT)))
	m.Assume(bin(cfa.Eq, deref(ref(q)), c(1, intT), intT), true)
	if r := check(t, p, path); r.Status != smt.Sat {
		t.Fatalf("%v (%s)", r.Status, r.Reason)
	}
	m.Op(&cfa.Call{Fn: "free", Args: []cfa.Expr{ref(q)}})
	m.Op(&cfa.Call{Fn: "free", Args: []cfa.Expr{ref(q)}})
	r := check(t, p, path)
	if r.Status != smt.Unknown || !strings.Contains(r.Reason, "invalid free") {
		t.Errorf("double free: %v (%s), want unknown: invalid free", r.Status, r.Reason)
	}
}

func TestCheckPathCancelled(t *testing.T) {
	// factor the 122-bit semiprime (2^61−1)·(2^62−57): hard for Z3
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	u128 := cfa.IntType(128, false)
	ull := cfa.ULLType
	x, y := m.Local("x", u128), m.Local("y", u128)
	m.Op(havoc(ref(x)))
	m.Op(havoc(ref(y)))
	n := bin(cfa.Or, bin(cfa.Shl, cast(&cfa.Const{T: ull, V: 576460752303423480}, u128), c(64, intT), u128),
		cast(&cfa.Const{T: ull, V: 11529215046068469817}, u128), u128)
	lim := bin(cfa.Shl, cast(c(1, ull), u128), c(64, intT), u128)
	one := cast(c(1, ull), u128)
	m.Assume(bin(cfa.Eq, bin(cfa.Mul, ref(x), ref(y), u128), n, intT), true)
	m.Assume(bin(cfa.Gt, ref(x), one, intT), true)
	m.Assume(bin(cfa.Gt, ref(y), one, intT), true)
	m.Assume(bin(cfa.Lt, ref(x), lim, intT), true)
	m.Assume(bin(cfa.Lt, ref(y), lim, intT), true)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	r, err := smt.CheckPath(ctx, smt.NewBuilder(), z3.Factory, p, path)
	if err != nil || r.Status != smt.Unknown || r.Reason == "" {
		t.Fatalf("CheckPath = %v (%q), %v; want unknown with a reason", r.Status, r.Reason, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestEncodeErrors(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	m.Op(&cfa.Unsupported{Construct: "inline assembly"})
	_, err := smt.EncodePath(smt.NewBuilder(), p, path)
	ee, ok := err.(*smt.EncodeError)
	if !ok || ee.Step != 0 || !strings.Contains(ee.Error(), "inline assembly") {
		t.Fatalf("err = %v", err)
	}
	r, err := smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, p, path)
	if err == nil || r.Status != smt.Unknown {
		t.Fatalf("CheckPath: %v %v", r.Status, err)
	}
}
