// Checked with --entry f: the reproducer's main calls f with the
// counterexample's values of a, b and c; f never uses name, so a null
// pointer stands for it. The program's own main, which the C runtime
// would call, never fails.
#include <assert.h>

int scale(int a, unsigned char b, long long c) {
	int r = a * 2;
	if (a > 1000 && b == 200 && c < -5000000000LL)
		assert(r != 2 * a); // want FALSE
	return r;
}

int f(int a, unsigned char b, long long c, const char *name) {
	return scale(a, b, c) + 1;
}

int main(void) {
	return f(1, 2, 3, "x") == 3 ? 0 : 1;
}
