// configs: value value-cegar symex-cegar predicate-cegar default
// What gcc does that the C standard leaves to it: a packed struct has no
// padding (its fields at alignment 1, sizeof and member offsets as gcc
// computes them, in a struct that contains it too), and constructors
// run before main, by priority and then in the order of their
// definitions (doc/semantics.md). extern_test.go compiles the program
// with gcc and runs each case.
// adversary fails: 1 2
// adversary holds: 0
#include "../sv.h"

struct __attribute__((packed)) P { char c; int x; short s; };
struct W { char a; struct P p; };
int g, order;

__attribute__((constructor)) static void first(void) { order = order * 10 + 1; }
__attribute__((constructor(200))) static void second(void) { order = order * 10 + 2; g = 5; }

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		assert(sizeof(struct P) == 7);             // want TRUE
		assert(sizeof(struct W) == 8);             // want TRUE
		struct P p;
		p.x = 0x01020304;
		assert(((unsigned char *)&p)[1] == 4);     // want TRUE
		assert(g == 5 && order == 21);             // want TRUE
	} else if (which == 1) {
		assert(g == 0);                            // want FALSE
	} else {
		struct P q;
		q.s = 7;
		assert(((unsigned char *)&q)[5] != 7);     // want FALSE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
