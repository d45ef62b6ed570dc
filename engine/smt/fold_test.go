package smt_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
	"github.com/reverify/reverify/engine/smt/z3"
)

// pointerParamPath builds main with objects local arrays a0[2] … and
// s[2], each written once, then calls times the function
// f(int *p) { *p = *p + 1; } with p = &s[0], and assumes s[0] == want:
// the shape of aws-c-common's harness paths, where every function
// reached takes the structure under proof by a pointer parameter.
func pointerParamPath(objects, times int, want int64) (*cfa.Program, []cfa.Step) {
	var path []cfa.Step
	p := newProgram(cfa.LP64)
	m := function(p, "main", intT, &path)
	f := function(p, "f", nil, nil)
	ptrT := cfa.PointerTo(intT, 64)
	par := f.Param("p", ptrT)
	var body []*cfa.Edge
	body = append(body, f.Op(assign(deref(ref(par)), bin(cfa.Add, deref(ref(par)), c(1, intT), intT))))
	ret := p.AddEdge(f.Cur, f.Fn.Exit, &cfa.Return{}, cfa.Range{}, "return")
	body = append(body, ret)

	initEdge := p.AddEdge(p.Init.Entry, p.Init.Exit, &cfa.Noop{}, cfa.Range{}, "")
	path = append(path, cfa.Step{Edge: initEdge, Kind: cfa.Intra}, cfa.Step{Kind: cfa.Enter, Callee: m.Fn})
	for k := 0; k < objects; k++ {
		a := m.Local(fmt.Sprintf("a%d", k), cfa.ArrayOf(intT, 2))
		m.Op(assign(index(ref(a), c(0, intT)), c(int64(k), intT)))
	}
	s := m.Local("s", cfa.ArrayOf(intT, 2))
	m.Op(assign(index(ref(s), c(0, intT)), c(0, intT)))
	for k := 0; k < times; k++ {
		call := m.Call(&cfa.Call{Fn: "f", Args: []cfa.Expr{addr(index(ref(s), c(0, intT)), 64)}})
		path = append(path, cfa.Step{Edge: call, Kind: cfa.Enter, Callee: f.Fn})
		for _, e := range body {
			path = append(path, cfa.Step{Edge: e, Kind: cfa.Intra})
		}
		path = append(path, cfa.Step{Edge: call, Kind: cfa.Leave, Callee: f.Fn})
	}
	m.Assume(bin(cfa.Eq, index(ref(s), c(0, intT)), c(want, intT), intT), true)
	m.Ret(c(0, intT))
	p.Finish()
	return p, path
}

// TestFoldedAccesses: folding the addresses of loads and stores through
// a pointer parameter keeps every verdict and reads one object instead
// of all of them.
func TestFoldedAccesses(t *testing.T) {
	defer func(v bool) { *smt.FoldAccesses = v }(*smt.FoldAccesses)
	terms := map[bool]int{}
	for _, fold := range []bool{false, true} {
		*smt.FoldAccesses = fold
		for _, tc := range []struct {
			want   int64
			status smt.Result
		}{{10, smt.Sat}, {11, smt.Unsat}, {9, smt.Unsat}} {
			p, path := pointerParamPath(40, 10, tc.want)
			if err := p.Check(); err != nil {
				t.Fatalf("CFA: %v", err)
			}
			b := smt.NewBuilder()
			r, err := smt.CheckPath(context.Background(), b, z3.Factory, p, path)
			if err != nil || r.Status != tc.status {
				t.Fatalf("fold %v, s[0] == %d after 10 increments: %v (%s, %v), want %v", fold, tc.want, r.Status, r.Reason, err, tc.status)
			}
			terms[fold] = b.Len()
		}
	}
	if terms[true]*4 > terms[false] {
		t.Errorf("terms with folding %d, without %d: want at most a quarter", terms[true], terms[false])
	}
	t.Logf("terms: %d without folding, %d with", terms[false], terms[true])
}

// BenchmarkEncodePointerParams checks pointerParamPath (200 objects, 30
// calls of f) without the folding of access addresses (the baseline)
// and with it, in one run: the ratio is the gain on paths whose
// functions take their data by pointer (aws-c-common's harnesses: a
// 509-step path built 138,901 terms before, 15,607 after).
//
//	go test -run '^$' -bench EncodePointerParams ./engine/smt/
func BenchmarkEncodePointerParams(b *testing.B) {
	defer func(v bool) { *smt.FoldAccesses = v }(*smt.FoldAccesses)
	p, path := pointerParamPath(200, 30, 30)
	for _, fold := range []bool{false, true} {
		b.Run(fmt.Sprintf("fold=%v", fold), func(b *testing.B) {
			*smt.FoldAccesses = fold
			terms := 0
			for b.Loop() {
				bld := smt.NewBuilder()
				r, err := smt.CheckPath(context.Background(), bld, z3.Factory, p, path)
				if err != nil || r.Status != smt.Sat {
					b.Fatal(r.Status, r.Reason, err)
				}
				terms = bld.Len()
			}
			b.ReportMetric(float64(terms), "terms")
			b.ReportMetric(float64(len(path)), "steps")
		})
	}
}
