// Array initialisation in a loop, read back.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = i * i;
	int k = __VERIFIER_nondet_int();
	if (k >= 0 && k < 16)
		__VERIFIER_assert(a[k] == k * k);
	return 0;
}
