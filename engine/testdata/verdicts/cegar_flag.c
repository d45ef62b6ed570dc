// configs: value value-cegar default predicate-cegar
// max-states: 100000
// A flag set before a long loop and checked after it. The loop bound is an
// input, so with full precision the value analysis unrolls the loop
// (i = 0, 1, 2, ...) until its state limit. CEGAR tracks flag, learnt
// from the error path, and never the counter, so each loop head covers
// itself after one iteration.
#include "../sv.h"

int main(void) {
	int flag;
	if (__VERIFIER_nondet_int())
		flag = 1;
	else
		flag = 2;
	int n = __VERIFIER_nondet_int();
	int sum = 0;
	for (int i = 0; i < n; i++)
		sum += i;
	assert(flag > 0);                     // want TRUE value:UNKNOWN "state limit 100000" reduce:TRUE
	return 0;
}
