// Counterexamples whose reproducers must reach the error (cmd/reverify's
// TestReproduceCommand runs them): an address-taken local overwritten
// before it is read, directly or through a pointer, is no value the
// reproducer must invent; reads of a volatile global get the
// counterexample's values from the reproducer.
// configs: value value-cegar symex symex-cegar
#include "../sv.h"

volatile int v;
volatile unsigned char w;

int main(void) {
	int x = 1;
	int *q = &x;
	*q = 5;
	if (__VERIFIER_nondet_int())
		assert(x == 1); // want FALSE

	int y;
	int *r = &y;
	*r = __VERIFIER_nondet_int();
	if (__VERIFIER_nondet_int())
		assert(y != 7); // want FALSE

	int a = v;
	if (a == 3 && v == 4 && w == 200)
		assert(0); // want FALSE
	return 0;
}
