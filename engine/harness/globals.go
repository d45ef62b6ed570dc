package harness

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Written returns the globals of p that a function writes or whose
// address is taken anywhere, p.Init included (so that a function may
// write them through a pointer); the stores of p.Init do not count, nor
// do const globals (cfa.Var.ReadOnly: writing one is undefined
// behaviour). A global that no function writes holds its initial value
// whenever any function runs.
func Written(p *cfa.Program) map[*cfa.Var]bool {
	out := map[*cfa.Var]bool{}
	mark := func(x cfa.Expr) {
		// reverify's own globals (a contract check's frame) are ghost
		// state that only its generated functions write
		// (a const object keeps its initial value: writing it is
		// undefined behaviour, which the analyses do not model)
		if v := cfa.BaseVar(x); v != nil && v.Global && !v.ReadOnly && !cfa.Generated(v.Name) {
			out[v] = true
		}
	}
	for _, e := range p.Edges {
		if e.From.Func != p.Init { // the initialisation's stores are the initial values
			switch op := e.Op.(type) {
			case *cfa.Assign:
				mark(op.LHS)
			case *cfa.Havoc:
				mark(op.LHS)
			case *cfa.Call:
				if op.Result != nil {
					mark(op.Result)
				}
			}
		}
		// an address taken anywhere, a global initialiser's included
		// (`int *p = &g;`), lets any function write through it
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if a, ok := x.(*cfa.AddrOf); ok {
					mark(a.X)
				}
				return true
			})
		})
	}
	return out
}

// Globals returns the C text of a function named name that gives each
// of vars (written globals, Written, that file can name) an arbitrary
// value: integers
// and floating-point values any value, pointers NULL or fresh objects as
// parameters get them (Build), aggregates member by member. It also
// returns what the values assume and the globals it cannot name (static
// locals, which keep their initial values).
func Globals(p *cfa.Program, file, name string, vars []*cfa.Var, opts Options) (text string, assumptions []string) {
	vs := slices.Clone(vars)
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	g := &gen{p: p, opts: opts, file: file, scope: ident(name), assumed: map[string]bool{}, b: &strings.Builder{}, indent: "\t"}
	var locals []string
	for _, v := range vs {
		if strings.Contains(v.Name, "::") || v.Orig == "" {
			locals = append(locals, v.Name)
			continue
		}
		g.object(v.Orig, v.T, 0, true)
	}
	if len(vs) > len(locals) {
		g.assume("globals that a function writes start at any value; the others at their initial values")
	}
	if len(locals) > 0 {
		g.assume(fmt.Sprintf("static locals keep their initial values (%s)", strings.Join(locals, ", ")))
	}
	text = fmt.Sprintf("void %s(void) {\n%s}\n", name, g.b.String())
	return text, g.assumptions
}

// homes assigns each written global the source file whose globals
// function gives it its value: the file of its definition, else (a
// definition in a header) the translation unit of a function that
// names it. Globals with neither are returned apart.
func homes(p *cfa.Program, files []File, written map[*cfa.Var]bool) (by map[string][]*cfa.Var, none []*cfa.Var) {
	home := map[*cfa.Var]string{}
	for v := range written {
		if _, ok := sourceOf(files, v.Pos.File); ok {
			home[v] = v.Pos.File
		}
	}
	for _, e := range p.Edges {
		unit := e.From.Func.Unit
		if _, ok := sourceOf(files, unit); !ok {
			continue
		}
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if r, ok := x.(*cfa.VarRef); ok && written[r.Var] && home[r.Var] == "" {
					home[r.Var] = unit
				}
				return true
			})
		})
	}
	by = map[string][]*cfa.Var{}
	for v := range written {
		if f, ok := home[v]; ok {
			by[f] = append(by[f], v)
		} else if !strings.Contains(v.Name, "::") {
			none = append(none, v)
		}
	}
	return by, none
}
