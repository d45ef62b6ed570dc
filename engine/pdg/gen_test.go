package pdg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// randomProgram builds a program of nfuncs functions with about nlocs
// locations each, with unstructured control flow (random branches, loops,
// Terminal locations), integer locals x0..x3 and globals g0, g1. Function
// i calls only functions j > i (no recursion). Deterministic in seed.
func randomProgram(t testing.TB, seed uint64, nfuncs, nlocs int) *cfa.Program {
	r := rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1))
	p := newTP(t)
	p.globals("int g0 g1")
	fns := make([]*tfn, nfuncs)
	for i := range fns {
		fns[i] = p.fn(fmt.Sprintf("f%d", i), "int", "L0", "L1", "int a")
		fns[i].locals("int x0 x1 x2 x3")
	}
	vars := []string{"x0", "x1", "x2", "x3", "g0", "g1", "a"}
	v := func() string { return vars[r.IntN(len(vars))] }
	for i, f := range fns {
		names := []string{"L0"}
		for k := 2; k < nlocs; k++ {
			names = append(names, fmt.Sprintf("L%d", k))
		}
		extra := 0
		pick := func() string {
			if r.IntN(6) == 0 {
				return "L1"
			}
			return names[1+r.IntN(len(names)-1)]
		}
		for k, l := range names {
			next := "L1"
			if k+1 < len(names) {
				next = names[k+1]
			}
			c := r.IntN(20)
			if i+1 < nfuncs && r.IntN(5) == 0 {
				c = 7 // more calls, so every function tends to be called
			}
			switch {
			case c < 6:
				t, e := next, pick()
				if r.IntN(8) == 0 {
					extra++
					e = fmt.Sprintf("T%d", extra)
					f.term(e)
				}
				if r.IntN(2) == 0 {
					t, e = e, t
				}
				f.br(fmt.Sprintf("%s %s %s %s < %s", l, t, e, v(), v()))
			case c < 8 && i+1 < nfuncs:
				callee := i + 1 + r.IntN(nfuncs-i-1)
				f.e(fmt.Sprintf("%s %s call %s = f%d(%s)", l, next, v(), callee, v()))
			case c < 9:
				f.e(fmt.Sprintf("%s %s %s = ?", l, next, v()))
			case c < 10:
				f.e(fmt.Sprintf("%s %s return %s", l, "L1", v()))
				// Keep the chain: the next location must stay reachable.
				if next != "L1" {
					f.e(fmt.Sprintf("%s %s skip", names[r.IntN(k+1)], next))
				}
			case c < 11:
				f.e(fmt.Sprintf("%s %s skip", l, next))
			default:
				target := next
				if r.IntN(5) == 0 {
					target = pick()
				}
				f.e(fmt.Sprintf("%s %s %s = %s + %s", l, target, v(), v(), v()))
				if target != next {
					f.e(fmt.Sprintf("%s %s skip", names[r.IntN(k+1)], next))
				}
			}
		}
	}
	return fixProgram(t, p)
}

// fixProgram repairs locations that got more than one group of out-edges
// (an assume pair, or a single other edge) by the "keep the chain" edges:
// the groups are spread over new locations reached through branches on a
// nondeterministic variable. Then it checks the program.
func fixProgram(t testing.TB, p *tp) *cfa.Program {
	for _, f := range p.p.Funcs {
		tf := p.fns[f.Name]
		for _, l := range f.Locs {
			var groups [][]*cfa.Edge
			for i := 0; i < len(l.Out); i++ {
				e := l.Out[i]
				if a, ok := e.Op.(*cfa.Assume); ok && i+1 < len(l.Out) {
					if b, ok := l.Out[i+1].Op.(*cfa.Assume); ok && a.Cond == b.Cond {
						groups = append(groups, []*cfa.Edge{e, l.Out[i+1]})
						i++
						continue
					}
				}
				groups = append(groups, []*cfa.Edge{e})
			}
			if len(groups) < 2 {
				continue
			}
			nd := tf.vars["__nd"]
			if nd == nil {
				tf.locals("int __nd")
				nd = tf.vars["__nd"]
			}
			l.Out = nil
			spread(p.p, f, l, groups, nd)
		}
	}
	return p.done()
}

func spread(p *cfa.Program, f *cfa.Function, l *cfa.Location, groups [][]*cfa.Edge, nd *cfa.Var) {
	if len(groups) == 1 {
		for _, e := range groups[0] {
			e.From = l
			l.Out = append(l.Out, e)
		}
		return
	}
	l1 := p.NewLocation(f)
	l2 := p.NewLocation(f)
	c := &cfa.Binary{Op: cfa.Ne, X: &cfa.VarRef{Var: nd}, Y: cfa.NewConst(cfa.IntT, 0), T: cfa.IntT}
	p.AddEdge(l, l1, &cfa.Assume{Cond: c, Truth: true}, cfa.Range{}, "")
	p.AddEdge(l, l2, &cfa.Assume{Cond: c, Truth: false}, cfa.Range{}, "")
	spread(p, f, l1, groups[:1], nd)
	spread(p, f, l2, groups[1:], nd)
}
