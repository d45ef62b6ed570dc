package smt

import (
	"sort"
	"strings"
)

// maxValueSet bounds the values a value set holds; a term with more is
// "any value".
const maxValueSet = 32

// valueSet returns the values t (a bit-vector term of at most 64 bits)
// can take, when its structure bounds them to a few constants: constants,
// if-then-else over such terms, concatenations and extractions of them,
// and reads of arrays whose stores (at the read's index or at an index
// that may equal it) and initial contents are such terms. ok is false
// when t may take values beyond that. It is the value-set analysis that
// keeps a memory access through a pointer to a case split over the
// objects the pointer may designate, not over every object (CBMC's value
// sets, Kroening and Strichman, "Decision Procedures", 2nd ed., section
// 8.3, computed here on the terms themselves).
//
// indet says that part of the set comes from indeterminate memory (the
// rule above): an access through the pointer outside the set is then
// not modelled, and load and store record it (UBIndeterminatePointer).
func (e *encoder) valueSet(t *Term) (vals []uint64, ok, indet bool) {
	if t.Sort.Width > 64 || !t.Sort.IsBV() {
		return nil, false, false
	}
	if e.vsMemo == nil {
		e.vsMemo = map[*Term]vset{}
		e.selMemo = map[[2]*Term]vset{}
	}
	s := e.vs(t)
	return s.vals, s.ok, s.indet
}

// vset is a value set: ok false means any value; indet marks a set that
// a read of indeterminate memory contributed to.
type vset struct {
	vals  []uint64
	ok    bool
	indet bool
}

var anyValue = vset{}

func union(a, b vset) vset {
	if !a.ok || !b.ok {
		return anyValue
	}
	indet := a.indet || b.indet
	m := map[uint64]bool{}
	for _, v := range a.vals {
		m[v] = true
	}
	for _, v := range b.vals {
		m[v] = true
	}
	if len(m) > maxValueSet {
		return anyValue
	}
	out := make([]uint64, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return vset{out, true, indet}
}

func (e *encoder) vs(t *Term) vset {
	if s, ok := e.vsMemo[t]; ok {
		return s
	}
	e.poll()
	e.vsMemo[t] = anyValue
	if t.Sort.Width > 64 || !t.Sort.IsBV() {
		return anyValue
	}
	var s vset
	switch t.Op {
	case BVConst:
		s = vset{vals: []uint64{t.Val}, ok: true}
	case Ite:
		s = union(e.vs(t.Args[1]), e.vs(t.Args[2]))
	case Extract:
		if x := e.vs(t.Args[0]); x.ok && t.Args[0].Sort.Width <= 64 {
			w := uint(t.HiBit - t.Lo + 1)
			out := vset{ok: true, indet: x.indet}
			for _, v := range x.vals {
				out = union(out, vset{vals: []uint64{(v >> uint(t.Lo)) & mask(w)}, ok: true})
			}
			s = out
		}
	case Concat:
		h, l := e.vs(t.Args[0]), e.vs(t.Args[1])
		if h.ok && l.ok && len(h.vals)*len(l.vals) <= maxValueSet && t.Sort.Width <= 64 {
			lw := uint(t.Args[1].Sort.Width)
			out := vset{ok: true, indet: h.indet || l.indet}
			for _, hv := range h.vals {
				for _, lv := range l.vals {
					out = union(out, vset{vals: []uint64{hv<<lw | lv}, ok: true})
				}
			}
			s = out
		}
	case ZeroExt:
		s = e.vs(t.Args[0])
	case Select:
		s = e.selectSet(t.Args[0], t.Args[1])
	}
	e.vsMemo[t] = s
	return s
}

func mask(w uint) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// selectSet is the value set of (select a i).
func (e *encoder) selectSet(a, i *Term) vset {
	k := [2]*Term{a, i}
	if s, ok := e.selMemo[k]; ok {
		return s
	}
	e.poll()
	e.selMemo[k] = anyValue
	var s vset
	switch a.Op {
	case ConstArray:
		s = e.vs(a.Args[0])
	case Ite:
		s = union(e.selectSet(a.Args[1], i), e.selectSet(a.Args[2], i))
	case Store:
		j, v := a.Args[1], a.Args[2]
		switch {
		case j == i:
			s = e.vs(v)
		case j.Op == BVConst && i.Op == BVConst:
			s = e.selectSet(a.Args[0], i) // a different constant index
		default:
			if d, ok := ConstDiff(j, i); ok && d != 0 {
				s = e.selectSet(a.Args[0], i)
			} else {
				s = union(e.vs(v), e.selectSet(a.Args[0], i))
			}
		}
	case Var:
		if e.shared != nil && strings.HasPrefix(a.Name, "mem:") {
			// the indeterminate contents of a declared object or a
			// malloc block (allocVar, callExtern): a pointer read from
			// them was derived from no object, and an access through
			// it is invalid whatever its bits (C11 6.2.4p6, 7.22.3.4p2;
			// provenance, DR 260), as CBMC's value sets have it
			s = vset{ok: true, indet: true}
		}
	}
	e.selMemo[k] = s
	return s
}
