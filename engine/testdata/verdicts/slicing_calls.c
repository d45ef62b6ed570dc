// configs: symex-slicing symex-slicing-cegar value-slicing-cegar
// max-states: 3000
// Soundness of the slicing CPA around calls: a callee whose edges are in
// the slice through one call site runs at another call site whose Call
// edge is outside the slice (it is then removed as a whole, not run with
// stale values), a callee that may not return (__VERIFIER_assume), calls
// through a function pointer, and a write through a pointer the
// points-to analysis cannot resolve (an integer cast to a pointer: never
// TRUE; the counterexample check cannot encode the cast, so UNKNOWN as
// under every configuration). Every other violation stays FALSE with a
// confirmed counterexample.
#include "../sv.h"

extern long __VERIFIER_nondet_long(void);

int g;
int f(int p) {
	if (g > 0)
		return 1;
	return 0;
}
void need_positive(void) { __VERIFIER_assume(g > 0); }
void s1(void) { g = 1; }
void s2(void) { g = 2; }

int main(void) {
	int c = __VERIFIER_nondet_int();
	if (c == 0) {
		g = 1;
		int a = f(0);
		g = -1;
		int b = f(0);
		assert(a == 1);                   // want TRUE
		assert(b == 1);                   // want FALSE
	} else if (c == 1) {
		g = __VERIFIER_nondet_int();
		need_positive();
		int x = __VERIFIER_nondet_int();
		if (x == 5)
			g = 0;
		assert(g > 0);                    // want FALSE
	} else if (c == 2) {
		void (*fp)(void) = __VERIFIER_nondet_int() ? s1 : s2;
		fp();
		assert(g == 1);                   // want FALSE
	} else if (c == 4) {
		int a = 1;
		long n = (long)&a;
		int *p = (int *)n;
		*p = 2;
		assert(a == 1);                   // want UNKNOWN "cannot encode integer-to-pointer cast"
	} else {
		g = 3;
		need_positive();
		assert(g == 3);                   // want TRUE
	}
	return 0;
}
