// configs: value value-cegar symex symex-cegar default
// CBMC's memory primitives (cfa.MemoryQueries) on objects whose bounds
// and lifetimes the analyses know: globals and string literals for the
// value analysis in any mode, every object in the SMT encoding and the
// concrete replay. A heap block's bounds are unknown to the value
// analysis outside memory mode: its result is any value, and the error
// paths it allows are infeasible in the exact SMT encoding. A FALSE is
// confirmed by the concrete replay, which evaluates them too; object
// numbers are CBMC's, so a FALSE that needs one is UNKNOWN. A failing
// assertion ends its path, so those that fail sit on branches of their
// own.
#include <stdlib.h>

char g[4];
int nondet_int(void);

int main(void) {
	char *p = malloc(4);
	__CPROVER_assume(p != 0);
	__CPROVER_assert(__CPROVER_r_ok(g, 4), "global readable"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(__CPROVER_w_ok(g + 1, 4), "global overrun"); // want FALSE
	__CPROVER_assert(__CPROVER_rw_ok(g + 4, 0), "empty range at the end"); // want TRUE
	__CPROVER_assert(__CPROVER_same_object(g, g + 3), "same object"); // want TRUE
	__CPROVER_assert(!__CPROVER_same_object(g, p), "distinct objects"); // want TRUE
	__CPROVER_assert(__CPROVER_POINTER_OFFSET(g + 3) == 3, "offset"); // want TRUE
	__CPROVER_assert(!__CPROVER_r_ok((char *)0, 1), "NULL"); // want TRUE
	__CPROVER_assert(__CPROVER_POINTER_OBJECT((char *)0) == 0, "NULL object"); // want TRUE
	__CPROVER_assert(__CPROVER_r_ok("abc", 4), "string literal"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(__CPROVER_POINTER_OBJECT(g) == 0, "object number"); // want UNKNOWN "CBMC's"
	__CPROVER_assert(__CPROVER_rw_ok(p, 4), "heap block"); // want TRUE
	free(p);
	__CPROVER_assert(__CPROVER_r_ok(p, 1), "freed block"); // want FALSE
	return 0;
}
