// configs: value value-cegar symex symex-cegar default
// What CBMC's dialect asks and reverify cannot answer exactly: a memory
// primitive called with another number of arguments (CBMC's one-argument
// __CPROVER_r_ok(p)) is an Unsupported edge naming it; the assertion
// stays a property, UNKNOWN with that reason, never a silent TRUE.
#include <stdlib.h>

int main(void) {
	char *p = malloc(4);
	__CPROVER_assume(p != 0);
	__CPROVER_assert(__CPROVER_r_ok(p), "readable"); // want UNKNOWN "__CPROVER_r_ok with 1 arguments"
	return 0;
}
