// configs: value value-cegar symex-cegar predicate-cegar bmc default
// An extern object that no source defines and that has too many scalars
// to give each an input of its own (a lookup table of thousands of
// bytes, a large struct) holds arbitrary bytes, every byte an input
// (doc/semantics.md): what its definition elsewhere may give it (one
// that holds pointers stays an unsupported construct:
// extern_table_pointers.c). A program that only takes such a table's
// address is decided as if it had none. The adversary at the end
// (extern_test.go links it with gcc) defines the tables: the FALSE
// assertions fail, the TRUE ones hold (__VERIFIER_nondet_int returns
// the case).
// adversary fails: 0 1
// adversary holds: 2 3
#include "../sv.h"

extern const unsigned char rej_table[4096];
struct big { int coeff[300]; short tail; };
extern struct big params;

int main(void) {
	int which = __VERIFIER_nondet_int();
	const unsigned char *t = rej_table;
	if (which == 0) {
		assert(rej_table[2049] != 7);  // want FALSE
	} else if (which == 1) {
		assert(params.coeff[299] + params.tail != 3);  // want FALSE
	} else if (which == 2) {
		assert(t == rej_table && t + 4096 == &rej_table[4096]);  // want TRUE
	} else {
		unsigned char c = rej_table[4095];
		assert(c <= 255 && (int)params.tail >= -32768);  // want TRUE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
static int which_case(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
int __VERIFIER_nondet_int(void) { return which_case(); }
const unsigned char rej_table[4096] = {[2049] = 7};
struct big { int coeff[300]; short tail; };
struct big params = {.coeff = {[299] = 1}, .tail = 2};
*/
