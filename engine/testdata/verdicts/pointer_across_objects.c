// configs: value value-cegar symex-cegar predicate-cegar bmc default
// adversary fails: 1 2 3
// adversary holds: 0 4
// Pointers into two different variables. One past the end of one and
// the start of the other may be one address (C11 6.5.9p6), and gcc lays
// locals side by side: such an equality is either result, so no TRUE
// may rest on it. Relational comparison and subtraction across objects
// are undefined (C11 6.5.8p5, 6.5.6p9) and their results any: no TRUE
// rests on them either, and their error paths need the undefined
// behaviour (UNKNOWN, never FALSE). No FALSE rests on the two lying
// apart either (case 4: gcc lays them side by side, and the assertion
// holds): the replay does not choose a layout. Pointers that can never
// be one address (inside the objects, or the same end) stay decided.
// The adversary runs the gcc-compiled program under each case: 1, 2 and
// 3 fail (b lies just below a), 0 and 4 hold.
#include <assert.h>

int __VERIFIER_nondet_int(void);

int main(void) {
	int a[2] = {0, 0}, b[2] = {0, 0};
	int k = __VERIFIER_nondet_int();
	assert(a + 1 != b + 1 && a + 2 != b + 2 && a != b); // want TRUE
	if (k == 1)
		assert(b + 2 != a && a + 2 != b); // want UNKNOWN
	if (k == 2)
		assert(!(&a[0] > &b[0])); // want UNKNOWN
	if (k == 3)
		assert(&a[0] - &b[0] != 2); // want UNKNOWN
	if (k == 4)
		assert(b + 2 == a); // want UNKNOWN
	return 0;
}

/* adversary:
#include <stdlib.h>
int __VERIFIER_nondet_int(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
*/
