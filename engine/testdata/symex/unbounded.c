// A loop without a bound: full-precision symbolic execution does not
// terminate and says so (UNKNOWN at the state or time limit), although
// the assertion holds.
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	while (x > 0)
		x--;
	assert(x <= 0);                       // want symex:UNKNOWN truth:TRUE
	return 0;
}
