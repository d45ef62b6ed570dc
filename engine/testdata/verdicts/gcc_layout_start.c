// configs: value value-cegar symex-cegar predicate-cegar default
// What gcc does that the C standard leaves to it: a packed struct has no
// padding (its fields at alignment 1, sizeof and member offsets as gcc
// computes them, in a struct that contains it too), constructors run
// before main, by priority and then in the order of their definitions,
// and destructors after main returns (doc/semantics.md). extern_test.go
// compiles the program with gcc and runs each case.
// adversary fails: 1 2 3 4
// adversary holds: 0
#include "../sv.h"

struct __attribute__((packed)) P { char c; int x; short s; };
struct W { char a; struct P p; };
int g, order, flag;

__attribute__((constructor)) static void first(void) { order = order * 10 + 1; }
__attribute__((constructor(200))) static void second(void) { order = order * 10 + 2; g = 5; }
__attribute__((destructor)) static void at_end(void) {
	assert(flag != 3);                                 // want FALSE
}

// The packed objects live outside main: an address-taken local of main
// would make the functions run at exit (the destructor) unsupported.
static unsigned char byte_of_x(int k) {
	struct P p;
	p.x = 0x01020304;
	return ((unsigned char *)&p)[k];
}

static unsigned char byte_of_s(int k) {
	struct P q;
	q.s = 7;
	return ((unsigned char *)&q)[k];
}

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		assert(sizeof(struct P) == 7);             // want TRUE
		assert(sizeof(struct W) == 8);             // want TRUE
		assert(byte_of_x(1) == 4);                 // want TRUE
		assert(g == 5 && order == 21);             // want TRUE
	} else if (which == 1) {
		assert(g == 0);                            // want FALSE
	} else if (which == 3) {
		flag = 3;
	} else {
		assert(byte_of_s(5) != 7);                 // want FALSE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
