package smt_test

import (
	"context"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// loopPath builds `x = nondet; i = 0; while (i < n) { body; i++ }` and
// the path through n iterations (about 1000 steps), ending in
// assume((final & 0xffff) == 0x1234). Bodies: 0: x = x + i (n = 333);
// 1: x = x*3 + i (n = 333; the solver must invert 333 multiplications);
// 2: a[i & 15] = a[i & 15] + x with final a[7] (n = 250, memory).
func loopPath(b *testing.B, kind int) (*cfa.Program, []cfa.Step) {
	memory := kind == 2
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	x, i := m.Local("x", intT), m.Local("i", intT)
	a := m.Local("a", cfa.ArrayOf(intT, 16))
	m.Op(havoc(ref(x)))
	m.Op(assign(ref(i), c(0, intT)))
	head := m.Cur
	n := int64(333)
	if memory {
		n = 250
		for k := int64(0); k < 16; k++ {
			m.Op(assign(index(ref(a), c(k, intT)), c(0, intT)))
		}
		head = m.Cur
	}
	cond := bin(cfa.Lt, ref(i), c(n, intT), intT)
	body, exit := p.NewLocation(m.Fn), p.NewLocation(m.Fn)
	eIn := p.AddEdge(head, body, &cfa.Assume{Cond: cond, Truth: true}, cfa.Range{}, "")
	eOut := p.AddEdge(head, exit, &cfa.Assume{Cond: cond, Truth: false}, cfa.Range{}, "")
	var bodyEdges []*cfa.Edge
	mid := p.NewLocation(m.Fn)
	if memory {
		ai := index(ref(a), bin(cfa.And, ref(i), c(15, intT), intT))
		bodyEdges = append(bodyEdges, p.AddEdge(body, mid, assign(ai, bin(cfa.Add, ai, ref(x), intT)), cfa.Range{}, ""))
	} else if kind == 1 {
		bodyEdges = append(bodyEdges, p.AddEdge(body, mid, assign(ref(x), bin(cfa.Add, bin(cfa.Mul, ref(x), c(3, intT), intT), ref(i), intT)), cfa.Range{}, ""))
	} else {
		bodyEdges = append(bodyEdges, p.AddEdge(body, mid, assign(ref(x), bin(cfa.Add, ref(x), ref(i), intT)), cfa.Range{}, ""))
	}
	bodyEdges = append(bodyEdges, p.AddEdge(mid, head, assign(ref(i), bin(cfa.Add, ref(i), c(1, intT), intT)), cfa.Range{}, ""))
	for k := int64(0); k < n; k++ {
		path = append(path, cfa.Step{Edge: eIn, Kind: cfa.Intra})
		for _, e := range bodyEdges {
			path = append(path, cfa.Step{Edge: e, Kind: cfa.Intra})
		}
	}
	path = append(path, cfa.Step{Edge: eOut, Kind: cfa.Intra})
	m.Cur = exit
	var final cfa.Expr = ref(x)
	if memory {
		final = index(ref(a), c(7, intT))
	}
	m.Assume(bin(cfa.Eq, bin(cfa.And, final, c(0xffff, intT), intT), c(0x1234, intT), intT), true)
	return p, path
}

func benchPath(b *testing.B, kind int, solve bool, f smt.Factory) {
	p, path := loopPath(b, kind)
	defer func() { b.ReportMetric(float64(len(path)), "steps") }()
	for b.Loop() {
		bld := smt.NewBuilder()
		if !solve {
			if _, err := smt.EncodePath(bld, p, path); err != nil {
				b.Fatal(err)
			}
			continue
		}
		r, err := smt.CheckPath(context.Background(), bld, f, p, path)
		if err != nil || r.Status == smt.Unknown {
			b.Fatal(r.Status, r.Reason, err)
		}
	}
}

func BenchmarkEncode1000Linear(b *testing.B) { benchPath(b, 0, false, nil) }
func BenchmarkEncode1000Mul(b *testing.B)    { benchPath(b, 1, false, nil) }
func BenchmarkEncode1000Memory(b *testing.B) { benchPath(b, 2, false, nil) }

func BenchmarkCheckPath1000Linear(b *testing.B) { benchPath(b, 0, true, z3.Factory) }
func BenchmarkCheckPath1000Mul(b *testing.B)    { benchPath(b, 1, true, z3.Factory) }
func BenchmarkCheckPath1000Memory(b *testing.B) { benchPath(b, 2, true, z3.Factory) }

func BenchmarkCheckPath1000LinearOneShot(b *testing.B) { benchPath(b, 0, true, z3.OneShotFactory) }
func BenchmarkCheckPath1000MulOneShot(b *testing.B)    { benchPath(b, 1, true, z3.OneShotFactory) }
func BenchmarkCheckPath1000MemoryOneShot(b *testing.B) { benchPath(b, 2, true, z3.OneShotFactory) }
