package pdg

import (
	"slices"

	"github.com/reverify/reverify/engine/cfa"
)

// restLimit bounds the number of objects a function's interface passes as
// slots of their own. Beyond it the remaining objects share one slot,
// SlotRest, and inside the function one SSA variable (the pseudo-object
// ObjRest): a definition of any of them is a may-definition of the rest, a
// use of any of them uses it. This keeps helper functions that take
// pointers to the locals of hundreds of callers (so that context-insensitive
// points-to sets name all of them) from making the graph quadratic, at a
// loss of precision in such functions only.
var restLimit = 128 // a variable for tests

// rank orders objects by how much precision their own slot buys: scalar
// globals first, then other globals, pseudo-objects, locals reached
// through pointers, and heap and other memory last.
func (b *builder) rank(o int32) int {
	obj := b.a.objs[o]
	switch obj.Kind {
	case ObjVar:
		if obj.Var.Global {
			if obj.Var.T.IsScalar() {
				return 0
			}
			return 1
		}
		return 3
	case ObjUnknown, ObjWriteUnknown, ObjReadUnknown, ObjAny:
		return 2
	}
	return 4
}

// collapse limits every function's interface to restLimit objects.
func (b *builder) collapse() {
	for _, fi := range b.funcs {
		all := sortUniq(append(slices.Clone(fi.ref), fi.mod...))
		if len(all) <= restLimit {
			continue
		}
		if b.rest < 0 {
			b.rest = b.a.newNode(&Object{Kind: ObjRest})
		}
		slices.SortStableFunc(all, func(x, y int32) int { return b.rank(x) - b.rank(y) })
		keep := slices.Clone(all[:restLimit])
		slices.Sort(keep)
		fi.collapsed = slices.Clone(all[restLimit:])
		slices.Sort(fi.collapsed)
		in := func(o int32) bool { return containsSorted(keep, o) }
		fi.restIn = true
		for _, o := range fi.mod {
			if !in(o) {
				fi.restOut = true
				break
			}
		}
		fi.mod = filter(fi.mod, in)
		fi.ref = filter(fi.ref, in)
	}
}

// objMap prepares mapObj for function fi.
func (b *builder) objMap(fi *funcInfo) {
	if len(b.collMark) < len(b.a.objs) {
		b.collMark = make([]int32, len(b.a.objs))
	}
	stamp := int32(fi.idx + 1)
	for _, o := range fi.collapsed {
		b.collMark[o] = stamp
	}
	b.mapFn = fi
}

// mapObj returns the SSA variable of object o in the function prepared by
// objMap: o itself, the rest for collapsed objects, or -1 for locals of
// functions that cannot be active while it runs.
func (b *builder) mapObj(o int32) int32 {
	fi := b.mapFn
	if b.collMark[o] == int32(fi.idx+1) {
		return b.rest
	}
	if obj := b.a.objs[o]; obj.Kind == ObjVar && !obj.Var.Global && obj.Var.Func != "" && obj.Var.Func != fi.f.Name {
		if F := b.p.Func(obj.Var.Func); F != nil && !b.reaches(b.g.funcIdx[F], fi.idx) {
			return -1
		}
	}
	return o
}

// restObjects returns the objects of fi (tracked, not collapsed) that a
// call site's SlotRest stands for: those collapsed by one of its callees.
func (b *builder) restObjects(fi *funcInfo, si *siteInfo) []int32 {
	var out []int32
	for _, t := range si.targets {
		c := b.funcs[t].collapsed
		if len(c) == 0 {
			continue
		}
		small, large := fi.tracked, c
		if len(c) < len(small) {
			small, large = c, fi.tracked
		}
		for _, o := range small {
			if containsSorted(large, o) {
				out = append(out, o)
			}
		}
	}
	return sortUniq(out)
}

// trackedObjects computes fi.tracked from the objects it may access (acc,
// marked with fi.idx+1 in accMark), its interface and its own
// address-taken locals, minus its collapsed objects.
func (b *builder) trackedObjects(fi *funcInfo, acc []int32) {
	t := slices.Clone(acc)
	t = append(t, fi.mod...)
	t = append(t, fi.ref...)
	add := func(v *cfa.Var) {
		if v != nil && b.a.addrTaken[v.ID] {
			t = append(t, int32(v.ID))
		}
	}
	for _, v := range fi.f.Params {
		add(v)
	}
	for _, v := range fi.f.Locals {
		add(v)
	}
	t = sortUniq(t)
	if len(fi.collapsed) > 0 {
		t = slices.DeleteFunc(t, func(o int32) bool { return containsSorted(fi.collapsed, o) })
	}
	fi.tracked = t
}
