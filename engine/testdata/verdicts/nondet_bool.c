// A nondeterministic _Bool is 0 or 1 (C11 6.2.5p2): widened to a wider
// type it is never 2. Found by internal/difftest (nondet_bool_not_0_or_1):
// the counterexample check let the 8-bit input take any byte value, so
// the value analysis reported a FALSE whose reproducer did not reach the
// error.
// configs: value value-cegar symex-cegar default
#include "../sv.h"

extern _Bool __VERIFIER_nondet_bool(void);
extern _Bool nondet_flag(void);        // no body: any _Bool

int main(void) {
	long long x = __VERIFIER_nondet_bool();
	assert(x == 0 || x == 1);             // want TRUE
	assert(x == 0);                       // want FALSE
	unsigned int u = nondet_flag();
	assert(u <= 1);                       // want TRUE
	return 0;
}
