// configs: symex-slicing symex-slicing-cegar value-slicing-cegar
// Figure 21 of seed 000 (section 3.3), rebuilt from the prose: x := 0,
// then a branch on x < 0 whose true side is the short way to the error
// call and whose false side the long one. With the empty slice the
// first error path found is the short one, infeasible on the full
// program. Target-path slicing adds the slice of its assume edges, which
// holds x := 0, so the next run refutes x < 0 and finds the feasible path
// (FALSE, a valid counterexample). Target-location slicing adds only the
// slice of the error call, finds the same infeasible path again and
// makes no progress (engine/slicing_test.go, TestSlicingFigure21).
#include "../sv.h"

int main(void) {
	int x = 0;
	if (x < 0)
		goto err;
	x = x + 1;
	x = x + 1;
err:
	reach_error();                        // want FALSE
	return 0;
}
