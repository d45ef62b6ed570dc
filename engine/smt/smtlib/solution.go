package smtlib

import (
	"fmt"

	"github.com/reverify/reverify/engine/smt"
)

// ReadSolution reads the interpretations of the relations of h from a Horn
// solver's answer in Z3's format: a conjunction whose conjuncts include
// (forall (binders) (= (Rk binders…) body)), optionally annotated (!
// … :weight 0), where Rk is the k-th relation's name in SMTLIB; a
// relation without arguments is (= Rk body). Conjuncts of other forms
// are skipped; a body ReadSolution cannot read leaves its relation out.
func ReadSolution(h *smt.HornSystem, b *smt.Builder, answer string) (smt.HornSolution, error) {
	es, err := ParseSExprs(answer)
	if err != nil {
		return nil, err
	}
	byName := map[string]*smt.Relation{}
	for i, r := range h.Relations {
		byName[fmt.Sprintf("R%d", i)] = r
	}
	sol := smt.HornSolution{}
	var visit func(e *SExpr)
	visit = func(e *SExpr) {
		if !e.IsList() || len(e.List) == 0 {
			return
		}
		switch e.List[0].Atom {
		case "and":
			for _, x := range e.List[1:] {
				visit(x)
			}
			return
		case "!":
			if len(e.List) > 1 {
				visit(e.List[1])
			}
			return
		}
		env := map[string]*smt.Term{}
		body := e
		if e.List[0].Atom == "forall" && len(e.List) == 3 && e.List[1].IsList() {
			for _, bind := range e.List[1].List {
				if !bind.IsList() || len(bind.List) != 2 || bind.List[0].IsList() {
					return
				}
				env[bind.List[0].Atom] = nil // bound; set from the atom
			}
			body = e.List[2]
			for body.IsList() && len(body.List) > 1 && body.List[0].Atom == "!" {
				body = body.List[1]
			}
		}
		if !body.IsList() || len(body.List) != 3 || body.List[0].Atom != "=" {
			return
		}
		atom, def := body.List[1], body.List[2]
		var r *smt.Relation
		var params []*SExpr
		if atom.IsList() && len(atom.List) > 0 {
			r, params = byName[atom.List[0].Atom], atom.List[1:]
		} else if !atom.IsList() {
			r = byName[atom.Atom]
		}
		if r == nil || len(params) != len(r.Args) {
			return
		}
		args := smt.HornArgs(b, r)
		for i, p := range params {
			if p.IsList() {
				return
			}
			env[p.Atom] = args[i]
		}
		for k, v := range env {
			if v == nil {
				delete(env, k)
			}
		}
		t, err := ParseTerm(b, def, env)
		if err != nil || !t.Sort.IsBool() {
			return
		}
		sol[r] = t
	}
	for _, e := range es {
		visit(e)
	}
	return sol, nil
}
