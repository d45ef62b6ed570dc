// configs: symex symex-cegar default
// Symbolic execution: relations between inputs and bit-precise
// arithmetic, decided by path constraints (no spurious error paths).
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	if (x > 100)
		assert(x > 50);                   // want TRUE
	unsigned char a = __VERIFIER_nondet_uchar();
	unsigned char b = __VERIFIER_nondet_uchar();
	assert(a + b <= 510);                 // want TRUE
	if (__VERIFIER_nondet_int())
		assert(a + b <= 300);             // want FALSE
	if (__VERIFIER_nondet_int())
		assert((unsigned char)(a + b) >= a); // want FALSE
	int y = __VERIFIER_nondet_int();
	int z = __VERIFIER_nondet_int();
	if (z == y + 1 && y == 5)
		assert(z == 6);                   // want TRUE
	if (z == y + 1 && y < 1000)
		assert(z > y);                    // want TRUE
	if (__VERIFIER_nondet_int() && z == y + 1)
		assert(z > y);                    // want FALSE
	unsigned int u = __VERIFIER_nondet_uint();
	if (u + 1 == 0)
		assert(u == 4294967295u);         // want TRUE
	if (y < 0 && y > -100)
		assert(y / 2 >= y && y % 2 <= 0); // want TRUE
	assert((u >> 28) < 16);               // want TRUE
	return 0;
}
