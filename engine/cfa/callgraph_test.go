package cfa_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend"
)

// edgesOf lists a call graph's edges as "caller->callee", sorted.
func edgesOf(cg *cfa.CallGraph) []string {
	var out []string
	for n, f := range cg.Funcs {
		for _, m := range cg.Graph.Succs(n) {
			out = append(out, f.Name+"->"+cg.Funcs[m].Name)
		}
	}
	slices.Sort(out)
	return out
}

func TestSyntacticCallGraph(t *testing.T) {
	src := `
extern void lib(void (*cb)(void));   /* unmodelled: may call back */
extern int printf(const char *, ...); /* no effect */
int g;
void cb(void) { g = 1; }
void leaf(void) { g = 2; }
void viaptr(void) { g = 3; }
void (*fp)(void) = viaptr;
void mid(void) { leaf(); printf("x"); }
void unused(void) { mid(); }
int main(void) { mid(); fp(); lib(cb); return 0; }
`
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(p.AddressTaken(), ","), "cb,viaptr"; got != want {
		t.Errorf("AddressTaken = %s, want %s", got, want)
	}
	cg := cfa.NewCallGraph(p, p.Edges, p.SyntacticTargets())
	want := []string{
		"main->cb", "main->mid", "main->viaptr", // fp() and lib's callbacks: every address-taken function
		"mid->leaf", "unused->mid",
	}
	if got := edgesOf(cg); !slices.Equal(got, want) {
		t.Errorf("call graph edges\n got %v\nwant %v", got, want)
	}
	reach := cg.Reachable(p.Init, p.Func("main"))
	for _, name := range []string{"main", "mid", "leaf", "cb", "viaptr"} {
		if !reach[name] {
			t.Errorf("%s not reachable from main", name)
		}
	}
	if reach["unused"] {
		t.Error("unused reachable from main")
	}
	// A resolver that knows better: only the slice of one call edge.
	var callEdges []*cfa.Edge
	for _, l := range p.Func("mid").Locs {
		for _, e := range l.Out {
			if _, ok := e.Op.(*cfa.Call); ok {
				callEdges = append(callEdges, e)
			}
		}
	}
	one := cfa.NewCallGraph(p, callEdges, func(e *cfa.Edge, c *cfa.Call) []string { return []string{c.Fn} })
	if got := edgesOf(one); !slices.Equal(got, []string{"mid->leaf"}) {
		t.Errorf("restricted call graph edges = %v, want [mid->leaf]", got)
	}
}

// TestBottomUpRecursive: callees come before their callers, and the
// functions on a cycle (mutual recursion, a self-call) are recursive,
// their callers not.
func TestBottomUpRecursive(t *testing.T) {
	src := `
int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int fact(int n) { return n < 2 ? 1 : n * fact(n - 1); }
int leaf(int n) { return n + 1; }
int main(void) { return even(4) + fact(3) + leaf(1); }
`
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "t.c", Content: src}})
	if err != nil {
		t.Fatal(err)
	}
	cg := cfa.NewCallGraph(p, p.Edges, p.SyntacticTargets())
	pos := map[string]int{}
	for i, f := range cg.BottomUp() {
		pos[f.Name] = i
	}
	for _, callee := range []string{"even", "odd", "fact", "leaf"} {
		if pos[callee] > pos["main"] {
			t.Errorf("%s after main in %v", callee, pos)
		}
	}
	var rec []string
	for f := range cg.Recursive() {
		rec = append(rec, f.Name)
	}
	slices.Sort(rec)
	if got, want := strings.Join(rec, ","), "even,fact,odd"; got != want {
		t.Errorf("Recursive = %s, want %s", got, want)
	}
}
