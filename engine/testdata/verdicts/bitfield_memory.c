// configs: value value-cegar symex-cegar predicate-cegar bmc default
// Bit-fields in memory, as gcc lays them out (x86: from the low bit of
// the first byte): an analysis's counterexample is confirmed by the SMT
// encoding and the concrete replay, which read and write a bit-field's
// bits in the bytes that hold it (a copy of a struct carries which of
// its bits are determinate), and bounded model checking encodes them the
// same way. A bit no store made determinate (u.mid) confirms no
// counterexample. extern_test.go compiles the program with gcc and
// runs each case.
// adversary fails: 1 2 3 5
// adversary holds: 0
#include "../sv.h"

struct R { unsigned lo : 3; signed mid : 5; unsigned hi : 20; unsigned char tail; };
struct R g;

int main(void) {
	int which = __VERIFIER_nondet_int();
	struct R r;
	r.lo = __VERIFIER_nondet_int();
	r.mid = __VERIFIER_nondet_int();
	r.hi = 0xFFFFF;
	r.tail = 9;
	if (which == 0) {
		assert(r.lo <= 7);                         // want TRUE
		assert(r.mid >= -16 && r.mid <= 15);       // want TRUE
		assert(r.hi == 0xFFFFF && r.tail == 9);    // want TRUE
	} else if (which == 1) {
		assert(r.mid != -16);                      // want FALSE
	} else if (which == 2) {
		g.hi = 5;
		g.hi += 0xFFFFF;
		assert(g.hi != 4);                         // want FALSE
	} else if (which == 3) {
		struct R q, c;
		q.mid = __VERIFIER_nondet_int();           // q's other bits stay indeterminate
		c = q;
		assert(c.mid != -16);                      // want FALSE
	} else if (which == 4) {
		struct R u;
		u.lo = 1;
		assert(u.mid != 3);                        // want UNKNOWN
	} else {
		unsigned char *b = (unsigned char *)&r;
		r.lo = 5;
		r.mid = -1;
		assert(b[0] != 0xFD);                      // want FALSE
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
static int k;
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); int w = c ? atoi(c) : 0; return k++ == 0 ? w : -16; }
*/
