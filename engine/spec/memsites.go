package spec

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/reverify/reverify/engine/cfa"
)

// Whole-program memory properties next to the per-site ones
// (MemorySites): their IDs are the subproperty names.
const (
	MemtrackID = "valid-memtrack"
	DerefID    = "valid-deref"
	FreeID     = "valid-free"
)

// MemorySites returns the memory-safety properties of p from entry for
// the subproperties subs (valid-deref, valid-free, valid-memtrack,
// valid-memcleanup), one per access site: each statement that reads or
// writes memory through a pointer or an array subscript, or hands a
// pointer to a library function that accesses memory (memset, memcpy,
// string functions, any function without a body), is a valid-deref
// property, and each call of free a valid-free property. Sites with the
// same function, position and subproperty (the two branches of one
// condition, a for header) are one property with several Sites. IDs are
// "<function>:<subproperty>@<file base name>:<line>:<col>", e.g.
// "main:valid-deref@buf.c:12:5" (positions are display data; memory
// properties are never cached, so an ID that moves with an edit costs
// nothing). valid-memtrack and valid-memcleanup stay whole-program
// properties (ID the subproperty's name): a lost block has no access
// site. Sites in functions entry cannot call are not Reachable
// (NOT_CHECKED, as assertions). The result is sorted by position, the
// whole-program properties last.
//
// The sites are a syntactic superset of the accesses the memory-safety
// checks of the value analysis decide (analysis/value memsafety.go,
// accessWalker and libAccesses: an lvalue whose base goes through a
// Deref or an Index, read or written); the engine gives UNKNOWN to every
// open site when the analysis reports an access outside them
// (engine/memsafety), so a mismatch can never hide a violation.
func MemorySites(p *cfa.Program, entry string, subs []string) []*Property {
	want := map[string]bool{}
	for _, s := range subs {
		want[s] = true
	}
	reach := ReachableFuncs(p, entry)
	byID := map[string]*Property{}
	var props []*Property
	add := func(f *cfa.Function, l *cfa.Location, e *cfa.Edge, sub string) {
		pos := e.Pos.Start
		if c, ok := e.Op.(*cfa.Call); ok && c.Pos.Line > 0 {
			pos = c.Pos
		}
		id := fmt.Sprintf("%s:%s@%s:%d:%d", f.Name, sub, filepath.Base(pos.File), pos.Line, pos.Col)
		if pos.Line == 0 {
			id = fmt.Sprintf("%s:%s@edge%d", f.Name, sub, e.ID)
		}
		prop := byID[id]
		if prop == nil {
			prop = &Property{ID: id, Func: f.Name, Expr: "G " + sub, Pos: pos, Text: e.Text, Memory: []string{sub}}
			byID[id] = prop
			props = append(props, prop)
		}
		prop.Sites = append(prop.Sites, e)
		prop.Reachable = prop.Reachable || reach[f.Name] && !l.Dead
	}
	for _, f := range p.Funcs {
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if want[DerefID] && Accesses(p, e) {
					add(f, l, e, DerefID)
				}
				if c, ok := e.Op.(*cfa.Call); ok && want[FreeID] && c.Fn == "free" {
					add(f, l, e, FreeID)
				}
			}
		}
	}
	SortByPos(props)
	var whole []string
	for _, s := range subs {
		if s == MemtrackID || s == MemCleanupID {
			whole = append(whole, s)
		}
	}
	sort.Strings(whole)
	for _, s := range whole {
		props = append(props, &Property{ID: s, Func: entry, Expr: "G " + s, Reachable: true, Memory: []string{s}})
	}
	return props
}

// Accesses reports whether the operation of e reads or writes memory
// through a pointer or an array subscript (a valid-deref site of
// MemorySites), directly or through a library function without a body
// that gets a pointer (other than a string literal).
func Accesses(p *cfa.Program, e *cfa.Edge) bool {
	found := false
	var rval, addr func(x cfa.Expr)
	access := func(x cfa.Expr) {
		for base := x; ; {
			switch y := base.(type) {
			case *cfa.Member:
				base = y.X
				continue
			case *cfa.Index, *cfa.Deref:
				found = true
			}
			return
		}
	}
	rval = func(x cfa.Expr) {
		switch x := x.(type) {
		case *cfa.Deref, *cfa.Member, *cfa.Index:
			addr(x)
			if k := x.Type().Kind; k != cfa.Array && k != cfa.Func {
				access(x)
			}
		case *cfa.AddrOf:
			addr(x.X)
		case *cfa.Cast:
			rval(x.X)
		case *cfa.Unary:
			rval(x.X)
		case *cfa.Binary:
			rval(x.X)
			rval(x.Y)
		}
	}
	addr = func(x cfa.Expr) {
		switch x := x.(type) {
		case *cfa.Deref:
			rval(x.X)
		case *cfa.Member:
			addr(x.X)
		case *cfa.Index:
			addr(x.X)
			rval(x.I)
		}
	}
	write := func(x cfa.Expr) {
		addr(x)
		access(x)
	}
	switch op := e.Op.(type) {
	case *cfa.Assign:
		rval(op.RHS)
		write(op.LHS)
	case *cfa.Havoc:
		write(op.LHS)
	case *cfa.Assume:
		rval(op.Cond)
	case *cfa.Return:
		if op.X != nil {
			rval(op.X)
		}
	case *cfa.Call:
		for _, a := range op.Args {
			rval(a)
		}
		if op.FnPtr != nil {
			rval(op.FnPtr)
		}
		if op.Result != nil {
			write(op.Result)
		}
		if !found && libraryAccess(p, op) {
			found = true
		}
	}
	return found
}

// libraryAccess reports whether call is a call of a function without a
// body (or through a pointer) that may access memory through a pointer
// argument.
func libraryAccess(p *cfa.Program, call *cfa.Call) bool {
	if call.Fn == "" || p.Func(call.Fn) != nil {
		return false // through a pointer: "unmodelled" forbids TRUE anyway
	}
	literalsToo := false
	switch call.Fn {
	case "malloc", "calloc", "free", "alloca", "__builtin_alloca":
		return false
	case "memset", "memcpy", "memmove", "memcmp", "strlen", "strchr", "strcmp", "strncmp", "strcpy", "strncpy":
		literalsToo = true
	}
	switch p.Extern(call.Fn) {
	case cfa.ExternNondet, cfa.ExternAssume:
		return false
	}
	if cfa.MemoryQueries[call.Fn] != 0 {
		return false
	}
	for _, a := range call.Args {
		if a.Type().Kind != cfa.Pointer {
			continue
		}
		if _, lit := cfa.StringLiteral(a); lit && !literalsToo {
			continue
		}
		return true
	}
	return false
}
