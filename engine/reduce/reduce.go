package reduce

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/pdg"
)

// Level selects the passes: None, Slice (slicing, then Compact), Full
// (slicing, inlining, constant propagation and folding, dead branches,
// Compact), Thin and Value (Full with thin or value slicing instead of
// backward slicing, under refinement: RefinePasses).
type Level string

// The values of `reverify check --reduce`.
const (
	None  Level = "none"
	Slice Level = "slice"
	Full  Level = "full"
	Thin  Level = "thin"
	Value Level = "value"
)

// ParseLevel parses "none", "slice", "full", "thin" or "value" ("" is
// None).
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case "":
		return None, nil
	case None, Slice, Full, Thin, Value:
		return l, nil
	}
	return "", fmt.Errorf("unknown reduction %q (known: none, slice, full, thin, value)", s)
}

// Target is what a pass must preserve: the error edges of one property
// and the call it is restricted to (spec.Property.ErrorEdges and Via),
// as edges of the program being reduced, and the entry function's name
// ("" when unknown: no pass removes a function then).
type Target struct {
	ErrorEdges []*cfa.Edge
	Via        *cfa.Edge
	Entry      string
	// Orig maps an edge of the reduced program to the edge of the
	// original program it stands for (Reduce fills it from Clone's map;
	// a copy made by inlining maps to its callee edge's original; edges a
	// pass adds, such as nondeterministic branch Havocs and parameter
	// bindings, are absent). Lift uses it.
	Orig map[*cfa.Edge]*cfa.Edge
}

// Pass is one size-reduction pass: it rewrites p in place for t. Passes
// may leave unreachable locations, removed edges (unlinked from their
// locations but still in p.Edges) and stale IDs behind; Compact restores
// the invariants of cfa.Program.Check.
type Pass struct {
	Name string
	Run  func(p *cfa.Program, t *Target)
}

// Size is the size of a program: locations and edges of the functions
// with bodies and of Init.
type Size struct{ Locs, Edges int }

func (s Size) String() string { return fmt.Sprintf("%d locations, %d edges", s.Locs, s.Edges) }

// SizeOf counts p's locations and linked edges.
func SizeOf(p *cfa.Program) Size {
	var s Size
	for _, f := range append([]*cfa.Function{p.Init}, p.Funcs...) {
		s.Locs += len(f.Locs)
		for _, l := range f.Locs {
			s.Edges += len(l.Out)
		}
	}
	return s
}

// Step is the size after one pass.
type Step struct {
	Pass string
	Size Size
}

// Result is a reduced program for one property.
type Result struct {
	Prog   *cfa.Program
	Target Target
	Before Size
	Steps  []Step // one per pass, in order
}

// Summary is "slice 120→40 edges, constprop 40→38, …".
func (r *Result) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d→%d edges (", r.Before.Edges, r.Steps[len(r.Steps)-1].Size.Edges)
	for i, s := range r.Steps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", s.Pass, s.Size.Edges)
	}
	b.WriteString(")")
	return b.String()
}

// Passes returns the pipeline of a level: nil for None. Slicing comes
// first (it needs the original edge IDs), then compaction so that
// constant propagation sees the short program.
func Passes(l Level, g *pdg.SDG) []Pass {
	switch l {
	case Slice:
		return []Pass{SlicePass(g), CompactPass}
	case Full:
		return []Pass{SlicePass(g), CompactPass, InlinePass, CompactPass, ConstPass, DeadBranchPass, CompactPass}
	case Thin, Value:
		return RefinePasses(l, g, nil)
	}
	return nil
}

// RefinePasses is the pipeline of Thin or Value with the branches keep
// (edges of g's program, Assume edges found by Abstracted on spurious
// error paths) added to the slicing criterion: seed 002's refinement,
// which re-slices with value slicing whatever the first slicer was (the
// seed's choice: "we use value slicing as the refinement algorithm for
// both the thin and value slicer").
func RefinePasses(l Level, g *pdg.SDG, keep []*cfa.Edge) []Pass {
	slice := ThinSlicePass(g, keep)
	if l == Value || len(keep) > 0 {
		slice = ValueSlicePass(g, keep)
	}
	return []Pass{slice, CompactPass, InlinePass, CompactPass, ConstPass, DeadBranchPass, CompactPass}
}

// Reduce clones prog and runs passes on the clone for the property t
// (error edges and Via of prog, the entry function), recording the size
// after each pass. The passes must end with CompactPass for the result
// to pass cfa.Program.Check. prog itself is not changed.
func Reduce(prog *cfa.Program, t Target, passes []Pass) *Result {
	q, m := Clone(prog)
	r := &Result{Prog: q, Before: SizeOf(prog), Target: Target{Entry: t.Entry, Orig: make(map[*cfa.Edge]*cfa.Edge, len(m))}}
	for o, c := range m {
		r.Target.Orig[c] = o
	}
	for _, e := range t.ErrorEdges {
		r.Target.ErrorEdges = append(r.Target.ErrorEdges, m[e])
	}
	if t.Via != nil {
		r.Target.Via = m[t.Via]
	}
	for _, pass := range passes {
		pass.Run(q, &r.Target)
		r.Steps = append(r.Steps, Step{pass.Name, SizeOf(q)})
	}
	// Error edges a pass removed (a dead branch) cannot be reached.
	var live []*cfa.Edge
	for _, e := range r.Target.ErrorEdges {
		if linked(e) {
			live = append(live, e)
		}
	}
	r.Target.ErrorEdges = live
	if r.Target.Via != nil && !linked(r.Target.Via) {
		r.Target.Via = nil
		r.Target.ErrorEdges = nil
	}
	return r
}

// linked reports whether e is still an out-edge of its source.
func linked(e *cfa.Edge) bool {
	for _, o := range e.From.Out {
		if o == e {
			return true
		}
	}
	return false
}

// unlink removes e from its locations' edge lists.
func unlink(e *cfa.Edge) {
	e.From.Out = remove(e.From.Out, e)
	e.To.In = remove(e.To.In, e)
}

func remove(es []*cfa.Edge, e *cfa.Edge) []*cfa.Edge {
	for i, x := range es {
		if x == e {
			return append(es[:i:i], es[i+1:]...)
		}
	}
	return es
}

// replace gives e the operation op (a new edge value would break the
// pointers held by the Target).
func replace(e *cfa.Edge, op cfa.Op) { e.Op = op }

// functions returns Init and the functions with bodies.
func functions(p *cfa.Program) []*cfa.Function {
	return append([]*cfa.Function{p.Init}, p.Funcs...)
}
