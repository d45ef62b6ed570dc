// configs: predicate-cegar
// max-states: 5000
// Counting up to an unbounded input: the invariant j <= n is the Boolean
// abstraction of the predicates j < n and j == n that refinement learns
// from the weakest precondition of the assertion; explicit values and
// symbolic execution unroll the loop (value-cegar and symex-cegar take
// minutes to reach a state limit of 5000, so they do not run here).
#include "../sv.h"

int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < 0)
		return 0;
	int j = 0;
	while (j < n)
		j++;
	assert(j == n);                       // want TRUE
	return 0;
}
