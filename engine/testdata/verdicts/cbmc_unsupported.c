// configs: value value-cegar symex symex-cegar default
// What CBMC's dialect asks and reverify cannot answer exactly: a memory
// primitive called with another number of arguments (CBMC's one-argument
// __CPROVER_r_ok(p)) is an Unsupported edge naming it; the assertion
// stays a property, UNKNOWN with that reason, never a silent TRUE.
// __CPROVER_havoc_object(p) is a call of an unmodelled function (it may
// write p's object and more): no TRUE that needs *q's old value, and no
// FALSE through it.
#include <stdlib.h>

int main(void) {
	int *q = malloc(sizeof(int));
	__CPROVER_assume(q != 0);
	*q = 1;
	__CPROVER_havoc_object(q);
	__CPROVER_assert(*q == 1, "havocked"); // want UNKNOWN "__CPROVER_havoc_object"
	char *p = malloc(4);
	__CPROVER_assume(p != 0);
	__CPROVER_assert(__CPROVER_r_ok(p), "readable"); // want UNKNOWN "__CPROVER_r_ok with 1 arguments"
	return 0;
}
