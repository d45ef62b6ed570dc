// configs: value value-cegar symex symex-cegar default
// A function without a body may read and write every object with
// external linkage, every object whose address escaped (at this or an
// earlier call, or through a global) and everything reachable from its
// pointer arguments, and may call back every function whose address
// escaped (README, "Semantics"). No assertion below may be TRUE: the
// adversary at the end (extern_test.go links it with gcc) makes each one
// fail, case by case (__VERIFIER_nondet_int returns the case).
// adversary fails: 0 1 2 3 4 5 6 7 8
#include "../sv.h"

extern void *malloc(unsigned long);

int g;
extern int eg;  /* defined in another translation unit */
static int s;
int *gp;
void ext(void);
void ext_keep(int *p);
void ext_later(void);
void ext_fill(int *p);
void ext_call(void (*f)(int));

void cb(int x) {
	assert(x != 42);         // want UNKNOWN
}

int main(void) {
	int which = __VERIFIER_nondet_int();
	if (which == 0) {
		g = 0;
		ext();
		assert(g == 0);      // want UNKNOWN
	} else if (which == 1) {
		eg = 0;
		ext();
		assert(eg == 0);     // want UNKNOWN
	} else if (which == 2) {
		int v;
		ext_keep(&v);
		v = 0;
		ext_later();
		assert(v == 0);      // want UNKNOWN
	} else if (which == 3) {
		int local = 0;
		gp = &local;
		ext();
		assert(local == 0);  // want UNKNOWN
	} else if (which == 4) {
		ext_keep(&s);
		s = 0;
		ext_later();
		assert(s == 0);      // want UNKNOWN
	} else if (which == 5) {
		static int sl;
		ext_keep(&sl);
		sl = 5;
		ext_later();
		assert(sl == 5);     // want UNKNOWN
	} else if (which == 6) {
		int *h = malloc(sizeof(int));
		ext_keep(h);
		*h = 0;
		ext_later();
		assert(*h == 0);     // want UNKNOWN
	} else if (which == 7) {
		int arr[2] = {0, 0};
		ext_fill(arr);
		assert(arr[1] == 0); // want UNKNOWN
	} else if (which == 8) {
		ext_call(cb);
	}
	return 0;
}

/* adversary:
#include <stdlib.h>
static int which_case(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
int __VERIFIER_nondet_int(void) { return which_case(); }
extern int g;
int eg;
extern int *gp;
static int *saved;
void ext(void) {
	switch (which_case()) {
	case 0: g = 1; break;
	case 1: eg = 1; break;
	case 3: *gp = 1; break;
	}
}
void ext_keep(int *p) { saved = p; }
void ext_later(void) { *saved = 1; }
void ext_fill(int *p) { p[1] = 7; }
void ext_call(void (*f)(int)) { f(42); }
*/
