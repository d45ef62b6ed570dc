// configs: k-induction default
// x - y == i - j at the loop head (SV-COMP's jm2006): no comparison of
// the program is that invariant, so k-induction needs the affine
// equality that Karr's analysis finds (engine/affine), checked by the
// Houdini search like any candidate. The second assertion is the same
// loop with the wrong claim: y == 1 fails at once when i == j == 0.
#include "../sv.h"

int main(void) {
	int i = __VERIFIER_nondet_int();
	int j = __VERIFIER_nondet_int();
	if (!(i >= 0 && j >= 0))
		return 0;
	int x = i;
	int y = j;
	while (x != 0) {
		x--;
		y--;
	}
	if (i == j)
		assert(y == 0);                   // want TRUE k-induction:TRUE "proved at k=1 with"
	x = i;
	y = j;
	while (x != 0) {
		x--;
		y--;
	}
	if (i == j)
		assert(y == 1);                   // want FALSE
	return 0;
}
