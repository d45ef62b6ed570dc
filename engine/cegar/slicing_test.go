package cegar_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/analysis/callstack"
	"github.com/reverify/reverify/engine/analysis/location"
	"github.com/reverify/reverify/engine/analysis/property"
	"github.com/reverify/reverify/engine/analysis/slicing"
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cegar"
	"github.com/reverify/reverify/engine/cexcheck"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/pdg"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
)

// figure21 is figure 21 of seed 000 (section 3.3), rebuilt from the
// prose: the short way to the error (x < 0) is infeasible, the long one
// feasible.
const figure21 = `int main(void) {
	int x = 0;
	if (x < 0)
		goto err;
	x = x + 1;
err:
	reach_error();
	return 0;
}`

// slicingComposite translates src and builds location × callstack ×
// property × slicing(value with precision prec).
func slicingComposite(t *testing.T, src string, prec value.Precision) (*cfa.Program, *cpa.Composite, *slicing.CPA) {
	t.Helper()
	prog, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: prelude + src}})
	if err != nil {
		t.Fatal(err)
	}
	prop := spec.UnreachCall(prog, "main")
	loc, err := location.New(prog, "main")
	if err != nil {
		t.Fatal(err)
	}
	sc := slicing.New(prog, pdg.Build(prog), value.New(prog, value.Options{Precision: prec}), slicing.Options{})
	comp, err := cpa.NewComposite(loc, callstack.New(64),
		property.New(property.Spec{Name: prop.ID, ErrorEdges: prop.ErrorEdges, Via: prop.Via}), sc)
	if err != nil {
		t.Fatal(err)
	}
	return prog, comp, sc
}

func opStrings(es []*cfa.Edge) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Op.String())
	}
	return out
}

// TestFigure21Criteria: with the empty slice, the first error path of
// figure 21 goes through x < 0. It is infeasible on the full program,
// but checked on the program slice it would be feasible (the invalid
// counterexample of target-location slicing with checkPath(σ, A/c)).
// Target-path criteria are its assume edge and the error call, whose
// slice holds x = 0; the target-location criterion is the error call,
// whose slice does not.
func TestFigure21Criteria(t *testing.T) {
	prog, comp, sc := slicingComposite(t, figure21, nil)
	alg := cpa.NewAlgorithm(comp, cpa.Options{Order: cpa.BFS})
	status, target, err := alg.Run(context.Background())
	if err != nil || status != cpa.Target {
		t.Fatalf("first run: %v, %v", status, err)
	}
	path := target.Path()
	ctx := context.Background()
	if chk := cexcheck.CheckPath(ctx, prog, path, z3.Factory); chk.Status != cexcheck.Infeasible {
		t.Fatalf("full-program check: %s (%s)", chk.Status, chk.Reason)
	}
	nodes := target.PathNodes()
	sliced := make([]cfa.Step, len(path))
	for i := range path {
		sliced[i], _ = sc.WrappedStep(nodes[i].State.Comps[3].(*slicing.State), path[i], nodes[i].Prec.Comps[3].(*slicing.Precision))
	}
	if chk := cexcheck.CheckPath(ctx, prog, sliced, z3.Factory); chk.Status != cexcheck.Feasible {
		t.Errorf("check on the empty slice: %s (%s), want feasible", chk.Status, chk.Reason)
	}
	g := sc.SDG()
	for _, tt := range []struct {
		kind       cegar.SlicingCriterion
		criteria   []string
		inSlice    string
		notInSlice string
	}{
		{cegar.TargetPath, []string{"[x < 0]", "reach_error()"}, "x = 0", "x = x + 1"},
		{cegar.TargetLocation, []string{"reach_error()"}, "reach_error()", "x = 0"},
	} {
		crit := cegar.SlicingCriteria(tt.kind, path)
		if got := opStrings(crit); !slices.Equal(got, tt.criteria) {
			t.Errorf("%s criteria %q, want %q", tt.kind, got, tt.criteria)
		}
		ops := strings.Join(opStrings(g.Slice(crit).Edges()), "; ")
		if !strings.Contains(ops, tt.inSlice) || strings.Contains(ops, tt.notInSlice) {
			t.Errorf("%s slice %q: want %q in it, not %q", tt.kind, ops, tt.inSlice, tt.notInSlice)
		}
	}
	if _, err := cegar.ParseSlicingCriterion("edge"); err == nil {
		t.Error("ParseSlicingCriterion accepted edge")
	}
}

// recorder is a delegate refiner that records the path it is given.
type recorder struct {
	calls int
	steps []string
	state string
}

func (r *recorder) Refine(ctx context.Context, nodes []*cpa.Node, arg *cpa.ARG) (*cpa.CompositePrecision, *cpa.Node, error) {
	r.calls++
	r.steps = nil
	for _, n := range nodes[1:] {
		if e := n.Parents[0].Step.Edge; e != nil {
			r.steps = append(r.steps, e.Op.String())
		}
	}
	r.state = fmt.Sprintf("%T", nodes[len(nodes)-1].State.Comps[3])
	return nil, nil, fmt.Errorf("%w: recorded", cegar.ErrNoProgress)
}

// TestSlicingDelegation runs slicing refinement around a value analysis
// that tracks nothing on the running example: the first refinement adds
// the target-path slice (x, y = 1, the first loop, the branch); the
// error path comes back (y is not tracked), the slice does not grow,
// and the refinement is delegated to the wrapped analysis's refiner,
// which sees the path as the value analysis saw it: value states, and
// w's assignments as no-ops.
func TestSlicingDelegation(t *testing.T) {
	prog, comp, _ := slicingComposite(t, runningExample, value.NewScopedPrecision())
	rec := &recorder{}
	ref, err := cegar.NewSlicingRefiner(prog, comp, cegar.SlicingOptions{Solver: z3.Factory,
		Delegate: func(unwrapped *cpa.Composite) (cegar.Refiner, error) {
			if i := unwrapped.Index("value"); i != 3 {
				return nil, fmt.Errorf("unwrapped composite %s", unwrapped.Name())
			}
			return rec, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	res := cegar.Run(context.Background(), prog, comp, cegar.Options{Algorithm: cpa.Options{Order: cpa.BFS}, Solver: z3.Factory, Refiner: ref, Restart: cegar.RestartRoot})
	if res.Status != cegar.Unknown || !strings.Contains(res.Reason, "recorded") {
		t.Fatalf("%s (%s)", res.Status, res.Reason)
	}
	if ref.Stats.Slices != 1 || ref.Stats.Delegated != 1 || rec.calls != 1 || res.Stats.Refinements != 1 {
		t.Errorf("stats %+v, delegate calls %d, refinements %d", ref.Stats, rec.calls, res.Stats.Refinements)
	}
	steps := strings.Join(rec.steps, "; ")
	for _, want := range []string{"sliced: w = w * 2", "y = 1", "[x < 0]", "[y < 0]"} {
		if !strings.Contains(steps, want) {
			t.Errorf("delegate's path %q lacks %q", steps, want)
		}
	}
	if strings.Contains(steps, "; w = w * 2") || rec.state != "*value.State" {
		t.Errorf("delegate's path %q, state %s", steps, rec.state)
	}
	want := []string{"slice main:L11->L12", "slice main:L11->L15", "slice main:L12->L13", "slice main:L12->L15",
		"slice main:L13->L14", "slice main:L2->L3", "slice main:L4->L5", "slice main:L7->L8", "slice main:L7->L9", "slice main:L8->L7"}
	if got := ref.PrintPrecision(res.Precision); !slices.Equal(got, want) {
		t.Errorf("precision %q, want %q", got, want)
	}
}

// TestFigure21Run runs slicing refinement around the value analysis
// (full precision) on figure 21: target-path slicing finds the feasible
// error path after one refinement when every path is checked first (the
// seed's order), after two with LazyCheck (the slice of the feasible
// path is added before it is checked); target-location slicing refines
// once and then makes no progress on the same infeasible path.
func TestFigure21Run(t *testing.T) {
	for _, tt := range []struct {
		kind        cegar.SlicingCriterion
		lazy        bool
		status      cegar.Status
		refinements int
	}{
		{cegar.TargetPath, false, cegar.Unsafe, 1},
		{cegar.TargetPath, true, cegar.Unsafe, 2},
		{cegar.TargetLocation, false, cegar.Unknown, 1},
		{cegar.TargetLocation, true, cegar.Unknown, 1},
	} {
		prog, comp, _ := slicingComposite(t, figure21, nil)
		ref, err := cegar.NewSlicingRefiner(prog, comp, cegar.SlicingOptions{Criterion: tt.kind, LazyCheck: tt.lazy, Solver: z3.Factory})
		if err != nil {
			t.Fatal(err)
		}
		res := cegar.Run(context.Background(), prog, comp, cegar.Options{Algorithm: cpa.Options{Order: cpa.BFS}, Solver: z3.Factory, Refiner: ref, Restart: cegar.RestartRoot})
		if res.Status != tt.status || res.Stats.Refinements != tt.refinements {
			t.Errorf("%s, lazy %v: %s (%s), %d refinements; want %s, %d", tt.kind, tt.lazy, res.Status, res.Reason, res.Stats.Refinements, tt.status, tt.refinements)
		}
		if res.Status == cegar.Unsafe && !strings.Contains(strings.Join(opStrings(stepEdges(res.Path)), "; "), "x = x + 1") {
			t.Errorf("%s: counterexample %q", tt.kind, opStrings(stepEdges(res.Path)))
		}
	}
}

func stepEdges(path []cfa.Step) []*cfa.Edge {
	var out []*cfa.Edge
	for _, s := range path {
		if s.Edge != nil && s.Kind == cfa.Intra {
			out = append(out, s.Edge)
		}
	}
	return out
}
