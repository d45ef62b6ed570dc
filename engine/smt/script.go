package smt

import (
	"fmt"
	"strings"
)

// Script returns the conjunction of assertions (Bool terms) as an SMT-LIB
// 2 script without commands: one declare-fun per variable, named v0, v1,
// … in vars' order (vars[i] is vi), one define-fun per subterm used more
// than once, named s0, s1, … (a macro, so the text grows linearly with
// the term DAG and Z3 rebuilds the same shared DAG), and one assert per
// assertion. A solver process reads it back and decides it (package
// solverproc); the values its model gives vi are those of vars[i]
// (ArrayValue, EvalModel).
func Script(assertions []*Term) (text string, vars []*Term) {
	for _, a := range assertions {
		if !a.Sort.IsBool() {
			panic("smt.Script: assertion of a non-Bool term " + a.Describe())
		}
	}
	uses, vars, order := sharing(assertions)
	var sb strings.Builder
	names := map[*Term]string{}
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
func sharing(roots []*Term) (uses map[*Term]int, vars, order []*Term) {
	uses = map[*Term]int{}
	var visit func(t *Term)
	visit = func(t *Term) {
		uses[t]++
		if uses[t] > 1 {
			return
		}
		if t.Op == Var {
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

// ArrayValue is the value of an array variable in a model: Default at
// every index but the keys of Entries. Values and indexes are the low
// and high 64 bits of a bit-vector.
type ArrayValue struct {
	Default [2]uint64
	Entries map[[2]uint64][2]uint64
}

// EvalModel is Eval under a model that also gives array variables their
// values: arrays(v) for an array variable v (ok false: an error, as
// env's). It is the Model of a solver whose answer arrives as text
// (package solverproc).
func EvalModel(t *Term, env Assignment, arrays func(v *Term) (ArrayValue, bool)) (lo, hi uint64, err error) {
	e := evaluator{env: env, arrEnv: arrays, memo: map[*Term]bv{}, arrs: map[*Term]*arrayVal{}}
	return e.run(t)
}
