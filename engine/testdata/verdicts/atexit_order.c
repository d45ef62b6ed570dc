// atexit: the registered functions run in the reverse order of their
// registration when exit is called or main returns (C11 7.22.4.2-3);
// abort runs none of them.
#include "../sv.h"
extern void exit(int);
extern int atexit(void (*)(void));

int trace;

void first(void) {
	assert(trace == 2);                   // want TRUE
	assert(trace != 2);                   // want FALSE
	trace = 3;
}

void second(void) {
	assert(trace == 1);                   // want TRUE
	trace = 2;
}

int main(void) {
	atexit(first);
	atexit(second);
	trace = 1;
	int c = __VERIFIER_nondet_int();
	if (c == 1)
		exit(0);
	if (c == 2)
		abort();
	return 0;
}
