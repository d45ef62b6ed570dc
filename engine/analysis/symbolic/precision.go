package symbolic

import (
	"github.com/reverify/reverify/engine/analysis/value"
	"github.com/reverify/reverify/engine/cfa"
)

// Precision is the precision of symbolic execution, Π_SE = 2^X × 2^P
// (seed 000, section 2.6.6): the memory the analysis tracks (Vars, a
// value.Precision over variables: untracked variables hold no value, so
// their reads are fresh symbols) and the path constraints it tracks
// (Constraints: an untracked constraint is never added, so its branch is
// not pruned). Both only ever lose information, so every precision is
// sound; full precision is plain symbolic execution, and CEGAR
// (symex-cegar) refines from the empty one.
type Precision struct {
	Vars        value.Precision
	Constraints ConstraintPrecision
}

// FullPrecision tracks all memory and all constraints.
func FullPrecision() *Precision {
	return &Precision{Vars: value.FullPrecision{}, Constraints: AllConstraints{}}
}

// Tracking is the refinable precision of symbolic execution under CEGAR
// (symex-cegar, seed 000, section 2.6.6): the variables of vars (nil:
// none) and the constraints on them (VarConstraints).
func Tracking(vars *value.ScopedPrecision) *Precision {
	return &Precision{Vars: vars, Constraints: VarConstraints{Vars: vars}}
}

// Full reports whether p tracks everything.
func (p *Precision) Full() bool { return p.Vars.Full() && p.Constraints.Full() }

func (p *Precision) String() string {
	if p.Full() {
		return "full"
	}
	return "vars " + str(p.Vars) + ", constraints " + str(p.Constraints)
}

func str(x any) string {
	if s, ok := x.(interface{ String() string }); ok {
		return s.String()
	}
	return "?"
}

// ConstraintPrecision says which path constraints are kept.
type ConstraintPrecision interface {
	// TracksConstraint reports whether the constraint that the
	// assumption on edge e adds is kept. Constraints are identified by
	// their edge, whose condition names program variables, never by
	// their terms, whose symbol names depend on the path.
	TracksConstraint(e *cfa.Edge) bool
	// Full reports whether every constraint is tracked.
	Full() bool
}

// AllConstraints tracks every constraint.
type AllConstraints struct{}

// TracksConstraint returns true.
func (AllConstraints) TracksConstraint(*cfa.Edge) bool { return true }

// Full returns true.
func (AllConstraints) Full() bool { return true }

func (AllConstraints) String() string { return "all" }

// VarConstraints tracks a constraint when its assumption's condition
// mentions a variable that Vars tracks at the assumption's location
// (Edge.From). Vars is any value.Precision, typically the scoped
// precision of engine/analysis/value, whose entries name functions and
// variables, so a learnt constraint precision survives edits elsewhere
// in the program, like the value analysis's.
type VarConstraints struct {
	Vars value.Precision
}

// TracksConstraint implements ConstraintPrecision.
func (p VarConstraints) TracksConstraint(e *cfa.Edge) bool {
	if e == nil {
		return false
	}
	for _, v := range conditionVars(e) {
		if p.Vars.Tracks(e.From, v) {
			return true
		}
	}
	return false
}

// Full returns false.
func (p VarConstraints) Full() bool { return false }

func (p VarConstraints) String() string { return "on " + str(p.Vars) }

// conditionVars returns the variables the assumption of e reads.
func conditionVars(e *cfa.Edge) []*cfa.Var {
	switch op := e.Op.(type) {
	case *cfa.Assume:
		return cfa.Vars(op.Cond)
	case *cfa.Call:
		var vs []*cfa.Var
		for _, a := range op.Args {
			vs = append(vs, cfa.Vars(a)...)
		}
		return vs
	}
	return nil
}
