package smtlib

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/smt"
)

// Horn returns h as SMT-LIB 2 Horn clauses in Z3's fixedpoint format:
// one declare-rel per relation and for smt.HornQuery, one rule (a
// universally quantified implication) per clause (a query's head is smt.HornQuery), and
// the query of smt.HornQuery.
// Variables are renamed x0, x1, … and relations
// R0, R1, … (in order); a subterm used more than once is bound by let
// once per clause, so the text grows linearly with the term DAG.
func Horn(h *smt.HornSystem) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "(declare-rel %s ())\n", smt.HornQuery)
	rels := map[*smt.Relation]string{}
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
	fmt.Fprintf(&sb, "(query %s)\n", smt.HornQuery)
	return sb.String()
}

// writeClause writes one clause as an assertion.
func writeClause(sb *strings.Builder, c smt.Clause, rels map[*smt.Relation]string) {
	var roots []*smt.Term
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
	names := map[*smt.Term]string{}
	for i, v := range vars {
		names[v] = fmt.Sprintf("x%d", i)
	}
	var lets []*smt.Term
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
		sb.WriteString(smt.HornQuery)
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

func writeAtom(sb *strings.Builder, a smt.Atom, rels map[*smt.Relation]string, names map[*smt.Term]string) {
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
func writeShared(sb *strings.Builder, t *smt.Term, names map[*smt.Term]string, top bool) {
	if n, ok := names[t]; ok && !top {
		sb.WriteString(n)
		return
	}
	t.WriteWith(sb, func(a *smt.Term) { writeShared(sb, a, names, false) })
}

// Script returns the conjunction of assertions (Bool terms) as an SMT-LIB
// 2 script without commands: one declare-fun per variable, named v0, v1,
// … in vars' order (vars[i] is vi), one define-fun per subterm used more
// than once, named s0, s1, … (a macro, so the text grows linearly with
// the term DAG and Z3 rebuilds the same shared DAG), and one assert per
// assertion. A solver process reads it back and decides it (package
// solverproc); the values its model gives vi are those of vars[i]
// (smt.ArrayValue, smt.EvalModel).
func Script(assertions []*smt.Term) (text string, vars []*smt.Term) {
	for _, a := range assertions {
		if !a.Sort.IsBool() {
			panic("smtlib.Script: assertion of a non-Bool term " + a.Describe())
		}
	}
	uses, vars, order := sharing(assertions)
	var sb strings.Builder
	names := map[*smt.Term]string{}
	for i, v := range vars {
		names[v] = fmt.Sprintf("v%d", i)
		fmt.Fprintf(&sb, "(declare-fun %s () %s)\n", names[v], v.Sort)
	}
	for _, t := range order {
		if uses[t] > 1 && len(t.Args) > 0 {
			name := fmt.Sprintf("s%d", len(names)-len(vars))
			fmt.Fprintf(&sb, "(define-fun %s () %s ", name, t.Sort)
			writeShared(&sb, t, names, true)
			sb.WriteString(")\n")
			names[t] = name
		}
	}
	for _, a := range assertions {
		sb.WriteString("(assert ")
		writeShared(&sb, a, names, false)
		sb.WriteString(")\n")
	}
	return sb.String(), vars
}

// sharing counts the uses of every subterm of roots (a term's first use
// visits its arguments, a later one does not), and lists the variables
// in order of first occurrence and the subterms in post-order
// (arguments first): what a writer needs to name shared subterms once.
func sharing(roots []*smt.Term) (uses map[*smt.Term]int, vars, order []*smt.Term) {
	uses = map[*smt.Term]int{}
	var visit func(t *smt.Term)
	visit = func(t *smt.Term) {
		uses[t]++
		if uses[t] > 1 {
			return
		}
		if t.Op == smt.Var {
			vars = append(vars, t)
		}
		for _, a := range t.Args {
			visit(a)
		}
		order = append(order, t)
	}
	for _, r := range roots {
		visit(r)
	}
	return uses, vars, order
}
