// configs: k-induction default
// j - i <= 2n needs i >= 0 at both loop heads (without it 3 * i may
// wrap): no comparison of the program says so, and the sign candidate
// of the counter i (assigned, signed) is the invariant the Houdini
// search keeps. The first assertion is false at i == 1, j == 2 (first,
// so that its base case stays shallow).
#include "../sv.h"

int main(void) {
	int n = __VERIFIER_nondet_int();
	if (!(0 < n && n < 1000))
		return 0;
	for (int i = 0; i < n; i++)
		for (int j = 2 * i; j < 3 * i; j++)
			assert(j - i < i);            // want FALSE
	for (int i = 0; i < n; i++)
		for (int j = 2 * i; j < 3 * i; j++)
			assert(j - i <= 2 * n);       // want TRUE k-induction:TRUE "proved at k=1 with"
	return 0;
}
