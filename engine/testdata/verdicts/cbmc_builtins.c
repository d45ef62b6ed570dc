// configs: symex value
// gcc's bit-counting builtins (__builtin_popcount/parity/clz/ctz and
// their l/ll forms) and checked arithmetic (__builtin_add/sub/mul_overflow)
// are lowered exactly (checked against gcc in TestBuiltinsAgainstGCC).
// clz and ctz of 0 are undefined: that branch is an Unsupported edge
// naming the call: a program where the analysis reaches it has no TRUE
// (the value analysis cannot exclude it here; symbolic execution excludes
// it by the path condition; cbmc_unsupported.c). The adversarial cases: a power of two has one bit set
// (TRUE), a wrapped sum is reported as an overflow (FALSE, confirmed by
// the replay).
unsigned nondet_uint(void);
unsigned char nondet_uchar(void);
int nondet_int(void);

int main(void) {
	unsigned x = nondet_uint();
	__CPROVER_assume(x != 0 && (x & (x - 1)) == 0);
	__CPROVER_assert(__builtin_popcount(x) == 1, "power of two"); // want TRUE value:UNKNOWN "__builtin_c"
	__CPROVER_assert(__builtin_ctz(x) + __builtin_clz(x) == 31, "one bit"); // want TRUE value:UNKNOWN "__builtin_c"
	if (nondet_int())
		__CPROVER_assert(__builtin_ctz(x) != 20, "bit 20"); // want FALSE
	unsigned char a = nondet_uchar(), b = nondet_uchar();
	unsigned r;
	__CPROVER_assert(!__builtin_mul_overflow(a, b, &r) && r == a * b, "no wrap"); // want TRUE value:UNKNOWN "__builtin_c"
	unsigned s = nondet_uint();
	if (nondet_int())
		__CPROVER_assert(!__builtin_add_overflow(s, 1u, &r), "sum fits"); // want FALSE
	return 0;
}
