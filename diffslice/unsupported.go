package diffslice

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Unsupported constructs outside the slice.
//
// The engine answers UNKNOWN for a property as soon as its analysis
// reaches an edge the front end could not translate (an Unsupported
// operation), on any path — also on paths that cannot lead to the
// property, which its slice leaves out. So a property's verdict depends
// on the reachable unsupported constructs of the whole program, and the
// slice hash must cover them: reusing a TRUE computed before such a
// construct appeared elsewhere would report TRUE where verifying from
// scratch reports UNKNOWN naming the construct. unsupportedConstructs
// lists them, in a form that survives moving code ("function: construct"),
// and sliceExtras adds the list to every slice hash of a program that has
// any.

// unsupportedConstructs returns the unsupported operations of the
// functions reachable from the global initialiser and the entry function
// (calls through pointers reach every address-taken function), as sorted
// "function: construct" strings with duplicates kept once, and for
// messages the position of each.
func unsupportedConstructs(prog *cfa.Program, entry string) (keys []string, where map[string]string) {
	targets := prog.AddressTaken()
	seen := map[string]bool{}
	var work []*cfa.Function
	visit := func(name string) {
		if f := prog.Func(name); f != nil && !seen[name] {
			seen[name] = true
			work = append(work, f)
		}
	}
	if prog.Init != nil {
		seen[prog.Init.Name] = true
		work = append(work, prog.Init)
	}
	visit(entry)
	if entry == AutoEntry { // library mode: every function is an entry
		for _, f := range prog.Funcs {
			visit(f.Name)
		}
	}
	where = map[string]string{}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, l := range f.Locs {
			for _, e := range l.Out {
				switch op := e.Op.(type) {
				case *cfa.Unsupported:
					k := f.Name + ": " + op.Construct
					if _, ok := where[k]; !ok {
						where[k] = fmt.Sprintf("%s:%d", e.Pos.Start.File, e.Pos.Start.Line)
					}
				case *cfa.Call:
					if op.Fn != "" {
						visit(op.Fn)
					} else {
						for _, t := range targets {
							visit(t)
						}
					}
				}
			}
		}
	}
	for k := range where {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, where
}

// unsupportedNote describes the unsupported constructs for a reason:
// "the program has unsupported constructs (`bad`: conversion … at
// u.c:5)".
func unsupportedNote(keys []string, where map[string]string) string {
	var parts []string
	for i, k := range keys {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(keys)-3))
			break
		}
		fn, c, _ := strings.Cut(k, ": ")
		parts = append(parts, fmt.Sprintf("`%s`: %s at %s", fn, c, where[k]))
	}
	return "the program has unsupported constructs, which the engine meets on any path (" + strings.Join(parts, "; ") + ")"
}
