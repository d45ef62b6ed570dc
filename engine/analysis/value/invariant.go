package value

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cpa"
)

var _ cpa.InvariantReporter = (*State)(nil)

// Invariant implements cpa.InvariantReporter: what s knows about the
// program variables that visible accepts, as C conditions (cfa
// expressions of type int, 1 or 0; their conjunction is implied by s):
// "x == 5" for each integer variable the memory holds as a constant, and
// "p == 0" for each null pointer. Variables s does not know, and
// pointers to objects, are left out, which only weakens the result
// (sound: the reached set over-approximates the reachable states, seed
// 001, section 3.6). Used for the loop invariants of correctness
// witnesses (engine.LoopInvariant).
func (s *State) Invariant(visible func(*cfa.Var) bool) []cfa.Expr {
	vars, _ := s.KnownVars()
	var out []cfa.Expr
	for _, v := range vars {
		if !visible(v) || !(v.T.IsInteger() || v.T.Kind == cfa.Pointer) {
			continue
		}
		x, ok := s.Int(v)
		if !ok {
			continue
		}
		if v.T.Kind == cfa.Pointer {
			if x != 0 {
				continue
			}
			out = append(out, EqExpr(v, &cfa.Const{T: v.T, V: 0}))
			continue
		}
		out = append(out, EqExpr(v, cfa.NewConst(v.T, x)))
	}
	return out
}

// EqExpr returns the C condition v == x (type int).
func EqExpr(v *cfa.Var, x cfa.Expr) cfa.Expr {
	return &cfa.Binary{Op: cfa.Eq, X: &cfa.VarRef{Var: v}, Y: x, T: cfa.IntT}
}
