package kinduction

import (
	"github.com/reverify/reverify/engine/timeslice"

	"context"
	"errors"
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// errStop ends a walk early (a counterexample was found, or the step
// case failed).
var errStop = errors.New("stop")

// errPrune, returned by onCutPoint, ends the current path only.
var errPrune = errors.New("prune")

// frame is one activation on a walk's call stack: the function and the
// call edge that entered it (nil for Init and the entry function).
type frame struct {
	fn   *cfa.Function
	call *cfa.Edge
}

// walk is one depth-first enumeration of the paths from a start state.
type walk struct {
	c *checker
	// maxCuts is the number of cut point visits a path may make; a path
	// arriving at one more is cut off there.
	maxCuts int
	// onError is called with every path ending in an error step (the
	// visits it made); it returns errStop to end the walk.
	onError func(path []cfa.Step, cuts int) error
	// onCut is called with a feasible path cut off at its (maxCuts+1)-th
	// cut point visit; nil ignores them.
	onCut func(path []cfa.Step) error
	// onCutPoint, when not nil, is called with every prefix arriving at
	// a cut point visit within the bound (cut: the visit's number).
	onCutPoint func(path []cfa.Step, loc *cfa.Location, cut int) error
}

// run enumerates from loc with the given path, stack, visits and Via
// nesting.
func (w *walk) run(ctx context.Context, path []cfa.Step, stack []frame, loc *cfa.Location, cuts, nest int) error {
	c := w.c
	for {
		timeslice.Yield(ctx)
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(stack) == 1 && c.heads[loc] && !w.isStart(path, loc) {
			cuts++
			if cuts > w.maxCuts {
				if err := w.leaf(); err != nil {
					return err
				}
				if w.onCut == nil {
					return nil
				}
				r, err := c.prove(ctx, path)
				if err != nil {
					return err
				}
				if r == smt.Unsat {
					return nil
				}
				return w.onCut(path)
			}
			if w.onCutPoint != nil {
				if err := w.onCutPoint(path, loc, cuts); err != nil {
					if err == errPrune {
						return nil
					}
					return err
				}
			}
		}
		top := stack[len(stack)-1]
		if loc == top.fn.Exit && len(loc.Out) == 0 {
			switch {
			case top.fn == c.prog.Init:
				path = append(path, cfa.Step{Kind: cfa.Enter, Callee: c.entry})
				stack = []frame{{fn: c.entry}}
				loc = c.entry.Entry
				continue
			case len(stack) == 1:
				return w.leaf()
			}
			path = append(path, cfa.Step{Edge: top.call, Kind: cfa.Leave, Callee: top.fn})
			if nest > 0 {
				nest--
			}
			stack = stack[:len(stack)-1]
			loc = top.call.To
			continue
		}
		if len(loc.Out) == 0 {
			return w.leaf() // terminal: abort, exit, failed assumption
		}
		if len(loc.Out) == 1 {
			e := loc.Out[0]
			next, nstack, nnest, done, err := w.take(ctx, path, stack, e, cuts, nest)
			if done || err != nil {
				return err
			}
			path, stack, nest, loc = next, nstack, nnest, nstackLoc(nstack, e, next)
			continue
		}
		for _, e := range loc.Out {
			p := path[:len(path):len(path)]
			next, nstack, nnest, done, err := w.take(ctx, p, stack, e, cuts, nest)
			if err != nil {
				return err
			}
			if done {
				continue
			}
			if _, ok := e.Op.(*cfa.Assume); ok {
				r, err := c.prove(ctx, next)
				if err != nil {
					return err
				}
				if r == smt.Unsat {
					continue
				}
			}
			if err := w.run(ctx, next, nstack, nstackLoc(nstack, e, next), cuts, nnest); err != nil {
				return err
			}
		}
		return nil
	}
}

// isStart reports whether loc is where the walk started without a step
// yet taken from it (the step case starts at a cut point after havocs).
func (w *walk) isStart(path []cfa.Step, loc *cfa.Location) bool {
	if len(path) == 0 {
		return false // the program's start: its first visit counts
	}
	last := path[len(path)-1]
	return last.Kind == cfa.Intra && last.Edge.From == loc && last.Edge.To == loc && last.Edge.ID < 0
}

// nstackLoc is the location after taking e (the callee's entry after an
// Enter step).
func nstackLoc(stack []frame, e *cfa.Edge, path []cfa.Step) *cfa.Location {
	return path[len(path)-1].Next()
}

// leaf counts a finished path against Options.MaxPaths.
func (w *walk) leaf() error {
	w.c.paths++
	if w.c.paths > w.c.opts.MaxPaths {
		return fmt.Errorf("%w: more than %d paths", errLimit, w.c.opts.MaxPaths)
	}
	return nil
}

var errLimit = errors.New("path limit")

// take appends the step over e. done is true when the path ended on it
// (an error step, reported to onError).
func (w *walk) take(ctx context.Context, path []cfa.Step, stack []frame, e *cfa.Edge, cuts, nest int) ([]cfa.Step, []frame, int, bool, error) {
	c := w.c
	call, isCall := e.Op.(*cfa.Call)
	var callee *cfa.Function
	if isCall && call.Fn != "" {
		callee = c.prog.Func(call.Fn)
	}
	step := cfa.Step{Edge: e, Kind: cfa.Intra}
	if callee != nil {
		step = cfa.Step{Edge: e, Kind: cfa.Enter, Callee: callee}
	}
	if c.errors[e] && (c.via == nil || nest > 0) {
		if err := w.leaf(); err != nil {
			return nil, nil, 0, true, err
		}
		return nil, nil, 0, true, w.onError(append(path, step), cuts)
	}
	path = append(path, step)
	if callee == nil {
		return path, stack, nest, false, nil
	}
	if nest > 0 {
		nest++
	} else if c.via != nil && e == c.via {
		nest = 1
	}
	ns := make([]frame, len(stack), len(stack)+1)
	copy(ns, stack)
	return path, append(ns, frame{fn: callee, call: e}), nest, false, nil
}
