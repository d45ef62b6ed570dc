// The entry function is static: no harness in another file can call it,
// so the FALSE verdict has no reproducer and results.json says why.
#include <assert.h>

static int f(int x) {
	assert(x != 42); // want FALSE
	return x;
}

int main(void) {
	return f(1);
}
