// The assertions depend on main's parameters only: argc is an input, and
// a reproducer must run main with the counterexample's argc (the C
// runtime's argc, 1, passes every assertion). argv is never read.
#include <assert.h>

int main(int argc, char **argv) {
	int n = 0;
	for (int i = 1; i < argc; i++)
		n += 2;
	if (argc > 2)
		assert(n != 6); // want FALSE
	return 0;
}
