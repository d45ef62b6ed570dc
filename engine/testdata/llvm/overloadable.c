// C that only clang accepts: __attribute__((overloadable)) gives two
// functions one name (clang mangles them as C++ would). The built-in
// front end rejects the second definition as a conflicting type; the
// LLVM front end (--frontend clang) verifies the program.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

static int __attribute__((overloadable)) scale(int x) { return 2 * x; }
static long __attribute__((overloadable)) scale(long x) { return 3 * x; }
static unsigned char __attribute__((overloadable)) scale(unsigned char x) { return (unsigned char)(x << 1); }

int main(void) {
	int n = __VERIFIER_nondet_int();
	if (n < -1000 || n > 1000)
		return 0;
	assert(scale(n) == 2 * n);               // want TRUE
	assert(scale((long)n) == 3L * n);        // want TRUE
	unsigned char c = (unsigned char)n;
	assert(scale(c) == (unsigned char)(2 * c)); // want TRUE
	assert(scale(c) < 255);                  // want TRUE
	assert(scale(n) != 2000);                // want FALSE
	return 0;
}
