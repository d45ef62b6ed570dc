// configs: symex-slicing symex-slicing-cegar value-slicing-cegar
// Recursion under the slicing CPA: a violation through a recursive
// function stays FALSE. A call of a recursive function outside the slice
// is explored with every edge a no-op, so its recursion is unbounded and
// the run ends at the call-stack depth limit: UNKNOWN where symbolic
// execution without slicing proves the property (value-cegar, which does
// not track n, fares the same; seed 000 leaves recursive tasks out of
// its evaluation for this reason).
#include "../sv.h"

int fact(int n) {
	if (n <= 1)
		return 1;
	return n * fact(n - 1);
}

int main(void) {
	int c = __VERIFIER_nondet_int();
	if (c > 10)
		assert(c > 5);                    // want UNKNOWN "recursion depth 64 exceeded" symex:TRUE reduce:TRUE
	int r = fact(4);
	assert(r == 24);                      // want TRUE
	assert(r != 24);                      // want FALSE
	return 0;
}
