// strcpy into a block of symbolic size (the SMT encoding unrolls the
// source's bytes into it, the block's real size bounding the write): the
// counterexample's copy holds the source's bytes, and the reproducer's
// run reaches the assertion.
#include <assert.h>
#include <stdlib.h>
#include <string.h>

unsigned long __VERIFIER_nondet_ulong(void);

int main(void) {
	unsigned long n = __VERIFIER_nondet_ulong();
	if (n < 4 || n > 64)
		return 0;
	char *c = malloc(n);
	if (!c)
		return 0;
	strcpy(c, "abc");
	assert(c[2] != 'c' || n != 9); // want FALSE
	free(c);
	return 0;
}
