// --entry f with a pointer parameter: a caller outside the program may
// pass any object, here the global g whose address f never takes:
//
//	int main(void) { f(&g); }          // g == 1 at the assertion
//
// so the analyses' assumption that a pointer reaches only objects whose
// address the program takes does not hold: UNKNOWN with the reason.
// entry: f
#include <assert.h>

int g;

int f(int *p) {
	g = 0;
	*p = 1;
	assert(g == 0);                       // want UNKNOWN "entry function parameter p of type int * is not modelled"
	return 0;
}
