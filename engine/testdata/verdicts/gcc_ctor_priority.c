// configs: value value-cegar symex-cegar predicate-cegar default
// gcc's priority of a constructor or destructor without one is 65535
// (DEFAULT_INIT_PRIORITY): constructor(65535) runs with the constructors
// without a priority, in the order of their definitions, after
// constructor(65534); destructor(65535) runs with the destructors
// without one, in the reverse order of their definitions
// (doc/semantics.md). extern_test.go compiles the program with gcc and
// runs each case.
// adversary fails: 1 2
// adversary holds: 0
#include "../sv.h"

int order, dorder, flag;

__attribute__((constructor)) static void a(void) { order = order * 10 + 1; }
__attribute__((constructor(65535))) static void b(void) { order = order * 10 + 2; }
__attribute__((constructor(65534))) static void c(void) { order = order * 10 + 3; }
__attribute__((constructor)) static void d(void) { order = order * 10 + 4; }
__attribute__((destructor)) static void e(void) {
	dorder = dorder * 10 + 1;
	assert(dorder == 321);                             // want TRUE
	assert(flag != 2);                                 // want FALSE
}
__attribute__((destructor(65535))) static void f(void) { dorder = dorder * 10 + 2; }
__attribute__((destructor)) static void g(void) { dorder = dorder * 10 + 3; }

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		assert(order == 3124);                     // want TRUE
	} else if (which == 1) {
		assert(order != 3124);                     // want FALSE
	} else {
		flag = 2;
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
