// A failing assertion aborts the program: assertions after it are only
// reached on paths that avoid it.
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	assert(x != 0);                       // want FALSE
	assert(x != 0);                       // want TRUE
	if (x == 7)
		abort();
	assert(x != 7);                       // want TRUE
	return 0;
}
