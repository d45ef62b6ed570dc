// configs: predicate-cegar value-cegar symex-cegar
// max-states: 5000
// Predicate abstraction (predicate-cegar) proves the loops whose
// invariants relate variables: a buffer scan over nondeterministic
// contents (the bound check holds inside the block from the loop head;
// the exit needs i <= max) and counting up to an input (i <= n, the
// Boolean abstraction of the learnt predicates i < n and i == n).
#include "../sv.h"

int main(void) {
	unsigned char buf[8];
	unsigned max = __VERIFIER_nondet_uint();
	if (max > 8)
		return 0;
	for (unsigned k = 0; k < max; k++)
		buf[k] = __VERIFIER_nondet_uchar();
	unsigned i = 0;
	while (i < max && buf[i] != 0) {
		assert(i < max);                  // want TRUE value-cegar:UNKNOWN "state limit"
		i++;
	}
	assert(i <= max);                     // want TRUE value-cegar:UNKNOWN "state limit"
	return 0;
}
