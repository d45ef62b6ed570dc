// Unsigned wrap-around: x + 1 < x only for UINT_MAX (needs bit-precise reasoning on a nondet value).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	unsigned int x = __VERIFIER_nondet_uint();
	if (x + 1u < x)
		__VERIFIER_assert(x == 4294967295u);
	return 0;
}
