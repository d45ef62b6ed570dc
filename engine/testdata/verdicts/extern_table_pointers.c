// configs: value symex-cegar bmc default
// An extern object that no source defines, too large to give each of
// its scalars an input, and holding pointers: where a pointer from
// outside the program points is not enumerable, so its contents are an
// unsupported construct (doc/semantics.md), never arbitrary bytes. The
// adversary at the end (extern_test.go links it with gcc) makes the
// assertion fail.
// adversary fails: 0
#include "../sv.h"

extern int *handlers[300];

int main(void) {
	assert(handlers[7] == 0);  // want UNKNOWN
	return 0;
}

/* adversary:
static int x;
int *handlers[300] = {[7] = &x};
int __VERIFIER_nondet_int(void) { return 0; }
*/
