package smt

import (
	"context"
	"fmt"
)

// Relation is an unknown predicate of a system of constrained Horn
// clauses: its arguments' sorts (bit-vectors, Bool or arrays).
type Relation struct {
	Name string
	Args []Sort
}

// Atom is a relation applied to terms of its argument sorts.
type Atom struct {
	Rel  *Relation
	Args []*Term
}

// Clause is the constrained Horn clause "for all values of its free
// variables, Constraint and every Body atom imply Head"; a nil Head is
// false (a query: the body must be unsatisfiable).
type Clause struct {
	Body       []Atom
	Constraint *Term
	Head       *Atom
}

// HornSystem is a set of constrained Horn clauses over its relations
// (Bjørner, Gurfinkel, McMillan, Rybalchenko, "Horn clause solvers for
// program verification", 2015).
type HornSystem struct {
	Relations []*Relation
	Clauses   []Clause
}

// HornSolver decides systems of constrained Horn clauses (package
// spacer: Z3's Spacer, an IC3/PDR engine, in a solver process;
// engine/smt/z3.InProcess in this process, for tests). SolveHorn answers
// Sat when the relations have an interpretation satisfying every clause
// (inductive invariants: no query's body is reachable), Unsat when some
// query's body is derivable, and Unknown with an error otherwise (the
// engine gave up, or ctx was done).
type HornSolver interface {
	SolveHorn(ctx context.Context, b *Builder, h *HornSystem) (Result, HornSolution, error)
}

// HornSolution interprets relations: each as a Bool term over
// HornArgs(b, r), the relation's arguments (a relation it leaves out has
// no interpretation that was read).
type HornSolution map[*Relation]*Term

// HornArgs returns the variables standing for r's arguments in a
// HornSolution.
func HornArgs(b *Builder, r *Relation) []*Term {
	out := make([]*Term, len(r.Args))
	for i, s := range r.Args {
		out[i] = b.Var(fmt.Sprintf("%s arg %d", r.Name, i), s)
	}
	return out
}

// HornQuery is the name of the 0-ary relation that SMTLIB makes the
// head of every query clause (a query's body is derivable iff it is).
const HornQuery = "error"
