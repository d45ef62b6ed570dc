package pdg

import (
	"slices"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// inliner copies a program without recursion, pointers or function
// pointers into a single function, every call of a function with a body
// replaced by a copy of the callee's CFA with fresh locals (parameters
// bound by assignments, returns turned into assignments to a fresh return
// variable). It remembers which original edge each copied edge comes from
// and in which call instance it lies.
type inliner struct {
	np      *cfa.Program
	nf      *cfa.Function
	orig    map[*cfa.Edge]*cfa.Edge
	inst    map[*cfa.Edge]int
	parent  []int       // instance → enclosing instance (-1 for the top)
	callOf  []*cfa.Edge // instance → the original call edge
	globals map[*cfa.Var]*cfa.Var

	condCache map[any]cfa.Expr
	leave     map[*cfa.Edge]bool // copies that store a call's result
	last      *cfa.Edge
}

func inline(p *cfa.Program, top *cfa.Function) *inliner {
	in := &inliner{np: cfa.NewProgram(p.DataModel), orig: map[*cfa.Edge]*cfa.Edge{}, inst: map[*cfa.Edge]int{}, leave: map[*cfa.Edge]bool{}, globals: map[*cfa.Var]*cfa.Var{}}
	for _, g := range p.Globals {
		in.globals[g] = in.np.NewVar(nil, g.Name, g.T)
	}
	in.np.AddEdge(in.np.Init.Entry, in.np.Init.Exit, &cfa.Noop{Label: "skip"}, cfa.Range{}, "")
	in.nf = in.np.NewFunction(top.Name, top.T)
	vmap := in.fresh(top, true)
	if top.RetVar != nil {
		in.nf.RetVar = vmap[top.RetVar]
	}
	in.parent = []int{-1}
	in.callOf = []*cfa.Edge{nil}
	in.body(p, top, in.nf.Entry, in.nf.Exit, vmap, 0, true)
	in.np.Finish()
	return in
}

func (in *inliner) fresh(f *cfa.Function, top bool) map[*cfa.Var]*cfa.Var {
	vmap := map[*cfa.Var]*cfa.Var{}
	for g, ng := range in.globals {
		vmap[g] = ng
	}
	add := func(v *cfa.Var) {
		if v != nil && vmap[v] == nil {
			nv := in.np.NewVar(in.nf, v.Name, v.T)
			if top && v.Param {
				nv.Param = true
				in.nf.Params = append(in.nf.Params, nv)
			}
			vmap[v] = nv
		}
	}
	for _, v := range f.Params {
		add(v)
	}
	for _, v := range f.Locals {
		add(v)
	}
	add(f.RetVar)
	return vmap
}

func (in *inliner) edge(from, to *cfa.Location, op cfa.Op, orig *cfa.Edge, inst int) {
	in.last = in.np.AddEdge(from, to, op, orig.Pos, orig.Text)
	in.orig[in.last] = orig
	in.inst[in.last] = inst
}

func (in *inliner) body(p *cfa.Program, f *cfa.Function, entry, exit *cfa.Location, vmap map[*cfa.Var]*cfa.Var, inst int, top bool) {
	locs := make([]*cfa.Location, len(f.Locs))
	for i, l := range f.Locs {
		switch l {
		case f.Entry:
			locs[i] = entry
		case f.Exit:
			locs[i] = exit
		default:
			locs[i] = in.np.NewLocation(in.nf)
		}
		locs[i].Terminal = l.Terminal
		locs[i].Dead = l.Dead
	}
	for _, l := range f.Locs {
		for _, e := range l.Out {
			from, to := locs[e.From.Index], locs[e.To.Index]
			switch op := e.Op.(type) {
			case *cfa.Call:
				g := p.Func(op.Fn)
				if g == nil {
					in.edge(from, to, &cfa.Call{Fn: op.Fn, Args: rewriteAll(op.Args, vmap), Result: rewriteOpt(op.Result, vmap)}, e, inst)
					continue
				}
				child := len(in.parent)
				in.parent = append(in.parent, inst)
				in.callOf = append(in.callOf, e)
				gm := in.fresh(g, false)
				// enter first: a non-terminating loop's augmentation may
				// pick the call's location, whose branch node is then the
				// call (not the argument bindings, as in the SDG).
				cur := in.np.NewLocation(in.nf)
				in.edge(from, cur, &cfa.Noop{Label: "enter"}, e, inst)
				for i, a := range op.Args {
					next := in.np.NewLocation(in.nf)
					in.edge(cur, next, &cfa.Assign{LHS: &cfa.VarRef{Var: gm[g.Params[i]]}, RHS: rewrite(a, vmap)}, e, inst)
					cur = next
				}
				// Every call has fresh locals.
				for _, v := range append(slices.Clone(g.Locals), g.RetVar) {
					if v == nil || v.Param {
						continue
					}
					next := in.np.NewLocation(in.nf)
					in.edge(cur, next, &cfa.Decl{Var: gm[v]}, e, inst)
					cur = next
				}
				gEntry := cur
				gExit := in.np.NewLocation(in.nf)
				in.body(p, g, gEntry, gExit, gm, child, false)
				if op.Result != nil && g.RetVar != nil {
					in.edge(gExit, to, &cfa.Assign{LHS: rewrite(op.Result, vmap), RHS: &cfa.VarRef{Var: gm[g.RetVar]}}, e, inst)
				} else {
					in.edge(gExit, to, &cfa.Noop{Label: "leave"}, e, inst)
				}
				in.leave[in.last] = true
			case *cfa.Return:
				if top {
					in.edge(from, to, &cfa.Return{X: rewriteOpt(op.X, vmap)}, e, inst)
				} else if op.X != nil {
					in.edge(from, to, &cfa.Assign{LHS: &cfa.VarRef{Var: vmap[f.RetVar]}, RHS: rewrite(op.X, vmap)}, e, inst)
				} else {
					in.edge(from, to, &cfa.Noop{Label: "return"}, e, inst)
				}
			case *cfa.Assign:
				in.edge(from, to, &cfa.Assign{LHS: rewrite(op.LHS, vmap), RHS: rewrite(op.RHS, vmap)}, e, inst)
			case *cfa.Havoc:
				in.edge(from, to, &cfa.Havoc{LHS: rewrite(op.LHS, vmap), Source: op.Source}, e, inst)
			case *cfa.Assume:
				// Both edges of a pair must share the condition.
				c := rewriteShared(op.Cond, vmap, in, inst)
				in.edge(from, to, &cfa.Assume{Cond: c, Truth: op.Truth}, e, inst)
			case *cfa.Decl:
				in.edge(from, to, &cfa.Decl{Var: vmap[op.Var]}, e, inst)
			default:
				in.edge(from, to, op, e, inst)
			}
		}
	}
}

// rewriteShared rewrites an assume condition once per call instance, so
// both edges of a copied branch share it.
func rewriteShared(c cfa.Expr, vmap map[*cfa.Var]*cfa.Var, in *inliner, inst int) cfa.Expr {
	type key struct {
		c    cfa.Expr
		inst int
	}
	if in.condCache == nil {
		in.condCache = map[any]cfa.Expr{}
	}
	k := key{c, inst}
	if x, ok := in.condCache[k]; ok {
		return x
	}
	x := rewrite(c, vmap)
	in.condCache[k] = x
	return x
}

func rewriteOpt(x cfa.Expr, vmap map[*cfa.Var]*cfa.Var) cfa.Expr {
	if x == nil {
		return nil
	}
	return rewrite(x, vmap)
}

func rewriteAll(xs []cfa.Expr, vmap map[*cfa.Var]*cfa.Var) []cfa.Expr {
	out := make([]cfa.Expr, len(xs))
	for i, x := range xs {
		out[i] = rewrite(x, vmap)
	}
	return out
}

func rewrite(x cfa.Expr, vmap map[*cfa.Var]*cfa.Var) cfa.Expr {
	switch x := x.(type) {
	case *cfa.VarRef:
		return &cfa.VarRef{Var: vmap[x.Var]}
	case *cfa.Unary:
		return &cfa.Unary{Op: x.Op, X: rewrite(x.X, vmap), T: x.T}
	case *cfa.Binary:
		return &cfa.Binary{Op: x.Op, X: rewrite(x.X, vmap), Y: rewrite(x.Y, vmap), T: x.T}
	case *cfa.Cast:
		return &cfa.Cast{X: rewrite(x.X, vmap), T: x.T}
	case *cfa.Deref:
		return &cfa.Deref{X: rewrite(x.X, vmap), T: x.T}
	case *cfa.AddrOf:
		return &cfa.AddrOf{X: rewrite(x.X, vmap), T: x.T}
	case *cfa.Member:
		return &cfa.Member{X: rewrite(x.X, vmap), Field: x.Field, T: x.T}
	case *cfa.Index:
		return &cfa.Index{X: rewrite(x.X, vmap), I: rewrite(x.I, vmap), T: x.T}
	}
	return x
}

// slice maps a slice of the inlined program back: every original edge with
// a relevant copy, and every call whose instance holds a relevant edge.
func (in *inliner) slice(s *Slice) []*cfa.Edge {
	set := map[*cfa.Edge]bool{}
	for _, e := range s.Edges() {
		set[in.orig[e]] = true
		for k := in.inst[e]; k > 0; k = in.parent[k] {
			set[in.callOf[k]] = true
		}
	}
	var out []*cfa.Edge
	for e := range set {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *cfa.Edge) int { return a.ID - b.ID })
	return out
}

// copies returns the copies of original edge e (for a call: the copies
// that bind the arguments and enter the callee, which stand for reaching
// the call with its arguments).
func (in *inliner) copies(e *cfa.Edge) []*cfa.Edge {
	var out []*cfa.Edge
	for c, o := range in.orig {
		if o == e && !in.leave[c] {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *cfa.Edge) int { return a.ID - b.ID })
	return out
}

// The SDG's context-sensitive slices of programs with calls contain the
// slices of the fully inlined program (computed by the naive slicer)
// mapped back to the original edges, and equal them when no function has
// a non-terminating loop. (With one, the inlined program can be more
// precise: a loop around a call that never ends makes everything inside
// it post-dominated by the callee's way into its own endless loop, while
// the SDG judges control dependence one function at a time.) The fast
// tier (go test -short) compares 60 programs, the full tier 300.
func TestInterproceduralSliceAgreesWithInlining(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	skipped, exact := 0, 0
	for seed := range n {
		p := randomProgram(t, uint64(1000+seed), 3, 9)
		g := Build(p)
		if !allCalled(g) {
			skipped++
			continue
		}
		in := inline(p, p.Funcs[0])
		if err := in.np.Check(); err != nil {
			t.Fatalf("seed %d: inlined program: %v", seed, err)
		}
		if len(in.nf.Locs) > 150 {
			skipped++
			continue
		}
		ig := Build(in.np)
		ref := newRef(ig, in.nf)
		terminating := true
		for _, fi := range g.funcs {
			for _, r := range fi.loopRep {
				terminating = terminating && !r
			}
		}
		if terminating {
			exact++
		}
		for _, e := range p.Edges {
			cs := in.copies(e)
			if len(cs) == 0 {
				continue // in dead code
			}
			got := g.Slice([]*cfa.Edge{e}).Edges()
			want := in.slice(&Slice{g: ig, edges: bitsOf(ig, ref(cs))})
			missing := slices.DeleteFunc(slices.Clone(want), func(x *cfa.Edge) bool { return slices.Contains(got, x) })
			if len(missing) > 0 || terminating && !slices.Equal(got, want) {
				t.Fatalf("seed %d: slice of %s in %s:\n got %v\nwant %v\n%s\ninlined:\n%s", seed, e, e.From.Func.Name, got, want, p.Text(), in.np.Text())
			}
		}
	}
	t.Logf("%d programs compared exactly, %d skipped", exact, skipped)
	if exact < n/5 || skipped > 2*n/3 {
		t.Errorf("only %d programs compared exactly, %d of %d skipped", exact, skipped, n)
	}
}

func bitsOf(g *SDG, es []*cfa.Edge) []uint64 {
	b := make([]uint64, (len(g.Prog.Edges)+63)/64)
	for _, e := range es {
		b[e.ID/64] |= 1 << (e.ID % 64)
	}
	return b
}

// allCalled reports whether every function but the first has a caller
// whose edges the first reaches (so the first is the only entry).
func allCalled(g *SDG) bool {
	reach := graph.Reachable(callGraphOf(g), 1)
	for i := 2; i < len(g.funcs); i++ {
		if !reach[i] {
			return false
		}
	}
	return true
}

func callGraphOf(g *SDG) *graph.Adjacency {
	cg := graph.NewAdjacency(len(g.funcs))
	for _, si := range g.sites {
		for _, t := range si.targets {
			cg.AddEdge(si.fn, t)
		}
	}
	return cg
}

// With every interface collapsed into the rest, slices stay sound: they
// contain the slices of the inlined program. The fast tier (go test
// -short) checks 30 programs per limit, the full tier 150.
func TestCollapsedInterfacesAreSound(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	defer func(l int) { restLimit = l }(restLimit)
	for _, limit := range []int{0, 1} {
		restLimit = limit
		for seed := range n {
			p := randomProgram(t, uint64(1000+seed), 3, 9)
			g := Build(p)
			if !allCalled(g) {
				continue
			}
			in := inline(p, p.Funcs[0])
			if len(in.nf.Locs) > 150 {
				continue
			}
			ig := Build(in.np)
			ref := newRef(ig, in.nf)
			for _, e := range p.Edges {
				cs := in.copies(e)
				if len(cs) == 0 {
					continue
				}
				got := g.Slice([]*cfa.Edge{e}).Edges()
				want := in.slice(&Slice{g: ig, edges: bitsOf(ig, ref(cs))})
				missing := slices.DeleteFunc(slices.Clone(want), func(x *cfa.Edge) bool { return slices.Contains(got, x) })
				if len(missing) > 0 {
					t.Fatalf("limit %d, seed %d: slice of %s in %s misses %v\n got %v\n%s", limit, seed, e, e.From.Func.Name, missing, got, p.Text())
				}
			}
		}
	}
}
