// A read of a memory-mapped register, *(volatile T *)address (issue 14):
// its value is nondeterministic like every volatile read, but the
// address is no object of the program, so no FALSE can be confirmed
// under bit-precise C semantics (and no host could run it): UNKNOWN,
// naming the pointer constant. Never TRUE. Also a volatile read through
// a null pointer.
// configs: value value-cegar symex symex-cegar value-slicing-cegar symex-slicing-cegar
#include "../sv.h"

#define REG (*(volatile unsigned *)0x40000000)

// The access stays in the CFA before the havoc of its value: a volatile
// read through a null pointer is undefined behaviour, not a FALSE, under
// every configuration (slicing included).
void null_read(void) {
	volatile int *p = 0;
	if (*p == 7)
		assert(0); // want UNKNOWN "invalid memory access"
}

int main(void) {
	if (__VERIFIER_nondet_int()) {
		null_read();
		return 0;
	}
	if (REG == 7u)
		assert(0); // want UNKNOWN "pointer constant"
	unsigned a = REG, b = REG;
	if (a != b)
		assert(0); // want UNKNOWN "pointer constant"
	return 0;
}
