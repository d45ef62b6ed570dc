// What the engine must not decide: unsupported constructs, unmodelled
// functions, unreachable assertions, unbounded recursion.
#include "../sv.h"

extern int external_sensor(void);

int rec(int n) { return rec(n + 1); }

void never_called(void) {
	assert(0);                            // want NOT_CHECKED
}

int main(void) {
	int r = external_sensor();
	if (r == 5)
		assert(0);                        // want UNKNOWN "unmodelled"
	int v = 1;
	__asm__ volatile ("nop");
	assert(v == 1);                       // want UNKNOWN "unsupported"
	if (__VERIFIER_nondet_int())
		rec(0);
	assert(v == 1);                       // want UNKNOWN
	return 0;
}
