package symbolic

import (
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/smt"
)

// NewState builds a state with memory v and constraints ts (tests only).
func NewState(v *value.State, ts ...*smt.Term) *State {
	var pc constraints
	for _, t := range ts {
		pc = pc.with(Constraint{Term: t})
	}
	return &State{v: v, pc: pc}
}
