// configs: predicate-cegar value-cegar symex-cegar
// max-states: 5000
// Counting up to an unbounded input: the invariant j <= n is the Boolean
// abstraction of the predicates j < n and j == n that refinement learns
// from the weakest precondition of the assertion; explicit values and
// symbolic execution unroll the loop until their state limit.
#include "../sv.h"

int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < 0)
		return 0;
	int j = 0;
	while (j < n)
		j++;
	assert(j == n);                       // want TRUE value-cegar:UNKNOWN "state limit" symex-cegar:UNKNOWN "state limit"
	return 0;
}
