// Writes through pointers to locals and array elements.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int a = 1, b[4] = {0, 0, 0, 0};
	int *p = &a, *q = &b[2];
	*p = 7;
	*q = a + 1;
	__VERIFIER_assert(a == 7 && b[2] == 8 && b[1] == 0);
	return 0;
}
