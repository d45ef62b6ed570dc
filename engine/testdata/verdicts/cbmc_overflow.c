// configs: value value-cegar symex symex-cegar default
// CBMC's __CPROVER_overflow_plus/minus/mult(a, b): whether a op b, in the
// type of the usual arithmetic conversions of a and b, leaves that type's
// range (engine/frontend, overflowCheck; every width and signedness is
// checked against gcc's __builtin_*_overflow by TestCBMCOverflowAgainstGCC).
// aws-c-common's math.cbmc.inl saturates and checks sizes with them.
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

int nondet_int(void);
long nondet_long(void);
unsigned nondet_unsigned(void);
unsigned char nondet_uchar(void);
size_t nondet_size_t(void);

int main(void) {
	size_t a = nondet_size_t();
	__CPROVER_assume(a <= 16);
	if (__CPROVER_overflow_plus(SIZE_MAX - 15, a)) {
		__CPROVER_assert(a == 16, "unsigned plus wraps only past the top"); // want TRUE
	}
	__CPROVER_assert(!__CPROVER_overflow_plus(SIZE_MAX - 15, a), "size plus can wrap"); // want FALSE
	int x = nondet_int();
	__CPROVER_assume(x >= INT_MAX - 3);
	__CPROVER_assert(__CPROVER_overflow_plus(x, 4), "int plus 4 overflows"); // want TRUE
	__CPROVER_assert(__CPROVER_overflow_plus(x, 3), "int plus 3 overflows"); // want FALSE
	// unsigned char operands are promoted to int: their product never overflows
	unsigned char c = nondet_uchar(), d = nondet_uchar();
	__CPROVER_assert(!__CPROVER_overflow_mult(c, d), "promoted to int"); // want TRUE
	unsigned u = nondet_unsigned();
	__CPROVER_assert(!__CPROVER_overflow_minus(u, 1u), "unsigned minus wraps below 0"); // want FALSE
	int y = nondet_int();
	__CPROVER_assume(y < 0);
	__CPROVER_assert(!__CPROVER_overflow_minus(0, y), "0 minus INT_MIN overflows"); // want FALSE
	long l = nondet_long();
	if (__CPROVER_overflow_mult(l, -1L)) {
		__CPROVER_assert(l == LONG_MIN, "only LONG_MIN times -1 overflows"); // want TRUE
	}
	// aws_mul_size_saturating
	size_t m = nondet_size_t();
	__CPROVER_assume(m <= 4);
	size_t s = __CPROVER_overflow_mult(m, (size_t)1 << 62) ? SIZE_MAX : m << 62;
	__CPROVER_assert((s == SIZE_MAX) == (m == 4), "saturates exactly at 4"); // want TRUE
	__CPROVER_assert(s != SIZE_MAX, "never saturates"); // want FALSE
	return 0;
}
