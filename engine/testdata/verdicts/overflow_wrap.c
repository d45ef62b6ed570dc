// Signed overflow under wrap-around (the default, gcc -fwrapv): a
// counterexample may overflow, and its reason names the first overflow.
// overflow_assume_none.c is the same program under assume-none.
// configs: value value-cegar symex symex-cegar
// signed-overflow: wrap
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 0) {
		int y = x + 1;
		assert(y > 0); // want FALSE "overflows a signed integer at"
	}
	int a = __VERIFIER_nondet_int();
	int b = -a;
	if (a < 0)
		assert(b > 0); // want FALSE "overflows a signed integer at"
	int m = __VERIFIER_nondet_int();
	if (m > 2 && m < 40000)
		assert(m * m > m); // want TRUE
	int p = __VERIFIER_nondet_int();
	if (p > 65536)
		assert(p * 65536 != 0); // want FALSE "overflows a signed integer at"
	unsigned int u = __VERIFIER_nondet_uint();
	if (u > 0)
		assert(u + 1 > 0); // want FALSE "confirmed"
	int z = __VERIFIER_nondet_int();
	if (z > 5)
		assert(z - 1 != 9); // want FALSE "confirmed"
	return 0;
}
