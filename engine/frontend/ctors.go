package frontend

import (
	"reflect"
	"sort"
	"strconv"

	"modernc.org/cc/v4"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// defaultCtorPriority is gcc's priority of a constructor or destructor
// without one (DEFAULT_INIT_PRIORITY): constructor(65535) is the same
// priority, so the two run in the order of their definitions; the
// constructors of priorities 101 to 65534 run before them.
const defaultCtorPriority = 65535

// ctorAttr reads __attribute__((constructor)) or
// __attribute__((constructor(N))) from the tokens of n: whether it is
// there and its priority (defaultCtorPriority without one).
func ctorAttr(n cc.Node) (bool, int) { return priorityAttr(n, "constructor") }

// dtorAttr reads __attribute__((destructor)) or
// __attribute__((destructor(N))) as ctorAttr does.
func dtorAttr(n cc.Node) (bool, int) { return priorityAttr(n, "destructor") }

// attrTokens returns the tokens inside the __attribute__((…))
// specifiers among the tokens of n, in source order: an identifier
// elsewhere (a parameter named weak or constructor) is no attribute.
func attrTokens(n cc.Node) []string {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return nil
	}
	type tok struct {
		off int
		s   string
	}
	var ts []tok
	ccparse.WalkTokens(reflect.ValueOf(n), func(t *cc.Token) bool {
		ts = append(ts, tok{t.Position().Offset, string(t.Src())})
		return true
	})
	// The walk follows the syntax tree's fields, not the source.
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].off < ts[j].off })
	var out []string
	depth, in := 0, false
	for _, t := range ts {
		switch {
		case !in && (t.s == "__attribute__" || t.s == "__attribute"):
			in, depth = true, 0
		case in && t.s == "(":
			if depth++; depth > 2 { // an attribute's own arguments
				out = append(out, t.s)
			}
		case in && t.s == ")":
			if depth > 2 {
				out = append(out, t.s)
			}
			if depth--; depth == 0 {
				in = false
			}
		case in && depth > 0:
			out = append(out, t.s)
		}
	}
	return out
}

// priorityAttr reads the attribute name (or __name__) with an optional
// priority among the attributes of n.
func priorityAttr(n cc.Node, name string) (bool, int) {
	toks := attrTokens(n)
	for i, s := range toks {
		if s != name && s != "__"+name+"__" {
			continue
		}
		if i+3 < len(toks) && toks[i+1] == "(" && toks[i+3] == ")" {
			if p, err := strconv.Atoi(toks[i+2]); err == nil {
				return true, p
			}
		}
		return true, defaultCtorPriority
	}
	return false, 0
}

// constructor is a function gcc runs before main.
type constructor struct {
	name     string
	priority int
	order    int // definition order: units in command-line order, then the source
	pos      cfa.Pos
	text     string
	rng      cfa.Range
}

// runConstructors appends to Init the calls of the constructors
// (functions defined with __attribute__((constructor))), in gcc's order:
// by priority, lowest first (those without one have
// defaultCtorPriority, the highest), and within one priority in the
// order of their definitions (units in link order). Init ends by entering the entry function, so they run
// after every static initialiser and before the entry, as the loader
// runs .init_array.
func (t *translator) runConstructors(ctors []constructor) {
	sort.SliceStable(ctors, func(i, j int) bool {
		if ctors[i].priority != ctors[j].priority {
			return ctors[i].priority < ctors[j].priority
		}
		return ctors[i].order < ctors[j].order
	})
	for _, c := range ctors {
		t.init.emitAt(&cfa.Call{Fn: c.name, Pos: c.pos}, c.rng, c.text)
	}
}

// registerDestructors appends to Init, before the constructors run, an
// atexit registration of each destructor (functions defined with
// __attribute__((destructor))), so that the atexit model runs them when
// main returns or exit is called: after the functions registered with
// atexit while the program ran (those come later on the stack), in
// gcc's order: by priority, highest first (those without one have
// defaultCtorPriority, the highest), within a priority in the reverse
// order of their definitions. Without the model (the sources define atexit) they
// are an unsupported construct.
func (t *translator) registerDestructors(dtors []constructor) {
	if len(dtors) == 0 {
		return
	}
	reg := t.byName["atexit"]
	if !t.atexitActive() || reg == nil {
		t.init.emitAt(&cfa.Unsupported{Construct: "destructors (run at exit) in a program that defines atexit"}, dtors[0].rng, dtors[0].text)
		return
	}
	// Registered in ascending priority, each priority in definition
	// order: the model runs the last registered first.
	sort.SliceStable(dtors, func(i, j int) bool {
		if dtors[i].priority != dtors[j].priority {
			return dtors[i].priority < dtors[j].priority
		}
		return dtors[i].order < dtors[j].order
	})
	for _, d := range dtors {
		fn := t.byName[d.name]
		arg := &cfa.AddrOf{X: &cfa.FuncRef{Name: d.name, T: fn.typ}, T: t.tm.Ptr(fn.typ)}
		t.init.emitAt(&cfa.Call{Fn: reg.name, Args: []cfa.Expr{arg}, Pos: d.pos}, d.rng, d.text)
	}
}

// hasAttr reports whether the attribute w, or __w__, is among the
// attributes of n (weak).
func hasAttr(n cc.Node, w string) bool {
	for _, s := range attrTokens(n) {
		if s == w || s == "__"+w+"__" {
			return true
		}
	}
	return false
}

// weakDefs makes the weak definitions that no strong definition
// replaced not final, as another object file may replace them at link
// time: a weak object is an extern object no source defines (its
// scalars are inputs, defineGlobal); a weak function is a function
// without a body at its calls (unmodelled), and its body is translated
// as "f.weak", called by nothing, so that its assertions still get a
// verdict line. It returns those bodies.
func (t *translator) weakDefs() []*funcSym {
	for _, o := range t.objList {
		if o.weak && o.defined {
			o.def, o.defined = nil, false
		}
	}
	var bodies []*funcSym
	for _, s := range t.fnList {
		if s.def == nil || !s.weakDef {
			continue
		}
		b := &funcSym{key: symKey{s.key.name + ".weak", s.key.unit}, unit: s.unit, decl: s.decl, def: s.def, defUnit: s.defUnit, typ: s.typ, static: s.static, weakOf: s}
		t.funcs[b.key] = b
		bodies = append(bodies, b)
		s.def, s.defUnit, s.weakDef = nil, nil, false
	}
	t.fnList = append(t.fnList, bodies...)
	return bodies
}

// stdinState is the state of standard input (cfa.StdinState: getchar,
// call.go): a global of the program, 0 in Init, created on first use.
func (t *translator) stdinState() *cfa.Var {
	if t.stdinVar == nil {
		v := t.newGlobal(cfa.StdinState, cfa.StdinState, cfa.IntT, cfa.Pos{})
		t.init.emitAt(&cfa.Decl{Var: v}, cfa.Range{}, "")
		t.init.emitAt(&cfa.Assign{LHS: &cfa.VarRef{Var: v}, RHS: cfa.NewConst(cfa.IntT, cfa.StdinOpen)}, cfa.Range{}, "")
		t.stdinVar = v
	}
	return t.stdinVar
}
