// configs: predicate-cegar value-cegar symex-cegar
// max-states: 20000
// Programs on which an abstraction over mathematical integers would
// prove a wrong TRUE: bit-vector wrap-around (c >= 250 would be an
// invariant), C division truncating towards zero (-7 / 2 == -3, then
// -1, then 0; floor division stays at -1) and a write through a pointer
// into an array.
#include "../sv.h"

int main(void) {
	if (__VERIFIER_nondet_int()) {
		unsigned char c = 250;
		while (__VERIFIER_nondet_int())
			c = c + 1;
		assert(c != 0);                   // want FALSE
	} else if (__VERIFIER_nondet_int()) {
		int x = -7;
		while (__VERIFIER_nondet_int())
			x = x / 2;
		assert(x != 0);                   // want FALSE
	} else {
		int a[4] = {0, 0, 0, 0};
		int *p = &a[1];
		int k = 0;
		while (k < 2) {
			p[k] = 7;
			k++;
		}
		assert(a[0] == 0);                // want TRUE
		assert(a[3] != 0);                // want FALSE
	}
	return 0;
}
