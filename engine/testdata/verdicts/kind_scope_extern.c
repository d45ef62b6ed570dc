// configs: k-induction
// Outside k-induction's scope: touch has no body and may write g (a
// bodiless function may write every global), so the assertion is
// UNKNOWN, never TRUE.
#include "../sv.h"

int g;
extern void touch(void);

int main(void) {
	g = 0;
	while (__VERIFIER_nondet_int()) {
		touch();
		assert(g == 0);                   // want UNKNOWN "call to bodiless function touch"
	}
	return 0;
}
