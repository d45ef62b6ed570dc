// A swap through pointers: the assertion states the wrong order.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
static void swap(int *x, int *y) {
	int t = *x;
	*x = *y;
	*y = t;
}
int main(void) {
	int a = __VERIFIER_nondet_int(), b = a + 0;
	int c = 5, d = 9;
	swap(&c, &d);
	if (a == b)
		__VERIFIER_assert(c == 5);
	return 0;
}
