package cfa

// ForallVar and ExistsVar are the variables that hold the value of a
// bounded quantifier of CBMC's contract language (__CPROVER_forall,
// __CPROVER_exists): engine/frontend/cbmctext lowers each to a loop over
// the bound variable that accumulates the quantifier's value in one of
// them. A loop that writes one is a quantifier loop (QuantifierLoop),
// whose trip count is the quantifier's range and has nothing to do with
// the program's loops: engine/bmc unwinds it whole wherever it lies.
const (
	ForallVar = "__cprover_forall"
	ExistsVar = "__cprover_exists"
)

// QuantifierLoop reports whether the loop whose locations are body
// writes a quantifier's value (ForallVar, ExistsVar): it is the loop of a
// lowered quantifier.
func QuantifierLoop(body map[*Location]bool) bool {
	for l := range body {
		for _, e := range l.Out {
			a, ok := e.Op.(*Assign)
			if !ok || !body[e.To] {
				continue
			}
			if r, ok := a.LHS.(*VarRef); ok && (r.Var.Orig == ForallVar || r.Var.Orig == ExistsVar) {
				return true
			}
		}
	}
	return false
}
