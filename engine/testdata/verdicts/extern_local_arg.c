// configs: value predicate-cegar bmc default
// A function without a body may write through every pointer it is
// passed, a variadic function through its variadic arguments too: the
// locals whose addresses it gets are unknown after the call, whichever
// front end reads the program (clang passes the arguments with the
// noundef attribute). extern_test.go links the bodies below and runs
// each case.
// adversary fails: 1 2
// adversary holds: 0
#include "../sv.h"
extern void fill(int *p);
extern int report(const char *fmt, ...);

int main(void) {
	int a = 7, b = 8;
	fill(&a);
	report("%d", &b);
	assert(a == 7); // want UNKNOWN
	assert(b == 8); // want UNKNOWN
	return 0;
}

/* adversary:
#include <stdarg.h>
#include <stdlib.h>
static int which(void) { const char *c = getenv("CASE"); return c ? atoi(c) : 0; }
void fill(int *p) { if (which() == 1) *p = 1; }
int report(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int *q = va_arg(ap, int *);
	if (which() == 2) *q = 2;
	va_end(ap);
	return 0;
}
*/
