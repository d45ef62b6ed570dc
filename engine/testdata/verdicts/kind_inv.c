#include "../sv.h"
int main(void) {
	unsigned int n = __VERIFIER_nondet_uint();
	unsigned int x = 0;
	while (x < n) { x++; }
	assert(x == n);
	return 0;
}
