// atexit is declared (as every preprocessed stdlib.h declares it) but
// never called: no function runs after main returns, so main's
// address-taken local does not keep its assertion from a proof.
#include "../sv.h"
extern int atexit (void (*__func) (void)) __attribute__ ((__nothrow__ , __leaf__));
int main(void) {
	int x = __VERIFIER_nondet_int();
	int *p = &x;
	if (x > 0)
		*p = 0;
	assert(x <= 0);                        // want TRUE
	return 0;
}
