// A library function checked with --entry f: the program has no main,
// so the reproducer must supply one that calls f.
#include <assert.h>

unsigned int f(unsigned short n, _Bool neg) {
	unsigned int acc = 0;
	for (unsigned short i = 0; i < n; i++)
		acc += i;
	if (neg && n > 3)
		assert(acc < 6); // want FALSE
	return acc;
}
