package engine

import (
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
)

// unmodelledEntryParam returns why the entry function's parameters keep a
// property from being decided, or "" when they do not.
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
func unmodelledEntryParam(fn *cfa.Function) string {
	for i, v := range fn.Params {
		if v.T.IsInteger() || !fn.Mentions(v) {
			continue
		}
		if fn.Name == "main" && (i == 1 || i == 2) && fn.IsArgc(fn.Params[0]) {
			continue // argv, envp
		}
		if v.T.Kind == cfa.Pointer {
			return fmt.Sprintf("entry function parameter %s of type %s is not modelled (a caller may pass any object, including globals whose address %s never takes)", v.Name, v.T, fn.Name)
		}
		return fmt.Sprintf("entry function parameter %s of type %s is not modelled (only integer parameters of an entry function are inputs)", v.Name, v.T)
	}
	return ""
}
