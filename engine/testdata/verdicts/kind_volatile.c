// configs: k-induction
// A volatile read is a fresh value every time: the step case must not
// assume that v keeps what the last iteration read, and the base case
// finds the second read differing from the first.
#include "../sv.h"

volatile int v;

int main(void) {
	int last = v;
	while (__VERIFIER_nondet_int()) {
		int now = v;
		assert(now == last);              // want FALSE
		last = now;
	}
	return 0;
}
