// configs: k-induction default
// a and b swap in every iteration and both start at 0: a == 0 at the
// start of an iteration is not 1-inductive (from a == 0 and b == 1 the
// next iteration fails) but 2-inductive (two iterations with a == 0 mean
// b == 0 too). The swap is by exclusive or, which Karr's analysis does
// not read (an assignment by t = a would give the candidate b == 0), and
// no comparison of the program is a candidate that helps, so only k=2
// proves it.
#include "../sv.h"

int main(void) {
	int a = 0;
	int b = 0;
	while (__VERIFIER_nondet_int()) {
		assert(a == 0);                   // want TRUE k-induction:TRUE "proved at k=2" reduce:TRUE
		a = a ^ b;
		b = a ^ b;
		a = a ^ b;
	}
	return 0;
}
