// configs: value value-cegar symex symex-cegar default
// A proof harness in the CBMC/ESBMC dialect, unedited: nondet_<type>()
// (declared or not) and any function without a body named nondet_* give
// nondeterministic values, __CPROVER_assume constrains them,
// __CPROVER_assert(c, "msg") is a property described by msg, malloc may
// return NULL (CBMC's default, on because the file uses __CPROVER_), and
// __CPROVER_max_malloc_size is the largest block the memory model holds.
#include <stdlib.h>
#include <stddef.h>

int nondet_int(void);
long nondet_length(void); /* any function without a body named nondet_* */

int main(void) {
	int x = nondet_int();
	unsigned char c = nondet_uchar();
	size_t n = nondet_size_t();
	__CPROVER_assume(x > 0 && x < 100);
	__CPROVER_assert(x != 0, "x is positive");   // want TRUE
	__CPROVER_assert(x != 50, "x is not fifty"); // want FALSE
	__CPROVER_assert(c <= 255, "uchar range");   // want TRUE
	long len = nondet_length();
	__CPROVER_assume(len >= x);
	__CPROVER_assert(len > 0, "length positive"); // want TRUE
	__CPROVER_assert(len > 1, "length above one"); // want FALSE
	__CPROVER_assume(n > 0 && n <= __CPROVER_max_malloc_size);
	__CPROVER_assert(n < ((size_t)1 << 40), "size bounded"); // want TRUE
	int *p = malloc(sizeof(int));
	__CPROVER_assert(p != NULL, "malloc may fail"); // want FALSE
	if (p != NULL) {
		*p = x;
		__CPROVER_assert(*p == x, "stored"); // want TRUE
	}
	return 0;
}
