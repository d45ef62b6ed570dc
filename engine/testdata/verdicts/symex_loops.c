// configs: symex symex-cegar value default
// max-states: 5000
// Loops bounded by symbolic inputs: symbolic execution unrolls them as
// often as the constraints allow; the explicit-value analysis, which
// does not know the bound, counts forever (and finds the violation on
// its way).
#include "../sv.h"

int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < 0 || n > 5)
		return 0;
	int i = 0;
	while (i < n)
		i++;
	assert(i == n);                       // want TRUE value:UNKNOWN "state limit 5000"
	unsigned int k = __VERIFIER_nondet_uint();
	if (k >= 8)
		return 0;
	int s = 0;
	for (unsigned int j = 0; j < k; j++)
		s += 2;
	assert(s == 2 * k);                   // want TRUE value:UNKNOWN "state limit 5000"
	assert(s != 14);                      // want FALSE
	return 0;
}
