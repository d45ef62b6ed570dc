// configs: symex symex-cegar value default
// max-states: 500
// A loop without a bound: full-precision symbolic execution does not
// terminate and says so (UNKNOWN at the state or time limit), although
// the assertion holds; the value analysis fares no better, as each
// iteration's infeasible error path is excluded and the next explored.
// symex-cegar refutes the error path without tracking x in the loop.
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	while (x > 0)
		x--;
	assert(x <= 0);                       // want UNKNOWN symex-cegar:TRUE default:TRUE
	return 0;
}
