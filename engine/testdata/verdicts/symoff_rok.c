// configs: symex
// CBMC's __CPROVER_r_ok and __CPROVER_POINTER_OFFSET on pointers with a
// symbolic offset and a symbolic length (value/symptr.go,
// memoryQuerySym): a harness's "readable" check over a buffer's tail.
#include "../sv.h"
_Bool __CPROVER_r_ok(const void *, unsigned long);
long __CPROVER_POINTER_OFFSET(const void *);

unsigned char buf[32];

int main(void) {
	unsigned len = __VERIFIER_nondet_uint();
	unsigned n = __VERIFIER_nondet_uint();
	if (len > 32)
		return 0;
	unsigned char *p = buf + len;
	assert(__CPROVER_POINTER_OFFSET(p) == len); // want TRUE
	if (n <= 32 - len)
		assert(__CPROVER_r_ok(p, n)); // want TRUE
	if (n <= 32)
		assert(__CPROVER_r_ok(p, n)); // want FALSE
	return 0;
}
