// Reads of lvalues of volatile-qualified type other than variables
// declared volatile (issue 14): each is a nondeterministic value, so
// every assertion that depends on one is FALSE or UNKNOWN, never TRUE.
// A writer the program does not contain (hardware, a signal handler,
// another thread, a debugger) may store any value between the reads;
// C11 5.1.2.3p2 and 6.7.3p7. A volatile read at an address that is no
// object: volatile_mmio.c.
// configs: value value-cegar symex symex-cegar value-slicing-cegar symex-slicing-cegar
#include "../sv.h"

struct S { int a; volatile int b; } s;
volatile int r;
volatile int arr[4];
struct P { int a; int b; };
volatile struct P vs;
typedef volatile unsigned reg_t;
reg_t g;
struct Q { int * volatile vp; int *p; } q;
int x;

void member(void) {
	if (s.b == 7)
		assert(0); // want FALSE
	if (s.a == 7)
		assert(0); // want TRUE
}

void through_pointer(void) {
	volatile int *p = &r;
	if (*p == 7)
		assert(0); // want FALSE
}

void pointer_to_plain(void) {
	int y = 0;
	volatile int *p = &y;
	if (*p == 7)
		assert(0); // want FALSE
	if (y == 7)
		assert(0); // want TRUE
}

void element(void) {
	if (arr[2] == 7)
		assert(0); // want FALSE
}

void volatile_struct(void) {
	if (vs.a == 7)
		assert(0); // want FALSE
	struct P t = vs;
	if (t.b == 7)
		assert(0); // want FALSE
	volatile struct P *vp = &vs;
	if (vp->b == 9)
		assert(0); // want FALSE
}

void typedef_pointee(void) {
	reg_t *p = 0;
	if (p != 0)
		assert(0); // want TRUE
	p = &g;
	if (*p == 7u)
		assert(0); // want FALSE
}

void volatile_pointer_member(void) {
	q.p = &x;
	q.vp = &x;
	if (q.p != &x)
		assert(0); // want TRUE
	if (q.vp != &x)
		assert(0); // want UNKNOWN "nondeterministic pointer"
}

void local(void) {
	volatile int l = 0;
	if (l == 7)
		assert(0); // want FALSE
}

void read_modify_write(void) {
	s.b = 0;
	s.b++;
	if (s.b == 0)
		assert(0); // want FALSE
	int old = s.b++;
	if (old == 7)
		assert(0); // want FALSE
	s.b += 1;
	if (s.b == -5)
		assert(0); // want FALSE
}

void two_reads(void) {
	if (s.b != s.b)
		assert(0); // want FALSE
}

// main runs one case, chosen nondeterministically, so that the cases
// that end in UNKNOWN do not hide the others.
int main(void) {
	switch (__VERIFIER_nondet_int()) {
	case 0: member(); break;
	case 1: through_pointer(); break;
	case 2: pointer_to_plain(); break;
	case 3: element(); break;
	case 4: volatile_struct(); break;
	case 5: typedef_pointee(); break;
	case 6: volatile_pointer_member(); break;
	case 7: local(); break;
	case 8: read_modify_write(); break;
	default: two_reads(); break;
	}
	return 0;
}
