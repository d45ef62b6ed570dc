package features

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/affine"
	"github.com/reverify/reverify/engine/cfa"
)

// Class is the shape of a program that chooses the order of a
// portfolio's arms.
type Class string

// The classes, from the program's loops (Of):
//   - LoopFree: no loop in a function the entry reaches; explicit values
//     and bounded model checking enumerate it.
//   - FiniteState: every loop assigns only constants, inputs and copies
//     (flags, lock-step programs, list walks): explicit values and
//     bounded model checking with k-induction.
//   - Counting: a loop updates a variable arithmetically and an exit
//     tests input-independent data against constants up to LargeBound:
//     explicit values enumerate it, CEGAR abstracts it.
//   - Arrays: Counting in a program that declares arrays, without an
//     input-bounded loop: loops over arrays of constant length, whose
//     properties follow the arrays' contents. Explicit values enumerate
//     the contents; predicate abstraction and k-induction would need
//     invariants quantified over the elements, which they do not have.
//   - Invariant: a loop updates a variable arithmetically and every exit
//     tests input-dependent data or a constant over LargeBound, in a
//     program without arrays: a proof needs a loop invariant (predicate
//     abstraction, k-induction).
//   - Affine: Invariant, and at a loop head of the entry function Karr's
//     analysis (engine/affine) finds an affine equality among its
//     variables: a loop that moves variables together (x + j == y + i)
//     or a bound that is a copy or sum of others (lim == n + 1), which
//     k-induction takes as candidate invariants; it proves most such
//     loops first.
//   - Heap: loops in a program that allocates; list and tree walks are
//     bounded by the data structure, which explicit values enumerate
//     without abstraction up to a bounded length.
const (
	LoopFree    Class = "loop-free"
	FiniteState Class = "finite-state"
	Counting    Class = "counting"
	Arrays      Class = "arrays"
	Invariant   Class = "invariant"
	Affine      Class = "affine"
	Heap        Class = "heap"
)

// LargeBound is the largest constant a counting loop's exit may test: a
// loop bound past it is too many iterations to enumerate.
const LargeBound = 1 << 16

// Features of a program as seen from its entry function.
type Features struct {
	Loops int // natural loops in the functions the entry reaches
	// FiniteLoops, CountingLoops and InputLoops split Loops by shape
	// (see Class).
	FiniteLoops, CountingLoops, InputLoops int
	// InputLoopAt is the position of the first input-bounded loop's head
	// (zero when there is none).
	InputLoopAt cfa.Pos
	Heap        bool // calls malloc, calloc, realloc or alloca
	Arrays      bool // declares an array
	Recursion   bool // a reached function calls itself, directly or not
	// Equalities is the number of affine equalities at the loop heads of
	// the entry function (affine.LoopEqualities), counted only for a
	// program that is otherwise Invariant (0 for every other one).
	Equalities int
	Edges      int // CFA edges in the functions the entry reaches
}

// Class returns the features' class: LoopFree without loops, else Heap
// when the program allocates, else, when any loop is input-bounded and
// the program has no arrays (a loop over a buffer whose length is an
// input is bounded by the buffer, which explicit values enumerate: a
// parser of packets), Affine with affine equalities at the entry's loop
// heads and Invariant without, else Arrays when loops count and none is
// input-bounded in a program with arrays, else Counting when any loop is
// input-bounded or counts, else FiniteState.
func (f Features) Class() Class {
	switch {
	case f.Loops == 0:
		return LoopFree
	case f.Heap:
		return Heap
	case f.InputLoops > 0 && !f.Arrays && f.Equalities > 0:
		return Affine
	case f.InputLoops > 0 && !f.Arrays:
		return Invariant
	case f.CountingLoops > 0 && f.InputLoops == 0 && f.Arrays:
		return Arrays
	case f.CountingLoops > 0 || f.InputLoops > 0:
		return Counting
	}
	return FiniteState
}

// String is the features in one line: "invariant: 2 loops (1 finite, 1
// input-bounded at f.c:12:3), heap, 140 edges", "affine: 1 loop (1
// input-bounded at f.c:4:2), 2 affine equalities, 23 edges".
func (f Features) String() string {
	var parts []string
	if f.Loops > 0 {
		var kinds []string
		if f.FiniteLoops > 0 {
			kinds = append(kinds, fmt.Sprintf("%d finite", f.FiniteLoops))
		}
		if f.CountingLoops > 0 {
			kinds = append(kinds, fmt.Sprintf("%d counting", f.CountingLoops))
		}
		if f.InputLoops > 0 {
			k := fmt.Sprintf("%d input-bounded", f.InputLoops)
			if f.InputLoopAt.Line > 0 {
				k += " at " + f.InputLoopAt.String()
			}
			kinds = append(kinds, k)
		}
		s := "loops"
		if f.Loops == 1 {
			s = "loop"
		}
		parts = append(parts, fmt.Sprintf("%d %s (%s)", f.Loops, s, strings.Join(kinds, ", ")))
	}
	for _, b := range []struct {
		on   bool
		name string
	}{{f.Heap, "heap"}, {f.Arrays, "arrays"}, {f.Recursion, "recursion"}} {
		if b.on {
			parts = append(parts, b.name)
		}
	}
	switch f.Equalities {
	case 0:
	case 1:
		parts = append(parts, "1 affine equality")
	default:
		parts = append(parts, fmt.Sprintf("%d affine equalities", f.Equalities))
	}
	parts = append(parts, fmt.Sprintf("%d edges", f.Edges))
	return string(f.Class()) + ": " + strings.Join(parts, ", ")
}

// Of returns the features of p seen from the function entry (nil when p
// has no such function: the zero Features).
//
// Input-dependent data is computed flow-insensitively: a variable is
// input-dependent when a nondeterministic value (__VERIFIER_nondet_*,
// a volatile read), the result of a function without a body, a
// parameter of the entry, or an input-dependent expression is assigned
// to it anywhere, except an input assigned before the entry's first loop
// that an assumption after it pins to a constant (`if (x != 0) return
// 0;`: pinnedInputs); memory written through a pointer counts as one
// variable. A loop (cfa.NaturalLoops) updates arithmetically when its
// body assigns to a variable an operation over variables (x = x + 1,
// y = 2 * x), not a constant, copy, input or load. An exit of a loop is
// an edge from its body out of it.
func Of(p *cfa.Program, entry string) Features {
	var f Features
	root := p.Func(entry)
	if root == nil {
		return f
	}
	reached := reach(p, root, &f)
	loops := cfa.NaturalLoops(p)
	in := inputs(p, root, reached, pinnedInputs(p, root, loops))
	for _, fn := range reached {
		f.Edges += edgeCount(fn)
		for _, l := range fn.Locs {
			body := loops.Body[l]
			if body == nil {
				continue
			}
			f.Loops++
			switch shape(body, in) {
			case finite:
				f.FiniteLoops++
			case counting:
				f.CountingLoops++
			default:
				f.InputLoops++
				if f.InputLoopAt.Line == 0 {
					f.InputLoopAt = headPos(l)
				}
			}
		}
		for _, v := range fn.Locals {
			if v.T != nil && v.T.Kind == cfa.Array {
				f.Arrays = true
			}
		}
	}
	for _, v := range p.Globals {
		if v.T != nil && v.T.Kind == cfa.Array {
			f.Arrays = true
		}
	}
	if f.Class() == Invariant {
		for _, xs := range affine.LoopEqualities(root) {
			f.Equalities += len(xs)
		}
	}
	return f
}

func edgeCount(fn *cfa.Function) int {
	n := 0
	for _, l := range fn.Locs {
		n += len(l.Out)
	}
	return n
}

// headPos is the position of the first edge out of a loop head.
func headPos(l *cfa.Location) cfa.Pos {
	for _, e := range l.Out {
		if e.Pos.Start.Line > 0 {
			return e.Pos.Start
		}
	}
	return cfa.Pos{}
}

// reach returns the functions with a body that root reaches in the
// program's call graph (cfa.CallGraph with SyntacticTargets: a call
// through a pointer, or of an unmodelled function that may call back,
// reaches every function whose address is taken), in the program's
// order, and sets f.Heap and f.Recursion.
func reach(p *cfa.Program, root *cfa.Function, f *Features) []*cfa.Function {
	cg := cfa.NewCallGraph(p, p.Edges, p.SyntacticTargets())
	reached := cg.Reachable(root)
	recursive := cg.Recursive()
	var out []*cfa.Function
	for _, fn := range p.Funcs {
		if !reached[fn.Name] {
			continue
		}
		out = append(out, fn)
		f.Recursion = f.Recursion || recursive[fn]
		for _, l := range fn.Locs {
			for _, e := range l.Out {
				if c, ok := e.Op.(*cfa.Call); ok {
					switch c.Fn {
					case "malloc", "calloc", "realloc", "alloca", "__builtin_alloca":
						f.Heap = true
					}
				}
			}
		}
	}
	return out
}
