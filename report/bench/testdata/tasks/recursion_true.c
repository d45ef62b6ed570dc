// Bounded recursion: sum(10) = 55.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
static int sum(int n) {
	if (n <= 0)
		return 0;
	return n + sum(n - 1);
}
int main(void) {
	__VERIFIER_assert(sum(10) == 55);
	return 0;
}
