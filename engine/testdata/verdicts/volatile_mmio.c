// A read of a memory-mapped register, *(volatile T *)address (issue 14):
// its value is nondeterministic like every volatile read, but the
// address is no object of the program, so no FALSE can be confirmed
// under bit-precise C semantics (and no host could run it): UNKNOWN,
// naming the pointer constant. Never TRUE.
// configs: value value-cegar symex symex-cegar value-slicing-cegar symex-slicing-cegar
#include "../sv.h"

#define REG (*(volatile unsigned *)0x40000000)

int main(void) {
	if (REG == 7u)
		assert(0); // want UNKNOWN "pointer constant"
	unsigned a = REG, b = REG;
	if (a != b)
		assert(0); // want UNKNOWN "pointer constant"
	return 0;
}
