// configs: k-induction default
// A counter that steps by 4 from 2 below an input bound ends at the bound
// only when the bound is 2 modulo 4: i % 4 == 2 is the congruence
// candidate the Houdini search keeps (no comparison of the program says
// so), and with it the second loop is proved at k = 1. The first loop's
// counter starts at 1 and steps past n (n == 2: j ends at 5), first so
// that its base case stays shallow; its candidate j % 4 == 1 holds and
// proves nothing wrong.
#include "../sv.h"

int main(void) {
	unsigned int n = __VERIFIER_nondet_uint();
	if (n > 100000 || n % 4 != 2)
		return 0;
	unsigned int j = 1;
	while (j < n)
		j += 4;
	assert(j == n);                           // want FALSE
	unsigned int i = 2;
	while (i < n)
		i += 4;
	assert(i == n);                           // want TRUE k-induction:TRUE "proved at k=1 with"
	return 0;
}
