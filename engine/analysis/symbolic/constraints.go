package symbolic

import (
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// Constraint is one path constraint: a Bool term over symbols, and the
// edge whose assumption added it (an Assume edge, or the Call edge of
// __VERIFIER_assume).
type Constraint struct {
	Term *smt.Term
	Edge *cfa.Edge
}

// constraints is an immutable set of constraints sorted by term ID (terms
// are hash-consed, so equal constraints are the same term). Sets are
// small (one entry per symbolic branch on the path) and persistent by
// copying on insertion; states share them when a step adds nothing.
type constraints []Constraint

// find returns the index of the first constraint whose term ID is ≥ id.
func (cs constraints) find(id int) int {
	return sort.Search(len(cs), func(i int) bool { return cs[i].Term.ID >= id })
}

// has reports whether t is in cs.
func (cs constraints) has(t *smt.Term) bool {
	i := cs.find(t.ID)
	return i < len(cs) && cs[i].Term == t
}

// with returns cs ∪ {c} (cs itself when c is in it).
func (cs constraints) with(c Constraint) constraints {
	i := cs.find(c.Term.ID)
	if i < len(cs) && cs[i].Term == c.Term {
		return cs
	}
	out := make(constraints, 0, len(cs)+1)
	out = append(out, cs[:i]...)
	out = append(out, c)
	return append(out, cs[i:]...)
}

// subsetOf reports whether every term of cs is in ds.
func (cs constraints) subsetOf(ds constraints) bool {
	if len(cs) > len(ds) {
		return false
	}
	j := 0
	for _, c := range cs {
		for j < len(ds) && ds[j].Term.ID < c.Term.ID {
			j++
		}
		if j == len(ds) || ds[j].Term != c.Term {
			return false
		}
		j++
	}
	return true
}

// filter returns the constraints keep accepts (cs itself when it keeps
// all).
func (cs constraints) filter(keep func(Constraint) bool) constraints {
	for i, c := range cs {
		if keep(c) {
			continue
		}
		out := append(constraints(nil), cs[:i]...)
		for _, d := range cs[i+1:] {
			if keep(d) {
				out = append(out, d)
			}
		}
		return out
	}
	return cs
}

// terms returns the terms of cs.
func (cs constraints) terms() []*smt.Term {
	out := make([]*smt.Term, len(cs))
	for i, c := range cs {
		out[i] = c.Term
	}
	return out
}

func (cs constraints) String() string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Term.String()
	}
	return strings.Join(parts, " ∧ ")
}
