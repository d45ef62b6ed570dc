package bmc

import (
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// Per-loop floors of the unwinding bound. The uniform bound of Check
// (1, 2, 4, … or Options.Unwind) unrolls every loop alike, so a program
// with one loop of 40 iterations next to loops of unknown count unrolls
// all of them 64 times before the first is whole. A floor is a bound
// below which one loop is never cut, whatever the uniform bound: the
// loop at head h takes its back edge up to max(bound, floor[h]) times.
// Floors cost time, never soundness: a loop that runs longer than its
// floor still meets its unwinding assertion, and only an unrolling whose
// unwinding assertions all hold is a proof.
//
// Two sources, as CBMC has them (CBMC's --unwindset, Clarke, Kroening,
// Lerda, TACAS 2004; the starter kit's UNWINDSET):
//   - Options.Unwindset, CBMC loop ids ("function.N") with CBMC's bound;
//   - constantTrips: an innermost loop without calls whose exit compares
//     a counter that starts at a constant and moves by a constant
//     against a constant runs a number of iterations the CFA states
//     (CBMC needs a bound from its user for it; cbmctext's quantifier
//     loops over a sizeof are such).

// maxTripFloor is the largest trip count constantTrips makes a floor:
// beyond it the uniform bounds (and k-induction, which needs no
// unrolling of the whole loop) are the better way.
const maxTripFloor = 256

// floorsOf returns the floors of opts and prog: the loop heads of the
// unwindset's ids (unknown ids are left out: CBMC's own library loops,
// which reverify models without loops), and the constant trip counts of
// loops outside the entry function (the entry function's loops, where
// k-induction's cut points lie, keep the uniform bound: k = 1 tries
// them first) and of quantifier loops anywhere (cfa.QuantifierLoop: a
// contract check's requires and ensures over an array are such loops in
// the entry function, and no k-induction is needed to unwind them).
func floorsOf(prog *cfa.Program, loops *cfa.Loops, entry *cfa.Function, unwindset map[string]int) map[*cfa.Location]int {
	floors := map[*cfa.Location]int{}
	for h, n := range constantTrips(loops) {
		if h.Func != entry || cfa.QuantifierLoop(loops.Body[h]) {
			floors[h] = n
		}
	}
	if len(unwindset) > 0 {
		ids := cbmcLoopIDs(prog, loops)
		for id, n := range unwindset {
			for _, h := range ids[id] {
				// CBMC's bound N lets the loop's head be reached N
				// times: N-1 iterations (the starter kit's "one more
				// than the number of times CBMC actually unwinds the
				// loop")
				if n-1 > floors[h] {
					floors[h] = n - 1
				}
			}
		}
	}
	return floors
}

// limit is the unwinding bound of the loop at head h.
func (u *unroller) limit(h *cfa.Location) int {
	if f := u.floors[h]; f > u.bound {
		return f
	}
	return u.bound
}

// cbmcLoopIDs names the natural loops of prog's functions as CBMC does:
// "f.N" is the N-th backward jump of function f in program order
// (goto_programt::compute_loop_numbers), which is the order in which
// the loops' statements end in the source; a nested loop ends first.
// A static function is also named as goto-cc names it with
// --export-file-local-symbols: "__CPROVER_file_local_" + its file's base
// name with every character other than a letter or digit as "_" + "_"
// + its name. A static function that several translation units define
// (an inline function of a header) is one function to CBMC: an id names
// the loop in each of its copies.
func cbmcLoopIDs(prog *cfa.Program, loops *cfa.Loops) map[string][]*cfa.Location {
	type loop struct {
		h    *cfa.Location
		end  cfa.Pos
		size int
	}
	byFunc := map[*cfa.Function][]loop{}
	for h, body := range loops.Body {
		l := loop{h: h, size: len(body)}
		for from := range body {
			for _, e := range from.Out {
				if body[e.To] && later(e.Pos.End, l.end) {
					l.end = e.Pos.End
				}
			}
		}
		byFunc[h.Func] = append(byFunc[h.Func], l)
	}
	ids := map[string][]*cfa.Location{}
	for f, ls := range byFunc {
		if f == nil {
			continue
		}
		sort.Slice(ls, func(i, j int) bool {
			if ls[i].end != ls[j].end {
				return later(ls[j].end, ls[i].end)
			}
			return ls[i].size < ls[j].size
		})
		name, _, _ := strings.Cut(f.Name, ".") // "name.file" for a renamed static
		names := []string{name}
		if f.Static && f.Pos.Start.File != "" {
			names = append(names, "__CPROVER_file_local_"+mangle(filepath.Base(f.Pos.Start.File))+"_"+name)
		}
		for i, l := range ls {
			for _, n := range names {
				id := n + "." + strconv.Itoa(i)
				ids[id] = append(ids[id], l.h)
			}
		}
	}
	return ids
}

// later reports whether position a comes after b in the same file.
func later(a, b cfa.Pos) bool {
	if a.Line != b.Line {
		return a.Line > b.Line
	}
	return a.Col > b.Col
}

// mangle replaces every byte of s other than a letter or digit by "_".
func mangle(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	return string(b)
}

// constantTrips returns the innermost loops without calls whose number
// of iterations the CFA states, with that number (at most
// maxTripFloor): the head has two
// assume edges, one into the loop and one out of it, comparing a scalar
// integer variable v with a constant; the loop's only write of v is
// v = v ± c with a constant c; and v = c0 with a constant c0 is the
// last write of v on the straight-line edges into the head. The count
// is what the loop runs when nothing else writes v (a write through a
// pointer or a call can, which makes the floor too small or too large:
// the unwinding assertions still decide).
func constantTrips(loops *cfa.Loops) map[*cfa.Location]int {
	out := map[*cfa.Location]int{}
	for h, body := range loops.Body {
		if !innermost(h, body, loops) {
			continue
		}
		if n, ok := tripCount(h, body); ok {
			out[h] = n
		}
	}
	return out
}

// innermost reports whether the loop at h holds no other loop and no
// call: its floor then multiplies no other loop's iterations (a floor
// of n on nested loops would unroll n^depth iterations at once).
func innermost(h *cfa.Location, body map[*cfa.Location]bool, loops *cfa.Loops) bool {
	for l := range body {
		if l != h && loops.Body[l] != nil {
			return false
		}
		for _, e := range l.Out {
			if _, call := e.Op.(*cfa.Call); call && body[e.To] {
				return false
			}
		}
	}
	return true
}

func tripCount(h *cfa.Location, body map[*cfa.Location]bool) (int, bool) {
	if len(h.Out) != 2 {
		return 0, false
	}
	var stay *cfa.Assume
	for _, e := range h.Out {
		a, ok := e.Op.(*cfa.Assume)
		if !ok {
			return 0, false
		}
		if body[e.To] {
			stay = a
		}
	}
	if stay == nil {
		return 0, false
	}
	v := counterOf(stay.Cond)
	if v == nil || !csem.Supported(v.T) {
		return 0, false
	}
	// the loop's one write of v: v = v ± c
	var step *cfa.Assign
	for from := range body {
		for _, e := range from.Out {
			if !body[e.To] {
				continue
			}
			switch o := e.Op.(type) {
			case *cfa.Assign:
				if !isVar(o.LHS, v) {
					continue
				}
				b, ok := cfa.StripCasts(o.RHS).(*cfa.Binary)
				if step != nil || !ok || (b.Op != cfa.Add && b.Op != cfa.Sub) || counterVar(b.X) != v {
					return 0, false
				}
				if _, ok := cfa.StripCasts(b.Y).(*cfa.Const); !ok {
					return 0, false
				}
				step = o
			default:
				if havocs(o, v) {
					return 0, false
				}
			}
		}
	}
	if step == nil {
		return 0, false
	}
	x, ok := initialValue(h, body, v)
	if !ok {
		return 0, false
	}
	for n := 0; ; n++ {
		c, ok := evalWith(stay.Cond, v, x)
		if !ok {
			return 0, false
		}
		if csem.Truth(c) != stay.Truth {
			return n, true
		}
		if n == maxTripFloor {
			return 0, false
		}
		next, ok := evalWith(step.RHS, v, x)
		if !ok {
			return 0, false
		}
		x = csem.Convert(next, step.RHS.Type(), v.T)
	}
}

// evalWith evaluates x, made of constants, v (with value val), casts
// and binary operators, by C's rules (engine/cfa/csem); ok is false for
// anything else, or undefined behaviour.
func evalWith(x cfa.Expr, v *cfa.Var, val uint64) (uint64, bool) {
	switch x := x.(type) {
	case *cfa.Const:
		return x.V, true
	case *cfa.VarRef:
		return val, x.Var == v
	case *cfa.Cast:
		if !csem.Supported(x.X.Type()) || !csem.Supported(x.T) {
			return 0, false
		}
		y, ok := evalWith(x.X, v, val)
		return csem.Convert(y, x.X.Type(), x.T), ok
	case *cfa.Binary:
		if !csem.Supported(x.X.Type()) || !csem.Supported(x.Y.Type()) || !csem.Supported(x.T) {
			return 0, false
		}
		a, ok1 := evalWith(x.X, v, val)
		b, ok2 := evalWith(x.Y, v, val)
		r, ub := csem.Binary(x.Op, a, b, x.X.Type(), x.Y.Type(), x.T)
		return r, ok1 && ok2 && ub == csem.NoUB
	}
	return 0, false
}

// counterOf is the integer variable a loop's exit test compares with a
// constant (under integer casts that do not narrow it).
func counterOf(cond cfa.Expr) *cfa.Var {
	cmp, ok := cond.(*cfa.Binary)
	if !ok || !cmp.Op.IsComparison() {
		return nil
	}
	if v := counterVar(cmp.X); v != nil {
		if _, ok := cfa.StripCasts(cmp.Y).(*cfa.Const); ok {
			return v
		}
	}
	if v := counterVar(cmp.Y); v != nil {
		if _, ok := cfa.StripCasts(cmp.X).(*cfa.Const); ok {
			return v
		}
	}
	return nil
}

// counterVar is the integer variable x is, under integer casts that do
// not narrow it.
func counterVar(x cfa.Expr) *cfa.Var {
	for {
		c, ok := x.(*cfa.Cast)
		if !ok {
			break
		}
		if in := c.X.Type(); in == nil || !in.IsInteger() || !c.T.IsInteger() || c.T.Size < in.Size {
			return nil
		}
		x = c.X
	}
	r, ok := x.(*cfa.VarRef)
	if !ok || r.Var.T == nil || r.Var.T.Kind != cfa.Int {
		return nil
	}
	return r.Var
}

func isVar(x cfa.Expr, v *cfa.Var) bool {
	r, ok := x.(*cfa.VarRef)
	return ok && r.Var == v
}

// havocs reports whether op gives v a value other than by assignment
// (a havoc, a call's result).
func havocs(op cfa.Op, v *cfa.Var) bool {
	switch o := op.(type) {
	case *cfa.Havoc:
		return isVar(o.LHS, v)
	case *cfa.Call:
		return o.Result != nil && isVar(o.Result, v)
	}
	return false
}

// initialValue is the constant v holds when the loop at h is entered:
// the last write of v on the straight-line chain of edges into h from
// outside the loop (locations with one in-edge, at most 16 edges).
func initialValue(h *cfa.Location, body map[*cfa.Location]bool, v *cfa.Var) (uint64, bool) {
	var in *cfa.Edge
	for _, e := range h.In {
		if body[e.From] {
			continue
		}
		if in != nil {
			return 0, false
		}
		in = e
	}
	for i := 0; in != nil && i < 16; i++ {
		switch o := in.Op.(type) {
		case *cfa.Assign:
			if isVar(o.LHS, v) {
				x, ok := evalWith(o.RHS, v, 0)
				if !ok || slices.Contains(cfa.Vars(o.RHS), v) {
					return 0, false
				}
				return csem.Convert(x, o.RHS.Type(), v.T), true
			}
		default:
			if havocs(o, v) {
				return 0, false
			}
		}
		if len(in.From.In) != 1 {
			return 0, false
		}
		in = in.From.In[0]
	}
	return 0, false
}
