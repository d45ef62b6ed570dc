// configs: symex
// memset and memcpy of a symbolic length, and reads and writes through
// pointers with a symbolic offset, under symbolic execution
// (value/symptr.go): the bytes the call writes take the new value and the
// others keep theirs.
#include "../sv.h"
#include <string.h>

int main(void) {
	unsigned char a[16];
	for (int k = 0; k < 16; k++)
		a[k] = 7;
	unsigned n = __VERIFIER_nondet_uint();
	if (n > 16)
		return 0;
	memset(a, 0, n);
	unsigned i = __VERIFIER_nondet_uint();
	if (i < n)
		assert(a[i] == 0); // want TRUE
	if (i >= n && i < 16)
		assert(a[i] == 7); // want TRUE
	if (i < 16)
		assert(a[i] == 0); // want FALSE

	unsigned char b[16];
	memset(b, 9, sizeof b);
	memcpy(b + 4, a, n > 12 ? 12 : n);
	if (i < 4)
		assert(b[i] == 9); // want TRUE
	if (i >= 4 && i < 16 && i - 4 < n)
		assert(b[i] == 0); // want TRUE
	if (i >= 4 && i < 16)
		assert(b[i] == 9); // want FALSE

	int w[8] = {0};
	int *p = w + (i & 7);
	*p = 5;
	assert(w[i & 7] == 5); // want TRUE
	assert(p - w == (int)(i & 7)); // want TRUE
	assert(w[0] == 0); // want FALSE
	return 0;
}
