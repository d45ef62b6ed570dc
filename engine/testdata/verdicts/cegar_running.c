// configs: value value-cegar default predicate-cegar
// max-states: 100000
// The running example of seed 000 (figure 1, sections 1, 2.4 and 2.5):
// a first loop counts x down, y := 1, the error needs x < 0 && y < 0, and
// otherwise a second loop runs driven by y and w. Full precision unrolls
// the second loop (y = 1, 2, 3, ... while y < w, w unknown) until the
// state limit. Value CEGAR learns y := 1 at the locations between the
// assignment and the test y < 0 (location scope), never inside the
// second loop, which then covers itself.
#include "../sv.h"

int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = 1;
	int w = __VERIFIER_nondet_int();
	while (x > 0)
		x = x - 1;
	w = w + 1;
	w = w * 2;
	if (x < 0 && y < 0)
		reach_error();                    // want TRUE value:UNKNOWN "state limit 100000" reduce:TRUE
	else
		while (y < w)
			y = y + 1;
	return 0;
}
