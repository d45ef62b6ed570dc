package cfa

import "fmt"

// Mentions reports whether some edge of f mentions v (reads it, writes it or
// takes its address). The path encoder and the interpreter bind an entry
// parameter they cannot model (argv, a pointer or struct parameter) only
// when f never mentions it: its value then cannot influence any path.
func (f *Function) Mentions(v *Var) bool {
	for _, l := range f.Locs {
		for _, e := range l.Out {
			found := false
			ForEachExpr(e.Op, func(x Expr) {
				Walk(x, func(x Expr) bool {
					if r, ok := x.(*VarRef); ok && r.Var == v {
						found = true
					}
					return !found
				})
			})
			if found {
				return true
			}
		}
	}
	return false
}

// IsArgc reports whether v is the argc parameter of a hosted program's
// main function, `int main(int argc, char *argv[])` (or with a third
// envp parameter): its value is nonnegative (C11 5.1.2.2.1p2), which the
// path encoder and the interpreter assume of the entry's inputs. Under
// another entry function (--entry f) every integer parameter is an
// arbitrary value.
func (f *Function) IsArgc(v *Var) bool {
	return f.Name == "main" && len(f.Params) >= 2 && f.Params[0] == v && v.T.IsInteger() &&
		f.Params[1].T.Kind == Pointer
}

// UnmodelledParam returns why the parameters of f, as the entry
// function, keep a property from being decided, or "" when they do not.
//
// Integer parameters of the entry function are nondeterministic inputs
// ("param x"; main's argc is nonnegative, C11 5.1.2.2.1p2). main's argv
// (and envp) point to strings the environment owns, distinct from every
// object of the program: the analyses read them as unknown values and a
// write through them forgets only addressable objects, which covers them,
// so a proof stands; a counterexample that reads them cannot be encoded
// (smt.EncodePath) and stays UNKNOWN. A pointer or aggregate parameter of
// another entry function (--entry f) may designate any object a caller
// outside the program chose, including globals whose address this
// program never takes, which the analyses assume unreachable through a
// pointer: a property of an entry function that mentions such a parameter
// is UNKNOWN, with this reason, before any analysis runs. A parameter the
// function never mentions cannot influence it and is ignored.
func (f *Function) UnmodelledParam() string {
	for i, v := range f.Params {
		if v.T.IsInteger() || !f.Mentions(v) {
			continue
		}
		if f.Name == "main" && (i == 1 || i == 2) && f.IsArgc(f.Params[0]) {
			continue // argv, envp
		}
		if v.T.Kind == Pointer {
			return fmt.Sprintf("entry function parameter %s of type %s is not modelled (a caller may pass any object, including globals whose address %s never takes)", v.Name, v.T, f.Name)
		}
		return fmt.Sprintf("entry function parameter %s of type %s is not modelled (only integer parameters of an entry function are inputs)", v.Name, v.T)
	}
	return ""
}
