package value

import (
	"testing"

	"github.com/reverify/reverify/engine/analysis/memory"
	"github.com/reverify/reverify/engine/cpa"
)

// TestLessOrEqualAndJoin: fewer known cells cover more, reasons must be
// kept, and the join keeps the cells both states agree on.
func TestLessOrEqualAndJoin(t *testing.T) {
	c := &CPA{}
	s1 := &State{c: c}
	s1.mem = s1.mem.Put(memory.GlobalObj(1), 0, memory.Value{Bits: 1}, 4).Put(memory.GlobalObj(2), 0, memory.Value{Bits: 2}, 4)
	s2 := &State{c: c}
	s2.mem = s2.mem.Put(memory.GlobalObj(1), 0, memory.Value{Bits: 1}, 4)
	s3 := &State{c: c, reasons: []cpa.Explanation{{Kind: cpa.Unmodelled, Name: "f"}}}
	s3.mem = s2.mem
	for _, tc := range []struct {
		a, b *State
		want bool
	}{
		{s1, s2, true}, {s2, s1, false}, {s1, s1, true},
		{s2, s3, true}, {s3, s2, false}, // reasons must be kept
	} {
		if got := lessOrEqual(tc.a, tc.b); got != tc.want {
			t.Errorf("%v ⊑ %v = %v", tc.a.mem.Len(), tc.b.mem.Len(), got)
		}
	}
	j, ok := joinStates(s1, s3)
	if !ok || j.mem.Len() != 1 || len(j.reasons) != 1 {
		t.Errorf("join: %v cells, reasons %v", j.mem.Len(), j.reasons)
	}
	if j2, _ := joinStates(s1, s2); j2 != s2 {
		t.Error("join into a smaller state must return it unchanged")
	}
}
