// An irrelevant counter grows without bound: value and symex run out of states, CEGAR abstracts it away.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int flag = 0;
	unsigned int n = 0;
	while (__VERIFIER_nondet_int()) {
		n++;
		flag = 1;
	}
	if (n > 0)
		__VERIFIER_assert(flag == 1);
	return 0;
}
