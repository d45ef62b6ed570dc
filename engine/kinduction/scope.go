package kinduction

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/smt"
)

// allowedExtern reports whether a call of fn without a body is in scope:
// its effect is exactly what smt.EncodePath encodes (a fresh input, an
// assumption, the end of the execution, an error call).
func allowedExtern(fn string) bool {
	switch {
	case strings.HasPrefix(fn, "__VERIFIER_nondet_"), fn == "__VERIFIER_assume", smt.IsErrorFunction(fn),
		fn == "abort", fn == "exit", fn == "_exit", fn == "__builtin_trap", fn == "__VERIFIER_error":
		return true
	}
	return false
}

// checkScope returns "" when prog, run from entry, is inside the scope of
// the package doc, and otherwise the reason it is not. It also returns
// the functions reachable from entry (entry first) and the variables
// some operation of theirs or of the global initialiser reads (readVars);
// a variable no operation reads (main's unused argv) cannot influence a
// path's feasibility, so its type is not restricted.
func checkScope(prog *cfa.Program, entry *cfa.Function, errorEdges map[*cfa.Edge]bool) (string, []*cfa.Function, map[*cfa.Var]bool) {
	var order []*cfa.Function
	visited := map[*cfa.Function]bool{}
	// The functions on a cycle of the direct calls that are run (an
	// error call's body is not).
	recursive := cfa.NewCallGraph(prog, prog.Edges, func(e *cfa.Edge, c *cfa.Call) []string {
		if errorEdges[e] || c.Fn == "" {
			return nil
		}
		return []string{c.Fn}
	}).Recursive()
	var reason string
	var visit func(f *cfa.Function)
	visit = func(f *cfa.Function) {
		visited[f] = true
		order = append(order, f)
		for _, l := range f.Locs {
			for _, e := range l.Out {
				if reason != "" {
					return
				}
				if u, ok := e.Op.(*cfa.Unsupported); ok {
					reason = fmt.Sprintf("unsupported construct %s at %s", u.Construct, e.Pos.Start)
					return
				}
				c, ok := e.Op.(*cfa.Call)
				if !ok {
					continue
				}
				if c.Fn == "" {
					reason = fmt.Sprintf("call through a function pointer at %s", e.Pos.Start)
					return
				}
				g := prog.Func(c.Fn)
				if g == nil {
					if !allowedExtern(c.Fn) && !errorEdges[e] {
						reason = fmt.Sprintf("call to bodiless function %s at %s", c.Fn, e.Pos.Start)
					}
					continue
				}
				if errorEdges[e] {
					continue // an error call ends the path; its body is never run
				}
				if recursive[g] {
					reason = fmt.Sprintf("recursion at %s", e.Pos.Start)
					return
				}
				if !visited[g] {
					visit(g)
				}
			}
		}
	}
	visit(entry)
	if reason != "" {
		return reason, nil, nil
	}
	read := readVars(append([]*cfa.Function{prog.Init}, order...))
	for _, f := range order {
		for _, l := range f.Locs {
			if l.LoopHead && f != entry {
				return fmt.Sprintf("loop in called function %s at %s", f.Name, loopPos(l)), nil, nil
			}
		}
		vars := append(append([]*cfa.Var{}, f.Params...), f.Locals...)
		if f.RetVar != nil {
			vars = append(vars, f.RetVar)
		}
		for _, v := range vars {
			if r := varReason(v); r != "" && read[v] {
				return r, nil, nil
			}
		}
	}
	for _, v := range prog.Globals {
		if r := varReason(v); r != "" && read[v] {
			return r, nil, nil
		}
	}
	for _, e := range prog.Init.Locs {
		for _, o := range e.Out {
			if _, ok := o.Op.(*cfa.Call); ok {
				return fmt.Sprintf("call in a global initialiser at %s", o.Pos.Start), nil, nil
			}
		}
	}
	return "", order, read
}

// readVars is the set of variables that an operation of fns reads: every
// variable an operation mentions, except the target of an Assign, a Havoc
// or a Call's result that is a variable itself (x = …, which writes x
// and reads nothing of it). A Decl reads nothing.
func readVars(fns []*cfa.Function) map[*cfa.Var]bool {
	read := map[*cfa.Var]bool{}
	mark := func(x cfa.Expr) {
		for _, v := range cfa.Vars(x) {
			read[v] = true
		}
	}
	for _, f := range fns {
		if f == nil {
			continue
		}
		for _, l := range f.Locs {
			for _, e := range l.Out {
				stored := cfa.Stored(e.Op)
				cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
					if _, ok := x.(*cfa.VarRef); ok && x == stored {
						return
					}
					mark(x)
				})
			}
		}
	}
	return read
}

// varReason says why v is outside the scope ("" when it is a scalar
// integer register).
func varReason(v *cfa.Var) string {
	switch {
	case v.AddrTaken:
		return fmt.Sprintf("variable %s at %s lives in memory (address taken or array)", v.Orig, v.Pos)
	case !v.T.IsInteger():
		return fmt.Sprintf("variable %s at %s is not a scalar integer (%s)", name(v), v.Pos, v.T)
	}
	return ""
}

func name(v *cfa.Var) string {
	if v.Orig != "" {
		return v.Orig
	}
	return v.Name
}

// loopPos is the source position of the first edge into loop head l.
func loopPos(l *cfa.Location) cfa.Pos {
	for _, e := range l.In {
		if e.Pos.Start.Line > 0 {
			return e.Pos.Start
		}
	}
	for _, e := range l.Out {
		return e.Pos.Start
	}
	return cfa.Pos{}
}
