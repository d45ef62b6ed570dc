// Lock discipline over an unbounded loop (the classic CEGAR example): only the lock and the flag matter.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
int main(void) {
	int lock = 0, got = 0, old, fresh;
	unsigned int steps = 0;
	do {
		__VERIFIER_assert(lock == 0);
		lock = 1;
		old = got;
		if (__VERIFIER_nondet_int()) {
			lock = 0;
			got = got + 1;
		}
		fresh = got;
		steps++;
	} while (fresh != old);
	__VERIFIER_assert(lock == 1);
	return 0;
}
