// configs: k-induction
// x == y after the loop: plain k-induction fails at every k (from a
// state with x != y the loop may run k times and exit), the candidate
// invariant x == y (the assertion's argument) holds initially and is
// preserved, and with it the step holds at k=1.
#include "../sv.h"

int main(void) {
	unsigned int x = 0;
	unsigned int y = 0;
	while (__VERIFIER_nondet_int()) {
		x++;
		y++;
	}
	assert(x == y);                       // want TRUE "proved at k=1 with"
	return 0;
}
