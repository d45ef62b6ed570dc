// Machine-integer semantics: every assertion's verdict is known by
// construction (gcc -O0 -fwrapv on x86).
#include "../sv.h"

int main(void) {
	unsigned char c = 255;
	c++;
	assert(c == 0);                       // want TRUE
	unsigned char d = 200;
	assert(d + 100 == 300);               // want TRUE
	if (__VERIFIER_nondet_int())          // a failing assertion aborts:
		assert((unsigned char)(d + 100) == 300); // want FALSE

	int big = 70000;
	short s = (short)big;
	assert(s == 4464);                    // want TRUE

	int m = -8;
	assert((m >> 1) == -4);               // want TRUE
	unsigned int u = 0x80000000u;
	assert((u >> 31) == 1);               // want TRUE
	assert(-7 / 2 == -3);                 // want TRUE
	assert(-7 % 2 == -1);                 // want TRUE
	assert(7 % -2 == 1);                  // want TRUE
	int n = 0x7fffffff;
	n = n + 1;
	assert(n < 0);                        // want TRUE
	signed char sc = (signed char)200;
	assert(sc == -56);                    // want TRUE
	long long ll = -1;
	unsigned int ul = (unsigned int)ll;
	assert(ul == 4294967295u);            // want TRUE
	assert(ul == 0);                      // want FALSE
	return 0;
}
