package frontend

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
	"github.com/reverify/reverify/engine/frontend/cmodel"
)

// The atexit model's unit is cmodel.Atexit (engine/frontend/cmodel);
// here the calls of its runner are placed: every call of exit (without
// body) and every return of main call it first.

const atexitName = cmodel.AtexitName

// atexitActive reports whether the program has the atexit model: its
// runner is defined by the model's unit.
func (t *translator) atexitActive() bool {
	s := t.byName[cmodel.AtexitRun]
	return s != nil && s.def != nil && s.defUnit != nil && s.defUnit.Name == atexitName
}

// runAtexit emits the call of the atexit runner (when the model is
// active) at the current location, and returns it (nil otherwise).
func (fc *fnctx) runAtexit(rng cfa.Range, text string) *cfa.Call {
	if !fc.t.atexitActive() || fc.u != nil && fc.u.Name == atexitName {
		return nil
	}
	c := &cfa.Call{Fn: fc.t.byName[cmodel.AtexitRun].name, Pos: rng.Start}
	fc.emitAt(c, rng, text)
	return c
}

// mainReturn emits main's return of x: x into a temporary, the atexit
// runner, then the Return (plain Return without the model or outside
// main).
func (fc *fnctx) mainReturn(x cfa.Expr, rng cfa.Range, text string) {
	if fc.f.Name == "main" && fc.t.atexitActive() {
		if x != nil {
			if _, isConst := x.(*cfa.Const); !isConst {
				tmp := fc.temp(x.Type())
				fc.emitAt(&cfa.Assign{LHS: tmp, RHS: x}, rng, text)
				x = tmp
			}
		}
		if c := fc.runAtexit(rng, text); c != nil {
			fc.atexitReturns = append(fc.atexitReturns, c)
		}
	}
	fc.b.edge(fc.cur, fc.b.exit, &cfa.Return{X: x}, rng, text)
}

// atexitLifetimes puts an Unsupported edge before main's runner calls
// when main has an address-taken local or parameter (see the model's
// comment), or when the sources name main elsewhere than its definition
// (an entry that calls main continues after main returns, and the
// functions must not run then), so that analyses give up on what the
// functions may affect; called after main's body is translated.
func (fc *fnctx) atexitLifetimes() {
	if len(fc.atexitReturns) == 0 {
		return
	}
	construct := ""
	for _, v := range append(append([]*cfa.Var{}, fc.f.Params...), fc.f.Locals...) {
		if v.AddrTaken && !v.Global {
			construct = "atexit functions after main returns, whose locals (address taken) are dead"
		}
	}
	if construct == "" && fc.t.mainNamedElsewhere() {
		construct = "atexit functions at a return of main, which the program may call (the functions run only when the program ends)"
	}
	if construct == "" {
		return
	}
	calls := map[cfa.Op]bool{}
	for _, c := range fc.atexitReturns {
		calls[c] = true
	}
	for i, n := 0, len(fc.b.edges); i < n; i++ {
		e := fc.b.edges[i]
		if !calls[e.op] {
			continue
		}
		mid := fc.b.node()
		fc.b.edges[i].op = &cfa.Unsupported{Construct: construct}
		fc.b.edges[i].to = mid
		fc.b.edge(mid, e.to, e.op, e.pos, e.text)
	}
}

// mainNamedElsewhere reports whether the program's sources name main
// more than once (its definition): a call, a prototype or its address.
// Conservative: a prototype alone also counts.
func (t *translator) mainNamedElsewhere() bool {
	n := 0
	for _, u := range t.units {
		if cmodel.IsUnit(u.Name) {
			continue
		}
		ctext.Scan(u.Src.Text(), func(id string) {
			if id == "main" {
				n++
			}
		}, func(string) {})
	}
	return n > 1
}
