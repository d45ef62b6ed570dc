package results

import "github.com/reverify/reverify/engine/cfa"

// Invariant is what a TRUE verdict knows at one loop head Loc of the CFA
// (a target of a back edge, cfa.Location.LoopHead): the disjunction over
// States of the conjunction of each state's Facts (an empty conjunction
// is true; no States at all is false: Loc is unreachable). The engine
// produces it from the final reached set of a fixed point, or from the
// invariants k-induction proved (engine.Result.Invariants); correctness
// witnesses (engine/witness.Correctness) print it as a C expression over
// the variables in scope at the loop. Seed 001, section 3.6: the reached
// set as a proof.
type Invariant struct {
	Loc *cfa.Location
	// States holds one conjunction per reached state at Loc (duplicates
	// removed, in reached-set order), or their join when there are too
	// many (engine/invariants).
	States [][]Fact
}

// Fact is one atom an abstract state knows: a C condition (type int, 1
// or 0) over the program variables Vars, as cfa expressions (VarRef of
// globals or of locals of the loop's function, integer constants, casts,
// comparisons).
type Fact struct {
	Vars []*cfa.Var
	Expr cfa.Expr
}
