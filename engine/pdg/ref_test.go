package pdg

import (
	"slices"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// refSlice is a naive intraprocedural slicer for programs without pointers
// and calls, straight from the definitions in seed 000, section 2.4.1:
// reaching definitions as sets of edges iterated to a fixpoint, control
// dependence by the definition of post-dominance (n is post-dominated by d
// iff n cannot reach the end without d) on the augmented CFA g built, and
// Algorithm 1's worklist closure.
func refSlice(g *SDG, f *cfa.Function, criteria []*cfa.Edge) []*cfa.Edge {
	return newRef(g, f)(criteria)
}

// newRef precomputes refSlice's tables for f and returns the slicer.
func newRef(g *SDG, f *cfa.Function) func(criteria []*cfa.Edge) []*cfa.Edge {
	defs := func(e *cfa.Edge) *cfa.Var {
		switch op := e.Op.(type) {
		case *cfa.Assign:
			return op.LHS.(*cfa.VarRef).Var
		case *cfa.Havoc:
			return op.LHS.(*cfa.VarRef).Var
		case *cfa.Decl:
			return op.Var
		case *cfa.Return:
			return f.RetVar
		}
		return nil
	}
	uses := func(e *cfa.Edge) []*cfa.Var {
		switch op := e.Op.(type) {
		case *cfa.Assign:
			return cfa.Vars(op.RHS)
		case *cfa.Assume:
			return cfa.Vars(op.Cond)
		case *cfa.Return:
			if op.X != nil {
				return cfa.Vars(op.X)
			}
		}
		return nil
	}
	n := len(f.Locs)
	// Reaching definitions at each location.
	rd := make([]map[*cfa.Edge]bool, n)
	for i := range rd {
		rd[i] = map[*cfa.Edge]bool{}
	}
	for changed := true; changed; {
		changed = false
		for _, l := range f.Locs {
			for _, e := range l.Out {
				d := defs(e)
				for x := range rd[l.Index] {
					if d != nil && defs(x) == d {
						continue
					}
					if !rd[e.To.Index][x] {
						rd[e.To.Index][x] = true
						changed = true
					}
				}
				if d != nil && !rd[e.To.Index][e] {
					rd[e.To.Index][e] = true
					changed = true
				}
			}
		}
	}
	// Post-dominance by definition on the augmented CFA.
	aug := g.Augmented(f)
	end := n
	reachWithout := func(from, without int) bool {
		if from == without {
			return false
		}
		seen := make([]bool, n+1)
		stack := []int{from}
		seen[from] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if v == end {
				return true
			}
			for _, w := range aug.Succs(v) {
				if w != without && !seen[w] {
					seen[w] = true
					stack = append(stack, w)
				}
			}
		}
		return false
	}
	pd := make([][]bool, n+1) // pd[d][x]: d post-dominates x
	for d := range n + 1 {
		pd[d] = make([]bool, n+1)
		for x := range n + 1 {
			pd[d][x] = d == x || !reachWithout(x, d)
		}
	}
	pdom := func(d, x int) bool { return pd[d][x] }
	cds := make([][]int, n)
	for l := range n {
		for y := range n {
			for _, s := range aug.Succs(y) {
				if pdom(l, s) && !(l != y && pdom(l, y)) {
					cds[l] = append(cds[l], y)
					break
				}
			}
		}
	}
	cd := func(l int) []int { return cds[l] }
	return func(criteria []*cfa.Edge) []*cfa.Edge {
		in := map[*cfa.Edge]bool{}
		work := slices.Clone(criteria)
		for len(work) > 0 {
			e := work[len(work)-1]
			work = work[:len(work)-1]
			if in[e] {
				continue
			}
			in[e] = true
			for _, v := range uses(e) {
				for d := range rd[e.From.Index] {
					if defs(d) == v {
						work = append(work, d)
					}
				}
			}
			for _, y := range cd(e.From.Index) {
				work = append(work, f.Locs[y].Out...)
			}
		}
		var out []*cfa.Edge
		for e := range in {
			out = append(out, e)
		}
		slices.SortFunc(out, func(a, b *cfa.Edge) int { return a.ID - b.ID })
		return out
	}
}

// The SDG's slices of single-function programs equal the naive slicer's,
// for every edge as criterion; and the augmented CFA lets every location
// reach the end.
func TestSliceAgreesWithReference(t *testing.T) {
	for seed := range 150 {
		p := randomProgram(t, uint64(seed), 1, 14)
		g := Build(p)
		f := p.Funcs[0]
		aug := g.Augmented(f)
		back := graph.Reachable(graph.Reverse(aug), len(f.Locs))
		for i, ok := range back[:len(f.Locs)] {
			if !ok {
				t.Fatalf("seed %d: L%d cannot reach the end of the augmented CFA", seed, i)
			}
		}
		ref := newRef(g, f)
		for _, l := range f.Locs {
			for _, e := range l.Out {
				got := g.Slice([]*cfa.Edge{e}).Edges()
				want := ref([]*cfa.Edge{e})
				if !slices.Equal(got, want) {
					t.Fatalf("seed %d: slice of %s:\n got %v\nwant %v\n%s", seed, e, got, want, p.Text())
				}
			}
		}
	}
}
