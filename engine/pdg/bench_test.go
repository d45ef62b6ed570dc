package pdg

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
)

// structuredProgram generates a program of nfuncs functions with about
// locsPerFunc locations each, of the shape real C code has: nested ifs and
// while loops, assignments to locals and to nglobals globals, pointers to
// locals and globals, arrays, heap cells, calls to later functions (and a
// few recursive ones) and through a function pointer. giantSCC makes the
// recursive calls go to random earlier functions, which puts almost every
// function into one strongly connected component of the call graph.
// Deterministic in seed.
func structuredProgram(t testing.TB, seed uint64, nfuncs, locsPerFunc, nglobals int) *cfa.Program {
	r := rand.New(rand.NewPCG(seed, seed^0x5bd1e995))
	p := newTP(t)
	p.strct("cell", "int v; cell* next")
	var gs []string
	for i := range nglobals {
		gs = append(gs, fmt.Sprintf("g%d", i))
	}
	p.globals("int " + strings.Join(gs, " ") + "; int[64] garr; void* fp")
	fns := make([]*tfn, nfuncs)
	for i := range fns {
		fns[i] = p.fn(fmt.Sprintf("f%d", i), "int", "n0", "n1", "int a, int* q")
		fns[i].locals("int x0 x1 x2 x3 x4 x5; int* p0 p1; int[8] arr; cell* c")
	}
	ints := []string{"x0", "x1", "x2", "x3", "x4", "x5", "a"}
	for i, f := range fns {
		n := 2
		fresh := func() string { n++; return fmt.Sprintf("n%d", n) }
		iv := func() string {
			if r.IntN(4) == 0 {
				return gs[r.IntN(len(gs))]
			}
			return ints[r.IntN(len(ints))]
		}
		expr := func() string {
			switch r.IntN(5) {
			case 0:
				return fmt.Sprint(r.IntN(100))
			case 1:
				return iv() + " + " + fmt.Sprint(r.IntN(9))
			default:
				return iv() + " + " + iv()
			}
		}
		outParam := r.IntN(4) == 0 // writes through its pointer parameter
		simple := func(from, to string) {
			switch c := r.IntN(40); {
			case c < 14:
				f.e(fmt.Sprintf("%s %s %s = %s", from, to, iv(), expr()))
			case c < 16:
				f.e(fmt.Sprintf("%s %s %s = ?", from, to, iv()))
			case c < 18:
				f.e(fmt.Sprintf("%s %s p%d = &%s", from, to, r.IntN(2), iv()))
			case c < 20:
				f.e(fmt.Sprintf("%s %s *p%d = %s", from, to, r.IntN(2), expr()))
			case c < 21:
				f.e(fmt.Sprintf("%s %s %s = *p%d", from, to, ints[r.IntN(6)], r.IntN(2)))
			case c < 22:
				f.e(fmt.Sprintf("%s %s arr[%s] = %s", from, to, iv(), iv()))
			case c < 23:
				f.e(fmt.Sprintf("%s %s %s = garr[%s]", from, to, ints[r.IntN(6)], iv()))
			case c < 24:
				f.e(fmt.Sprintf("%s %s call c = malloc(16)", from, to))
			case c < 25:
				f.e(fmt.Sprintf("%s %s c->v = %s", from, to, iv()))
			case c < 27 && outParam:
				f.e(fmt.Sprintf("%s %s *q = %s", from, to, iv()))
			case c < 32 && i+1 < nfuncs:
				callee := i + 1 + r.IntN(min(nfuncs-i-1, 8))
				if r.IntN(50) == 0 {
					callee = i // recursion
				}
				arg := fmt.Sprintf("&%s", ints[r.IntN(6)])
				if r.IntN(2) == 0 {
					arg = "p0"
				}
				f.e(fmt.Sprintf("%s %s call %s = f%d(%s, %s)", from, to, ints[r.IntN(6)], callee, iv(), arg))
			case c < 33:
				f.e(fmt.Sprintf("%s %s fp = f%d", from, to, nfuncs-1-r.IntN(min(nfuncs, 5))))
			case c < 34 && i+1 < nfuncs:
				f.e(fmt.Sprintf("%s %s call %s = (*fp)(%s, &%s)", from, to, ints[r.IntN(6)], iv(), ints[r.IntN(6)]))
			default:
				f.e(fmt.Sprintf("%s %s skip", from, to))
			}
		}
		var seq func(from, to string, budget, depth int)
		seq = func(from, to string, budget, depth int) {
			cur := from
			for budget > 0 {
				next := to
				if budget > 1 {
					next = fresh()
				}
				switch c := r.IntN(10); {
				case c < 2 && depth < 6 && budget > 6:
					t, e := fresh(), fresh()
					f.br(fmt.Sprintf("%s %s %s %s < %s", cur, t, e, iv(), iv()))
					k := r.IntN(budget / 2)
					seq(t, next, k+1, depth+1)
					seq(e, next, budget/2-k+1, depth+1)
					budget -= budget/2 + 3
				case c < 3 && depth < 6 && budget > 6 && cur != "n0":
					body := fresh()
					f.br(fmt.Sprintf("%s %s %s %s < %s", cur, body, next, iv(), iv()))
					k := budget / 3
					seq(body, cur, k, depth+1)
					budget -= k + 2
				default:
					simple(cur, next)
					budget--
				}
				cur = next
			}
		}
		f.e("n0 n2 x0 = a")
		seq("n2", "n3x", locsPerFunc-4, 0)
		f.e("n3x n1 return x0 + x1")
	}
	m := p.fn("main", "int", "m0", "m9", "")
	m.locals("int r")
	m.e("m0 m1 call r = f0(1, &r)")
	m.e("m1 m9 return r")
	return fixProgram(t, p)
}

// BenchmarkBuild reports the time to build the SDG of generated programs
// of about 10 000 and 100 000 locations (100 and 1 000 functions of 100
// locations, 50 globals), per build (ns/op) and per location (ns/loc).
func BenchmarkBuild(b *testing.B) {
	for _, funcs := range []int{100, 1000} {
		p := structuredProgram(b, 1, funcs, 100, 50)
		b.Run(fmt.Sprintf("locs=%d", len(p.Locs)), func(b *testing.B) {
			for b.Loop() {
				Build(p)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(p.Locs)), "ns/loc")
		})
	}
}

// BenchmarkSlice reports the time of slicing a 100 000-location program
// for the return of one of its functions.
func BenchmarkSlice(b *testing.B) {
	p := structuredProgram(b, 1, 1000, 100, 50)
	g := Build(p)
	crit := []*cfa.Edge{p.Funcs[len(p.Funcs)/2].Exit.In[0]}
	b.ResetTimer()
	for b.Loop() {
		g.Slice(crit)
	}
}
