// configs: k-induction value-cegar
// The error needs three iterations: the base case finds it at k=3 (the
// steps before are not inductive either: from i == 2 the next one fails).
#include "../sv.h"

int main(void) {
	int i = 0;
	int n = __VERIFIER_nondet_int();
	while (i < n) {
		i++;
		assert(i != 3);                   // want FALSE k-induction:FALSE "base case k=3"
	}
	return 0;
}
