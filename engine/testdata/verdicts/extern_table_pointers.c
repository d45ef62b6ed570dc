// configs: value symex-cegar bmc default
// An extern object that no source defines, too large to give each of
// its scalars an input, and holding pointers: where a pointer from
// outside the program points is not enumerable, so its contents are an
// unsupported construct (doc/semantics.md), never arbitrary bytes; so
// is one with a flexible array member, whose elements its definition
// elsewhere gives past the type's size. The adversary at the end
// (extern_test.go links it with gcc) makes each assertion fail
// (__VERIFIER_nondet_int returns the case).
// adversary fails: 0 1
#include "../sv.h"

extern int *handlers[300];
struct blob { int n; int pad[300]; int data[]; };
extern struct blob blob;

int main(void) {
	if (__VERIFIER_nondet_int() == 0) {
		assert(handlers[7] == 0);  // want UNKNOWN
	} else {
		assert(blob.data[0] == 0);  // want UNKNOWN
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
static int which_case(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
int __VERIFIER_nondet_int(void) { return which_case(); }
static int x;
int *handlers[300] = {[7] = &x};
struct blob { int n; int pad[300]; int data[]; };
struct blob blob = {1, {0}, {5}};
*/
