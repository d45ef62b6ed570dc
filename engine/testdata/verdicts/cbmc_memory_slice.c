// configs: value predicate-cegar
// reduce: slice
// __CPROVER_r_ok depends on the free before it, which writes no value: a
// slice for the assertion must keep the free (pdg: in a program calling
// a memory primitive, free is a generic call), else the reduced program
// would prove the assertion (a wrong TRUE).
#include <stdlib.h>

int main(void) {
	char *p = malloc(4);
	__CPROVER_assume(p != 0);
	*p = 1;
	free(p);
	__CPROVER_assert(__CPROVER_r_ok(p, 1), "freed block"); // want FALSE
	return 0;
}
