// configs: predicate-cegar
// max-states: 5000
// A refinement that fails to make progress answers UNKNOWN with its
// reason, never TRUE: the invariant s == 2 * j is no atom of the weakest
// preconditions of the assertion along the unrolled paths (s == 2 * k,
// j < k and their shifted copies), so after a few refinements an error
// path comes back whose boundaries gain no new predicate.
#include "../sv.h"

int main(void) {
	unsigned int k = __VERIFIER_nondet_uint();
	if (k >= 8)
		return 0;
	int s = 0;
	for (unsigned int j = 0; j < k; j++)
		s += 2;
	assert(s == 2 * k);                   // want TRUE predicate-cegar:UNKNOWN "no new predicate"
	return 0;
}
