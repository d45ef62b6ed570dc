// A relation between unknown values: explicit values cannot express it (the infeasible path is excluded), symbolic execution can.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int x = __VERIFIER_nondet_int();
	int y = x;
	if (x > 10)
		__VERIFIER_assert(y > 10);
	return 0;
}
