package smt

import (
	"context"
	"fmt"
	"sort"
	"strings"
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

// SMTLIB returns h as SMT-LIB 2 Horn clauses in Z3's fixedpoint format:
// one declare-rel per relation and for HornQuery, one rule (a
// universally quantified implication) per clause (a query's head is HornQuery), and
// the query of HornQuery.
// Variables are renamed x0, x1, … and relations
// R0, R1, … (in order); a subterm used more than once is bound by let
// once per clause, so the text grows linearly with the term DAG.
func (h *HornSystem) SMTLIB() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "(declare-rel %s ())\n", HornQuery)
	rels := map[*Relation]string{}
	for i, r := range h.Relations {
		name := fmt.Sprintf("R%d", i)
		rels[r] = name
		fmt.Fprintf(&sb, "(declare-rel %s (", name)
		for j, s := range r.Args {
			if j > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(s.String())
		}
		sb.WriteString("))\n")
	}
	for _, c := range h.Clauses {
		writeClause(&sb, c, rels)
	}
	fmt.Fprintf(&sb, "(query %s)\n", HornQuery)
	return sb.String()
}

// writeClause writes one clause as an assertion.
func writeClause(sb *strings.Builder, c Clause, rels map[*Relation]string) {
	var roots []*Term
	if c.Constraint != nil {
		roots = append(roots, c.Constraint)
	}
	for _, a := range c.Body {
		roots = append(roots, a.Args...)
	}
	if c.Head != nil {
		roots = append(roots, c.Head.Args...)
	}
	uses, vars, order := sharing(roots)
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	names := map[*Term]string{}
	for i, v := range vars {
		names[v] = fmt.Sprintf("x%d", i)
	}
	var lets []*Term
	for _, t := range order {
		if uses[t] > 1 && len(t.Args) > 0 {
			names[t] = fmt.Sprintf("s%d", len(lets))
			lets = append(lets, t)
		}
	}
	sb.WriteString("(rule ")
	if len(vars) > 0 {
		sb.WriteString("(forall (")
		for i, v := range vars {
			if i > 0 {
				sb.WriteByte(' ')
			}
			fmt.Fprintf(sb, "(%s %s)", names[v], v.Sort)
		}
		sb.WriteString(") ")
	}
	for _, t := range lets {
		fmt.Fprintf(sb, "(let ((%s ", names[t])
		writeShared(sb, t, names, true)
		sb.WriteString(")) ")
	}
	sb.WriteString("(=> (and true")
	if c.Constraint != nil {
		sb.WriteByte(' ')
		writeShared(sb, c.Constraint, names, false)
	}
	for _, a := range c.Body {
		sb.WriteByte(' ')
		writeAtom(sb, a, rels, names)
	}
	sb.WriteString(") ")
	if c.Head == nil {
		sb.WriteString(HornQuery)
	} else {
		writeAtom(sb, *c.Head, rels, names)
	}
	sb.WriteByte(')')
	sb.WriteString(strings.Repeat(")", len(lets)))
	if len(vars) > 0 {
		sb.WriteByte(')')
	}
	sb.WriteString(")\n")
}

func writeAtom(sb *strings.Builder, a Atom, rels map[*Relation]string, names map[*Term]string) {
	if len(a.Args) == 0 {
		sb.WriteString(rels[a.Rel])
		return
	}
	sb.WriteString("(" + rels[a.Rel])
	for _, t := range a.Args {
		sb.WriteByte(' ')
		writeShared(sb, t, names, false)
	}
	sb.WriteByte(')')
}

// writeShared writes t with its named subterms (variables and let-bound
// terms) by name; top writes t's own operator even when t is named (its
// let binding).
func writeShared(sb *strings.Builder, t *Term, names map[*Term]string, top bool) {
	if n, ok := names[t]; ok && !top {
		sb.WriteString(n)
		return
	}
	t.writeWith(sb, func(a *Term) { writeShared(sb, a, names, false) })
}
