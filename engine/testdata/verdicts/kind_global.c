// configs: k-induction
// State in globals, updated by a called loop-free function: the step
// case havocs the globals at the loop head; g == 2 * h is inductive,
// g == 2 * h + 1 fails in the base case.
#include "../sv.h"

unsigned int g = 0;
unsigned int h = 0;

void tick(void) {
	g += 2;
	h++;
}

int main(void) {
	while (__VERIFIER_nondet_int()) {
		tick();
		assert(g == 2 * h);               // want TRUE "proved at k=1"
	}
	assert(g != 2 * h + 1);               // want TRUE
	assert(g != 4);                       // want FALSE
	return 0;
}
