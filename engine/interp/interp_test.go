package interp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/interp"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

type scenario struct {
	name  string
	build func(t *testing.T) (*cfa.Program, []cfa.Step)
}

func scenarios() []scenario {
	return []scenario{
		{"uchar wrap", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			x := m.Local("x", ucharT)
			m.Op(&cfa.Decl{Var: x})
			m.Op(havoc(ref(x)))
			sum := bin(cfa.Add, cast(ref(x), intT), c(1, intT), intT)
			m.Assume(bin(cfa.Eq, cast(cast(sum, ucharT), intT), c(0, intT), intT), true)
			m.Op(&cfa.Call{Fn: "reach_error"})
			return p, path
		}},
		{"array symbolic index", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			a := m.Local("a", cfa.ArrayOf(intT, 4))
			i := m.Local("i", intT)
			m.Op(&cfa.Decl{Var: a})
			m.Op(&cfa.Decl{Var: i})
			for k := int64(0); k < 4; k++ {
				m.Op(assign(index(ref(a), c(k, intT)), c(k, intT)))
			}
			m.Op(havoc(ref(i)))
			m.Op(assign(index(ref(a), ref(i)), c(5, intT)))
			m.Assume(bin(cfa.Eq, bin(cfa.Add, index(ref(a), c(2, intT)), index(ref(a), c(3, intT)), intT), c(8, intT), intT), true)
			return p, path
		}},
		{"pointer to local", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.ILP32)
			m := function(p, "main", intT, &path)
			x := m.Local("x", intT)
			y := m.Local("y", intT)
			pt := cfa.PointerTo(intT, 32)
			ptr := m.Local("p", pt)
			m.Op(&cfa.Decl{Var: x})
			m.Op(havoc(ref(y)))
			m.Op(assign(ref(ptr), addr(ref(x), 32)))
			m.Op(assign(deref(ref(ptr)), bin(cfa.Mul, ref(y), c(3, intT), intT)))
			m.Assume(bin(cfa.Eq, ref(x), c(-9, intT), intT), true)
			return p, path
		}},
		{"struct member", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			st := &cfa.Type{Kind: cfa.Struct, Name: "struct s", Size: 8, Align: 4, Fields: []cfa.Field{
				{Name: "a", Type: intT, Offset: 0}, {Name: "b", Type: cfa.CharType, Offset: 4}}}
			s, s2 := m.Local("s", st), m.Local("s2", st)
			ptr := m.Local("p", cfa.PointerTo(st, 64))
			y := m.Local("y", cfa.CharType)
			m.Op(&cfa.Decl{Var: s})
			m.Op(&cfa.Decl{Var: s2})
			m.Op(havoc(ref(y)))
			m.Op(assign(member(ref(s), 0), c(-1, intT)))
			m.Op(assign(member(ref(s), 1), ref(y)))
			m.Op(assign(ref(s2), ref(s)))
			m.Op(assign(ref(ptr), addr(ref(s2), 64)))
			m.Assume(bin(cfa.Eq, cast(member(deref(ref(ptr)), 1), intT), c(-7, intT), intT), true)
			return p, path
		}},
		{"calloc", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			pt := cfa.PointerTo(intT, 64)
			q, n, i := m.Local("q", pt), m.Local("n", cfa.ULLType), m.Local("i", intT)
			m.Op(&cfa.Decl{Var: q})
			m.Op(&cfa.Decl{Var: n})
			m.Op(&cfa.Decl{Var: i})
			m.Op(havoc(ref(n)))
			m.Assume(bin(cfa.Lt, ref(n), c(100, cfa.ULLType), intT), true)
			m.Op(&cfa.Call{Fn: "calloc", Args: []cfa.Expr{ref(n), c(4, cfa.ULLType)}, Result: ref(q)})
			m.Op(havoc(ref(i)))
			m.Op(assign(deref(bin(cfa.Add, ref(q), ref(i), pt)), c(7, intT)))
			m.Assume(bin(cfa.Eq, deref(bin(cfa.Add, ref(q), c(3, intT), pt)), c(7, intT), intT), true)
			m.Op(&cfa.Call{Fn: "free", Args: []cfa.Expr{ref(q)}})
			return p, path
		}},
		{"recursion", func(t *testing.T) (*cfa.Program, []cfa.Step) { return recursiveProgram(t) }},
		{"extern and volatile", func(t *testing.T) (*cfa.Program, []cfa.Step) {
			var path []cfa.Step
			p := newProgram(cfa.LP64)
			m := function(p, "main", intT, &path)
			x, y := m.Local("x", intT), m.Local("y", cfa.ShortType)
			v := p.NewVar(nil, "v", intT)
			v.Volatile = true
			m.Op(&cfa.Call{Fn: "rand", Result: ref(x)})
			m.Op(assign(ref(y), cast(ref(v), cfa.ShortType)))
			m.Assume(bin(cfa.Eq, bin(cfa.Add, ref(x), cast(ref(y), intT), intT), c(-32768-1000, intT), intT), true)
			return p, path
		}},
	}
}

// int f(int n) { if (n <= 0) return 0; int t = f(n - 1); return t + 1; }
// main: n = nondet; x = f(n); assume(x == 2) (through the Init function).
func recursiveProgram(t *testing.T) (*cfa.Program, []cfa.Step) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	g := p.NewVar(nil, "g", intT)
	initEdge := p.AddEdge(p.Init.Entry, p.Init.Exit, &cfa.Decl{Var: g}, cfa.Range{}, "")
	m := function(p, "main", intT, &path)
	f := function(p, "f", intT, nil)
	n := f.Param("n", intT)
	tv := f.Local("t", intT)
	cond := bin(cfa.Le, ref(n), c(0, intT), intT)
	base, rec := p.NewLocation(f.Fn), p.NewLocation(f.Fn)
	eBase := p.AddEdge(f.Fn.Entry, base, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "")
	eRec := p.AddEdge(f.Fn.Entry, rec, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "")
	eRet0 := p.AddEdge(base, f.Fn.Exit, &cfa.Return{X: ref(g)}, cfa.Range{}, "")
	after := p.NewLocation(f.Fn)
	callF := p.AddEdge(rec, after, &cfa.Call{Fn: "f", Args: []cfa.Expr{bin(cfa.Sub, ref(n), c(1, intT), intT)}, Result: ref(tv)}, cfa.Range{}, "")
	eRet := p.AddEdge(after, f.Fn.Exit, &cfa.Return{X: bin(cfa.Add, ref(tv), c(1, intT), intT)}, cfa.Range{}, "")
	in := func(e *cfa.Edge) cfa.Step { return cfa.Step{Edge: e, Kind: cfa.Intra} }
	path = append(path, in(initEdge), cfa.Step{Kind: cfa.Enter, Callee: m.Fn})
	x, k := m.Local("x", intT), m.Local("k", intT)
	m.Op(havoc(ref(k)))
	callMain := m.Call(&cfa.Call{Fn: "f", Args: []cfa.Expr{ref(k)}, Result: ref(x)})
	ff := f.Fn
	path = append(path,
		cfa.Step{Edge: callMain, Kind: cfa.Enter, Callee: ff},
		in(eRec),
		cfa.Step{Edge: callF, Kind: cfa.Enter, Callee: ff},
		in(eRec),
		cfa.Step{Edge: callF, Kind: cfa.Enter, Callee: ff},
		in(eBase), in(eRet0),
		cfa.Step{Edge: callF, Kind: cfa.Leave, Callee: ff},
		in(eRet),
		cfa.Step{Edge: callF, Kind: cfa.Leave, Callee: ff},
		in(eRet),
		cfa.Step{Edge: callMain, Kind: cfa.Leave, Callee: ff},
	)
	m.Assume(bin(cfa.Eq, ref(x), c(2, intT), intT), true)
	m.Ret(c(0, intT))
	p.Finish()
	return p, path
}

// Every feasible path's inputs, as CheckPath finds them, replay along the
// path; and Run with them takes the path.
func TestReplayFeasiblePaths(t *testing.T) {
	for _, sc := range scenarios() {
		t.Run(sc.name, func(t *testing.T) {
			p, path := sc.build(t)
			r, err := smt.CheckPath(context.Background(), smt.NewBuilder(), z3.Factory, p, path)
			if err != nil || r.Status != smt.Sat {
				t.Fatalf("CheckPath: %v %v (%s)", r.Status, err, r.Reason)
			}
			ok, err := interp.Replay(context.Background(), p, path, r.Values())
			if !ok || err != nil {
				t.Fatalf("Replay = %v, %v\ninputs %+v\n%s", ok, err, r.Inputs, r.Formula)
			}
			tr, err := interp.Run(context.Background(), p, "main", r.Values(), interp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Steps) < len(path) {
				t.Fatalf("Run took %d steps (%v: %s), the path has %d", len(tr.Steps), tr.Stop, tr.Reason, len(path))
			}
			for i := range path {
				if tr.Steps[i] != path[i] {
					t.Fatalf("Run step %d = %+v, path has %+v", i, tr.Steps[i], path[i])
				}
			}
			if tr.InputsUsed != len(r.Inputs) || tr.MissingInputs != 0 {
				t.Errorf("Run used %d inputs (%d missing), the path has %d", tr.InputsUsed, tr.MissingInputs, len(r.Inputs))
			}
			// a wrong input makes the replay diverge (or fail)
			bad := r.Values()
			for i := range bad {
				bad[i] ^= 0x55
			}
			if ok, err := interp.Replay(context.Background(), p, path, bad); ok || err == nil {
				t.Errorf("Replay with wrong inputs = %v, %v", ok, err)
			}
		})
	}
}

func TestRunOutcomes(t *testing.T) {
	t.Run("reach error", func(t *testing.T) {
		p, _ := scenarios()[0].build(t)
		tr, err := interp.Run(context.Background(), p, "main", []uint64{0, 255}, interp.Options{})
		if err != nil || tr.Stop != interp.ReachedError {
			t.Fatalf("Run = %+v, %v", tr, err)
		}
		if n := len(tr.Steps); n != 4 {
			t.Errorf("%d steps", n)
		}
		tr, _ = interp.Run(context.Background(), p, "main", []uint64{0, 254}, interp.Options{})
		if tr.Stop != interp.ReachedTerminal {
			t.Errorf("x = 254: %v", tr.Stop)
		}
	})
	build := func(t *testing.T, body func(m *pb)) *cfa.Program {
		var path []cfa.Step
		p := newProgram(cfa.LP64)
		m := function(p, "main", intT, &path)
		body(m)
		return p
	}
	for _, tc := range []struct {
		name   string
		body   func(m *pb)
		inputs []uint64
		stop   interp.Stop
		reason string
		exit   uint64
	}{
		{"exit value", func(m *pb) {
			x := m.Local("x", intT)
			m.Op(havoc(ref(x)))
			m.Ret(bin(cfa.Div, ref(x), c(-2, intT), intT))
		}, []uint64{uint64(7)}, interp.ReachedExit, "", uint64(0xfffffffd)},
		{"division by zero", func(m *pb) {
			x := m.Local("x", intT)
			m.Op(havoc(ref(x)))
			m.Ret(bin(cfa.Rem, c(1, intT), ref(x), intT))
		}, []uint64{0}, interp.UndefinedBehaviour, "division by zero", 0},
		{"INT_MIN / -1", func(m *pb) {
			x := m.Local("x", intT)
			m.Op(havoc(ref(x)))
			m.Ret(bin(cfa.Div, c(-2147483648, intT), ref(x), intT))
		}, []uint64{0xffffffff}, interp.UndefinedBehaviour, "signed division overflow", 0},
		{"shift count", func(m *pb) {
			x := m.Local("x", intT)
			m.Op(havoc(ref(x)))
			m.Ret(bin(cfa.Shl, c(1, intT), ref(x), intT))
		}, []uint64{32}, interp.UndefinedBehaviour, "shift count", 0},
		{"null dereference", func(m *pb) {
			q := m.Local("q", cfa.PointerTo(intT, 64))
			m.Op(assign(ref(q), c(0, cfa.PointerTo(intT, 64))))
			m.Ret(deref(ref(q)))
		}, nil, interp.UndefinedBehaviour, "null pointer", 0},
		{"out of bounds", func(m *pb) {
			a := m.Local("a", cfa.ArrayOf(intT, 2))
			m.Op(assign(index(ref(a), c(2, intT)), c(1, intT)))
		}, nil, interp.UndefinedBehaviour, "invalid memory access", 0},
		{"uninitialised array read", func(m *pb) {
			a := m.Local("a", cfa.ArrayOf(intT, 2))
			m.Op(&cfa.Decl{Var: a})
			m.Ret(index(ref(a), c(1, intT)))
		}, nil, interp.Unsupported, "uninitialised", 0},
		{"abort", func(m *pb) {
			m.Op(&cfa.Call{Fn: "abort"})
			m.Cur.Terminal = true
		}, nil, interp.ReachedTerminal, "", 0},
		{"step bound", func(m *pb) {
			// while (1) x = x + 1;
			x := m.Local("x", intT)
			head := m.Cur
			e := m.P.AddEdge(head, head, assign(ref(x), bin(cfa.Add, ref(x), c(1, intT), intT)), cfa.Range{}, "")
			_ = e
		}, []uint64{0}, interp.StepBound, "", 0},
		{"strlen and memset", func(m *pb) {
			a := m.Local("a", cfa.ArrayOf(cfa.CharType, 8))
			n := m.Local("n", cfa.ULLType)
			pc := cfa.PointerTo(cfa.CharType, 64)
			a0 := addr(index(ref(a), c(0, intT)), 64)
			a0.(*cfa.AddrOf).T = pc
			m.Op(&cfa.Call{Fn: "memset", Args: []cfa.Expr{a0, c('x', intT), c(5, cfa.ULLType)}})
			m.Op(assign(index(ref(a), c(5, intT)), c(0, cfa.CharType)))
			m.Op(&cfa.Call{Fn: "strlen", Args: []cfa.Expr{a0}, Result: ref(n)})
			m.Ret(cast(ref(n), intT))
		}, nil, interp.ReachedExit, "", 5},
		{"unmodelled call with escaped memory", func(m *pb) {
			// int v; ext_keep(&v): what ext_keep writes is unknown
			v := m.Local("v", intT)
			v.AddrTaken = true
			m.Op(&cfa.Call{Fn: "ext_keep", Args: []cfa.Expr{addr(ref(v), 64)}})
			m.Ret(ref(v))
		}, nil, interp.Unsupported, "unmodelled ext_keep may write memory", 0},
		{"strcpy, strchr, toupper", func(m *pb) {
			a := m.Local("a", cfa.ArrayOf(cfa.CharType, 8))
			q := m.Local("q", cfa.PointerTo(cfa.CharType, 64))
			r := m.Local("r", intT)
			pc := cfa.PointerTo(cfa.CharType, 64)
			a0 := addr(index(ref(a), c(0, intT)), 64)
			a0.(*cfa.AddrOf).T = pc
			s := &cfa.StringLit{T: cfa.ArrayOf(cfa.CharType, 4), Val: "abc"}
			s0 := &cfa.AddrOf{X: index(s, c(0, intT)), T: pc}
			m.Op(&cfa.Call{Fn: "strcpy", Args: []cfa.Expr{a0, s0}})
			m.Op(&cfa.Call{Fn: "strchr", Args: []cfa.Expr{a0, c('c', intT)}, Result: ref(q)})
			m.Op(&cfa.Call{Fn: "toupper", Args: []cfa.Expr{cast(deref(ref(q)), intT)}, Result: ref(r)})
			m.Ret(ref(r))
		}, nil, interp.ReachedExit, "", 'C'},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := build(t, tc.body)
			tr, err := interp.Run(context.Background(), p, "main", tc.inputs, interp.Options{MaxSteps: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Stop != tc.stop || !strings.Contains(tr.Reason, tc.reason) {
				t.Fatalf("stop %v (%s), want %v (%s)", tr.Stop, tr.Reason, tc.stop, tc.reason)
			}
			if tc.stop == interp.ReachedExit && tr.Exit != tc.exit {
				t.Errorf("exit %#x, want %#x", tr.Exit, tc.exit)
			}
		})
	}
}

func TestReplayDiverges(t *testing.T) {
	p, path := scenarios()[0].build(t)
	ok, err := interp.Replay(context.Background(), p, path, []uint64{0, 3})
	if ok || !errors.Is(err, interp.ErrDiverges) {
		t.Fatalf("Replay = %v, %v; want ErrDiverges", ok, err)
	}
	ok, err = interp.Replay(context.Background(), p, path, []uint64{0, 255, 1})
	if ok || err == nil || !strings.Contains(err.Error(), "inputs") {
		t.Fatalf("Replay with an extra input = %v, %v", ok, err)
	}
	ok, err = interp.Replay(context.Background(), p, path, []uint64{0, 255})
	if !ok || err != nil {
		t.Fatalf("Replay = %v, %v", ok, err)
	}
}

func TestRunCancelled(t *testing.T) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	x := m.Local("x", intT)
	p.AddEdge(m.Cur, m.Cur, assign(ref(x), c(1, intT)), cfa.Range{}, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := interp.Run(ctx, p, "main", nil, interp.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}
