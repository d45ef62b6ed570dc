// configs: k-induction value-cegar default
// Lock-step lock/unlock alternation in the style of SV-COMP's
// test_locks_N: each iteration takes the locks its flags select and
// releases exactly those, so the assertions hold in every iteration from
// any state at the loop head (1-inductive).
#include "../sv.h"

int main(void) {
	int p1 = __VERIFIER_nondet_int();
	int lk1;
	int p2 = __VERIFIER_nondet_int();
	int lk2;
	int cond;
	while (1) {
		cond = __VERIFIER_nondet_int();
		if (cond == 0)
			break;
		lk1 = 0;
		lk2 = 0;
		if (p1 != 0)
			lk1 = 1;
		if (p2 != 0)
			lk2 = 1;
		if (p1 != 0) {
			assert(lk1 == 1);             // want TRUE
			lk1 = 0;
		}
		if (p2 != 0) {
			assert(lk2 == 1);             // want TRUE
			lk2 = 0;
		}
	}
	return 0;
}
