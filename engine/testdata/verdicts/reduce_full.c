// configs: value value-cegar
// reduce: full
// max-states: 20000
// Size reduction (engine/reduce) before the analyses: a volatile read is
// nondeterministic, so its error path stays FALSE (decided and replayed
// on the original program); a call of a function without a body may
// write the global g, so the call stays in the slice and the assertion
// on g is not proved; a branch on a constant is removed with the error
// call it guards; a long loop outside the slice is removed, which full
// precision alone cannot get through.
#include "../sv.h"
extern void ext(void);
int g;
volatile int port;
int main(void) {
	int mode = 2;
	int r = port;
	if (r == 5)
		reach_error();                    // want FALSE
	g = 0;
	if (mode == 2)
		ext();
	assert(g == 0);                       // want UNKNOWN "unmodelled"
	if (mode != 2)
		reach_error();                    // want TRUE
	int i = 0;
	while (i < 1000000)
		i++;
	assert(mode == 2);                    // want TRUE
	return 0;
}
