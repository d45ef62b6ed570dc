package reproduce

import (
	"fmt"
	"sort"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
	"github.com/reverify/reverify/engine/frontend/cbmctext"
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
//   - __CPROVER_r_ok, __CPROVER_w_ok and __CPROVER_rw_ok(p, n): from
//     AddressSanitizer's memory (memQueryDefs); the reproducer is then
//     built with -fsanitize=address.
//
// CBMC's quantifiers are not C: the reproducer's build compiles copies
// of the files that hold one, lowered as the front end lowers them
// (LowerQuantifiers); a quantifier of a shape the front end does not
// lower leaves the program without a reproducer (quantifierErr).
//
// The other memory queries (__CPROVER_same_object, POINTER_OBJECT,
// POINTER_OFFSET: they name CBMC's objects, which a compiled program
// does not have), __CPROVER_havoc_object and the uninterpreted functions
// have no C definition a harness could give: a program that calls one
// gets no reproducer (cbmcDefs says which, and why).

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
	if err := quantifierErr(p); err != nil {
		return "", err
	}
	var missing []string
	for name := range p.Externals {
		if strings.HasPrefix(name, "__CPROVER_") && p.Func(name) == nil && !has(cbmcFuncs, name) && !has(memQueryFuncs, name) && calledOutsideContracts(p, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return "", fmt.Errorf("witness: no reproducer: the program calls %s, CBMC primitives gcc cannot compute (%s)", strings.Join(missing, ", "), primitiveWhy(missing[0]))
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
	b.WriteString(memQueryDefs(p))
	return b.String(), nil
}

// primitiveWhy says in a few words why the harness cannot define the
// CBMC primitive name.
func primitiveWhy(name string) string {
	switch {
	case cfa.MemoryQueries[name] != 0:
		return name + " names CBMC's objects, which a compiled program does not have"
	case name == cfa.HavocObject || name == cfa.HavocSlice:
		return name + " writes arbitrary bytes, which no input of the counterexample gives"
	case cfa.Uninterpreted(name):
		return name + " is an uninterpreted function, which no C function is in general"
	case name == "__CPROVER_forall" || name == "__CPROVER_exists":
		return "a quantifier the front end does not lower"
	}
	return name + " has no C meaning"
}

// quantifierErr returns an error when the program holds a quantifier the
// front end does not lower (an Unsupported edge naming it): the
// reproducer's lowered copies (LowerQuantifiers) keep it as a call gcc
// cannot link.
func quantifierErr(p *cfa.Program) error {
	for _, e := range p.Edges {
		if u, ok := e.Op.(*cfa.Unsupported); ok && (u.Construct == "__CPROVER_forall" || u.Construct == "__CPROVER_exists") {
			return fmt.Errorf("witness: no reproducer: the %s at %s has a shape the front end does not lower to C", u.Construct, e.Pos.Start)
		}
	}
	return nil
}

// LowerQuantifiers returns the C source text with CBMC's quantifiers
// lowered as the C front end lowers them (cbmctext.BlankQuantifiers: a
// bounded __CPROVER_forall or __CPROVER_exists becomes a GNU statement
// expression that evaluates it exactly, every line where it was), and
// whether the text holds one. A reproducer of a program in CBMC's
// dialect is built from such copies of the files that hold a quantifier
// (report/artifacts); a quantifier of another shape gives the program no
// reproducer (Reproducer fails).
func LowerQuantifiers(text string) (string, bool) {
	if !strings.Contains(text, "__CPROVER_forall") && !strings.Contains(text, "__CPROVER_exists") {
		return text, false
	}
	return cbmctext.BlankQuantifiers(text), true
}

// memQueryFuncs are CBMC's memory queries the harness defines from
// AddressSanitizer's memory (memQueryDefs).
var memQueryFuncs = []string{"__CPROVER_r_ok", "__CPROVER_w_ok", "__CPROVER_rw_ok"}

// memQueries returns the memQueryFuncs the CBMC dialect program p calls
// without defining them: the harness defines them, and the reproducer is
// built with -fsanitize=address.
func memQueries(p *cfa.Program) []string {
	var qs []string
	if !p.CBMC {
		return nil
	}
	for _, name := range memQueryFuncs {
		if _, ok := p.Externals[name]; ok && p.Func(name) == nil {
			qs = append(qs, name)
		}
	}
	return qs
}

// memQueryDefs returns the harness's definitions of the memory queries
// p calls (memQueries) from AddressSanitizer's shadow memory and heap,
// global and stack descriptions. CBMC's (and the concrete
// interpreter's, engine/interp) r_ok(p, n) is 1 iff p points into a live
// object at an offset o with o + n at most the object's size; w_ok and
// rw_ok are the same. The harness computes, with ASan:
//
//   - p NULL: 0;
//   - n > 0 and a byte of [p, p+n) poisoned: 0. Every byte of a live
//     object is addressable to ASan (a C program poisons nothing itself),
//     so such a region is not inside a live object: CBMC says 0 too;
//   - otherwise the object O' whose bytes hold the address p (a live heap
//     block starting at p, of any size, even 0; or the heap block, global
//     or stack variable __asan_locate_address finds for an addressable p;
//     or, for n = 0 only, the one p is one past the end of): 1 iff
//     p + n <= end of O'. When ASan cannot name O' (memory it does not
//     track, a stack frame without a description) the harness stops the
//     run (status 0, not 77), as when an assumption fails.
//
// Where this differs from CBMC: CBMC asks about the object p was derived
// from (its provenance), ASan about the object at p's address. They are
// the same object unless the program moved p beyond one past the end of
// its object (or before its start; undefined behaviour in C already)
// and the address lands in another live object O'. Then CBMC says 0 and
// the harness may say 1; every answer 0 is CBMC's (a 0 is either a
// poisoned byte, or a region past the end of O', which is past its own
// object's end too when O' is not its object: CBMC says 0 for any pointer
// outside its object). So the only difference is 1 for CBMC's 0 on such
// a pointer. A query in an assertion or precondition, or in a validity
// predicate it calls, that must hold (the way CBMC's proofs use them)
// then holds where CBMC's fails: the reproducer fails to reproduce. A
// false confirmation (77) would need the reported assertion to fail
// because of such a 1: a negated query on a pointer the program itself
// moved out of its object into another.
func memQueryDefs(p *cfa.Program) string {
	qs := memQueries(p)
	if len(qs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`
/* CBMC's memory queries from AddressSanitizer's memory (memQueryDefs in
 * engine/witness/reproduce/cbmc.go): an answer 0 is CBMC's; an answer 1
 * differs from CBMC's 0 only for a pointer the program moved out of its
 * object into another live one (ASan knows addresses, not provenance). */
#include <sanitizer/asan_interface.h>
/* the sanitizer allocator's (sanitizer/allocator_interface.h, which gcc
 * does not install) */
int __sanitizer_get_ownership(const volatile void *p);
__CPROVER_size_t __sanitizer_get_allocated_size(const volatile void *p);

__attribute__((no_instrument_function)) static void rv_mem_unknown(const char *q, const void *p, unsigned long n)
{
	fflush(stdout);
	fprintf(stderr, "reverify-reproducer: %s(%p, %lu): AddressSanitizer cannot tell the object at this address; the run stops\n", q, p, n);
	_exit(0);
}

/* The object at p as ASan describes it: 1 with *beg and *size, else 0. */
__attribute__((no_instrument_function)) static int rv_mem_locate(const char *p, char **beg, __CPROVER_size_t *size)
{
	void *a = 0;
	__CPROVER_size_t s = 0;
	const char *kind = __asan_locate_address((void *)p, 0, 0, &a, &s);

	if (!kind || (strcmp(kind, "heap") != 0 && strcmp(kind, "global") != 0 && strcmp(kind, "stack") != 0))
		return 0;
	if (!((char *)a <= p && p < (char *)a + s))
		return 0;
	*beg = a, *size = s;
	return 1;
}

__attribute__((no_instrument_function)) static __CPROVER_bool rv_mem_ok(const char *q, const void *p, __CPROVER_size_t n)
{
	const char *c = p;
	char *beg = 0;
	__CPROVER_size_t size = 0;

	if (!c)
		return 0;
	if (n > 0 && __asan_region_is_poisoned((void *)c, n))
		return 0; /* a byte outside every live object */
	if (__sanitizer_get_ownership(c)) {
		beg = (char *)c, size = __sanitizer_get_allocated_size(c); /* a live heap block, maybe empty */
	} else if (!__asan_address_is_poisoned(c)) {
		if (!rv_mem_locate(c, &beg, &size))
			rv_mem_unknown(q, p, n);
	} else if (n == 0 && !__asan_address_is_poisoned(c - 1) && rv_mem_locate(c - 1, &beg, &size) && c == beg + size) {
		/* one past the end of its object */
	} else {
		rv_mem_unknown(q, p, n);
	}
	return n <= (__CPROVER_size_t)(beg + size - c);
}
`)
	for _, name := range qs {
		fmt.Fprintf(&b, "\n__attribute__((no_instrument_function)) __CPROVER_bool %s(const void *p, __CPROVER_size_t n)\n{\n\treturn rv_mem_ok(%q, p, n);\n}\n", name, name)
	}
	return b.String()
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
