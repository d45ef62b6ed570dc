// configs: value value-cegar
// max-states: 20000
// Function inlining (engine/reduce/inline.go) under --reduce full: a
// callee that writes a global, a callee with a loop, a callee whose
// parameter escapes (address taken: stays a call), a callee calling a
// function without a body (its writes stay), recursion and a call
// through a pointer (stay calls) keep their verdicts; an assertion inside
// an inlined callee is decided at each call site. Unreduced, the
// unmodelled ext may call back twice (its address is taken), which
// blocks TRUE; reduced, ext is outside the slice of the first five.
#include "../sv.h"
extern void ext(int *);
int g;
void set(int v) { g = v; }
int count(int n) {
	int c = 0;
	for (int i = 0; i < n; i++)
		c++;
	return c;
}
int through(int x) {
	int *p = &x;
	ext(p);
	return x;
}
int down(int n) { if (n <= 0) return 0; return down(n - 1); }
int twice(int x) { return 2 * x; }
int checked(int x) {
	assert(x != 3);                       // want FALSE
	return x + 1;
}
int main(void) {
	set(4);
	assert(g == 4);                       // want UNKNOWN "callback" reduce:TRUE
	set(__VERIFIER_nondet_int());
	assert(g != 7);                       // want FALSE
	assert(count(5) == 5);                // want UNKNOWN "callback" reduce:TRUE
	assert(down(3) == 0);                 // want UNKNOWN "callback" reduce:TRUE
	int (*fp)(int) = twice;
	assert(fp(3) == 6);                   // want UNKNOWN "callback" reduce:TRUE
	int y = checked(1) + checked(__VERIFIER_nondet_int());
	int t = through(1);
	assert(t == 1);                       // want UNKNOWN "unmodelled"
	return y;
}
