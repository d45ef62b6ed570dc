// Regression: excluding a spurious error path must not leave states
// covered by its ancestors unexplored. The value analysis reaches the
// assertion first from the !(y > 0) branch (y unknown), whose error path
// is infeasible; the state from the y > 0 branch (x = 1) is covered by it
// at the wrapper's entry, and its error path is feasible.
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = __VERIFIER_nondet_int();
	if (y > 0) {
		x = 1;
	}
	assert(y <= 0);                       // want FALSE
	return 0;
}
