// configs: value value-cegar symex symex-cegar default
// What the memory model cannot answer in CBMC's dialect (object bounds:
// __CPROVER_r_ok, w_ok, rw_ok; object identities: __CPROVER_POINTER_OBJECT,
// OFFSET; __CPROVER_havoc_object) is an Unsupported edge naming the
// function and its position: the assertion stays a property, UNKNOWN with
// that reason, never a silent TRUE.
#include <stdlib.h>

int main(void) {
	char *p = malloc(4);
	__CPROVER_assume(p != 0);
	__CPROVER_assert(__CPROVER_r_ok(p, 4), "readable"); // want UNKNOWN "__CPROVER_r_ok"
	int *q = malloc(sizeof(int));
	__CPROVER_assume(q != 0);
	*q = 1;
	__CPROVER_havoc_object(q);
	__CPROVER_assert(*q == 1, "havocked"); // want UNKNOWN "__CPROVER_havoc_object"
	return 0;
}
