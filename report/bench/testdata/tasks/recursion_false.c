// Recursion on a nondet argument: the assertion fails for n = 7.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
static int fib(int n) {
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}
int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < 0 || n > 8)
		return 0;
	__VERIFIER_assert(fib(n) != 13);
	return 0;
}
