// configs: k-induction default
// A counting loop: x + y == n is preserved by every iteration, so the
// assertion in the body is 1-inductive (k-induction proves it at k=1,
// whatever n is).
#include "../sv.h"

int main(void) {
	unsigned int n = __VERIFIER_nondet_uint();
	unsigned int x = 0;
	unsigned int y = n;
	while (y > 0) {
		x++;
		y--;
		assert(x + y == n);               // want TRUE k-induction:TRUE "proved at k=1"
	}
	return 0;
}
