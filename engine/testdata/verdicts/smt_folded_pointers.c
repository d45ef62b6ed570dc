// configs: value symex default
// The SMT encoding substitutes the path's definitions into a pointer
// before it asks which object the pointer designates (smt, folded): a
// pointer variable the path assigns one object is that object for the
// string functions, and an integer variable holding 0 cast to a pointer
// is NULL. Before, both made the counterexample check fail ("through a
// pointer to several objects", "integer-to-pointer cast"), so these
// FALSEs were UNKNOWN. strncmp and memcmp with a constant bound read
// that many bytes of a block of symbolic size (reading past its end is
// undefined behaviour, which the check excludes); strlen on such a block
// unrolls 64 bytes, and a longer string has any length of at least 64,
// which no counterexample may rest on. strcpy into a block of symbolic
// size writes the source's bytes, and past the block's end is undefined
// behaviour.
#include <stdlib.h>
#include <string.h>

int nondet_int(void);
size_t nondet_size_t(void);

int main(void) {
	char a[4] = "abc";
	const char *p = a;
	const char *q = "abd";
	if (nondet_int())
		q = "abc";
	if (nondet_int())
		__CPROVER_assert(strncmp(p, q, 3) != 0, "may be equal"); // want FALSE
	long z = 0;
	int x = 5;
	int *r = (int *)z;
	if (nondet_int())
		r = &x;
	__CPROVER_assert(r == 0, "null from an integer"); // want FALSE
	size_t n = nondet_size_t();
	__CPROVER_assume(n >= 4 && n < 100);
	char *b = malloc(n);
	__CPROVER_assume(b != 0);
	b[0] = 'x';
	b[1] = '\r';
	b[2] = '\n';
	b[3] = 'y';
	if (nondet_int())
		__CPROVER_assert(strncmp(b, "x\r\n", 3) != 0, "symbolic size, constant bound"); // want FALSE
	__CPROVER_assert(n != 4 || strncmp(b + 2, "\ny\r", 3) != 0, "past the end"); // want UNKNOWN "undefined behaviour"
	b[2] = 0;
	if (nondet_int())
		__CPROVER_assert(strlen(b) != 2, "strlen on a block of symbolic size"); // want FALSE
	__CPROVER_assert(strlen(b) == 2, "length two"); // want TRUE
	char *c = malloc(n);
	__CPROVER_assume(c != 0);
	strcpy(c, "abc");
	__CPROVER_assert(strlen(c) == 3, "a NUL within the unrolled bytes"); // want TRUE
	if (nondet_int())
		__CPROVER_assert(c[2] != 'c', "copied into a block of symbolic size"); // want FALSE
	size_t k = nondet_size_t();
	__CPROVER_assume(k >= 1 && k < 4);
	char *s = malloc(k);
	__CPROVER_assume(s != 0);
	if (nondet_int()) {
		strcpy(s, "abc");
		__CPROVER_assert(0, "after a copy past the block"); // want UNKNOWN "undefined behaviour"
	}
	size_t m = nondet_size_t();
	__CPROVER_assume(m >= 1 && m < 1000);
	char *d = malloc(m);
	__CPROVER_assume(d != 0);
	d[m - 1] = 0;
	if (nondet_int())
		__CPROVER_assert(strlen(d) < 100, "long string"); // want UNKNOWN
	return 0;
}
