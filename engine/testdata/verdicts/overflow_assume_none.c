// Signed overflow under assume-none (SV-COMP: no undefined behaviour):
// a path on which a signed operation overflows is cut, so the
// wrap-around counterexamples of overflow_wrap.c disappear.
// configs: value value-cegar symex symex-cegar
// signed-overflow: assume-none
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 0) {
		int y = x + 1;
		assert(y > 0); // want TRUE
	}
	int a = __VERIFIER_nondet_int();
	int b = -a;
	if (a < 0)
		assert(b > 0); // want TRUE
	int m = __VERIFIER_nondet_int();
	if (m > 2 && m < 40000)
		assert(m * m > m); // want TRUE
	int p = __VERIFIER_nondet_int();
	if (p > 65536)
		assert(p * 65536 != 0); // want TRUE
	unsigned int u = __VERIFIER_nondet_uint();
	if (u > 0)
		assert(u + 1 > 0); // want FALSE "confirmed"
	int z = __VERIFIER_nondet_int();
	if (z > 5)
		assert(z - 1 != 9); // want FALSE "confirmed"
	return 0;
}
