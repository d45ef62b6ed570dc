package symbolic

import (
	"strconv"

	"github.com/reverify/reverify/engine/smt"
)

// canonical returns st up to renaming and without dead constraints, so
// that loops whose iterations create fresh symbols (an input read in
// every iteration) reach states that stop can compare. Two steps, both
// preserving ⟦st⟧:
//
//   - constraints that share no symbol with the memory, directly or
//     through other constraints, are dropped: they are satisfiable (the
//     path was checked; under an Unknown answer dropping them only
//     enlarges the state) and constrain nothing the state holds;
//   - the remaining symbols are renamed sym!0, sym!1, … in the order of
//     their first occurrence in the memory (cells in key order, each term
//     depth first), then in the live constraints; the memory's symbol
//     count restarts at 0, which is safe because every symbol of the
//     result is a sym!i, a namespace that fresh symbols (label#k) never
//     use.
//
// The order of symbols within a term follows hash-consing IDs, so two
// states equal up to renaming are not always renamed alike: stop may
// miss such a coverage, never invent one. c.mu is held.
func (c *CPA) canonical(st *State) *State {
	var order []*smt.Term
	live := map[*smt.Term]bool{}
	note := func(t *smt.Term) {
		for _, v := range c.varsOf(t) {
			if !live[v] {
				live[v] = true
				order = append(order, v)
			}
		}
	}
	st.v.Terms(note)
	// Live constraints: connected to the memory's symbols.
	in := make([]bool, len(st.pc))
	nlive := 0
	for changed := true; changed; {
		changed = false
		for i, x := range st.pc {
			if in[i] {
				continue
			}
			for _, v := range c.varsOf(x.Term) {
				if live[v] {
					in[i], changed = true, true
					nlive++
					note(x.Term)
					break
				}
			}
		}
	}
	m := map[*smt.Term]*smt.Term{} // the symbols whose name changes
	for i, v := range order {
		if n := c.b.Var("sym!"+strconv.Itoa(i), v.Sort); n != v {
			m[v] = n
		}
	}
	if len(m) == 0 && nlive == len(st.pc) && st.v.Syms() == 0 {
		return st
	}
	memo := map[*smt.Term]*smt.Term{}
	sub := func(t *smt.Term) *smt.Term {
		if r, ok := memo[t]; ok {
			return r
		}
		r := t
		for _, v := range c.varsOf(t) {
			if m[v] != nil {
				r = smt.Substitute(c.b, t, m)
				break
			}
		}
		memo[t] = r
		return r
	}
	var pc constraints
	for i, x := range st.pc {
		if in[i] {
			t := sub(x.Term)
			if t.Op == smt.True {
				continue
			}
			pc = pc.with(Constraint{Term: t, Edge: x.Edge})
		}
	}
	return &State{v: st.v.MapTerms(sub, 0), pc: pc}
}
