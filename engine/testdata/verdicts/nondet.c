// Nondeterministic inputs: the value analysis excludes infeasible error
// paths with the bit-precise counterexample check.
#include "../sv.h"

unsigned char wrapping_add(unsigned char a, unsigned char b) { return (unsigned char)(a + b); }

int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 100)
		assert(x > 50);                   // want TRUE
	unsigned char a = __VERIFIER_nondet_uchar();
	unsigned char b = __VERIFIER_nondet_uchar();
	unsigned char w = wrapping_add(a, b);
	assert(w >= a);                       // want FALSE
	unsigned int y = __VERIFIER_nondet_uint();
	__VERIFIER_assume(y < 10);
	assert(y < 10);                       // want TRUE
	assert(y != 7);                       // want FALSE
	return 0;
}
