package cpa_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/cpatest"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/graph"
)

// counter: x = 0; while (x < 3) x = x + 1; if (x == errAt) reach_error();
func counter(t *testing.T, errAt int64) *cfa.Program {
	b := cfatest.New()
	x := b.Global("x", cfa.IntT)
	b.Func("main")
	b.Assign(b.V(x), b.I(0))
	b.While(b.Lt(b.V(x), b.I(3)), func() { b.Assign(b.V(x), b.Add(b.V(x), b.I(1))) })
	b.If(b.Eq(b.V(x), b.I(errAt)), func() { b.Error() }, nil)
	return b.Finish(t)
}

func pathText(steps []cfa.Step) string {
	var parts []string
	for _, s := range steps {
		parts = append(parts, cpa.StepString(s))
	}
	return strings.Join(parts, "; ")
}

func TestReachableAndUnreachable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		errAt int64
		want  cpa.Status
		nodes int
	}{
		{"reachable", 3, cpa.Target, 18},
		{"unreachable", 4, cpa.Safe, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range []cpa.Order{cpa.BFS, cpa.DFS, cpa.RPO} {
				alg, st, n := cpatest.Run(t, counter(t, tc.errAt), cpatest.Config{}, cpa.Options{Order: order})
				if st != tc.want {
					t.Fatalf("%v: status %v, want %v", order, st, tc.want)
				}
				if (n != nil) != (tc.want == cpa.Target) {
					t.Fatalf("%v: target node %v", order, n)
				}
				if got := alg.ARG().Len(); got != tc.nodes {
					t.Errorf("%v: %d ARG nodes, want %d\n%s", order, got, tc.nodes, alg.ARG().Text())
				}
			}
		})
	}
}

func TestTargetPath(t *testing.T) {
	alg, st, n := cpatest.Run(t, counter(t, 3), cpatest.Config{}, cpa.Options{})
	if st != cpa.Target {
		t.Fatalf("status %v", st)
	}
	want := "decl int x; skip; enter main; x = 0; while; [x < 3]; x = x + 1; skip; [x < 3]; x = x + 1; skip; [x < 3]; x = x + 1; skip; [!(x < 3)]; [x == 3]; reach_error()"
	if got := pathText(n.Path()); got != want {
		t.Errorf("path\n got %s\nwant %s", got, want)
	}
	if n.Depth != len(n.Path()) || len(n.PathNodes()) != n.Depth+1 || n.PathNodes()[0] != alg.ARG().Root() {
		t.Errorf("depth %d, path nodes %d", n.Depth, len(n.PathNodes()))
	}
	if !n.IsTarget() || n.Location().Func.Name != "main" {
		t.Errorf("target %v at %v", n.IsTarget(), n.Location())
	}
}

// callProgram: int g; int f(int a) { g = g + a; return g; }
// main: r = f(1); r = f(r); if (r == 2) reach_error();
func callProgram(t *testing.T) *cfa.Program {
	b := cfatest.New()
	g := b.Global("g", cfa.IntT)
	b.Func("f", cfa.IntT)
	b.Assign(b.V(g), b.Add(b.V(g), b.V(b.Param(0))))
	b.Return(b.V(g))
	b.Func("main")
	r := b.Local("r", cfa.IntT)
	b.Call(b.V(r), "f", b.I(1))
	b.Call(b.V(r), "f", b.V(r))
	b.If(b.Eq(b.V(r), b.I(2)), func() { b.Error() }, nil)
	return b.Finish(t)
}

func TestInterproceduralPath(t *testing.T) {
	_, st, n := cpatest.Run(t, callProgram(t), cpatest.Config{}, cpa.Options{})
	if st != cpa.Target {
		t.Fatalf("status %v", st)
	}
	want := "decl int g; skip; enter main; decl int r; enter f at L2; g = g + a; return g; leave f to L3; enter f at L3; g = g + a; return g; leave f to L4; [r == 2]; reach_error()"
	if got := pathText(n.Path()); got != want {
		t.Errorf("path\n got %s\nwant %s", got, want)
	}
}

// branchy: c = nondet; if (c > 0) x = 1; else x = nondet; i = 0;
// while (i < 2) i = i + 1; — the join sees {x=1} and {x unknown}.
func branchy(t *testing.T) *cfa.Program {
	b := cfatest.New()
	b.Func("main")
	c := b.Local("c", cfa.IntT)
	x := b.Local("x", cfa.IntT)
	i := b.Local("i", cfa.IntT)
	b.Havoc(b.V(c))
	b.If(b.Bin(cfa.Gt, b.V(c), b.I(0)), func() { b.Assign(b.V(x), b.I(1)) }, func() { b.Havoc(b.V(x)) })
	b.Assign(b.V(i), b.I(0))
	b.While(b.Lt(b.V(i), b.I(2)), func() { b.Assign(b.V(i), b.Add(b.V(i), b.I(1))) })
	return b.Finish(t)
}

func TestOrdersAndMerge(t *testing.T) {
	for _, tc := range []struct {
		order                  cpa.Order
		merge                  cpa.MergeMode
		nodes, covered, merged int
		reached                int
	}{
		// BFS: {x=1} reaches the join first; {x unknown} is not covered by
		// it, so both walk the loop.
		{cpa.BFS, cpa.MergeSep, 33, 0, 0, 33},
		// DFS pops the else branch first: {x unknown} is at the join when
		// {x=1} arrives, and covers it.
		{cpa.DFS, cpa.MergeSep, 23, 1, 0, 22},
		// RPO finishes both branches (the else branch first) before
		// the join, where {x unknown} covers {x=1}.
		{cpa.RPO, cpa.MergeSep, 23, 1, 0, 22},
		// merge-join: one state at the join (x unknown); the loop head
		// joins i = 0 and i = 1 to i unknown, and the second body
		// iteration is covered: 4 merges, a data-flow fixed point.
		{cpa.BFS, cpa.MergeJoin, 27, 1, 4, 22},
	} {
		alg, st, _ := cpatest.Run(t, branchy(t), cpatest.Config{}, cpa.Options{Order: tc.order, Merge: tc.merge})
		if st != cpa.Safe {
			t.Fatalf("%v/%v: status %v", tc.order, tc.merge, st)
		}
		c := alg.ARG().Counts()
		s := alg.Stats()
		if c.Nodes != tc.nodes || s.Covered != tc.covered || s.Merged != tc.merged || s.Reached != tc.reached {
			t.Errorf("%v/%v: nodes %d covered %d merged %d reached %d, want %d %d %d %d\n%s",
				tc.order, tc.merge, c.Nodes, s.Covered, s.Merged, s.Reached, tc.nodes, tc.covered, tc.merged, tc.reached, alg.ARG().Text())
		}
	}
}

// TestCoverageConverges: x = nondet; while (nondet) x = 0; the state
// {x=0} after the body is covered by {x unknown} at the loop head.
func TestCoverageConverges(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	x := b.Local("x", cfa.IntT)
	c := b.Local("c", cfa.IntT)
	b.Havoc(b.V(x))
	b.Havoc(b.V(c))
	b.While(b.V(c), func() {
		b.Assign(b.V(x), b.I(0))
		b.Havoc(b.V(c))
	})
	b.If(b.Eq(b.V(x), b.I(5)), func() { b.Error() }, nil)
	prog := b.Finish(t)
	alg, st, n := cpatest.Run(t, prog, cpatest.Config{}, cpa.Options{})
	if st != cpa.Target {
		t.Fatalf("status %v", st) // x == 5 is possible: x is never reassigned when the loop is skipped
	}
	_ = n
	// Remove the target and finish: the loop converges by coverage.
	alg.Remove(n)
	st, _, err := alg.Run(context.Background())
	if err != nil || st != cpa.Safe {
		t.Fatalf("after Remove: %v %v", st, err)
	}
	if got := alg.Stats().Covered; got != 1 {
		t.Errorf("covered %d, want 1\n%s", got, alg.ARG().Text())
	}
	wantText := `arg: 18 nodes, 1 covered, 0 merged, 1 target, depth 11
n0 __reverify_init:L0 root
n1 __reverify_init:L1 <- n0 skip
n2 main:L0 <- n1 enter main
n3 main:L2 <- n2 decl int x
n4 main:L3 <- n3 decl int c
n5 main:L4 <- n4 x = nondet(__VERIFIER_nondet_int)
n6 main:L5 <- n5 c = nondet(__VERIFIER_nondet_int)
n7 main:L6 <- n6 while
n8 main:L7 <- n7 [c]
n9 main:L8 <- n7 [!(c)]
n10 main:L9 <- n8 x = 0
n11 main:L11 <- n9 [x == 5]
n12 main:L12 <- n9 [!(x == 5)]
n13 main:L10 <- n10 c = nondet(__VERIFIER_nondet_int)
n14 main:L14 <- n11 reach_error()  target  removed
n15 main:L13 <- n12 skip
n16 main:L6 <- n13 skip  covered by n7
n17 main:L1 <- n15 return 0
`
	if got := alg.ARG().Text(); got != wantText {
		t.Errorf("ARG text:\n%s\nwant:\n%s", got, wantText)
	}
}

// TestRecursionLimit: int f(int a) { return f(a + 1); } main() { f(0); }
func TestRecursionLimit(t *testing.T) {
	for _, depth := range []int{0, 5} {
		b := cfatest.New()
		b.Func("f", cfa.IntT)
		r := b.Local("r", cfa.IntT)
		b.Call(b.V(r), "f", b.Add(b.V(b.Param(0)), b.I(1)))
		b.Return(b.V(r))
		b.Func("main")
		b.Call(nil, "f", b.I(0))
		prog := b.Finish(t)
		alg, st, _ := cpatest.Run(t, prog, cpatest.Config{MaxDepth: depth}, cpa.Options{})
		want := map[int]string{0: "recursion depth 64 exceeded (f → f)", 5: "recursion depth 5 exceeded (f → f)"}[depth]
		if st != cpa.Incomplete || alg.Reason() != want {
			t.Errorf("max depth %d: %v %q, want incomplete %q", depth, st, alg.Reason(), want)
		}
	}
}

func TestStateLimitAndCancel(t *testing.T) {
	prog := loopProgram(t, 1000)
	s := cpatest.Compose(t, prog, cpatest.Config{})
	alg := cpa.NewAlgorithm(s.Composite, cpa.Options{MaxStates: 100})
	st, _, err := alg.Run(context.Background())
	if err != nil || st != cpa.Incomplete || alg.Reason() != "state limit 100" {
		t.Fatalf("got %v %q %v", st, alg.Reason(), err)
	}
	if r := alg.Stats().Reached; r < 100 || r > 102 {
		t.Errorf("reached %d", r)
	}

	alg = cpa.NewAlgorithm(s.Composite, cpa.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, _, err = alg.Run(ctx)
	if err != nil || st != cpa.Incomplete || alg.Reason() != "cancelled: context canceled" {
		t.Fatalf("cancelled: %v %q %v", st, alg.Reason(), err)
	}
	if alg.Waiting() != 1 || alg.Stats().Expanded != 0 {
		t.Fatalf("cancelled run changed the waitlist: %d waiting, %d expanded", alg.Waiting(), alg.Stats().Expanded)
	}
	// Resuming completes the run.
	st, _, err = alg.Run(context.Background())
	if err != nil || st != cpa.Safe || alg.Reason() != "" {
		t.Fatalf("resumed: %v %q %v", st, alg.Reason(), err)
	}
	// Init 2, main's prologue 7, the loop head 1001 times, the body 4
	// times 1000, the epilogue 4.
	if got := alg.Stats().Reached; got != 5014 {
		t.Errorf("reached %d states, want 5014", got)
	}
}

// TestContinueAfterTarget: two reachable error calls; Remove the first
// target and Run again to get the second, then Safe.
func TestContinueAfterTarget(t *testing.T) {
	b := cfatest.New()
	b.Func("main")
	c := b.Local("c", cfa.IntT)
	b.Havoc(b.V(c))
	b.If(b.Eq(b.V(c), b.I(1)), func() { b.Error() }, nil)
	b.If(b.Eq(b.V(c), b.I(2)), func() { b.Error() }, nil)
	prog := b.Finish(t)
	s := cpatest.Compose(t, prog, cpatest.Config{})
	alg := cpa.NewAlgorithm(s.Composite, cpa.Options{})
	var found []string
	for {
		st, n, err := alg.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st != cpa.Target {
			if st != cpa.Safe {
				t.Fatalf("final status %v", st)
			}
			break
		}
		found = append(found, n.Parents[0].Step.Edge.From.String())
		alg.Remove(n)
	}
	if got := strings.Join(found, ","); got != "L4,L8" {
		t.Errorf("targets at %s, want L4,L8", got)
	}
	if got := alg.ARG().Counts(); got.Targets != 2 || got.Removed != 2 {
		t.Errorf("counts %+v", got)
	}
}

// TestVia: __VERIFIER_assert(int cond) { if (!cond) reach_error(); } is
// called twice; only the call site given as Via is the property.
func TestVia(t *testing.T) {
	build := func() (*cfa.Program, *cfa.Edge, *cfa.Edge) {
		b := cfatest.New()
		b.Func("__VERIFIER_assert", cfa.IntT)
		b.If(b.Bin(cfa.Eq, b.V(b.Param(0)), b.I(0)), func() { b.Error() }, nil)
		b.Func("main")
		ok := b.Call(nil, "__VERIFIER_assert", b.I(1))
		bad := b.Call(nil, "__VERIFIER_assert", b.I(0))
		return b.Finish(t), ok, bad
	}
	for _, tc := range []struct {
		name string
		via  int // 0: none, 1: passing site, 2: failing site
		want cpa.Status
	}{{"any", 0, cpa.Target}, {"passing site", 1, cpa.Safe}, {"failing site", 2, cpa.Target}} {
		prog, ok, bad := build()
		cfg := cpatest.Config{}
		switch tc.via {
		case 1:
			cfg.Via = ok
		case 2:
			cfg.Via = bad
		}
		_, st, n := cpatest.Run(t, prog, cfg, cpa.Options{})
		if st != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, st, tc.want)
		}
		if n != nil && tc.via == 2 {
			path := n.Path()
			if e := path[len(path)-3]; e.Kind != cfa.Enter || e.Edge != bad {
				t.Errorf("%s: path does not enter through Via: %s", tc.name, pathText(path))
			}
		}
	}
}

func TestARGGraph(t *testing.T) {
	alg, _, _ := cpatest.Run(t, branchy(t), cpatest.Config{}, cpa.Options{Merge: cpa.MergeJoin})
	g := alg.ARG()
	var _ graph.Graph = g
	order, depth := graph.BFS(g, 0)
	if len(order) != g.Len() {
		t.Errorf("BFS reaches %d of %d nodes", len(order), g.Len())
	}
	for _, n := range g.Nodes {
		for _, c := range g.Succs(n.ID) {
			if c <= n.ID {
				t.Errorf("edge n%d -> n%d goes backwards", n.ID, c)
			}
		}
		if len(n.Parents) > 0 && depth[n.ID] > n.Depth {
			t.Errorf("n%d: BFS depth %d > depth %d", n.ID, depth[n.ID], n.Depth)
		}
	}
	merged := 0
	for _, n := range g.Nodes {
		if n.Merged() {
			merged++
			if n.MergedInto.ID <= n.ID && len(n.MergedInto.Parents) < 2 {
				t.Errorf("n%d merged into n%d with %d parents", n.ID, n.MergedInto.ID, len(n.MergedInto.Parents))
			}
		}
	}
	if merged == 0 {
		t.Error("no merged node")
	}
}

func TestNewCompositeErrors(t *testing.T) {
	prog := counter(t, 3)
	s := cpatest.Compose(t, prog, cpatest.Config{})
	comps := s.Composite.Components()
	if _, err := cpa.NewComposite(comps[1:]...); err == nil || !strings.Contains(err.Error(), "Stepper") {
		t.Errorf("no stepper: %v", err)
	}
	if _, err := cpa.NewComposite(comps[0], comps[1], comps[1]); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Errorf("duplicate: %v", err)
	}
	if got := s.Composite.Name(); got != "composite(location,callstack,property,value)" {
		t.Errorf("name %s", got)
	}
}
