// configs: k-induction default
// x only grows, so with unbounded integers x >= 250 is inductive and
// x + 1 != 0 would be "proved"; with 8-bit wrap-around x reaches 0 after
// six iterations, and the base case finds that counterexample at k=6.
#include "../sv.h"

int main(void) {
	unsigned char x = 250;
	while (__VERIFIER_nondet_int()) {
		x = x + 1;
		assert(x != 0);                   // want FALSE k-induction:FALSE "base case k=6"
	}
	return 0;
}
