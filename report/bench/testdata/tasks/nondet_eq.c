// One input value out of 2^32 reaches the error: found by the SMT check, not by enumeration.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = x * 3 + 1;
	if (y == 127)
		reach_error();
	return 0;
}
