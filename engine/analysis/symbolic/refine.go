package symbolic

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
	"github.com/reverify/reverify/engine/smt"
)

// Errors of Refine.
var (
	// ErrFeasible: symbolic execution under full precision follows the
	// whole path, so no precision refutes it.
	ErrFeasible = errors.New("symbolic: the path is feasible under full precision")
	// ErrNoProgress: the precision already tracks everything the
	// refutation needs (it does not capture the reason, for example
	// memory reached only through pointers).
	ErrNoProgress = errors.New("symbolic: refinement adds nothing to the precision")
)

// maxCoreChecks bounds the solver calls that minimise the unsatisfiable
// core of one refutation; beyond it the core keeps what is left.
const maxCoreChecks = 64

// Refine is constraint interpolation for symex-cegar, in a simple form:
// it replays path (the steps of an error path found under cur) with
// full precision. Every step that symbolic execution refutes is a
// refutation, whose reason is the step's condition and a minimal
// unsatisfiable core of the constraints before it (found by deletion,
// with solver checks only); the replay then goes on as if the step were
// a no-op, as the sliced prefixes of seed 001 (section 3.8.5) do, to
// find the others. Each refutation needs the variables that its
// conditions read, together with everything they depend on along the
// path (assignments, parameters, return values; memory through
// pointers brings in the heap and the address-taken variables), at the
// locations of the path where they are live (see dependencies). Refine
// picks the refutation needing the fewest variables tracked inside loops
// that assign them (then the fewest variables) and returns cur extended
// by those location-scoped entries: Vars and Constraints of the result are the
// same value.ScopedPrecision, so the core's constraints, whose
// conditions read live variables at their edges, are tracked as well
// (VarConstraints). cur's Vars must be a *value.ScopedPrecision (or cur
// nil: nothing tracked yet).
//
// It returns ErrFeasible when the path is feasible under full precision
// and ErrNoProgress when the result would equal cur.
func (c *CPA) Refine(ctx context.Context, path []cfa.Step, cur *Precision) (*Precision, error) {
	var vars *value.ScopedPrecision
	if cur != nil {
		sp, ok := cur.Vars.(*value.ScopedPrecision)
		if !ok && cur.Vars != nil {
			return nil, fmt.Errorf("symbolic: Refine extends a *value.ScopedPrecision, not a %T", cur.Vars)
		}
		vars = sp
	}
	c.UseContext(ctx)
	refs, err := c.refutations(path)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, ErrFeasible
	}
	loops := c.loopWrites()
	var best []value.Entry
	bestScore := -1
	for _, r := range refs {
		relevant := map[*cfa.Edge]bool{path[r.step].Edge: true}
		for _, k := range r.core {
			relevant[k.Edge] = true
		}
		entries, score, err := c.dependencies(ctx, path[:r.step+1], relevant, loops)
		if err != nil {
			return nil, err
		}
		if bestScore < 0 || score < bestScore {
			best, bestScore = entries, score
		}
	}
	entries := best
	next := vars.With(entries...)
	if len(entries) == 0 || (vars != nil && next == vars) {
		return nil, ErrNoProgress
	}
	return &Precision{Vars: next, Constraints: VarConstraints{Vars: next}}, nil
}

// heapVar stands for the heap in dependency sets.
var heapVar = &cfa.Var{Name: value.HeapName}

// refutation is one step of a path that symbolic execution refutes: the
// step's index and a minimal set of earlier constraints (with their
// edges) that, with the step's own conditions, is unsatisfiable (empty
// when the step fails on concrete values).
type refutation struct {
	step int
	core []Constraint
}

// refutations replays path under full precision and returns the steps it
// refutes, continuing after each as if it were a no-op.
func (c *CPA) refutations(path []cfa.Step) ([]refutation, error) {
	full := FullPrecision()
	init, _ := c.val.Initial()
	mem := init.(*value.State)
	var pc constraints
	var refs []refutation
	for i, step := range path {
		var buf [2]value.Succ
		succ := c.val.Transfer(buf[:0], mem, step, full.Vars)
		if len(succ) == 0 {
			refs = append(refs, refutation{step: i})
			continue
		}
		next := pc
		var added []*smt.Term
		for _, a := range succ[0].Assumed {
			if !next.has(a) {
				next = next.with(Constraint{Term: a, Edge: step.Edge})
				added = append(added, a)
			}
		}
		if len(added) > 0 {
			r, err := c.feasible(next, added)
			if err != nil {
				return nil, err
			}
			if r == smt.Unsat {
				core, err := c.core(next, added)
				if err != nil {
					return nil, err
				}
				refs = append(refs, refutation{step: i, core: core})
				continue
			}
		}
		mem, pc = succ[0].State, next
	}
	return refs, nil
}

// loopWrites returns, for each location inside a loop (a cycle of its
// function's CFA), the variables assigned on the edges of that loop.
func (c *CPA) loopWrites() map[*cfa.Location]map[*cfa.Var]bool {
	out := map[*cfa.Location]map[*cfa.Var]bool{}
	for _, f := range c.prog.Funcs {
		comps := graph.SCCs(f)
		idx := graph.ComponentIndex(comps, f.Len())
		writes := make([]map[*cfa.Var]bool, len(comps))
		for _, l := range f.Locs {
			for _, e := range l.Out {
				k := idx[e.From.Index]
				if e.To.Func != f || k != idx[e.To.Index] || (len(comps[k]) == 1 && e.From != e.To) {
					continue
				}
				if writes[k] == nil {
					writes[k] = map[*cfa.Var]bool{}
				}
				forLvalues(e.Op, func(x cfa.Expr) {
					cfa.Walk(x, func(x cfa.Expr) bool {
						if r, ok := x.(*cfa.VarRef); ok {
							writes[k][r.Var] = true
						}
						return true
					})
				})
			}
		}
		for _, l := range f.Locs {
			if w := writes[idx[l.Index]]; w != nil {
				out[l] = w
			}
		}
	}
	return out
}

// forLvalues calls f on the lvalues op writes.
func forLvalues(op cfa.Op, f func(cfa.Expr)) {
	switch op := op.(type) {
	case *cfa.Assign:
		f(op.LHS)
	case *cfa.Havoc:
		f(op.LHS)
	case *cfa.Call:
		if op.Result != nil {
			f(op.Result)
		}
	}
}

// core shrinks the unsatisfiable pc to a minimal unsatisfiable subset by
// deletion, starting from the component of the constraints added last.
func (c *CPA) core(pc constraints, added []*smt.Term) ([]Constraint, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	comp := c.component(pc, added)
	byTerm := map[*smt.Term]Constraint{}
	for _, k := range pc {
		byTerm[k.Term] = k
	}
	keep := comp
	for i, checks := 0, 0; i < len(keep) && checks < maxCoreChecks; checks++ {
		trial := append(append([]*smt.Term(nil), keep[:i]...), keep[i+1:]...)
		r, _ := c.solve(trial, nil)
		if err := c.sol.Context().Err(); err != nil {
			return nil, err
		}
		if r == smt.Unsat {
			keep = trial
			continue
		}
		i++
	}
	out := make([]Constraint, len(keep))
	for i, t := range keep {
		out[i] = byTerm[t]
	}
	return out, nil
}

// dependencies returns where the conditions of the relevant edges on
// path need which variables: a backward liveness analysis along the
// path (assignments kill and read, parameters read their arguments,
// results read the callee's return variable), whose live variables
// before each step become entries at that step's location. A read
// through a pointer makes the heap and every address-taken variable
// live from there on back (heapVar stands for the heap). The score
// counts the variables, and heavily each entry that tracks a variable
// inside a loop that assigns it (loops, from loopWrites): tracking it
// there unrolls the loop.
func (c *CPA) dependencies(ctx context.Context, path []cfa.Step, relevant map[*cfa.Edge]bool, loops map[*cfa.Location]map[*cfa.Var]bool) (entries []value.Entry, score int, err error) {
	// Locals are live per call frame (frames, innermost last: the
	// function of the step at hand), so recursion keeps the caller's
	// variables apart from the callee's; globals, address-taken variables
	// and the heap are live in global.
	frames := []map[*cfa.Var]bool{{}}
	global := map[*cfa.Var]bool{}
	all := map[*cfa.Var]bool{}
	heap, heapAdded := false, false
	set := func(v *cfa.Var) map[*cfa.Var]bool {
		if v.Global || v.AddrTaken || v == heapVar {
			return global
		}
		return frames[len(frames)-1]
	}
	isLive := func(v *cfa.Var) bool { return set(v)[v] }
	// kill ends v's liveness (walking backwards: v is written or declared
	// here), except that once the heap is live, the heap and the
	// address-taken variables stay live at every earlier step.
	kill := func(v *cfa.Var) {
		if heapAdded && (v.AddrTaken || v == heapVar) {
			return
		}
		delete(set(v), v)
	}
	gen := func(x cfa.Expr) {
		cfa.Walk(x, func(e cfa.Expr) bool {
			switch e := e.(type) {
			case *cfa.VarRef:
				set(e.Var)[e.Var] = true
			case *cfa.Deref:
				heap = true
			}
			return true
		})
	}
	// writes reports whether the lvalue x may write a live object; a
	// plain variable is killed (written whole), other lvalues read their
	// base and indices.
	writes := func(x cfa.Expr) bool {
		if x == nil {
			return false
		}
		if r, ok := x.(*cfa.VarRef); ok {
			if isLive(r.Var) && !r.Var.AddrTaken {
				kill(r.Var)
				return true
			}
			return isLive(r.Var)
		}
		// A write through a pointer may reach the heap or any live
		// address-taken variable.
		aliased := heap
		for v := range global {
			if aliased {
				break
			}
			aliased = v.AddrTaken
		}
		hit := false
		cfa.Walk(x, func(e cfa.Expr) bool {
			switch e := e.(type) {
			case *cfa.VarRef:
				hit = hit || isLive(e.Var)
			case *cfa.Deref:
				hit = hit || aliased
			}
			return true
		})
		if hit {
			gen(x)
		}
		return hit
	}
	for i := len(path) - 1; i >= 0; i-- {
		// A path of thousands of steps over thousands of live variables
		// takes seconds: the deadline is checked every 256 steps.
		if i&255 == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		step := path[i]
		e := step.Edge
		// before is the location of the state the step starts from.
		var before *cfa.Location
		switch {
		case i > 0:
			before = path[i-1].Next()
		case e != nil:
			before = e.From
		default:
			continue
		}
		switch {
		case e == nil:
			// The step into the entry function: nothing happens.
		case step.Kind == cfa.Leave:
			// Backwards into the callee: a new frame.
			call := e.Op.(*cfa.Call)
			needed := writes(call.Result)
			frames = append(frames, map[*cfa.Var]bool{})
			if r := step.Callee.RetVar; r != nil && needed {
				set(r)[r] = true
			}
		case step.Kind == cfa.Enter:
			// Backwards out of the callee: its parameters read the
			// arguments in the caller's frame.
			call := e.Op.(*cfa.Call)
			var args []cfa.Expr
			for j, p := range step.Callee.Params {
				if isLive(p) && j < len(call.Args) {
					args = append(args, call.Args[j])
				}
			}
			frames = frames[:len(frames)-1]
			if len(frames) == 0 {
				frames = append(frames, map[*cfa.Var]bool{})
			}
			for _, a := range args {
				gen(a)
			}
			if call.FnPtr != nil {
				gen(call.FnPtr)
			}
		default:
			switch op := e.Op.(type) {
			case *cfa.Assign:
				if writes(op.LHS) {
					gen(op.RHS)
				}
			case *cfa.Havoc:
				writes(op.LHS)
			case *cfa.Decl:
				kill(op.Var)
			case *cfa.Return:
				if r := e.From.Func.RetVar; r != nil && isLive(r) {
					kill(r)
					if op.X != nil {
						gen(op.X)
					}
				}
			case *cfa.Call:
				if op.Result != nil && writes(op.Result) {
					for _, a := range op.Args {
						gen(a)
					}
				}
			}
		}
		if e != nil && relevant[e] {
			for _, v := range conditionVars(e) {
				set(v)[v] = true
			}
			if op, ok := e.Op.(*cfa.Assume); ok {
				gen(op.Cond)
			}
		}
		if heap && !heapAdded {
			// From here on the heap and the address-taken variables stay
			// live (kill), so they are added once.
			heapAdded = true
			global[heapVar] = true
			for _, v := range c.prog.Vars {
				if v.AddrTaken {
					global[v] = true
				}
			}
		}
		live := map[*cfa.Var]bool{}
		for _, f := range append(frames, global) {
			for v := range f {
				live[v] = true
			}
		}
		for v := range live {
			all[v] = true
			entries = append(entries, value.Entry{Name: v.QualName(), Func: before.Func.Name, Loc: before.Index})
			if v == heapVar {
				entries[len(entries)-1].Name = value.HeapName
			}
			if loops[before][v] {
				score += 1 << 16 // tracked where a loop assigns it: the loop unrolls
			}
		}
	}
	keys := make([]string, len(entries))
	for i := range entries {
		keys[i] = entries[i].String()
	}
	sort.Sort(byKey{entries, keys})
	return entries, score + len(all), nil
}

// byKey sorts entries by their precomputed String keys.
type byKey struct {
	entries []value.Entry
	keys    []string
}

func (b byKey) Len() int           { return len(b.entries) }
func (b byKey) Less(i, j int) bool { return b.keys[i] < b.keys[j] }
func (b byKey) Swap(i, j int) {
	b.entries[i], b.entries[j] = b.entries[j], b.entries[i]
	b.keys[i], b.keys[j] = b.keys[j], b.keys[i]
}
