package reproduce

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// A program in CBMC's harness dialect (cfa.Program.CBMC) calls functions
// and uses macros that gcc lacks. Its reproducer carries them itself:
// the build force-includes the reproducer file into every source
// (selfInclude), where, at an include level above 0, it is CBMC's
// dialect as GNU C (csem.CBMCPreludeGNU: types, max_malloc_size,
// declarations, the overflow predicates); compiled as itself (level 0)
// it is the harness, which defines the declared functions:
//
//   - __CPROVER_assume(c): a false c means the run left the
//     counterexample (the replay satisfied every assumption); it says so
//     and exits with status 0, as __VERIFIER_assume does;
//   - __CPROVER_assert(c, msg) and __CPROVER_precondition(c, msg): a
//     false c is an error, judged as the C library's assertion functions
//     are (site.go), by the address the call returns to: the front ends
//     translate it as a call of __assert_fail at the assertion.
//
// CBMC's memory queries, __CPROVER_havoc_object and the uninterpreted
// functions have no C definition a harness could give: a program that
// calls one gets no reproducer (cbmcDefs says which).

// selfInclude is the reproducer's build flag (BuildFlags) that
// force-includes the reproducer into every source: BuildLine writes it
// as -include and the reproducer's path.
const selfInclude = "-include=<reproducer>"

// cbmcFuncs are the dialect's functions the harness defines.
var cbmcFuncs = []string{"__CPROVER_assume", "__CPROVER_assert", "__CPROVER_precondition"}

// cbmcPrelude returns the text that opens the reproducer of a CBMC
// dialect program (the force-included part), or "" for other programs;
// cbmcClose closes it.
func cbmcPrelude(p *cfa.Program) string {
	if !p.CBMC {
		return ""
	}
	return fmt.Sprintf("%s%s\n\n#if __INCLUDE_LEVEL__ > 0\n/* Force-included into every source: CBMC's harness dialect as GNU C. */\n%s#else\n/* Compiled as itself: the harness. */\n\n",
		buildFlagPrefix, selfInclude, csem.CBMCPreludeGNU(p.DataModel))
}

func cbmcClose(p *cfa.Program) string {
	if !p.CBMC {
		return ""
	}
	return "\n#endif /* __INCLUDE_LEVEL__ */\n"
}

// cbmcDefs returns the harness's definitions of the dialect's functions
// the program calls without defining them (cbmcFuncs), for the reported
// error called through __assert_fail when errFunc is that (else every
// failing assertion is another error). Errors: a dialect function
// without a C definition (a memory query, __CPROVER_havoc_object, an
// uninterpreted function).
func cbmcDefs(p *cfa.Program, errFunc string) (string, error) {
	if !p.CBMC {
		return "", nil
	}
	var missing []string
	for name := range p.Externals {
		if strings.HasPrefix(name, "__CPROVER_") && p.Func(name) == nil && !has(cbmcFuncs, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return "", fmt.Errorf("witness: no reproducer: the program calls %s, CBMC primitives gcc cannot compute", strings.Join(missing, ", "))
	}
	judge := "rv_not_reported(rv_buf);"
	if errFunc == "__assert_fail" {
		judge = "rv_error(rv_buf, 0, 0, __builtin_return_address(0), rv_depth - 1);"
	}
	var b strings.Builder
	if p.Func("__CPROVER_assume") == nil {
		b.WriteString(`
__attribute__((no_instrument_function)) void __CPROVER_assume(__CPROVER_bool cond)
{
	if (!cond) {
		fflush(stdout);
		fprintf(stderr, "reverify-reproducer: __CPROVER_assume failed: the run left the counterexample\n");
		_exit(0);
	}
}
`)
	}
	for _, name := range cbmcFuncs[1:] {
		if p.Func(name) != nil {
			continue
		}
		fmt.Fprintf(&b, `
__attribute__((no_instrument_function)) void %[1]s(__CPROVER_bool cond, const char *description)
{
	char rv_buf[1024];

	if (cond)
		return;
	snprintf(rv_buf, sizeof rv_buf, "%[1]s(\"%%s\")", description ? description : "");
	%[2]s
}
`, name, judge)
	}
	return b.String(), nil
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
