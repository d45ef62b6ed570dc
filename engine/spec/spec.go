package spec

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// Property is one assertion site to be proved unreachable.
type Property struct {
	ID   string
	Func string  // function containing the site
	Expr string  // the asserted expression as written (normalised spacing)
	Pos  cfa.Pos // display only
	Text string  // source text of the site
	// ErrorEdges are the Call edges whose execution violates the property.
	ErrorEdges []*cfa.Edge
	// Via, when not nil, is the call of an assert wrapper: only error edges
	// executed inside that call count.
	Via *cfa.Edge
	// Reachable is false when the entry function cannot call Func.
	Reachable bool
	// Precondition: the site is CBMC's __CPROVER_precondition (a check
	// on Func's callers; cfa.Program.Preconditions).
	Precondition bool
	// Memory, when not empty, makes this a memory-safety property
	// (engine/memsafety): the subproperties checked together ("valid-deref",
	// "valid-free", "valid-memtrack", "valid-memcleanup"); ErrorEdges is
	// then empty.
	Memory []string
	// Sites, for a per-site memory property (MemorySites), are the edges
	// whose accesses (valid-deref) or frees (valid-free) it covers; nil
	// for a whole-program memory property.
	Sites []*cfa.Edge
}

// String returns the ID with its display position.
func (p *Property) String() string { return fmt.Sprintf("%s (%s)", p.ID, p.Pos) }

// ErrorFuncs are the functions whose call is an assertion failure.
var ErrorFuncs = map[string]bool{
	"reach_error":          true,
	"__VERIFIER_error":     true,
	"__assert_fail":        true,
	"__assert_perror_fail": true,
	"__assert":             true,
	"__assert_rtn":         true,
}

// SVCompErrorFuncs are the error functions of SV-COMP's unreach-call.
var SVCompErrorFuncs = map[string]bool{"reach_error": true, "__VERIFIER_error": true}

// UnreachCallID is the ID of the single SV-COMP property.
const UnreachCallID = "unreach-call"

// Properties returns the assertion sites of p with stable IDs (ordinals
// count in function definition order, then CFA edge order), sorted by
// source position for display.
// Reachability is judged from entry. It returns no error: a program
// without assertions has no properties, which callers must report loudly.
//
// An assert wrapper (Wrappers) yields one property per direct call site,
// except the entry function and a wrapper whose address is taken: the
// entry has no call site (the assertion of `int main(int argc, char
// **argv) { assert(argc == 5); }` depends only on the entry's parameters,
// which are inputs, and must not vanish), and a call through a pointer
// names no callee; their error calls are properties of their own. So
// are those of a function guarded by its parameters that nobody calls
// (NOT_CHECKED: "no assertion found" only when the source has none); the
// conventional __VERIFIER_assert and assert helpers, when never called,
// yield none.
func Properties(p *cfa.Program, entry string) []*Property {
	wrappers := Wrappers(p)
	delete(wrappers, entry)
	called := map[string]bool{}
	for _, e := range p.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && !cfa.IsContext(e.From.Func.Name) {
			called[c.Fn] = true // a most general context's call makes no wrapper
		}
		cfa.ForEachExpr(e.Op, func(x cfa.Expr) {
			cfa.Walk(x, func(x cfa.Expr) bool {
				if r, ok := x.(*cfa.FuncRef); ok {
					delete(wrappers, r.Name)
				}
				return true
			})
		})
	}
	for name := range wrappers {
		if !called[name] && name != "__VERIFIER_assert" && name != "assert" {
			delete(wrappers, name) // its assertion is a property, NOT_CHECKED
		}
	}
	reach := ReachableFuncs(p, entry)
	var props []*Property
	count := map[string]int{}
	for _, f := range p.Funcs {
		if ErrorFuncs[f.Name] || wrappers[f.Name] != nil {
			continue
		}
		for _, l := range f.Locs {
			for _, e := range l.Out {
				call, ok := e.Op.(*cfa.Call)
				if !ok {
					continue
				}
				var prop *Property
				switch {
				case ErrorFuncs[call.Fn]:
					prop = &Property{ErrorEdges: []*cfa.Edge{e}, Expr: errorExpr(e, call)}
				case wrappers[call.Fn] != nil:
					prop = &Property{ErrorEdges: wrappers[call.Fn], Via: e, Expr: wrapperExpr(e, call)}
				default:
					continue
				}
				prop.Func = f.Name
				prop.Pos = e.Pos.Start
				prop.Precondition = prop.Via == nil && p.Preconditions[e.Pos.Start]
				prop.Text = e.Text
				prop.Reachable = reach[f.Name] && !l.Dead
				key := f.Name + ":" + normalise(prop.Expr)
				count[key]++
				prop.ID = key
				if n := count[key]; n > 1 {
					prop.ID = fmt.Sprintf("%s#%d", key, n)
				}
				props = append(props, prop)
			}
		}
	}
	SortByPos(props)
	return props
}

// UnreachCall returns the SV-COMP property: every call of reach_error or
// __VERIFIER_error anywhere in the program must be unreachable.
func UnreachCall(p *cfa.Program, entry string) *Property {
	prop := &Property{ID: UnreachCallID, Func: entry, Expr: "G ! call(reach_error())", Reachable: true}
	for _, e := range p.Edges {
		if c, ok := e.Op.(*cfa.Call); ok && SVCompErrorFuncs[c.Fn] && !SVCompErrorFuncs[e.From.Func.Name] {
			prop.ErrorEdges = append(prop.ErrorEdges, e)
		}
	}
	if len(prop.ErrorEdges) > 0 {
		prop.Pos = prop.ErrorEdges[0].Pos.Start
	}
	return prop
}

var prpRE = regexp.MustCompile(`^CHECK\(\s*init\((\w+)\(\)\)\s*,\s*LTL\(\s*G\s*!\s*call\(\s*(reach_error|__VERIFIER_error)\(\)\s*\)\s*\)\s*\)$`)

// ParsePRP parses an SV-COMP property file. Only unreach-call is
// supported; it returns the entry function, or an error quoting the line.
func ParsePRP(text string) (entry string, err error) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := prpRE.FindStringSubmatch(line)
		if m == nil {
			return "", fmt.Errorf("unsupported property %q (only unreach-call is supported)", line)
		}
		entry = m[1]
	}
	if entry == "" {
		return "", fmt.Errorf("property file holds no property")
	}
	return entry, nil
}

// Wrappers returns the assert wrappers of p, each with its error edges.
func Wrappers(p *cfa.Program) map[string][]*cfa.Edge {
	w := map[string][]*cfa.Edge{}
	for _, f := range p.Funcs {
		if ErrorFuncs[f.Name] {
			continue
		}
		var errs []*cfa.Edge
		guardedByParams := len(f.Params) > 0
		params := map[*cfa.Var]bool{}
		for _, v := range f.Params {
			params[v] = true
		}
		for _, l := range f.Locs {
			for _, e := range l.Out {
				switch op := e.Op.(type) {
				case *cfa.Call:
					if ErrorFuncs[op.Fn] {
						errs = append(errs, e)
					} else if op.Fn != "abort" && op.Fn != "exit" {
						guardedByParams = false
					}
				case *cfa.Assume:
					for _, v := range cfa.Vars(op.Cond) {
						if !params[v] {
							guardedByParams = false
						}
					}
				case *cfa.Assign, *cfa.Havoc, *cfa.Unsupported:
					guardedByParams = false
				}
			}
		}
		if len(errs) > 0 && (f.Name == "__VERIFIER_assert" || f.Name == "assert" || guardedByParams) {
			w[f.Name] = errs
		}
	}
	return w
}

// ReachableFuncs returns the functions with a body the entry (or the
// global initialiser) may call, transitively, on the program's call graph
// under cfa's syntactic rule (Program.SyntacticTargets): a call through a
// pointer, and a call of an unmodelled function without a body (which may
// call back), may reach every function whose address is taken.
func ReachableFuncs(p *cfa.Program, entry string) map[string]bool {
	cg := cfa.NewCallGraph(p, p.Edges, p.SyntacticTargets())
	return cg.Reachable(p.Init, p.Func(entry))
}

// errorExpr describes a direct error call: the asserted expression of
// __assert_fail (its first argument, as assert.h passes it), else the
// negated guard of the branch leading to it, else the call itself.
func errorExpr(e *cfa.Edge, call *cfa.Call) string {
	if len(call.Args) > 0 {
		if s, ok := cfa.StringLiteral(call.Args[0]); ok {
			return s
		}
	}
	for l := e.From; len(l.In) == 1; l = l.In[0].From {
		in := l.In[0]
		if a, ok := in.Op.(*cfa.Assume); ok {
			if a.Truth {
				return "!(" + condText(in, a) + ")"
			}
			return condText(in, a)
		}
		if _, ok := in.Op.(*cfa.Noop); !ok {
			break
		}
	}
	return call.Fn + "()"
}

func condText(e *cfa.Edge, a *cfa.Assume) string {
	return a.Cond.String()
}

// wrapperExpr is the source text of the wrapper call's argument(s).
func wrapperExpr(e *cfa.Edge, call *cfa.Call) string {
	if t := strings.TrimSpace(e.Text); t != "" {
		if i := strings.Index(t, "("); i >= 0 && strings.HasSuffix(strings.TrimRight(t, "; "), ")") {
			t = strings.TrimRight(t, "; ")
			return t[i+1 : len(t)-1]
		}
		return t
	}
	parts := make([]string, len(call.Args))
	for i, a := range call.Args {
		parts[i] = a.String()
	}
	return strings.Join(parts, ", ")
}

// normalise removes all whitespace.
func normalise(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// SortByPos orders properties by file, line and column (for display).
func SortByPos(props []*Property) {
	sort.SliceStable(props, func(i, j int) bool {
		a, b := props[i].Pos, props[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}
