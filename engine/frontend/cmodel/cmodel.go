package cmodel

import (
	"regexp"
	"strings"

	"github.com/reverify/reverify/engine/ctext"
)

// A Unit is one model: a C translation unit the front end adds.
type Unit struct {
	// Name is the unit's name in positions ("<atexit>").
	Name string
	// Source is the unit's C text.
	Source string
	// Funcs are the C library functions the unit defines: a call of one
	// needs the unit, a definition of one in the program's sources
	// keeps it out (the program's own definition is the one linked).
	Funcs []string
	// also reports whether a source needs the unit without calling one
	// of Funcs (a destructor, which the atexit model runs); nil: never.
	also func(src string) bool
	// unless reports whether a source keeps the unit out although it
	// calls one of Funcs (setlocale, which changes what the conversions
	// accept); nil: never.
	unless func(src string) bool
	def    *regexp.Regexp // a definition of one of Funcs
	call   *regexp.Regexp // one of Funcs before a parenthesis: maybe a call
	names  map[string]bool
}

func newUnit(name, source string, funcs []string, also, unless func(string) bool) *Unit {
	u := &Unit{Name: name, Source: source, Funcs: funcs, also: also, unless: unless, names: map[string]bool{}}
	for _, f := range funcs {
		u.names[f] = true
	}
	// after a type name or `*` (not a call's `(`, `&&` or `=`), the
	// parameter list followed by a body
	alt := strings.Join(funcs, "|")
	u.def = regexp.MustCompile(`(?:[A-Za-z0-9_]\s+|\*\s*)(` + alt + `)\s*\([^;{}]*\)\s*\{`)
	u.call = regexp.MustCompile(`\b(` + alt + `)\s*\(`)
	return u
}

// Units are the models, in the order the front end adds them.
var Units = []*Unit{Atexit, Strto}

// IsUnit reports whether name is the name of one of Units (the file
// name of a model's translation unit in positions).
func IsUnit(name string) bool {
	for _, u := range Units {
		if u.Name == name {
			return true
		}
	}
	return false
}

// Needed returns the units a program whose sources have the texts srcs
// needs, in the order of Units: some source calls one of a unit's Funcs
// (Calls) or needs it otherwise, no source defines one of its Funcs,
// and none keeps it out. A declaration (`extern int atexit (void
// (*)(void));`, which every preprocessed stdlib.h has) is no call.
func Needed(srcs []string) []*Unit {
	var need []*Unit
	for _, u := range Units {
		calls, out := false, false
		for _, s := range srcs {
			if u.def.MatchString(s) || u.unless != nil && u.unless(s) {
				out = true
				break
			}
			if u.call.MatchString(s) && Calls(s, u.names) || u.also != nil && u.also(s) {
				calls = true
			}
		}
		if calls && !out {
			need = append(need, u)
		}
	}
	return need
}

// Calls reports whether src names one of names followed by an argument
// list in an expression: after a token that cannot end a declaration's
// specifiers (an operator, a parenthesis, a brace, a semicolon, a comma,
// or a statement keyword such as `return` or `else`), not after a type
// name, a qualifier or `*` as in a declaration. Comments and string
// literals are skipped.
func Calls(src string, names map[string]bool) bool {
	var toks []string
	ctext.Scan(src, func(id string) { toks = append(toks, id) }, func(t string) {
		if strings.TrimSpace(t) != "" {
			toks = append(toks, t)
		}
	})
	for i := 1; i+1 < len(toks); i++ {
		if !names[toks[i]] || toks[i+1] != "(" {
			continue
		}
		prev := toks[i-1]
		if stmtKeywords[prev] || !isIdentStart(prev) && prev != "*" {
			return true
		}
	}
	return len(toks) > 1 && names[toks[0]] && toks[1] == "("
}

// stmtKeywords are the identifiers after which f( is a call: a
// declaration's f follows a type name, a qualifier or `*`. A missed
// call would leave a model out (for atexit: the registered functions
// unrun at exit), so every keyword that can start or continue a
// statement counts.
var stmtKeywords = map[string]bool{"return": true, "else": true, "do": true, "case": true, "sizeof": true, "default": true}

func isIdentStart(t string) bool {
	c := t[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
