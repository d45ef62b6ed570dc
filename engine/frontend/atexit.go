package frontend

import (
	"regexp"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/ctext"
)

// The atexit model (C11 7.22.4.2–4, 5.1.2.2.3): functions registered
// with atexit run, in the reverse order of their registration, when
// exit is called or main returns; a function registered while they run
// runs too (it is the last registered then). A program that calls atexit
// without defining it gets the translation unit atexitSource, which
// keeps the registered functions in a stack of atexitMax entries (the
// least C requires; one more registration fails with a nonzero result,
// as C allows) and defines atexit and the runner atexitRun, and every
// call of exit (without body) and every return of main call the runner
// first. abort, _Exit and quick_exit do not run them (C11 7.22.4.1,
// 7.22.4.5, 7.22.4.7), nor does a program without atexit calls.
//
// main's locals are still live while the functions run after its
// return, where C ends their lifetime first (5.1.2.2.3, footnote 11); a
// function reaching one through a pointer would read a dead object, so
// when main has an address-taken local (or parameter) an Unsupported
// edge precedes the runner call of its returns (analyses give up on the
// properties the functions may affect, never decide them).
//
// Without the model atexit is an unmodelled function that may call back
// its argument, and every memory property is UNKNOWN (SV-COMP
// c/memsafety/global-atexit*).
const (
	atexitRun = "__reverify_atexit_run"
	atexitMax = 32
)

// atexitSource is the translation unit of the atexit model.
const atexitSource = `typedef void (*__reverify_atexit_fn)(void);
static __reverify_atexit_fn __reverify_atexit_fns[32];
static int __reverify_atexit_n;

int atexit(void (*f)(void))
{
	if (__reverify_atexit_n == 32)
		return 1;
	__reverify_atexit_fns[__reverify_atexit_n] = f;
	__reverify_atexit_n++;
	return 0;
}

void __reverify_atexit_run(void)
{
	while (__reverify_atexit_n > 0) {
		__reverify_atexit_n--;
		__reverify_atexit_fns[__reverify_atexit_n]();
	}
}
`

// atexitName is the name of the model's translation unit in positions.
const atexitName = "<atexit>"

var (
	atexitCallRE = regexp.MustCompile(`\batexit\s*\(`)
	// atexitDefRE matches a definition of atexit (its parameter list
	// followed by a body).
	atexitDefRE = regexp.MustCompile(`\batexit\s*\([^;{}]*\)\s*\{`)
)

// needsAtexit reports whether the sources call atexit or define a
// destructor (registered with the model, ctors.go) and none defines
// atexit. A declaration (`extern int atexit (void (*)(void));`, which
// every preprocessed stdlib.h has) is no call: the model then stays out,
// and main's returns run nothing.
func needsAtexit(srcs []Source) bool {
	calls := false
	for _, s := range srcs {
		if atexitDefRE.MatchString(s.Content) {
			return false
		}
		if atexitCallRE.MatchString(s.Content) && callsAtexit(s.Content) || destructorRE.MatchString(s.Content) {
			calls = true
		}
	}
	return calls
}

// destructorRE matches the destructor attribute.
var destructorRE = regexp.MustCompile(`__attribute__\s*\(\(\s*[^;{}]*\b(__)?destructor(__)?\b`)

// callsAtexit reports whether src names atexit followed by an argument
// list in an expression: after a token that cannot end a declaration's
// specifiers (an operator, a parenthesis, a brace, a semicolon, a comma,
// or a statement keyword such as `return` or `else`), not after a type
// name, a qualifier or `*` as in a declaration.
func callsAtexit(src string) bool {
	var toks []string
	ctext.Scan(src, func(id string) { toks = append(toks, id) }, func(t string) {
		if strings.TrimSpace(t) != "" {
			toks = append(toks, t)
		}
	})
	for i := 1; i+1 < len(toks); i++ {
		if toks[i] != "atexit" || toks[i+1] != "(" {
			continue
		}
		prev := toks[i-1]
		if stmtKeywords[prev] || !isIdentStart(prev) && prev != "*" {
			return true
		}
	}
	return len(toks) > 1 && toks[0] == "atexit" && toks[1] == "("
}

// stmtKeywords are the identifiers after which atexit( is a call: a
// declaration's atexit follows a type name, a qualifier or `*`. A
// missed call would leave the registered functions unrun at exit, so
// every keyword that can start or continue a statement counts.
var stmtKeywords = map[string]bool{"return": true, "else": true, "do": true, "case": true, "sizeof": true, "default": true}

func isIdentStart(t string) bool {
	c := t[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// atexitActive reports whether the program has the atexit model: its
// runner is defined by the model's unit.
func (t *translator) atexitActive() bool {
	s := t.byName[atexitRun]
	return s != nil && s.def != nil && s.defUnit != nil && s.defUnit.Name == atexitName
}

// runAtexit emits the call of the atexit runner (when the model is
// active) at the current location, and returns it (nil otherwise).
func (fc *fnctx) runAtexit(rng cfa.Range, text string) *cfa.Call {
	if !fc.t.atexitActive() || fc.u != nil && fc.u.Name == atexitName {
		return nil
	}
	c := &cfa.Call{Fn: fc.t.byName[atexitRun].name, Pos: rng.Start}
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
		if u.Name == atexitName {
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
