// configs: k-induction default
// a and b swap in every iteration and both start at 0: a == 0 at the
// start of an iteration is not 1-inductive (from a == 0 and b == 1 the
// next iteration fails) but 2-inductive (two iterations with a == 0 mean
// b == 0 too). No comparison of the program is an invariant candidate
// that helps, so only k=2 proves it.
#include "../sv.h"

int main(void) {
	int a = 0;
	int b = 0;
	int t;
	while (__VERIFIER_nondet_int()) {
		assert(a == 0);                   // want TRUE k-induction:TRUE "k-induction: proved at k=2" reduce:TRUE
		t = a;
		a = b;
		b = t;
	}
	return 0;
}
